"""The UI's Kivy-free logic, without a window."""
from __future__ import annotations

import json
from types import SimpleNamespace as NS

import pytest

from companion.ui.games.tyranny.layout import grid_layout, ring
from companion.ui.presenters.devices import DevicesModel
from companion.ui.presenters.dice import DiceModel
from companion.ui.presenters.end import EndModel
from companion.ui.presenters.gate import GateModel
from companion.ui.presenters.home import format_duration, rows, stats_lines
from companion.ui.presenters.palette import UnknownPalette, load_palette, palette_names, rgba
from companion.ui.presenters.settings import Settings, SettingsError
from companion.ui.presenters.setup import SetupModel
from companion.ui.presenters.track import TrackModel, signed
from companion.ui.registry import NoScreenForGame, game_screens, screen_for
from rules.core import Prompt, RollRequest
from rules.tyranny.board import default_board, parse_board


# ------------------------------------------------------------------ palettes

def test_every_palette_gives_each_faction_a_colour_a_glyph_and_a_name():
    for name, _title in palette_names():
        p = load_palette(name)
        glyphs = set()
        for f in ("cops", "criminals", "dynasty", "liberation"):
            assert p.faction(f).startswith("#")
            assert p.glyph(f) and p.label(f).endswith(f.title())
            glyphs.add(p.glyph(f))
        assert len(glyphs) == 4  # never colour alone: each faction its own glyph


def test_every_faction_of_every_game_has_its_own_colour_in_every_palette():
    # By the colour key its game gives it (factions.json's "colour"), never by its id:
    # Outrage's "red" is "piece-red", Against All Tyrants' attacker borrows "cops".
    from rules import facts, registry

    games = [info.id for info in registry.catalog()]
    assert {"against_all_tyrants", "outrage", "tyranny"} <= set(games)
    for name, _title in palette_names():
        p = load_palette(name)
        for game_id in games:
            for fid, f in facts.factions(game_id).items():
                assert f.colour != "neutral" and f.colour in p.factions, (name, game_id, fid, f.colour)
                assert p.faction_colour(fid) == p.factions[f.colour], (name, game_id, fid)
                assert p.faction(fid) == p.factions[f.colour], (name, game_id, fid)


def test_default_palette_is_the_colour_blind_safe_one():
    assert palette_names()[0][0] == "okabe-ito"
    with pytest.raises(UnknownPalette):
        load_palette("rainbow")


def _luminance(hex_colour: str) -> float:
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b, _ = rgba(hex_colour)
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


@pytest.mark.parametrize("name", [n for n, _ in palette_names()])
def test_text_is_legible_on_every_palette(name):
    p = load_palette(name)
    lo, hi = sorted((_luminance(p.colour("text")), _luminance(p.colour("bg"))))
    assert (hi + 0.05) / (lo + 0.05) >= 7  # WCAG AAA for body text


# ------------------------------------------------------------------ settings

def test_settings_round_trip_and_survive_a_damaged_file(tmp_path):
    path = tmp_path / "s.json"
    Settings().with_changes(palette="high-contrast", text_scale=1.6, keep_awake=False).save(path)
    s = Settings.load(path)
    assert (s.palette, s.text_scale, s.keep_awake) == ("high-contrast", 1.6, False)
    path.write_text("{not json", encoding="utf-8")
    assert Settings.load(path) == Settings()
    path.write_text(json.dumps({"palette": "nope"}), encoding="utf-8")
    assert Settings.load(path) == Settings()
    with pytest.raises(SettingsError):
        Settings(text_scale=0.1)


# ------------------------------------------------------------------ registry

def test_game_screens_are_named_by_the_plugin_cards():
    assert game_screens()["tyranny"].target.endswith(":TyrannyScreen")
    with pytest.raises(NoScreenForGame):
        screen_for("chess")


# ------------------------------------------------------------------ the map

def test_ring_covers_the_border_once():
    for n in range(2, 9):
        cells = ring(n)
        assert len(cells) == len(set(cells)) == 4 * (n - 1)
        assert all(c in (0, n - 1) or r in (0, n - 1) for c, r in cells)


def test_default_board_fills_two_rings_of_a_7x7_grid_without_overlap():
    b = default_board()
    g = grid_layout(b)
    assert g.size == 7
    assert len(set(g.cells.values())) == len(b.tiles) == 40
    # Forward order goes clockwise: each outer tile is next to the one before it.
    outer = b.tiers["outer"]
    for a, c in zip(outer, outer[1:]):
        (x1, y1), (x2, y2) = g.cells[a], g.cells[c]
        assert abs(x1 - x2) + abs(y1 - y2) == 1


def test_a_table_board_of_another_size_is_laid_out_without_overlap():
    data = json.loads(json.dumps(default_board().data))
    data["tiers"]["inner"] = data["tiers"]["inner"] + [{"id": f"i-extra-{i}", "name": "Street", "kind": "street"} for i in range(14)]
    b = parse_board(data)
    g = grid_layout(b)
    assert len(set(g.cells.values())) == len(b.tiles)


# ------------------------------------------------------------------ setup

def test_setup_offers_every_option_with_its_ruling_and_checks_with_the_engine():
    m = SetupModel.for_game("tyranny")
    names = {o.name for o in m.option_choices()}
    assert {"streak_turn", "move", "cop_collapse", "cop_escape_pay", "switch_tier", "neutralise"} <= names
    assert all(o.ruling for o in m.option_choices())
    assert m.seat_counts() == [2, 4]
    m.set_seat_count(4)
    m.set_faction(1, "cops")
    assert any("same number" in p for p in m.check())
    m.set_faction(1, "criminals")
    assert m.check() == []
    m.rename(0, "  Ann  ")
    assert m.named_seats()[0]["name"] == "Ann" and m.named_seats()[1]["name"] == "Player 2"
    with pytest.raises(ValueError):
        m.set_option("move", "teleport")


def test_setup_for_liberation_and_clock_presets():
    m = SetupModel.for_game("liberation")
    assert [s["faction"] for s in m.seats] == ["dynasty", "liberation"]
    assert m.check() == []
    presets = dict(m.clock_presets())
    assert presets[""] == "No clocks: play at your own pace" and len(presets) > 3
    assert presets["Blitz 5+3"] == "Fischer: 5:00 each, +3 s after each move. Out of time loses."
    m.clock = next(k for k in presets if k)
    assert m.clock_config() is not None


def _ble_devices() -> DevicesModel:
    """A devices panel that knows a Pixel (online), a GoDice (gone offline) and a hub."""
    from firmware_bridge.events import DeviceOffline, DeviceOnline

    m = DevicesModel()
    m.record(DeviceOnline(device="pixels-de4000", kind="pixels", t=1.0, faces=(6,)))
    m.record(DeviceOnline(device="godice-000002", kind="godice", t=1.0, faces=(6,)))
    m.record(DeviceOffline(device="godice-000002", reason="disconnected", t=2.0))
    m.record(DeviceOnline(device="hub1", kind="hub", t=1.0, faces=(6, 6)))
    m.record_status(NS(device="pixels-de4000", name="Demo Pixel", color=""))
    m.record_status(NS(device="godice-000002", name="GoDice_000002_K_v04", color="blue"))
    return m


def test_the_wizard_names_each_die_as_the_dice_tray_does_never_by_its_source():
    from companion.ui.presenters.dice import live_dice

    devices = _ble_devices()
    m = SetupModel.for_game("tyranny")
    dice = m.known_dice(devices)
    assert [source for source, _ in dice] == devices.dice()  # what the wizard gives to seats
    names = dict(dice)
    assert names == {"pixels-de4000/0": "The Pixel “Demo Pixel”", "godice-000002/0": "The blue GoDice",
                     "hub1/0": "Hub1 die 1", "hub1/1": "Hub1 die 2"}
    # One naming: the tray's own (live_dice), for the dice it hears now.
    tray = {d.source.removeprefix("die:"): d.name for d in live_dice(devices, {})}
    assert {s: n.lower() for s, n in names.items() if s in tray} == {s: n.lower() for s, n in tray.items()}
    m.assign("pixels-de4000/0", "cops-1")
    dice_line = next(line for line in m.summary() if line.startswith("Dice: "))
    assert dice_line == "Dice: The Pixel “Demo Pixel” → Player 1", dice_line
    assert "pixels-de4000" not in "\n".join(m.summary())


def test_the_devices_card_says_a_wrong_shell_with_the_dice_name_not_its_id():
    from firmware_bridge.ble.errors import WrongShellError
    from companion.ui.presenters.devices import ble_card

    paired = {"godice-000002": NS(device="godice-000002", kind="godice", address="AA:02", name="GoDice_000002_K_v04",
                                  seat="cops-1", shell="D6")}
    st = NS(online=True, die_type="D6", name="GoDice_000002_K_v04", color="blue", battery=70, battery_low=False,
            charging=False, value=None, label="", state="unknown",
            warning=str(WrongShellError("godice-000002", "D6", "D20")))
    link = NS(found=[], paired=paired, error="", message="", scanning=False, simulated=False, scanned=True,
              counters=lambda: "1 paired, 1 online", source=object())
    line = ble_card(link, {"godice-000002": st}, {"cops-1": "Ann"}).dice[0]
    assert line.warning.startswith("Ann's blue GoDice is set to the D6 shell, but it reads like a D20 shell"), line.warning
    assert "godice-000002" not in line.warning


def test_the_phone_badge_names_each_seat_with_a_phone_attached():
    from companion.ui.presenters.phones import PHONE, badge, phones_line, with_phones
    from tests.ui.font_cmap import characters
    from pathlib import Path

    import companion.ui

    font = Path(companion.ui.__file__).parent / "data" / "fonts" / "TabletopSans.ttf"
    cmap = characters(str(font))
    assert all(ord(c) in cmap for c in PHONE), "the badge's glyph is in the shipped font"
    seats = [("cops-1", "Ann"), ("criminals-1", "Bob")]
    assert phones_line(seats, frozenset()) == ""
    assert with_phones("Bob (◆ Criminals): roll to move", phones_line(seats, {"criminals-1"})) == \
        "Bob (◆ Criminals): roll to move\n☎ Bob's phone attached"
    assert phones_line(seats, {"criminals-1", "cops-1"}) == "☎ phones attached: Ann, Bob"  # turn order
    assert badge("▲ Ann", True).startswith(PHONE) and badge("▲ Ann", False) == "▲ Ann"


# ------------------------------------------------------------------ widgets' models

def test_gate_opens_only_after_a_full_hold_and_hides_itself():
    g = GateModel(hold_s=1.0, auto_hide_s=5.0)
    assert g.tick(0.0) is None and g.phase == "idle"
    g.press(0.0)  # pressing before a seat is asked for does nothing
    assert g.phase == "idle"
    g.request("a", "A")
    g.press(1.0)
    assert g.tick(1.99) is None
    g.release(1.99)
    assert g.phase == "waiting" and g.tick(5.0) is None
    g.press(10.0)
    assert g.tick(11.0) == "open" and g.tick(11.5) is None
    assert g.seconds_left(12.0) == pytest.approx(4.0)
    assert g.tick(16.0) == "closed" and g.phase == "idle" and g.seat == ""


def test_dice_model_manual_entry_and_crooked_accept():
    m = DiceModel()
    assert m.manual(3) is None  # nothing awaited
    m.set_awaiting(Prompt.single("p1", RollRequest.of(2, 6, "move")), "P")
    assert m.manual(7) is None and m.manual(2) is None
    roll = m.manual(5)
    assert roll.values == (2, 5) and roll.seat == "p1" and roll.source == "touch"
    ev = NS(source="die:hub1/0", value=6, outcome="crooked", confidence=0.8)
    m.on_rolled(ev, NS(accepted=None, rejected=NS(code="crooked-die", message="cocked"), ignored=None))
    acc = m.accept_action()
    assert acc.values == (6,) and acc.source == "die:hub1/0"
    m.on_rolled(NS(source="die:hub1/1", value=2, outcome="rolled", confidence=1.0),
                NS(accepted=None, rejected=NS(code="roll-not-awaited", message="No roll is awaited."), ignored=None))
    assert m.dice["die:hub1/1"].state == "rejected" and "No roll is awaited." in m.last


def test_track_model_history_and_deltas():
    t = TrackModel("x")
    t.reset([(0, 500), (1, 500), (2, 600), (3, 0)])
    assert t.recent_deltas() == ["+100", "−600"]
    assert t.update(0, 3) is None and t.history[-1] == (3, 0)
    assert signed(0) == "±0"
    assert t.points(10, 10)[-1] == (10.0, 0.0)


def test_end_model_without_a_winner():
    e = EndModel("liberation", NS(winner=None, reason="", scores={}, winning_seats=()), {}, {})
    assert e.headline == "A draw" and e.chart_points(10, 10) == []
    assert not e.has_chart  # a game with no tracked value (Liberation) shows no influence chart
    assert EndModel("tyranny", None, {}, {"influence_history": [[0, 500], [1, 600]]}).has_chart
    # Liberation charts nothing, whatever its view holds
    assert not EndModel("liberation", None, {}, {"influence_history": [[0, 500], [1, 600]]}).has_chart
    # a game with nothing to chart still gives the (hidden) chart an axis
    assert EndModel("liberation", None, {}, {}).axis() == (0, 0, 0, 1)


def test_every_clock_event_the_screen_announces_names_the_seat_and_says_what_happened():
    from companion.clocks import ClockEvent, EventKind, OvertimePolicy
    from companion.ui.presenters.clock_alerts import alerts_for

    names = {"cop-1": "Ann"}
    events = [ClockEvent(EventKind.WARNING, "cop-1", 20.0), ClockEvent(EventKind.OVER_TIME, "cop-1", 0.0, OvertimePolicy.PENALTY),
              ClockEvent(EventKind.PENALTY, "cop-1", -5.0, minute=1, points=1),
              ClockEvent(EventKind.PERIOD_USED, "cop-1", 30.0, periods_left=2), ClockEvent(EventKind.TURN_OVER, "cop-1", 0.0),
              ClockEvent(EventKind.RESTORED, "cop-1", 50.0, delta=-12.0), ClockEvent(EventKind.ADJUSTED, "cop-1", 50.0, delta=5.0)]
    alerts = alerts_for(events, names)
    assert [a.code for a in alerts] == ["warning", "over-time", "penalty", "period-used", "turn-over", "restored"]
    assert all(a.message.startswith("Ann") for a in alerts)
    assert [a.kind for a in alerts] == ["warn", "bad", "bad", "warn", "warn", "warn"]
    assert "1 penalty point so far" in alerts[2].message and "2 left" in alerts[3].message


def test_setup_marks_the_engine_default_not_the_first_choice():
    m = SetupModel.for_game("liberation")
    balance = next(o for o in m.option_choices() if o.name == "balance")
    assert balance.choices == (0, 1, 2) and balance.default == 1 and balance.value == 1


def test_devices_model_counts_dice_and_reports_link_errors():
    from firmware_bridge.events import DeviceOffline, DieMotion

    class Broken:
        def connect(self): ...
        def disconnect(self): ...
        def counters(self): raise RuntimeError("port closed")

    m = DevicesModel()
    m.add_link("hub2", Broken())
    m.record(DieMotion(device="hub2", die=3, state="rolling", t=1.0))
    m.record(DeviceOffline(device="hub2", reason="unplugged", t=2.0))
    r = m.rows()[0]
    assert m.dice() == ["hub2/3"] and "port closed" in r.counters and r.link == "○ offline (unplugged)"


def test_home_rows_and_stats():
    g = NS(key=7, game_id="tyranny", players=[{"name": "Ann"}, {"name": "Bob"}], factions=[], started=0,
           duration_s=600, result=NS(winner="cops"), status="finished")
    r = rows([g])[0]
    assert r.title == "Tyranny" and r.players == "Ann, Bob" and r.result == "won by the Cops" and r.duration == "10 min"
    assert stats_lines(NS(plays=0)) == ["No finished games yet."]
    lines = stats_lines(NS(plays=3, average_duration_s=4000, wins_by_faction={"cops": 2, "criminals": 1}, wins_by_player={"Ann": 2}))
    assert lines[0] == "3 games played, 1 h 06 min on average." and "Cops 2" in lines[1]
    assert format_duration(None) == "—"


def test_the_wizard_offers_only_games_with_a_table_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    # An engine being built (in the catalogue, no table screen yet) is refereed by the
    # command-line tools, but a table could not play it: the wizard leaves it out.
    import rules
    from rules import registry

    registry.register("mini-doubles", "tests.rules.core.minigames:DOUBLES")
    try:
        assert "mini-doubles" in [g.id for g in rules.catalog()]
        offered = [gid for gid, _ in SetupModel.games()]
        assert "mini-doubles" not in offered
        assert offered == sorted(game_screens())
    finally:
        registry.unregister("mini-doubles")

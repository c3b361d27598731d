"""Against All Tyrants UI scenarios, run by ``test_app.py`` in their own process
(``python -m tests.ui.driver against_all_tyrants.scenarios:NAME ...``, the shared driver). They drive
the real app with simulated touches only and check what the widget tree shows."""
from __future__ import annotations

import json
from typing import Any, Iterator

from tests.ui.liberation.scenarios import _scroll_view_of
from tests.ui.scenarios import hold_gate

SEATS = [{"id": "att", "faction": "attacker", "name": "Ann"}, {"id": "def", "faction": "defender", "name": "Dee"}]
HOLD_S = 1.25


def _screen(d: Any) -> Any:
    return d.app.sm.get_screen("game:against_all_tyrants")


def _settle(d: Any) -> Iterator[float]:
    for _ in range(60):
        # A tap's commit runs on the input pump: wait for the Table's answer, then the redraw.
        if not d.app.sm.has_screen("game:against_all_tyrants") or not (
                _screen(d).recording or _screen(d)._refresh_trigger.is_triggered):
            break
        yield 0.05
    yield 0.08


def _tap(d: Any, text: str, exact: bool = False) -> Iterator[float]:
    """Tap the shown widget with ``text`` (scrolled into view first, as a finger would)."""
    w = None
    for _ in range(40):
        try:
            w = d.find(text, visible=False)
        except Exception:
            w = None
        if w is not None and (w.width != 100 or w.height != 100):
            break
        yield 0.05
    d.check(w is not None, f"no widget showing {text!r}: {d.texts()[:40]}")
    sv = _scroll_view_of(w)
    if sv is not None and not d.is_visible(w):
        sv.scroll_to(w, padding=10, animate=False)
        yield 0.15
    d.tap(w)
    yield 0.45 if sv is not None else 0.05
    yield from _settle(d)


def _tap_action(d: Any, prefix: str) -> Iterator[float]:
    """Tap the action-panel button whose words start with ``prefix`` (scrolled into view)."""
    scr = _screen(d)
    w = next((b for b in scr.ids.actions.buttons if b.text.startswith(prefix)), None)
    d.check(w is not None, f"no button {prefix!r}: {[b.text for b in scr.ids.actions.buttons]}")
    for sv in (scr.ids.side_scroll, scr.ids.actions):
        if not d.is_visible(w):
            sv.scroll_to(w, padding=10, animate=False)
            yield 0.15
    d.tap(w)
    yield 0.45
    yield from _settle(d)


def _hold_gate(d: Any) -> Iterator[float]:
    """Hold the table's privacy gate open as a person would (the shared driver's way)."""
    return hold_gate(d, _screen(d).ids.gate, HOLD_S)


def _layout(d: Any, where: str, root: Any = None) -> list[str]:
    from tests.ui.layout_check import check_layout

    return [f"{where}: {p}" for p in check_layout(root if root is not None else d.app.sm.current_screen)]


def _public_texts(d: Any) -> list[str]:
    scr = _screen(d)
    skip = {id(w) for w in d.walk(scr.ids.log)}
    return [t for w in d.walk(scr) if id(w) not in skip
            for t in [getattr(w, a, None) for a in ("text", "prompt_text", "info_text", "message")] if isinstance(t, str) and t]


def _no_leak(d: Any, where: str) -> None:
    """With the gate closed, no label shows a hidden card: the name of a card in a hand
    that is not also in play or in any public pile."""
    from rules import PUBLIC

    scr = _screen(d)
    d.check(not scr.ids.gate.active, f"{where}: the gate is closed")
    p = scr.presenter
    v = d.app.table.view(PUBLIC)
    public = {x["name"] for x in v["pieces"]} | {p.card_title(c) for s in v["sides"].values() for c in s["discard"] + s["objectives"]}
    hidden = {p.card_title(h) for h in d.app.table.hidden(PUBLIC) if ":" in h} - public
    leaks = [(h, t) for t in _public_texts(d) for h in hidden if h in t]
    d.check(not leaks, f"{where}: a hidden card in a public label: {leaks[:3]}")


def _gate_choose(d: Any, text: str) -> Iterator[float]:
    """Tap the first choice behind the open gate whose words start with ``text``."""
    from kivy.uix.button import Button

    gate = _screen(d).ids.gate
    w = next((b for b in d.walk(gate) if isinstance(b, Button) and b.text.startswith(text)), None)
    d.check(w is not None, f"no choice {text!r} behind the gate: {d.texts(gate)[-30:]}")
    sv = _scroll_view_of(w)
    if sv is not None and not d.is_visible(w):
        sv.scroll_to(w, padding=10, animate=False)
        yield 0.15
    d.tap(w)
    yield 0.45
    yield from _settle(d)
    for _ in range(20):
        if not _screen(d).ids.gate.active:
            break
        yield 0.05


def _mulligan_two(d: Any) -> Iterator[float]:
    """Behind the open gate, Dee picks two of the five cards (not the Starhawk the game
    plays later): the count follows each tap, the confirm says how many, and the engine's
    Mulligan names exactly those two; then the two cards are drawn again. Returns the
    layout problems with the two picked."""
    from companion.ui.widgets.gate_pick import GatePickBox

    scr = _screen(d)
    box = next((w for w in d.walk(scr.ids.gate) if isinstance(w, GatePickBox)), None)
    d.check(box is not None, "the mulligan is a multi-select page behind the gate")
    d.check(box.ids.count.text == "0 of 5 cards to discard" and box.confirm.text == "Keep all five",
            f"nothing picked yet: {box.ids.count.text!r}, {box.confirm.text!r}")
    picked = [k for k, words in box.state.pick.items if "Starhawk" not in words][:2]
    for n, key in enumerate(picked, 1):
        w = box.toggles[key]
        sv = _scroll_view_of(w)
        if sv is not None and not d.is_visible(w):
            sv.scroll_to(w, padding=10, animate=False)
            yield 0.15
        d.tap(w)
        yield 0.2
        d.check(w.state == "down" and w.text.startswith("✔ "), f"the picked card shows it is picked: {w.text!r} ({w.state})")
        d.check(box.ids.count.text == f"{n} of 5 cards to discard", f"the count follows: {box.ids.count.text!r}")
    d.check(box.confirm.text == "Mulligan 2 cards" and not box.confirm.disabled, f"the confirm says how many: {box.confirm.text!r}")
    sv = _scroll_view_of(box.confirm)
    if sv is not None and not d.is_visible(box.confirm):
        sv.scroll_to(box.confirm, padding=10, animate=False)
        yield 0.15
    d.shot("aat-gate-mulligan-two")
    problems = _layout(d, "two cards picked to mulligan")
    table = d.app.table
    d.tap(box.confirm)
    yield 0.45
    yield from _settle(d)
    for _ in range(20):
        if not scr.ids.gate.active:
            break
        yield 0.05
    d.check(not scr.ids.gate.active, "the confirmed mulligan closes the gate")
    hand = table.private_view("def")["sides"]["def"]["hand"]["cards"]
    d.check(len(hand) == 3 and not set(picked) & set(hand), f"the two picked cards left the hand: {hand}")
    d.check(table.view()["phase"] == "redraw", f"two cards to draw again (phase {table.view()['phase']})")
    _no_leak(d, "after the mulligan")
    for _ in range(2):
        yield from _tap(d, "Draw a card for Dee")
    d.check(len(table.private_view("def")["sides"]["def"]["hand"]["cards"]) == 5, "five cards again")
    return problems


def aat_short_game(d: Any) -> Iterator[float]:
    """The deal by the app's deck, the mulligan and a card played behind the gate, combat:
    a card chosen, a target tapped, the damage arithmetic shown before the attack, Cancel
    changes nothing, the attack confirmed; a card's full text on a tap; layout checked."""
    app = d.app
    app.new_game("against_all_tyrants", SEATS, {}, seed=3)
    yield 0.4
    d.check(app.sm.current == "game:against_all_tyrants", f"the table screen opens (at {app.sm.current})")
    scr = _screen(d)
    yield from _settle(d)
    problems = _layout(d, "setup")
    d.check(d.has("Space") and d.has("Planetside") and d.has("Hidden Citadel"), "two theaters and the bases show")
    d.check(scr.ids.escalation.current == 0, "the escalation scale is at 0")
    d.shot("aat-setup")
    yield from _tap(d, "Deal 5 cards to Dee")
    yield from _tap(d, "Deal 5 cards to Ann")
    _no_leak(d, "after the deal")
    for who in ("Dee", "Ann"):
        yield from _tap(d, f"▤ {who} (")  # "▤ Dee (⬢ Defender): keep your hand or mulligan"
        yield from _hold_gate(d)
        if who == "Dee":
            d.shot("aat-gate-mulligan")
            problems += _layout(d, "the mulligan behind the gate")
            problems += yield from _mulligan_two(d)
        else:
            yield from _gate_choose(d, "Keep all five")
    # Infiltrate units from the Special Forces, behind the gate, until the first turn.
    for _ in range(6):
        if app.table.view()["phase"] != "infiltrate":
            break
        yield from _tap(d, "): deploy an Infiltrate unit")
        yield from _hold_gate(d)
        yield from _gate_choose(d, "Infiltrate ")
    _no_leak(d, "after the setup")
    yield from _tap(d, "Draw a card for Dee")
    # Phase 1: a card played from the hand behind the gate.
    yield from _tap(d, "Dee (⬢ Defender): play a card")
    yield from _hold_gate(d)
    yield from _gate_choose(d, "Play Starhawk in Space")
    while app.table.view()["pending"]:
        yield from _tap(d, "Skip")
    _no_leak(d, "after a card was played")
    yield from _tap(d, "End phase 1")
    d.check("▶ 2 Combat" in scr.phase_text and "Still to act:" in scr.phase_text, f"the phase tracker: {scr.phase_text!r}")
    # Combat: the Starhawk, then a tap on the Orbital Fortress: the preview before anything happens.
    tiles = {t.piece: t for t in d.walk(scr.ids.board) if getattr(t, "piece", "")}
    star = next(pid for pid, t in tiles.items() if "Starhawk" in t.text)
    fortress = next(pid for pid, t in tiles.items() if "Orbital Fortress" in t.text)
    d.tap(tiles[star])
    yield 0.1
    yield from _settle(d)
    d.check(scr.presenter.selected == star and "Starhawk —" in scr.info_text, f"the Starhawk is chosen: {scr.info_text!r}")
    d.check(any(b.text == "⚔ Attack Orbital Fortress" for b in scr.ids.actions.buttons), "its targets are offered")
    d.shot("aat-chosen")
    problems += _layout(d, "a card chosen")
    ply = app.table.ply
    tiles = {t.piece: t for t in d.walk(scr.ids.board) if getattr(t, "piece", "")}
    d.tap(tiles[fortress])
    yield 0.4
    view = getattr(scr, "_confirm", None)
    d.check(view is not None and view.parent is not None, "the attack asks first")
    d.check("2 attack − Armor 2 = 0" in view.ids.detail.text, f"the arithmetic shows before the attack: {view.ids.detail.text!r}")
    d.shot("aat-attack-preview")
    problems += _layout(d, "the combat preview", view)
    d.tap(view.ids.cancel)
    yield 0.3
    d.check(app.table.ply == ply, "Cancel attacks nothing")
    d.check(any(b.text == "⚔ Attack Orbital Fortress" for b in scr.ids.actions.buttons), "the target stays offered after Cancel")
    old = view
    for _ in range(20):
        if old.parent is None:
            break
        yield 0.05
    d.tap(next(b for b in scr.ids.actions.buttons if b.text == "⚔ Attack Orbital Fortress"))
    for _ in range(20):
        if scr._confirm is not old and scr._confirm.parent is not None:
            break
        yield 0.05
    yield 0.4  # laid out and opened: a tap before would land on the overlay (which dismisses)
    view = scr._confirm
    d.check(view is not old and view.parent is not None, f"the panel's attack button asks too (selected {scr.presenter.selected!r}, buttons {[b.text for b in scr.ids.actions.buttons]})")
    d.tap(view.ids.ok)
    yield 0.3
    yield from _settle(d)
    d.check(app.table.ply == ply + 1, f"the attack was made (ply {app.table.ply} from {ply}; banner {scr.ids.banner.message!r}; confirm open {view.parent is not None})")
    d.check(not any("Starhawk" in b.text for b in scr.ids.actions.buttons), "the Starhawk has no action left")
    # A tap on any card shows its full text.
    tiles = {t.piece: t for t in d.walk(scr.ids.board) if getattr(t, "piece", "")}
    d.tap(tiles[fortress])
    yield 0.2
    d.check("Hit points 22" in scr.info_text and "Traits: Armor 2" in scr.info_text, f"the card's text: {scr.info_text!r}")
    _no_leak(d, "in combat")
    d.shot("aat-after-attack")
    problems += _layout(d, "after the attack")
    # An order of the example set, carried out as written: the Hidden Citadel's "Place 1 Shield
    # token on a unit of yours in this theater." offers exactly Dee's units in Planetside.
    tiles = {t.piece: t for t in d.walk(scr.ids.board) if getattr(t, "piece", "")}
    citadel = next(pid for pid, t in tiles.items() if "Hidden Citadel" in t.text)
    infiltrator = next(pid for pid, t in tiles.items() if "Infiltrator" in t.text)
    d.tap(tiles[citadel])
    yield 0.1
    yield from _settle(d)
    yield from _tap_action(d, "» Place 1 Shield token")
    d.check("“Place 1 Shield token on a unit of yours in this theater.”" in scr.prompt_text, f"the text is quoted: {scr.prompt_text!r}")
    mine = [x["name"] for x in app.table.view()["pieces"] if x["owner"] == "def" and x["theater"] == "planetside" and x["kind"] == "unit"]
    labels = sorted(b.text for b in scr.ids.actions.buttons if not b.text.startswith("▤"))  # not the hands
    d.check(labels == sorted(f"+◈ Shield on {n}" for n in mine), f"only Dee's units in Planetside are offered: {labels}")
    d.shot("aat-order-text")
    problems += _layout(d, "carrying out an order's text")
    yield from _tap_action(d, "+◈ Shield on Infiltrator")
    d.check(app.table.view()["pending"] is None, "the text is carried out once its step is done")
    shielded = next(x for x in app.table.view()["pieces"] if x["id"] == infiltrator)
    d.check(shielded["tokens"].get("Shield") == 1, f"the Shield is on the Infiltrator: {shielded['tokens']}")
    tiles = {t.piece: t for t in d.walk(scr.ids.board) if getattr(t, "piece", "")}
    d.check("◈1" in tiles[infiltrator].text, f"its badge shows glyph and count: {tiles[infiltrator].text!r}")
    d.note("short game with a combat preview")
    d.note(json.dumps(problems))


def _picker(d: Any) -> Any:
    found = [w for w in d.app.root_window.children if type(w).__name__ == "AatFilePicker"]
    d.check(len(found) == 1, f"one file picker is open: {[type(w).__name__ for w in d.app.root_window.children]}")
    return found[0]


def aat_library(d: Any) -> Iterator[float]:
    """From the wizard's game step: the card editor (a bad trait refused as typed, then a
    card saved), the deck builder (counts and 5.2.4's rules with their sections, a tap adds
    a copy, the deck saved) and back in the wizard, where the saved deck is offered."""
    from kivy.uix.textinput import TextInput

    app = d.app
    app.go("setup")
    yield 0.3
    yield from _tap(d, "Against All Tyrants")
    def shown(text: str) -> bool:  # in the page, maybe scrolled below the fold
        return any(isinstance(t, str) and text in t for t in d.texts(app.sm.get_screen("setup")))

    for _ in range(4):
        if shown("Our cards and decks"):
            break
        yield from _tap(d, "Next →")
    d.check(shown("Attacker's deck") and shown("made for trying the rules"), "each side's deck, the examples labelled")
    d.shot("aat-wizard-decks")
    problems = _layout(d, "the wizard's deck step")
    yield from _tap(d, "Our cards and decks")
    yield 0.4
    d.check(app.sm.current == "aat-library", f"the card editor opens (at {app.sm.current})")
    lib = app.sm.get_screen("aat-library")
    inputs = {getattr(w, "field_name", ""): w for w in d.walk(lib) if isinstance(w, TextInput)}
    for field, text in (("name", "Gunner"), ("faction", "Free Worlds (example)"), ("subfaction", "Freedom Fighters"),
                        ("types", "Trooper"), ("attack", "2"), ("health", "3"), ("traits", "Armor two")):
        inputs[field].text = text
        yield 0.02
    yield 0.1
    d.check("Armor's X must be a whole number" in lib._problem_labels["traits"].text, "a bad trait is refused as it is typed")
    lib.ids.scroll.scroll_to(lib._problem_labels["traits"], padding=40, animate=False)
    yield 0.2
    d.check(lib._save.disabled, "Save is off while the card has problems")
    d.shot("aat-editor-problem")
    inputs["traits"].text = "Armor 1"
    yield from _tap(d, "Planetside")
    d.check("Ready to save" in lib._all.text, f"the card is ready: {lib._all.text!r}")
    problems += _layout(d, "the card editor")
    yield from _tap(d, "Save the card")
    d.check("Gunner saved" in lib.status, f"saved: {lib.status!r}")
    # A saved card reopens filled in; a change is checked as typed; saving replaces it.
    yield from _tap(d, "✎ Gunner")
    inputs = {getattr(w, "field_name", ""): w for w in d.walk(lib) if isinstance(w, TextInput)}
    d.check(inputs["name"].text == "Gunner" and inputs["traits"].text == "Armor 1", "the saved card fills the editor")
    inputs["traits"].text = "Armor 1, Pierce x"
    yield 0.1
    d.check("Pierce's X must be a whole number" in lib._problem_labels["traits"].text and lib._save.disabled,
            "a bad change is refused as it is typed")
    inputs["traits"].text = "Armor 2"
    # A text typed in the editor has no steps: the card says the table resolves it.
    inputs["orders"].text = "Deal 1 damage to an enemy unit."
    yield 0.1
    note = lib._text_notes["orders"]
    d.check("» Deal 1 damage to an enemy unit. — The table resolves this text; the app does not check it." == note.text,
            f"the editor says who resolves the order: {note.text!r}")
    lib.ids.scroll.scroll_to(note, padding=40, animate=False)
    yield 0.2
    d.shot("aat-editor-editing")
    problems += _layout(d, "the card editor, changing a saved card")
    yield from _tap(d, "Save the changes")
    from companion.ui.games.against_all_tyrants.library import table_cards

    cards = [lc.card for lc in table_cards(lib.folder)]
    d.check(len(cards) == 1 and cards[0].x("Armor") == 2, f"the card is replaced, not added: {cards}")
    d.check("Gunner saved" in lib.status, f"saved: {lib.status!r}")
    # Deleting a card a saved deck holds is refused, naming the deck; nothing is deleted.
    import dataclasses

    from companion.ui.games.against_all_tyrants import cardfiles as _cf
    from rules.against_all_tyrants import example_decks

    held = example_decks()["freedom-fighters"].adding("main", "ff-starhawk", -2).adding("main", "gunner", 2)
    held = dataclasses.replace(held, name="Gunner squad")
    held_path = _cf.save_deck(held, lib.folder)
    yield from _tap(d, "✎ Gunner")
    yield from _tap(d, "Delete this card")
    d.check("tap it again" in lib.status and lib._delete.text == "✖ Tap again to delete it",
            f"a first tap asks: {lib.status!r}")
    lib.ids.scroll.scroll_y = 0
    yield 0.2
    d.shot("aat-editor-delete-ask")
    yield from _tap(d, "Tap again to delete it")
    d.check("Gunner squad (2 copies)" in lib.status and "nothing was deleted" in lib.status, f"refused, naming the deck: {lib.status!r}")
    d.check([lc.card.id for lc in table_cards(lib.folder)] == ["gunner"], "the card is still there")
    lib.ids.scroll.scroll_y = 0
    yield 0.2
    d.shot("aat-editor-delete-refused")
    problems += _layout(d, "the card editor, a delete refused")
    held_path.unlink()
    yield from _tap(d, "Deck builder")
    libtexts = lambda: " ".join(d.texts(lib))  # noqa: E731
    d.check("Main deck 0 / 30" in libtexts() and "(5.2.4.1)" in libtexts(), "the counts and the rules with their sections")
    yield from _tap(d, "+")
    d.check("Main deck 1 / 30" in libtexts(), "a tap adds a copy")
    d.shot("aat-deck-builder")
    problems += _layout(d, "the deck builder")
    yield from _tap(d, "❐ Freedom Fighters (example)")
    d.check("✔ legal" in lib.summary and lib.deck.deck.name == "Our Freedom Fighters", f"a copy of the example: {lib.summary!r}")
    yield from _tap(d, "Save the deck")
    d.check("Deck saved" in lib.status and "cannot be played" not in lib.status, f"the deck is saved: {lib.status!r}")
    # Shared as files: exported into a folder the player opens in the picker, then picked
    # back in as another table's files; a broken file among them imports nothing.
    import json as _json
    from pathlib import Path

    stick = Path(app.data_dir) / "usb-stick"
    stick.mkdir(parents=True, exist_ok=True)
    yield from _tap(d, "Export deck and cards…")
    yield 0.3
    picker = _picker(d)
    picker.ids.chooser.path = str(stick)
    yield 0.3
    d.shot("aat-export-picker")
    problems += _layout(d, "the export folder picker", picker)
    yield from _tap(d, "Export into this folder")
    yield 0.4  # the picker's closing animation: it holds the touches until it is gone
    d.check(".aat-deck.json" in lib.status and ".aat-cards.json" in lib.status and str(stick) in lib.status, f"exported: {lib.status!r}")
    theirs = sorted(stick.glob("*.json"))
    cards_file = next(p for p in theirs if p.name.endswith(".aat-cards.json"))
    data = _json.loads(cards_file.read_text(encoding="utf-8"))
    data["name"] = "Their cards"
    bad = dict(data, cards=[dict(data["cards"][0], traits=["Armor two"])])
    (stick / "their-cards.aat-cards.json").write_text(_json.dumps(data), encoding="utf-8")
    (stick / "broken.aat-cards.json").write_text(_json.dumps(bad), encoding="utf-8")
    yield from _tap(d, "Import files…")
    yield 0.3
    picker = _picker(d)
    picker.ids.chooser.path = str(stick)
    yield 0.3
    picker.ids.chooser.selection = [str(stick / "their-cards.aat-cards.json"), str(stick / "broken.aat-cards.json")]
    yield 0.2
    d.check(picker.confirm_text == "⇩ Import 2 files", f"the picker counts the picked files: {picker.confirm_text!r}")
    d.shot("aat-import-picker")
    problems += _layout(d, "the import file picker", picker)
    yield from _tap(d, "Import 2 files")
    yield 0.4  # the picker's closing animation: it holds the touches until it is gone
    d.check("Nothing imported" in lib.status and "broken.aat-cards.json, card 1 “Gunner”, Traits (the 1st)" in lib.status,
            f"the bad file named by card and field, nothing imported: {lib.status!r}")
    d.check("Their cards" not in {s.name for s in __import__("companion.ui.games.against_all_tyrants.cardfiles", fromlist=["x"]).saved_card_sets(lib.folder)},
            "the good file of the two was not imported either")
    d.shot("aat-import-refused")
    lib.ids.scroll.scroll_y = 0  # the long status shrank the page: the button is at its foot
    yield 0.2
    yield from _tap(d, "Import files…")
    yield 0.3
    picker = _picker(d)
    yield from _tap(d, "their-cards.aat-cards.json")  # a finger on the file's row picks it
    d.check(picker.ids.chooser.selection == [str(stick / "their-cards.aat-cards.json")], f"picked by a tap: {picker.ids.chooser.selection}")
    yield from _tap(d, "Import 1 file")
    yield 0.4  # the picker's closing animation: it holds the touches until it is gone
    d.check("Imported the cards “Their cards”" in lib.status, f"imported: {lib.status!r}")
    yield from _tap(d, "← Back")
    yield 0.5
    d.check(app.sm.current == "setup" and shown("Our Freedom Fighters"), f"back in the wizard, the saved deck is offered (at {app.sm.current})")
    # Played: the Defender takes the saved deck, and the game starts with it.
    from kivy.uix.togglebutton import ToggleButton

    setup = app.sm.get_screen("setup")
    ours = [w for w in d.walk(setup) if isinstance(w, ToggleButton) and w.text == "Our Freedom Fighters"]
    d.check(len(ours) == 2, f"offered to each side: {len(ours)}")
    setup.ids.scroll.scroll_to(ours[-1], padding=10, animate=False)
    yield 0.2
    d.tap(ours[-1])
    yield 0.4
    yield from _tap(d, "Start the game")
    yield 0.5
    d.check(app.sm.current == "game:against_all_tyrants", f"the game starts (at {app.sm.current}; {setup.footer!r})")
    d.check(app.table.options["defender_deck"]["name"] == "Our Freedom Fighters", "with the table's own deck")
    d.note("editor and deck builder")
    d.note(json.dumps(problems))


def _fortress_position() -> dict[str, Any]:
    """Ann's turn (the Navy, Attacker) at its start: her Interceptor in Space and Conscript
    Planetside; Dee's Starhawk and Gunship in Space, Militia and a Gunship Planetside."""
    from rules.against_all_tyrants import GAME
    from tests.rules.against_all_tyrants.helpers import ATT, DEF, clear_board, fresh, put

    s = fresh(seed=3)
    clear_board(s)
    for seat, card, theater in ((ATT, "nv-interceptor", "space"), (ATT, "nv-conscript", "planetside"),
                                (DEF, "ff-starhawk", "space"), (DEF, "ff-gunship", "space"),
                                (DEF, "ff-militia", "planetside"), (DEF, "ff-gunship", "planetside")):
        put(s, seat, card, theater)
    s.active, s.phase, s.turn = ATT, "draw", 2
    s.changed()
    return GAME.position(s)


def aat_fortress_order(d: Any) -> Iterator[float]:
    """Issue 32, item 4: the Orbital Fortress's "» Deal 1 damage to an enemy unit in Space."
    asks first for that unit and offers only Dee's units in Space (no draw, no toolbox, not
    Ann's own units, not Planetside); the hub's damage slot hits the unit tapped; layout checked."""
    from firmware_bridge.events import TokenPlaced

    app = d.app
    app.new_game("against_all_tyrants", SEATS, {}, seed=3, position=_fortress_position())
    yield 0.4
    scr = _screen(d)
    yield from _settle(d)
    yield from _tap(d, "Draw a card for Ann")
    yield from _tap(d, "End phase 1")
    tiles = {t.piece: t for t in d.walk(scr.ids.board) if getattr(t, "piece", "")}
    fortress = next(pid for pid, t in tiles.items() if "Orbital Fortress" in t.text)
    d.tap(tiles[fortress])
    yield 0.1
    yield from _settle(d)
    yield from _tap_action(d, "» Deal 1 damage to an enemy unit in Space.")
    d.check("Deal 1 damage to an enemy unit in Space." in scr.prompt_text, f"the step is asked: {scr.prompt_text!r}")
    labels = sorted(b.text for b in scr.ids.actions.buttons if not b.text.startswith("▤"))  # not the hands
    d.check(labels == ["✖ 1 damage to Gunship", "✖ 1 damage to Starhawk"], f"the first step offers Dee's units in Space only: {labels}")
    d.check(not any("Draw" in b.text or "Tokens" in b.text for b in scr.ids.actions.buttons), "no draw, no toolbox")
    d.shot("aat-fortress-order")
    problems = _layout(d, "the fortress's order")
    # The hub's damage slot: two units could take it; a tap on the Starhawk chooses it.
    app.route_event(TokenPlaced(device="gpio", slot=1, t=50.0))
    yield 0.3
    yield from _settle(d)
    d.check("tap the card it goes to" in scr.ids.banner.message, f"the hub asks which card: {scr.ids.banner.message!r}")
    tiles = {t.piece: t for t in d.walk(scr.ids.board) if getattr(t, "piece", "")}
    star = next(pid for pid, t in tiles.items() if "Starhawk" in t.text)
    d.tap(tiles[star])
    yield 0.2
    yield from _settle(d)
    app.route_event(TokenPlaced(device="gpio", slot=1, t=51.0))
    yield 0.3
    yield from _settle(d)
    hit = next(x for x in app.table.view()["pieces"] if x["id"] == star)
    d.check(hit["tokens"].get("Damage") == 1 and app.table.view()["pending"] is None,
            f"the Starhawk took the 1 damage and the text is done: {hit['tokens']}, {app.table.view()['pending']}")
    d.shot("aat-fortress-order-done")
    problems += _layout(d, "after the fortress's order")
    d.note("the fortress's order as written")
    d.note(json.dumps(problems))


def aat_hand_in_one_pass(d: Any) -> Iterator[float]:
    """Issue 32, item 12: the table deals from its own shuffled decks; Dee enters her five
    cards one after another behind one hold of the gate (as Liberation's deal), the page
    saying which card it is and those entered so far; the gate closes after the fifth."""
    from kivy.uix.button import Button

    app = d.app
    app.new_game("against_all_tyrants", SEATS, {}, seed=3)
    yield 0.4
    scr = _screen(d)
    yield from _settle(d)
    gate = scr.ids.gate
    yield from _tap(d, "✎ Dee: enter the 5 cards you drew")
    yield from _hold_gate(d)
    problems: list[str] = []
    for i in range(5):
        d.check(gate.active, f"card {i + 1}: the gate is still open (one pass for the whole hand)")
        words = " ".join(d.texts(gate))
        d.check(f"card {i + 1} of 5" in words, f"the page says which card: {words[:200]!r}")
        names = {label for label, _a in scr.presenter.physical_draws("def")}
        w = next((b for b in d.walk(gate) if isinstance(b, Button) and b.text in names), None)
        d.check(w is not None, f"a card to tap behind the gate: {d.texts(gate)[-20:]}")
        if i == 2:
            d.check("Entered so far: " in words and "none" not in words.split("Entered so far: ")[1][:6],
                    f"the cards entered so far are listed: {words[:300]!r}")
            d.shot("aat-hand-in-one-pass")
            problems += _layout(d, "entering a hand behind the gate")
        sv = _scroll_view_of(w)
        if sv is not None and not d.is_visible(w):
            sv.scroll_to(w, padding=10, animate=False)
            yield 0.15
        d.tap(w)
        yield 0.45
        yield from _settle(d)
    for _ in range(20):
        if not gate.active:
            break
        yield 0.05
    d.check(not gate.active, "the gate closes once the five cards are entered")
    hand = app.table.private_view("def")["sides"]["def"]["hand"]["cards"]
    d.check(len(hand) == 5, f"Dee holds her five cards: {hand}")
    d.check(any(b.text.startswith("✎ Ann: enter the 5 cards") for b in scr.ids.actions.buttons), "then Ann enters hers")
    _no_leak(d, "after Dee's hand was entered")
    d.note("a whole hand in one pass")
    d.note(json.dumps(problems))


def _same_as_fresh(d: Any, where: str) -> None:
    """Both theaters (every card's tile: its words, its owner's colour, chosen or a
    target) and the side column's words as a screen built afresh from the same Table."""
    from tests.ui.fresh_screen import differences

    bad = differences(_screen(d), ("space", "planetside"))
    d.check(not bad, f"{where}: the screen differs from a fresh one:\n" + "\n".join(bad[:12]))
    d.note(f"{where}: as a fresh screen")


def aat_in_place_as_fresh(d: Any) -> Iterator[float]:
    """Taps update the table screen in place (issue 34): through the deal, the hands kept
    and the Infiltrate units behind the gate, a card played, the end of a phase and its undo, and an attack
    (a tile chosen, a target, damage dealt), the live screen shows exactly what a fresh
    screen bound to the same Table shows; a card that stays in play keeps its tile."""
    app = d.app
    app.new_game("against_all_tyrants", SEATS, {}, seed=3)
    yield 0.4
    yield from _settle(d)
    scr = _screen(d)
    _same_as_fresh(d, "a new game")
    yield from _tap(d, "Deal 5 cards to Dee")
    yield from _tap(d, "Deal 5 cards to Ann")
    for who in ("Dee", "Ann"):
        yield from _tap(d, f"▤ {who} (")
        yield from _hold_gate(d)
        yield from _gate_choose(d, "Keep all five")
    for _ in range(6):
        if app.table.view()["phase"] != "infiltrate":
            break
        yield from _tap(d, "): deploy an Infiltrate unit")
        yield from _hold_gate(d)
        yield from _gate_choose(d, "Infiltrate ")
    yield from _tap(d, "Draw a card for Dee")
    _same_as_fresh(d, "the setup")
    tiles = {t.piece: t for t in d.walk(scr.ids.board) if getattr(t, "piece", "")}
    yield from _tap(d, "Dee (⬢ Defender): play a card")
    yield from _hold_gate(d)
    yield from _gate_choose(d, "Play Starhawk in Space")
    _same_as_fresh(d, "a card played")
    again = {t.piece: t for t in d.walk(scr.ids.board) if getattr(t, "piece", "")}
    d.check(all(again[p] is t for p, t in tiles.items() if p in again), "every card still in play kept its tile")
    while app.table.view()["pending"]:
        yield from _tap(d, "Skip")
    yield from _tap(d, "End phase 1")
    d.check("▶ 2 Combat" in scr.phase_text, f"the phase tracker: {scr.phase_text!r}")
    _same_as_fresh(d, "the end of phase 1")
    ply = app.table.ply
    d.check(not scr.ids.undo.disabled, "undo is offered")
    d.tap(scr.ids.undo)
    yield 0.1
    yield from _settle(d)
    d.check(app.table.ply < ply, f"the end of phase 1 was undone (ply {app.table.ply}, was {ply})")
    _same_as_fresh(d, "the undo")
    yield from _tap(d, "End phase 1")
    tiles = {t.piece: t for t in d.walk(scr.ids.board) if getattr(t, "piece", "")}
    star = next(pid for pid, t in tiles.items() if "Starhawk" in t.text)
    fortress = next(pid for pid, t in tiles.items() if "Orbital Fortress" in t.text)
    d.tap(tiles[star])
    yield 0.1
    yield from _settle(d)
    d.check(tiles[star].role == "primary" and tiles[fortress].role == "danger", "the chosen card and its target are marked")
    d.tap(tiles[fortress])
    yield 0.4
    view = scr._confirm
    ply = app.table.ply
    d.tap(view.ids.ok)
    yield 0.3
    yield from _settle(d)
    d.check(app.table.ply > ply, "the attack was made")
    d.check(tiles[fortress].parent is not None and tiles[star].parent is not None, "the attacker and its target keep their tiles")
    _same_as_fresh(d, "the attack")


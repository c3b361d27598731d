"""The presenter contract (companion/ui/presenters/base.py), without a window: what every
game's presenter inherits, against real Tables of the five games, and the defaults a game
that supplies no hook of its own gets."""
from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.journal import Journal
from companion.table import Table
from companion.ui.games.against_all_tyrants.presenter import AatPresenter
from companion.ui.games.dicetopia.presenter import DicetopiaPresenter
from companion.ui.games.liberation.presenter import LiberationPresenter
from companion.ui.games.outrage.presenter import OutragePresenter
from companion.ui.games.tyranny.presenter import TyrannyPresenter
from companion.ui.presenters.actions import GateSection
from companion.ui.presenters.base import GamePresenter
from rules import Draw, Roll
from rules.core import Decision, DrawRequest, Prompt

ROOT = Path(__file__).resolve().parents[2]
PRESENTERS = {"tyranny": TyrannyPresenter, "liberation": LiberationPresenter, "outrage": OutragePresenter,
              "dicetopia": DicetopiaPresenter, "against_all_tyrants": AatPresenter}
SEATS = {
    "tyranny": [{"id": "cops-1", "faction": "cops", "name": "Ann"}, {"id": "criminals-1", "faction": "criminals", "name": "Bob"}],
    "liberation": [{"id": "dynasty-1", "faction": "dynasty", "name": "Ann"}, {"id": "liberation-1", "faction": "liberation", "name": "Bob"}],
    "outrage": [{"id": "red", "faction": "red", "name": "Ann"}, {"id": "blue", "faction": "blue", "name": "Bob"}],
    "dicetopia": [{"id": "p1", "faction": "banxa", "name": "Ann"}, {"id": "p2", "faction": "shakra", "name": "Bob"}],
    "against_all_tyrants": [{"id": "att", "faction": "attacker", "name": "Ann"}, {"id": "def", "faction": "defender", "name": "Bob"}],
}
# What every game presenter now inherits, and so must not write again.
GENERIC = {"view", "seat_names", "name", "who", "actors", "humanise", "_words", "info"}


@pytest.fixture
def journal(tmp_path):
    j = Journal.open(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def factions_file(game: str) -> dict[str, dict[str, str]]:
    """The game's faction names and glyphs, read from its data file (not through the code)."""
    return json.loads((ROOT / "rules" / game / "data" / "factions.json").read_text(encoding="utf-8"))["factions"]


@pytest.mark.parametrize("game", sorted(PRESENTERS))
def test_every_game_presenter_is_a_game_presenter_and_keeps_only_its_own(game):
    cls = PRESENTERS[game]
    assert issubclass(cls, GamePresenter) and cls.game_id == game
    assert GENERIC.isdisjoint(vars(cls)), sorted(GENERIC & set(vars(cls)))


@pytest.mark.parametrize("game", sorted(PRESENTERS))
def test_the_base_reads_a_real_table(journal, game):
    t = Table.create(journal, game_id=game, seats=SEATS[game], options={}, seed=3)
    p = GamePresenter(t)  # the base alone: what a game without a presenter of its own would show
    factions = factions_file(game)
    for seat in SEATS[game]:
        f = factions[t.seats[[s["id"] for s in t.seats].index(seat["id"])]["faction"]]
        assert p.who(seat["id"]) == f"{seat['name']} ({f['glyph']} {f['name']})"
    assert p.actors() == sorted(t.prompt.actors) and p.actors()
    assert not p.is_over() and p.view() == t.view()
    line = p.prompt_line()
    assert line.startswith(", ".join(p.who(s) for s in p.actors()))
    assert not any(s["id"] in line for s in SEATS[game] if s["id"] not in ("red", "blue"))  # names, never ids
    legal = t.legal_actions()
    for b in p.buttons():
        assert b.intent in ("submit", "app-draw", "physical-draw")
        if b.intent == "submit":
            assert b.action in legal and not isinstance(b.action, (Roll, Draw))
    # The game's own presenter says at least as much about whose turn it is.
    own = PRESENTERS[game](t)
    assert own.actors() == p.actors() and own.who(p.actors()[0]) == p.who(p.actors()[0])


def _fake_table(prompt: Prompt, legal: list[object]) -> SimpleNamespace:
    return SimpleNamespace(game_id="tyranny", seats=[{"id": "cops-1", "faction": "cops", "name": "Ann"}],
                           prompt=prompt, outcome=None, options={}, ply=4, legal_actions=lambda: legal)


def test_default_buttons_come_from_the_public_prompt():
    """A kind allowed only by a hidden card (the prompt's ``private``) gets no button on the
    shared screen: the base lists only the kinds everyone may know are allowed."""
    move = SimpleNamespace(kind="move", seat="cops-1")
    play = SimpleNamespace(kind="play", seat="cops-1")
    p = GamePresenter(_fake_table(Prompt.single("cops-1", Decision(("move",), note="pick a tile", private=("play",))),
                                  [move, play]))
    assert [(b.label, b.action) for b in p.buttons()] == [("Move", move)]
    assert p.prompt_line() == "Ann (▲ Cops): pick a tile"
    drawing = GamePresenter(_fake_table(Prompt.single("cops-1", DrawRequest(deck="gains", purpose="landed on Gains")), []))
    assert [(b.intent, b.seat) for b in drawing.buttons()] == [("app-draw", ""), ("physical-draw", "cops-1")]
    assert drawing.prompt_line() == "Ann (▲ Cops): landed on Gains"


def test_the_hooks_defaults():
    p = GamePresenter(_fake_table(Prompt.single("cops-1", Decision(("move",))), []))
    assert p.prompt_line() == "Ann (▲ Cops): move"
    assert p.standing_buttons() == [] and p.physical_draws("cops-1") == [] and p.card_texts("cops-1") == []
    assert not p.physical_draw_continues("cops-1") and p.drawn_news(None) == "" and p.private_news("cops-1") == []
    assert p.moment({}, {}) is None and p.end_words() == {} and p.end_notes() == []
    assert p.entity_name("tile", "o-docks") == "o-docks" and p.undo_rule == "" and p.hand_purpose("cops-1") == "your hand"
    page = p.hand_page("cops-1", "You drew: Gains 6")
    assert isinstance(page[0], GateSection) and page[0].lines[0].text == "◉ You drew: Gains 6"
    assert p.physical_draw_page("cops-1")[0].choices == ()
    # What a tap asked about lasts until the game moves on (any action, an undo).
    p.info = "The Docks · property"
    assert p.info == "The Docks · property"
    p.table.ply = 5
    assert p.info == ""
    assert p.turn_line() == "Ann (▲ Cops) to act"
    p.table.outcome = SimpleNamespace(reason="cops-1 holds influence at 0", winner="cops")
    assert p.is_over() and p.buttons() == [] and p.prompt_line() == "Game over — Ann holds influence at 0."

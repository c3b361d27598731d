"""The Tyranny presenter against the real Table, without a window: whatever the game's
state, every button is a legal action, nothing secret reaches a public label, and the
hand (behind the gate) shows exactly the seat's own cards."""
from __future__ import annotations

import random

import pytest

from rules import PUBLIC, Draw, Roll
from rules.tyranny.actions import MoveTo

from companion.journal import Journal  # noqa: E402
from companion.table import Table  # noqa: E402

from companion.ui.games.tyranny.presenter import TyrannyPresenter  # noqa: E402

SEATS2 = [{"id": "cops-1", "faction": "cops", "name": "Ann"}, {"id": "criminals-1", "faction": "criminals", "name": "Bob"}]
SEATS4 = SEATS2 + [{"id": "cops-2", "faction": "cops", "name": "Cat"}, {"id": "criminals-2", "faction": "criminals", "name": "Dan"}]


@pytest.fixture
def journal(tmp_path):
    j = Journal.open(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def new_table(journal, seats=SEATS2, options=None, seed=1):
    return Table.create(journal, game_id="tyranny", seats=seats, options=options or {}, seed=seed)


def test_the_opening_screen(journal):
    t = new_table(journal)
    p = TyrannyPresenter(t)
    assert p.prompt_line().startswith("Ann (▲ Cops): roll to move")
    assert p.influence() == 500 and p.streak_lines() == ["Win: ◆ ≥ 1000 or ▲ at 0, held 3 turns"]
    cells = {c.id: c for c in p.cells()}
    assert len(cells) == 40 and cells["police-station"].pieces[0][0] == "cops-1"
    assert not any(c.reachable for c in cells.values())
    assert p.buttons() == []  # only the roll is possible: it goes to the dice tray


def test_a_roll_highlights_the_reachable_tiles_and_a_tap_moves(journal):
    t = new_table(journal, options={"move": "up-to"})
    p = TyrannyPresenter(t)
    t.submit(Roll("cops-1", (3,)))
    reach = {c.id for c in p.cells() if c.reachable}
    assert reach == {"o-docks", "o-gamble-1", "o-market"}
    assert p.tap_tile("o-safe-1") is None
    move = p.tap_tile("o-market")
    assert move == MoveTo("cops-1", "o-market")
    t.submit(move)
    assert TyrannyPresenter(t).view()["pieces"]["cops-1"]["tile"] == "o-market"


def test_streak_countdown_reads_like_the_rulebook(journal):
    t = new_table(journal, seed=4)
    p = TyrannyPresenter(t)
    v = dict(p.view(), influence=1200, streaks={"criminals": 2, "cops": 0, "target": 3})
    assert p.streak_lines(v) == ["◆ Criminals ≥ 1000: 2 of 3 turns"]


def test_physical_card_entry_and_the_hand_behind_the_gate(journal):
    t = new_table(journal, seed=2)
    p = TyrannyPresenter(t)
    t.submit(Roll("cops-1", (2,)))
    t.submit(MoveTo("cops-1", "o-gamble-1"))
    labels = [b.label for b in p.buttons()]
    assert labels[:3] == ["⚄ App's Gamble card", "Enter Gamble card…", "Don't draw"]
    entries = dict(p.physical_draws())
    three = next(a for label, a in entries.items() if label.startswith("Gamble 3:"))
    t.submit(three)  # Gamble 3 is kept face down
    assert "inescapable" not in " ".join(x.text for x in t.log(PUBLIC))
    hand = p.hand("cops-1")
    assert [c.title for c in hand] == ["Gamble 3"] and "inescapable arrest" in hand[0].text
    assert p.hand("criminals-1") == []
    assert any("You drew Gamble 3" in line for line in p.private_news("cops-1"))
    assert p.private_news("criminals-1") == []


@pytest.mark.parametrize("seed", range(6))
def test_random_games_every_button_is_legal_and_no_secret_is_public(journal, seed, soak_factor):
    r = random.Random(seed)
    t = new_table(journal, SEATS4 if seed % 2 else SEATS2, {"move": r.choice(["exact", "up-to"])}, seed=seed)
    p = TyrannyPresenter(t)
    for _ in range(150 * soak_factor):
        if t.outcome is not None:
            break
        legal = list(t.legal_actions())
        hidden = set(t.game.secrets(t.state, PUBLIC))
        for spec in p.buttons():
            if spec.intent == "submit":
                assert spec.action in legal
            assert not any(h in spec.label for h in hidden)
        public = p.prompt_line() + " ".join(c.short + c.detail for c in p.cells()) + " ".join(c.status for c in p.chips())
        assert not any(h in public for h in hidden)
        action = r.choice(legal)
        if isinstance(action, (Roll, Draw)) and r.random() < 0.3:
            t.roll_for_me()
        else:
            t.submit(action)


def test_sentences_name_people_not_seat_ids(journal):
    p = TyrannyPresenter(new_table(journal))
    assert p.humanise("cops-1 rolls 3 to move; criminals-1 waits.") == "Ann rolls 3 to move; Bob waits."
    assert p.humanise("die:sim/0") == "die:sim/0"


def _play_until(t, p, want, rng, limit=3000):
    """Random legal actions until the prompt awaits a roll whose purpose ``want`` accepts."""
    for _ in range(limit):
        if t.outcome is not None:
            return None
        waits = (t.view().get("prompt") or {}).get("waits") or {}
        for seat, w in waits.items():
            if w.get("$") == "core.RollRequest" and want(w.get("purpose", "")):
                return seat
        t.submit(rng.choice(list(t.legal_actions())))
    return None


@pytest.mark.parametrize("purpose,good,bad", [
    ("capture", "captures", "fails to capture"),
    ("escape", "escapes custody", "stays in custody"),
    ("capture roll", "goes free", "is captured"),
])
def test_a_deciding_roll_is_a_moment_for_the_whole_table(journal, purpose, good, bad):
    """Every roll that decides something reads as a result moment, made from two public
    views: which way it went is in the title; nothing else of the turn makes one."""
    seen = set()
    for seed in range(1, 40):
        t = new_table(journal, seed=seed)
        p = TyrannyPresenter(t)
        rng = random.Random(seed)
        seat = _play_until(t, p, lambda x: x.startswith(purpose) if purpose == "capture roll" else x == purpose, rng)
        if seat is None:
            continue
        face = (1, 6)[seed % 2]  # low and high faces in turn: each outcome comes up
        before = t.view()
        t.submit(Roll(seat, (face,)))
        m = p.moment(before, t.view())
        assert m is not None, (purpose, face)
        assert p.name(seat) in m.title and seat not in m.title, m.title  # names, not seat ids
        seen.add(good if good in m.title else bad if bad in m.title else m.title)
        if {good, bad} <= seen:
            break
    assert seen == {good, bad}, seen
    # A move that decides nothing makes no moment.
    t = new_table(journal, seed=1)
    p = TyrannyPresenter(t)
    before = t.view()
    t.submit(Roll("cops-1", (3,)))
    assert p.moment(before, t.view()) is None


def test_the_physical_card_entry_never_tells_what_the_others_hold(journal):
    """The entry lists every card number the drawing seat cannot rule out from what it may
    know, the same whatever the others keep face down; a number whose copies are all in
    another's hand is still listed, and refused behind the gate if chosen."""
    t = new_table(journal, seed=2)
    p = TyrannyPresenter(t)
    t.submit(Roll("cops-1", (2,)))
    t.submit(MoveTo("cops-1", "o-gamble-1"))
    first = [label.split(":")[0] for label, _a in p.physical_draws()]
    assert first == [f"Gamble {n}" for n in range(1, 11)]
    three = dict(p.physical_draws())
    t.submit(next(a for label, a in three.items() if label.startswith("Gamble 3:")))  # kept face down by Ann
    # Play on until Bob draws from the Gamble deck: Ann's Gamble 3 is not his to rule out.
    rng = random.Random(5)
    for _ in range(2000):
        req = t.prompt.of("criminals-1") if t.prompt is not None else None
        if t.outcome is not None or (req is not None and getattr(req, "deck", "") == "gamble"):
            break
        t.submit(rng.choice(list(t.legal_actions())))
    if t.outcome is not None:
        pytest.skip("the game ended before Bob drew from the Gamble deck")
    labels = [label.split(":")[0] for label, _a in p.physical_draws()]
    discards = t.view()["decks"]["gamble"]["discard"]
    from rules.tyranny.cards import CARDS
    gone = {CARDS[c].number for c in discards if sum(1 for d in discards if CARDS[d].number == CARDS[c].number) == 2}
    assert labels == [f"Gamble {n}" for n in range(1, 11) if n not in gone]


def test_the_phone_gets_the_gate_s_physical_draws_per_seat_and_its_own_cards_text(journal):
    t = new_table(journal, seed=2)
    p = TyrannyPresenter(t)
    t.submit(Roll("cops-1", (2,)))
    t.submit(MoveTo("cops-1", "o-gamble-1"))
    offered = p.physical_draws("cops-1")
    assert offered and offered == p.physical_draws()  # the same list as behind the gate
    assert p.physical_draws("criminals-1") == []  # not drawing: nothing to enter
    three = next(a for label, a in offered if label.startswith("Gamble 3:"))
    t.submit(three)
    assert p.card_texts("cops-1") == [(three.card, "Gamble 3", p.hand("cops-1")[0].text)]
    assert "inescapable arrest" in p.card_texts("cops-1")[0][2]
    assert p.card_texts("criminals-1") == []

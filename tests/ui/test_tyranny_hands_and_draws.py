"""The Tyranny presenter's card just drawn and its "Hands" page, against the real Table
without a window (issue 32, item 7; the real-window tests are test_tyranny_ui.py)."""
from __future__ import annotations

from rules import Draw, Roll
from rules.tyranny.actions import MoveTo

from companion.ui.games.tyranny.presenter import TyrannyPresenter
from tests.ui.test_tyranny_presenter import SEATS4, journal, new_table  # noqa: F401  (journal: a fixture)


def _to_the_gains_tile(t):
    """Seed 1, rolls by hand: Ann 6, Bob 1, Ann 2 lands Ann on a Gains tile."""
    for seat, value in (("cops-1", 6), ("criminals-1", 1), ("cops-1", 2)):
        t.submit(Roll(seat, (value,)))
        t.submit(next(a for a in t.legal_actions() if isinstance(a, MoveTo)))


def test_the_card_drawn_is_read_from_the_public_views_face_up_or_face_down(journal):
    from rules.tyranny.actions import Decline

    t = new_table(journal)
    p = TyrannyPresenter(t)
    _to_the_gains_tile(t)
    before = t.view()
    # Gains 9 acts at once (RULINGS C-01): shown to everyone, with the drawer's half.
    t.submit(Draw("cops-1", deck="gains", card="gains-09a", source="card"))
    card = p.drawn_card(before, t.view())
    assert (card.public, card.title, card.text, card.who) == (True, "Gains 9", "Criminals lose 500 influence.", "Ann")
    # Bob's Gains 1 is kept face down (C-05): the table learns only its deck.
    t.submit(Roll("criminals-1", (1,)))
    t.submit(next(a for a in t.legal_actions() if isinstance(a, MoveTo)))
    before = t.view()
    t.submit(Draw("criminals-1", deck="gains", card="gains-01a", source="card"))
    card = p.drawn_card(before, t.view())
    assert (card.public, card.title, card.who) == (False, "Gains card", "Bob")
    assert "extra roll" not in card.text and "1" not in card.title
    # Any other action is no draw; so is saying no to one.
    before = t.view()
    t.submit(Roll("cops-1", (3,)))
    assert p.drawn_card(before, t.view()) is None
    t2 = new_table(journal, seed=2)
    _to_the_gains_tile(t2)
    before = t2.view()
    t2.submit(Decline("cops-1"))
    assert TyrannyPresenter(t2).drawn_card(before, t2.view()) is None


def test_the_hands_page_names_every_seat_and_how_many_cards_it_holds(journal):
    t = new_table(journal, seats=SEATS4)
    assert TyrannyPresenter(t).hands_menu() == [
        ("cops-1", "▤ Ann's hand (0 cards)"), ("criminals-1", "▤ Bob's hand (0 cards)"),
        ("cops-2", "▤ Cat's hand (0 cards)"), ("criminals-2", "▤ Dan's hand (0 cards)")]

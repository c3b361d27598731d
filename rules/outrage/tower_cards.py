"""TOWER CARDS: drawn when instructed, "kept hidden from other players and retained until
required"; "once played they are returned to the bottom of the pack". Which card each
moment takes (Sanctuary at a turn's start, a Rope or Ladder on a marked White Tower
square, a Tower Pass at Queen's House or at tea, the prisons' escape cards, the card a
moment offers), and THE CARDS' "you may change any or all your Tower Cards instead of
taking a turn".
"""
from __future__ import annotations

from typing import Iterable, Iterator

from rules.core import Draw, Violation

from .actions import Change, Play
from .cards import KIND_NAME, TOWER, kind_of
from .movement import sheltered
from .places import BOARD, ROPE_LADDER
from .prisons import RACK_CARDS, prison_cards
from .sections import R_ACCR, R_GENERAL, R_TOWER, a
from .state import OutrageState

START_CARDS = ("sanctuary",)
"""A Tower card that may begin a turn anywhere: Sanctuary."""
ROPE_START_CARDS = ("sanctuary", "rope", "ladder")
"""... and on a White Tower square marked for them, a Rope or a Ladder too."""
OFFER_CARDS = {"beauchamp": ("pardon",), "bowyer": ("confession",), "rack": ("rack-pardon",), "curfew": ("tower-pass",)}
"""The card each moment of an offer takes (``state.choice_for``)."""


def start_plays(state: OutrageState, seat: str) -> tuple[str, ...]:
    """The kinds of Tower card that may begin ``seat``'s turn: Sanctuary anywhere; a Rope
    or Ladder on a White Tower square where they are marked (Tower Cards: Aids to escape)."""
    return ROPE_START_CARDS if state.pos[seat] in ROPE_LADDER else START_CARDS


def playable(state: OutrageState, seat: str) -> tuple[str, ...]:
    """The kinds of Tower card ``seat`` may play at this moment (``state.phase``)."""
    phase = state.phase
    if phase == "start":
        return start_plays(state, seat)
    if phase in ("accredit", "tea"):
        return ("tower-pass",)
    if phase == "prison":
        return prison_cards(state.held[seat].place)
    if phase == "rack":
        return RACK_CARDS
    if phase == "offer":
        return OFFER_CARDS.get(state.choice_for, ())
    return ()


def informable(state: OutrageState, seat: str) -> list[str]:
    """Whom a Confession may inform on: an opponent (not a team-mate) at large, whom
    another player may move: not held, not in the White Tower or Inmost Ward, not in
    Sanctuary (RULINGS P-02)."""
    return [s for s in state.order.order if s != seat and state.in_play(s) and s not in state.held
            and not sheltered(state, s) and s not in state.sanctuary and state.team(s) != state.team(seat)]


class TowerCards:
    """Drawing, playing and changing Tower cards (the rules' part of
    :class:`~rules.outrage.game.Outrage`)."""

    def start_plays(self, state: OutrageState, seat: str) -> tuple[str, ...]:
        return start_plays(state, seat)

    def offer_cards(self, state: OutrageState, seat: str) -> list[str]:
        """The cards in ``seat``'s hand that the offer under way takes."""
        return state.cards_of(seat, *OFFER_CARDS.get(state.choice_for, ()))

    # ------------------------------------------------- the table's own pack (RULINGS T-01)

    def unseen_zones(self, state: OutrageState, seat: str, deck: str) -> list[list[str]]:
        """The other players' hands, "kept hidden from other players" (TOWER CARDS): a
        Tower card drawn from the table's pack may be one the app had there (T-01)."""
        if deck != "tower":
            return []
        return [h.cards for s, h in sorted(state.hands.items()) if s != seat]

    def not_drawable(self, state: OutrageState, seat: str, deck: str, card: str) -> str:
        """Why ``seat`` cannot have drawn ``card``: only what it may see (T-01)."""
        if deck == "tower" and card in state.hands[seat]:
            return "That card is in your own hand."
        if deck == "tower" and any(card in bg.tools for bg in state.burglaries.values()):
            return "That card lies face up with a burglary's tools."
        return super().not_drawable(state, seat, deck, card)  # type: ignore[misc]

    def reconcile_draw(self, state: OutrageState, action: Draw) -> str | None:
        """The card drawn was one the app had in another player's hand: the pack's next
        card takes its place there, and that player is told, privately (T-01)."""
        new = super().reconcile_draw(state, action)  # type: ignore[misc]
        # The player whose hand held the card drawn holds the one that took its place.
        holder = None if new is None else next((s for s, h in state.hands.items() if s != action.seat and new in h), None)
        if new is not None and holder is not None:
            state.note(f"A Tower card drawn from the table's pack was entered as one the app had in your hand: it now "
                       f"records {a(TOWER[new].name)} in its place (RULINGS T-01). Check your hand.", holder, (holder,))
        return new

    def _take_tower_card(self, state: OutrageState, action: Draw) -> None:
        seat = action.seat
        state.decks["tower"].take(action.card)
        state.hands[seat].add(action.card)
        state.note(f"{state.seat_name(seat)} takes a Tower card.")
        state.note(f"You took {a(TOWER[action.card].name)}.", seat, (seat,))
        self.proceed(state)

    def _to_pack(self, state: OutrageState, cards: Iterable[str]) -> None:
        """Cards played or given up go to the bottom of the Tower pack, in order (``cards``
        may be a hand about to be cleared: extend copies it first)."""
        state.decks["tower"].cards.extend(cards)

    def _shuffle_pack(self, state: OutrageState) -> None:
        state.decks["tower"].shuffle(state.rng)

    def _play_violations(self, state: OutrageState, action: Play) -> Iterator[Violation]:
        seat, card = action.seat, action.card
        who = state.seat_name(seat)
        if card not in state.hands[seat]:
            yield Violation("not-in-hand", R_TOWER, f"{who} has no such card in hand.")
            return
        kind = kind_of(card)
        if kind not in playable(state, seat):
            yield Violation("card-not-playable", R_TOWER, f"{who} cannot play {a(KIND_NAME.get(kind, 'card'))} now.")
            return
        if kind == "confession":
            if action.target not in informable(state, seat):
                yield Violation("bad-confession", R_TOWER, f"{who} must inform on an opponent at large outside the White Tower, the Inmost Ward and Sanctuary.")
        elif action.target:
            yield Violation("no-target", R_TOWER, f"{who}'s {KIND_NAME[kind]} names no other player.")

    def _play(self, state: OutrageState, action: Play) -> None:
        seat, card = action.seat, action.card
        kind = kind_of(card)
        who = state.seat_name(seat)
        state.hands[seat].remove(card)
        self._to_pack(state, [card])
        name = TOWER[card].name
        phase = state.phase
        if phase == "start" and kind in ("rope", "ladder"):
            # Down the rope or ladder to the foot of the White Tower; that ends the turn.
            foot = sorted(BOARD.graph.neighbours(state.pos[seat], edges={"rope"}))[0]
            self.place(state, seat, foot, f", climbing down {a(name)} out of the White Tower [{R_TOWER}]")
            state.end_now = True
            self.land(state, seat, foot, 0)
        elif phase == "start":  # Sanctuary: to the Chapel Royal, in lieu of a turn
            self.place(state, seat, BOARD.places["chapel_royal"], f", claiming Sanctuary [{R_TOWER}]")
            if seat not in state.sanctuary:
                state.sanctuary.append(seat)
            self.end_turn(state)
        elif phase == "accredit":
            state.accredited[seat] = True
            state.note(f"{who} presents a Tower Pass and is accredited. [{R_ACCR}]")
            self.end_turn(state)
        elif phase == "tea":
            self._leave_tea(state, seat)
        elif phase == "prison":
            self._play_in_prison(state, seat, card, kind, action.target)
        elif phase == "rack":
            self._escape_rack(state, seat, name)
        else:  # an offer made at the moment of imprisonment or of a Raven card
            if state.choice_for == "curfew":
                self._curfew(state, seat, pass_played=True)
            else:
                self._play_on_offer(state, seat, action.target)
            self.proceed(state)

    def _change_violations(self, state: OutrageState, action: Change) -> Iterator[Violation]:
        hand = state.hands[action.seat].cards
        who = state.seat_name(action.seat)
        if not action.cards or len(set(action.cards)) != len(action.cards) or any(c not in hand for c in action.cards):
            yield Violation("not-in-hand", R_GENERAL, f"{who} changes one or more cards from their own hand, each once.")
        elif state.phase == "change-offer" and len(action.cards) != 1:
            yield Violation("change-one", R_GENERAL, f"This square lets {who} change one Tower card.")

    def _change(self, state: OutrageState, action: Change) -> None:
        seat = action.seat
        for c in action.cards:
            state.hands[seat].remove(c)
        self._to_pack(state, action.cards)
        n = len(action.cards)
        state.note(f"{state.seat_name(seat)} changes {n} Tower card{'s' if n > 1 else ''}. [{R_GENERAL}]")
        if state.phase == "start":  # "instead of taking a turn"
            state.end_now = True
            state.again = False
        state.tasks[:0] = [("draw-tower", seat, "")] * n
        self.proceed(state)

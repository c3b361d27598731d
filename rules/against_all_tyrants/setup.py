"""Setting up (5.2.1 Players, 5.2.5 Game Setup): one Attacker and one Defender, their decks
checked (5.2.4), the bases placed (5.2.2.2), the main decks shuffled, the five-card deal,
the mulligan (5.2.5.2) and the Infiltrate units deployed before the first turn (5.2.8.2)."""
from __future__ import annotations

from typing import Any, Iterator

from rules.core import Decision, Deck, DrawRequest, Hand, Prompt, Rng, Seat, Violation, step
from rules.core.errors import InvalidSetup

from .actions import Infiltrate, Mulligan
from .cards import THEATER_NAMES, CardError
from .decks import check_deck
from .resolution import pending_key
from .sections import R_DEPLOY, R_HAND, R_SETUP, R_TRAITS
from .state import HOME, ROLES, AatState, Piece, SideState, card_id, cards_of, deck_of, instances


class Setup:
    """Setting up: a part of :class:`~rules.against_all_tyrants.game.AgainstAllTyrants`."""

    def resolve_options(self, options: dict[str, Any]) -> dict[str, Any]:
        # A deck is either an example deck's key (text) or a deck file's data (an object).
        loose = {k: v for k, v in options.items() if k not in ("attacker_deck", "defender_deck")}
        out = super().resolve_options(loose)
        for k in ("attacker_deck", "defender_deck"):
            if k in options:
                v = options[k]
                if not isinstance(v, (str, dict)):
                    raise InvalidSetup([Violation("bad-option", "Setup", f"Option {k!r} is an example deck's key or deck-file data.")])
                out[k] = v
        return out

    def check_setup(self, seats: list[Seat], options: dict[str, Any]) -> Iterator[Violation]:
        for role in ROLES:
            n = sum(1 for s in seats if s.faction == role)
            if n != 1:
                yield Violation("role-count", "5.2.1 Players", f"Against All Tyrants needs one Attacker and one Defender, not {n} {role}s.")
        try:
            cards = cards_of(options)
        except CardError as e:
            yield Violation("bad-cards", R_SETUP, "The card set cannot be used: " + "; ".join(e.problems[:5]))
            return
        for seat in seats:
            role = seat.faction
            if role not in ROLES:
                continue
            try:
                deck = deck_of(options, role)
            except CardError as e:
                yield Violation("bad-deck", R_SETUP, f"{seat.label}'s deck (the {role.title()}) cannot be read: {e}")
                continue
            except KeyError as e:
                yield Violation("bad-deck", R_SETUP, f"{seat.label}'s deck (the {role.title()}): {e.args[0]}")
                continue
            for v in check_deck(deck, cards):
                yield Violation("illegal-deck", v.rule, f"{seat.label}'s deck (the {role.title()}): {v.message}")

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng, seed: int) -> AatState:
        sides = {}
        for s in seats:
            deck = deck_of(options, s.faction)
            inst = instances(deck, s.faction)
            main = Deck(f"deck-{s.id}", cards=list(inst["main"]), auto_reshuffle=False)
            main.shuffle(rng)
            bases = inst["bases"]
            cards = cards_of(options)
            home = next(b for b in bases if cards[card_id(b)].theaters == (HOME[s.faction],))
            sides[s.id] = SideState(main, Hand(s.id), list(inst["special_forces"]), list(inst["objectives"]),
                                    unused_base=next(b for b in bases if b != home))
        state = AatState(seats=seats, options=options, seed=seed, rng=rng, sides=sides)
        for s in seats:
            home = next(b for b in instances(deck_of(options, s.faction), s.faction)["bases"] if b != sides[s.id].unused_base)
            state.pieces[home] = Piece(home, card_id(home), s.id, HOME[s.faction])
            o = self.objective(state, s.id)
            where = THEATER_NAMES[HOME[s.faction]]
            state.note(f"{state.name(s.id)} is the {s.faction.title()} ({deck_of(options, s.faction).subfaction}): "
                       f"base {state.card(home).title} in {where} (5.2.2.2).")
            if o.goal == "tbd":
                state.note(f"{o.subfaction}'s alternate objective ({o.name}) is To Be Determined in the rulebook ({o.rule}): "
                           f"{state.name(s.id)} plays for the primary objective only (RULINGS A-20).")
            elif o.goal == "none":
                state.note(f"{o.subfaction} has no alternate objective in the rulebook: {state.name(s.id)} plays for the primary objective only (RULINGS A-20).")
            else:
                state.note(f"{state.name(s.id)}'s alternate objective: {o.name} — {o.text} ({o.rule})")
        state.active = state.seat_of("defender")
        state.note("Both main decks are shuffled; Special Forces and objective cards are set aside unshuffled (5.2.5.1).")
        return state

    def random_setup(self, rng: Rng) -> tuple[list[Seat], dict[str, Any]]:
        keys = ("first-leaders-navy", "freedom-fighters")
        a = rng.choice(keys)
        return [Seat("att", "attacker", "Ann"), Seat("def", "defender", "Bob")], {"attacker_deck": a, "defender_deck": rng.choice(keys)}

    def default_seats(self) -> list[Seat]:
        return [Seat("attacker-1", "attacker"), Seat("defender-2", "defender")]

    @step("deal", timed=False, rule=R_HAND, depends=lambda s: (pending_key(s) if s.pending else None, s.active, len(s.sides[s.active].hand)))
    def ask_deal(self, state: AatState) -> Prompt:
        if state.pending:
            return self._ask_pending(state, state.pending[0])
        seat = state.active
        n = len(state.sides[seat].hand)
        return Prompt.single(seat, DrawRequest(f"deck-{seat}", f"setup: draw 5 cards ({n} of 5)"))

    @step("mulligan", timed=False, rule=R_HAND, depends=lambda s: (pending_key(s) if s.pending else None, s.active))
    def ask_mulligan(self, state: AatState) -> Prompt:
        if state.pending:
            return self._ask_pending(state, state.pending[0])
        return Prompt.single(state.active, Decision(("mulligan",), "discard any number of cards to draw that many (none is fine)"))

    @step("redraw", timed=False, rule=R_HAND, depends=lambda s: (pending_key(s) if s.pending else None, s.active, s.redraw))
    def ask_redraw(self, state: AatState) -> Prompt:
        if state.pending:
            return self._ask_pending(state, state.pending[0])
        return Prompt.single(state.active, DrawRequest(f"deck-{state.active}", f"setup: draw {state.redraw} more"))

    @step("infiltrate", timed=False, rule=R_TRAITS, depends=lambda s: (pending_key(s) if s.pending else None, s.active))
    def ask_infiltrate(self, state: AatState) -> Prompt:
        if state.pending:
            return self._ask_pending(state, state.pending[0])
        return Prompt.single(state.active, Decision(("infiltrate",), "deploy an Infiltrate unit from the Special Forces Deck"))

    def _mulligan_violations(self, state: AatState, action: Mulligan) -> list[Violation]:
        found: list[Violation] = []
        side = state.sides[action.seat]
        if len(set(action.cards)) != len(action.cards):
            found.append(Violation("repeated-card", R_HAND, f"{state.name(action.seat)}, name each card you discard once."))
        for c in action.cards:
            if c not in side.hand:
                found.append(Violation("not-in-hand", R_HAND, f"{state.name(action.seat)}, {c!r} is not a card in your hand."))
        return found

    def _infiltrate_violations(self, state: AatState, a: Infiltrate) -> Iterator[Violation]:
        pending = self._infiltrators(state, a.seat)
        if a.card not in pending:
            yield Violation("not-infiltrator", R_TRAITS, f"{state.name(a.seat)}, {a.card!r} is not an Infiltrate unit waiting in your Special Forces Deck.")
        elif a.theater not in state.card(a.card).theaters:
            yield Violation("wrong-theater", R_DEPLOY, f"{state.name(a.seat)}, {state.card(a.card).title} can only be deployed in {self._theaters(state.card(a.card))}.")

    def _infiltrators(self, state: AatState, seat: str) -> list[str]:
        return [c for c in state.sides[seat].special_forces if state.card(c).has("Infiltrate") and state.card(c).kind == "unit"]

    def _mulligan(self, state: AatState, action: Mulligan) -> None:
        seat = action.seat
        side = state.sides[seat]
        for c in action.cards:
            side.hand.remove(c)
            side.aside.append(c)
        state.redraw = len(action.cards)
        state.note(f"{state.name(seat)} mulligans {len(action.cards)} card(s) (5.2.5.2).", seat)
        state.note(f"You set aside {', '.join(state.card(c).title for c in action.cards) or 'nothing'}.", seat, to=(seat,))
        if state.redraw:
            state.phase = "redraw"
        else:
            self._after_mulligan(state)

    def _infiltrate(self, state: AatState, action: Infiltrate) -> None:
        self._place_piece(state, action.seat, action.card, action.theater, "infiltrates")
        self._next_infiltrator(state)

    def _after_mulligan(self, state: AatState) -> None:
        seat = state.active
        side = state.sides[seat]
        if side.aside:
            side.deck.cards.extend(side.aside)
            side.aside.clear()
            side.deck.shuffle(state.rng)
            state.note(f"{state.name(seat)} shuffles the discarded cards back into the main deck (5.2.5.2).", seat)
        if seat == state.seat_of("defender"):
            state.active = state.seat_of("attacker")
            state.phase = "mulligan"
            return
        # Infiltrate (5.2.8.2): units able to go to one theater only deploy by themselves.
        for s in (state.seat_of("defender"), state.seat_of("attacker")):
            for c in list(self._infiltrators(state, s)):
                if len(state.card(c).theaters) == 1:
                    self._place_piece(state, s, c, state.card(c).theaters[0], "infiltrates")
        state.active = state.seat_of("defender")
        self._next_infiltrator(state)

    def _next_infiltrator(self, state: AatState) -> None:
        for s in (state.seat_of("defender"), state.seat_of("attacker")):
            if self._infiltrators(state, s):
                state.active = s
                state.phase = "infiltrate"
                return
        self._start_turn(state, state.seat_of("defender"))

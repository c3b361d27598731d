"""Three tiny games that exercise the kernel's mechanisms the five real games need:
2d6 with doubles (Outrage!), a simultaneous secret commit (Outrage! attacks, Dicetopia
missions), a deck whose reshuffles end the game (Liberation's ACTs), and an escalation
scale fed by incidents (Against All Tyrants)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable

from rules.core import (
    Action, Commit, Decision, Deck, Draw, DrawRequest, Escalation, Game, Hand, Outcome,
    Prompt, Rng, Roll, RollRequest, Score, Seat, SecretRequest, SecretRound, State, Streak,
    Track, TurnOrder, Violation, action, serializable,
)


@action("mini.stop")
@dataclass(frozen=True)
class Stop(Action):
    """End the turn instead of rolling again."""


@serializable("mini.DoublesState")
@dataclass(kw_only=True)
class DoublesState(State):
    order: TurnOrder
    score: dict[str, Track]
    doubles: int = 0
    rolled: bool = False


class Doubles(Game[DoublesState]):
    """Roll 2d6 and score the total; a double rolls again, three doubles lose the turn's
    points and end it. First to 30 wins."""

    id = "mini-doubles"
    title = "Doubles"
    factions = ("red", "blue")
    action_types = (Roll, Stop)
    dice_rule = "The dice"

    def setup(self, seats, options, rng, seed):
        return DoublesState(
            seats=seats, options=options, seed=seed, rng=rng,
            order=TurnOrder([s.id for s in seats]),
            score={s.id: Track("score", 0, lo=0, hi=30) for s in seats},
        )

    def ask(self, state):
        seat = state.order.current
        if state.rolled:
            return Prompt(frozenset({seat}), RollRequest(2, 6, "roll again after a double", also=("stop",)))
        return Prompt(frozenset({seat}), RollRequest(2, 6, "score"))

    def violations(self, state, action, prompt):
        return ()

    def execute(self, state, action):
        seat = state.order.current
        if isinstance(action, Stop):
            self._end_turn(state)
            return
        assert isinstance(action, Roll)
        if action.is_double:
            state.doubles += 1
            if state.doubles == 3:
                state.note(f"{seat} rolled three doubles and loses the turn.")
                self._end_turn(state)
                return
            state.score[seat].add(action.total)
            state.rolled = True
        else:
            state.score[seat].add(action.total)
            self._end_turn(state)
        if state.score[seat].value >= 30:
            self.finish(state, Outcome(state.seat(seat).faction, f"{seat} reached 30",
                                       {s: Score(t.value) for s, t in state.score.items()}, (seat,)))

    def _end_turn(self, state):
        state.doubles = 0
        state.rolled = False
        state.order.advance()

    def candidates(self, state, prompt):
        if "stop" in prompt.awaiting.accepted:
            yield Stop(state.order.current)


@serializable("mini.DuelState")
@dataclass(kw_only=True)
class DuelState(State):
    round: SecretRound
    wins: dict[str, int]
    history: list[dict[str, int]] = field(default_factory=list)


PICKS = ("one", "two", "three")


class Duel(Game[DuelState]):
    """Both seats secretly pick 1, 2 or 3; the higher wins the round; first to 3 wins."""

    id = "mini-duel"
    title = "Duel"
    factions = ("red", "blue")
    action_types = (Commit,)

    def setup(self, seats, options, rng, seed):
        return DuelState(seats=seats, options=options, seed=seed, rng=rng,
                         round=SecretRound("duel", [s.id for s in seats]), wins={s.id: 0 for s in seats})

    def ask(self, state):
        r = state.round
        return Prompt(frozenset(r.waiting_for), SecretRequest(frozenset(r.seats), "pick 1–3", frozenset(r.commits)))

    def violations(self, state, action, prompt):
        if action.choice not in PICKS:
            yield Violation("bad-choice", "Duel §1", "A pick must be 1, 2 or 3, spelt out.")

    def execute(self, state, action):
        state.round.commit(action.seat, action.choice)
        if state.round.is_complete:
            picks = state.round.reveal()
            state.history.append({s: PICKS.index(c) + 1 for s, c in picks.items()})
            (a, x), (b, y) = picks.items()
            if x != y:
                winner = a if PICKS.index(x) > PICKS.index(y) else b
                state.wins[winner] += 1
                state.note(f"{a} showed {x}, {b} showed {y}: {winner} wins the round.")
                if state.wins[winner] == 3:
                    self.finish(state, Outcome(state.seat(winner).faction, "three rounds won", winning_seats=(winner,)))
            state.round = SecretRound("duel", list(state.round.seats))

    def candidates(self, state, prompt):
        for seat in sorted(prompt.actors):
            for c in PICKS:
                yield Commit(seat, c)

    def render(self, state, viewer):
        view: dict[str, Any] = {"wins": dict(state.wins), "history": list(state.history)}
        view["round"] = state.round.private(viewer) if viewer in state.round.seats else state.round.public()
        return view

    def secrets(self, state, viewer):
        # A pending choice is secret from everyone but its owner (history holds ints,
        # so a pending choice's string can only show up in a view by leaking).
        return {c for s, c in state.round.commits.items() if s != viewer}


@serializable("mini.ActsState")
@dataclass(kw_only=True)
class ActsState(State):
    decks: dict[str, Deck]
    hands: dict[str, Hand]
    order: TurnOrder
    tension: Escalation
    streak: Streak
    drawn: bool = False


class Acts(Game[ActsState]):
    """Draw a card, then discard one. Each reshuffle ends an ACT; the third reshuffle ends
    the game. Every card drawn is an incident on an escalation scale (4 to a level)."""

    id = "mini-acts"
    title = "Acts"
    factions = ("red", "blue")
    action_types = (Draw, Commit)
    cards = [f"c{i:02d}" for i in range(6)]

    def setup(self, seats, options, rng, seed):
        deck = Deck("main", cards=list(self.cards), auto_reshuffle=True)
        deck.shuffle(rng)
        return ActsState(seats=seats, options=options, seed=seed, rng=rng, decks={"main": deck},
                         hands={s.id: Hand(s.id) for s in seats}, order=TurnOrder([s.id for s in seats]),
                         tension=Escalation(), streak=Streak(3))

    def ask(self, state):
        seat = state.order.current
        deck = state.decks["main"]
        if not state.drawn:
            return Prompt(frozenset({seat}), DrawRequest("main", "draw a card"))
        return Prompt(frozenset({seat}), Decision(("commit",), "discard a card"))

    def violations(self, state, action, prompt):
        if isinstance(action, Draw) and state.decks["main"].needs_reshuffle and state.decks["main"].reshuffles == 2:
            pass  # allowed: the third reshuffle ends the game when it happens
        if isinstance(action, Commit) and action.choice not in state.hands[action.seat]:
            yield Violation("not-in-hand", "Acts §2", "You can only discard a card from your hand.")

    def execute(self, state, action):
        deck = state.decks["main"]
        if isinstance(action, Draw):
            if deck.needs_reshuffle and deck.reshuffles == 2:
                self.finish(state, Outcome(None, "the third reshuffle"))
                return
            deck.take_drawn(action.card, state.rng)
            state.hands[action.seat].add(action.card)
            state.tension.add_incidents(1)
            state.drawn = True
        else:
            state.hands[action.seat].remove(action.choice)
            deck.put_discard(action.choice)
            state.drawn = False
            state.order.advance()
        state.streak.update(state.tension.level >= 2)

    def candidates(self, state, prompt):
        if state.drawn:
            seat = state.order.current
            for c in state.hands[seat].cards:
                yield Commit(seat, c)

    def render(self, state, viewer):
        deck = state.decks["main"]
        return {"deck": len(deck), "discard": len(deck.discard), "act": deck.reshuffles + 1,
                "hands": {s: h.view(viewer) for s, h in state.hands.items()},
                "tension": [state.tension.level, state.tension.incidents]}

    def secrets(self, state, viewer):
        hidden = set(state.decks["main"].cards) | set(state.decks["main"].discard)
        for s, h in state.hands.items():
            if s != viewer:
                hidden |= set(h.cards)
        return hidden - {c for c in self.cards if viewer != "public" and c in state.hands.get(viewer, Hand(viewer))}

    def problems(self, state):
        deck = state.decks["main"]
        everywhere = deck.cards + deck.discard + [c for h in state.hands.values() for c in h.cards]
        if sorted(everywhere) != sorted(self.cards):
            yield f"cards not conserved: {sorted(everywhere)}"


DOUBLES, DUEL, ACTS = Doubles(), Duel(), Acts()

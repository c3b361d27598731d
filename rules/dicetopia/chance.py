"""Rolls and draws: where each chance result goes in each phase, and the app's own roll of
the whole city (the physical one can always be entered instead)."""
from __future__ import annotations

from typing import Iterator

from rules.core import Action, Draw, Prompt, Rng, Roll

from .state import FACTION_CARDS, DicetopiaState


class Chance:
    """Rolls and draws: a part of :class:`~rules.dicetopia.game.Dicetopia`."""

    def _draw(self, state: DicetopiaState, action: Draw) -> None:
        who = state.seat_name(action.seat)
        if action.deck == FACTION_CARDS:
            state.faction_deck.take(action.card)
            state.deal_faction(action.seat, action.card)
            state.note(f"{who} is dealt {state.t.factions[action.card].name}.", action.seat)
            if all(state.faction.values()):
                state.phase = "roll"
            return
        state.deck.take(action.card)
        if state.phase == "gamble":
            state.gambled[action.seat] = action.card
            state.note(f"{who}'s High Stakes Gambling draws {state.t.mission(action.card).name} (scored twice).", action.seat)
            self._next_end_step(state)
            return
        state.hands[action.seat].add(action.card)
        state.note(f"{who} draws a mission.", action.seat)
        if state.phase == "deal":
            # §3 step 3: three missions each, then each keeps two.
            if all(len(state.hands[s]) >= 3 for s in state.order):
                state.phase = "keep"
                if not self._keepers(state):
                    self._start_turn(state, state.order[0])
        elif state.phase == "agency-draw":
            state.phase = "agency-bottom"

    def _roll(self, state: DicetopiaState, action: Roll) -> None:
        t = state.t
        if state.phase == "roll":
            # §3 step 2: a die on each space used, in board order; a die is its colour's
            # letter and its value.
            for (hood, i), v, colour in zip(t.spaces(len(state.order)), action.values, action.ids):
                state.city[hood][i] = t.letter(colour) + str(v)
            state.note(f"{state.seat_name(action.seat)} rolls the dice onto the city.", action.seat)
            state.phase = "deal"
            return
        if state.phase == "intervene":
            where, index = state.rerolls.pop(0)
            self._rerolled(state, where, index, action)
            if not state.rerolls:
                state.phase = "deploy"
            return
        # The Gugu Airforce's reroll.
        _, where, index = state.pending
        self._rerolled(state, where, index, action)
        state.pending = []
        self._end_turn(state)

    def _rerolled(self, state: DicetopiaState, where: str, index: int, roll: Roll) -> None:
        """The die at ``(where, index)`` shows the value rolled; its colour stays."""
        c = state.cell(where, index) or ""
        state.put(where, index, c[0] + str(roll.values[0]))
        state.note(f"The {state.t.die_words(c)} on {state.where_name(where)} is rerolled: {roll.values[0]}.", roll.seat)

    def chance_candidates(self, state: DicetopiaState, prompt: Prompt) -> Iterator[Action]:
        if state.phase == "roll":
            # 6^30 values times every arrangement of colours: listing is a sample (D-06).
            for k in range(4):
                yield self._city_roll(state, Rng(state.rng.state ^ (0x9E37 * (k + 1))))
            return
        yield from super().chance_candidates(state, prompt)

    def sample(self, state: DicetopiaState, seat: str | None = None) -> Action | None:
        if state.phase == "roll" and state.result is None and (seat is None or seat == state.order[0]):
            return self._city_roll(state, state.rng.fork(), source="app")
        return super().sample(state, seat)

    def _city_roll(self, state: DicetopiaState, rng: Rng, source: str = "touch") -> Roll:
        t = state.t
        per = t.dice_per_colour(len(state.order))
        colours = [c.id for c in t.colours for _ in range(per)]
        rng.shuffle(colours)
        values = tuple(rng.randint(1, 6) for _ in colours)
        return Roll(state.order[0], values, tuple(colours), source=source)

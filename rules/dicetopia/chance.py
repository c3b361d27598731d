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
        # The cards' own lists (Deck.take, Hand.add): a checked draw names a card in the deck.
        state.deck.cards.remove(action.card)
        if state.phase == "gamble":
            state.gambled[action.seat] = action.card
            state.note(f"{who}'s High Stakes Gambling draws {state.t.mission(action.card).name} (scored twice).", action.seat)
            self._next_end_step(state)
            return
        state.hands[action.seat].cards.append(action.card)
        state.note(f"{who} draws a mission.", action.seat)
        if state.phase == "deal":
            hands = state.hands
            for s in state.order:
                if len(hands[s].cards) < 3:
                    break
            else:
                state.phase = "keep"
                if not self._keepers(state):
                    self._start_turn(state, state.order[0])
        elif state.phase == "agency-draw":
            state.phase = "agency-bottom"

    def _roll(self, state: DicetopiaState, action: Roll) -> None:
        t = state.t
        if state.phase == "roll":
            # A checked roll: every colour known, every value 1-6.
            city, cells = state.city, t.die_cells
            for (hood, i), v, colour in zip(t.spaces(len(state.order)), action.values, action.ids):
                city[hood][i] = cells[colour][v]
            state.note(f"{state.seat_name(action.seat)} rolls the dice onto the city.", action.seat)
            state.phase = "deal"
            return
        if state.phase == "intervene":
            where, index = state.rerolls.pop(0)
            c = state.cell(where, index) or ""
            state.put(where, index, c[0] + str(action.values[0]))
            state.note(f"The {self._die_words(state, c)} on {state.where_name(where)} is rerolled: {action.values[0]}.", action.seat)
            if not state.rerolls:
                state.phase = "deploy"
            return
        # The Gugu Airforce's reroll: a checked die (state.cell, put and where_name in one look-up).
        _, where, index = state.pending
        cells = state.city.get(where)
        place = t.hood_names[where] if cells is not None else state.where_name(where)
        if cells is None:
            cells = state.boards[where]
        c, v = cells[index], action.values[0]
        cells[index] = c[0] + str(v)
        state.note(f"The {t.die_words(c)} on {place} is rerolled: {v}.", action.seat)
        state.pending = []
        self._end_turn(state)

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

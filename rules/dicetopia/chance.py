"""Rolls and draws: where each chance result goes in each phase, and the app's own roll of
the whole city (the physical one can always be entered instead)."""
from __future__ import annotations

from typing import Iterator

from rules.core import Action, Draw, Prompt, Rng, Roll

from .state import FACTION_CARDS, MISSIONS, DicetopiaState


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
            # §3 step 3: three missions each, each player keeping two (as soon as its own
            # three are dealt, or now).
            if all(len(state.hands[s]) >= 3 for s in state.order):
                state.phase = "keep"
                self._end_keeping(state)
        elif state.phase == "agency-draw":
            state.phase = "agency-bottom"

    # ---------------------------------------------------- physical draws (D-33)

    def unseen_zones(self, state: DicetopiaState, seat: str, deck: str) -> list[list[str]]:
        """The other players' secret missions, until the end reveals them: a mission drawn
        from the table's own deck may be one of them (D-33). Faction cards are dealt face up."""
        if deck != MISSIONS or state.revealed:
            return []
        return [state.hands[s].cards for s in state.order if s != seat]

    def not_drawable(self, state: DicetopiaState, seat: str, deck: str, card: str) -> str:
        """Why ``seat`` cannot have drawn ``card``: only what it may see (D-33)."""
        t = state.t
        if deck == FACTION_CARDS:
            if card in t.factions:
                return f"{t.factions[card].name} has already been dealt, face up."
            return "That is not a faction card."
        if card not in t.missions:
            return "That is not a mission card."
        if card in state.hands[seat]:
            return "That mission is in your hand."
        if card in state.gambled.values():
            return "That mission was drawn face up for High Stakes Gambling."
        if state.revealed:
            return "That mission was revealed in another player's hand."
        return "The mission deck is empty."

    def reconcile_draw(self, state: DicetopiaState, action: Draw) -> str | None:
        card = action.card
        new = super().reconcile_draw(state, action)  # type: ignore[misc]
        # The player whose hand held the card drawn holds the one that took its place.
        holder = None if new is None else next((s for s in state.order if s != action.seat and new in state.hands[s]), None)
        if new is None or holder is None:
            return new
        if state.keeps.get(holder) == card:
            state.keeps[holder] = new  # the sealed discard follows the card in its place
        state.note(f"A mission drawn from the table's deck was entered as one the app had in your hand: it now records "
                   f"{t_name(state, new)} in its place (RULINGS D-33). Check your missions.", holder, to=(holder,))
        return new

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


def t_name(state: DicetopiaState, mission: str) -> str:
    """A mission's name, as players read it."""
    return state.t.mission(mission).name

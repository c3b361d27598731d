"""The faction abilities used during play (§7): Hypnosis, Last Resort, Exterminate,
Intervention, Transcendence, Block and Adaptation, and why one is not on offer. The
abilities of end scoring (Cloning, Rigging, Opportunist) are in ``ending``."""
from __future__ import annotations

from typing import Iterator

from rules.core import Action, Die, Prompt, RollRequest, Violation, step

from .actions import Adapt, Block, Choose, Clone, Exterminate, Hypnotize, Intervene, Rig, SaveTurn, Transcend
from .scoring import is_die
from .sections import R_TIMING, r_ability
from .state import DEAD, DicetopiaState


class Abilities:
    """Faction abilities during play: a part of :class:`~rules.dicetopia.game.Dicetopia`."""

    @step("intervene", rule="§7 Factions and Abilities: Tuulu Priests, Intervention")
    def ask_intervene(self, state: DicetopiaState) -> Prompt:
        where, index = state.rerolls[0]
        return Prompt.single(state.current, RollRequest((Die(6, self._owner(state, where)),),
                                                        f"Intervention: reroll the die on {state.where_name(where)}"))

    def _v_hypnotize(self, state: DicetopiaState, action: Hypnotize) -> Iterator[Violation]:
        t, who = state.t, state.seat_name(action.seat)
        if action.hood not in state.city:
            yield Violation("no-such-neighbourhood", r_ability(t, "perceptioneers"), f"{who}, choose one of the six neighbourhoods.")
        elif not any(is_die(c) for c in state.city[action.hood]):
            yield Violation("no-die-there", r_ability(t, "perceptioneers"), f"{t.hood(action.hood).name} has no die left to swap with.")

    def _v_exterminate(self, state: DicetopiaState, action: Exterminate) -> Iterator[Violation]:
        t, who = state.t, state.seat_name(action.seat)
        cell = state.cell(action.hood, action.space) if action.hood in state.city else None
        if cell is None or not is_die(cell):
            yield Violation("no-die-there", r_ability(t, "shakra"), f"{who}, Exterminate removes a die from a neighbourhood; there is none there.")
        elif action.hood == state.hypnosis and sum(1 for c in state.city[action.hood] if is_die(c)) == 1:
            yield Violation("last-hypnosis-die", r_ability(t, "shakra"),
                            f"{who}, that is the last die of {t.hood(action.hood).name}, where Hypnosis sends your agent.")

    def _v_intervene(self, state: DicetopiaState, action: Intervene) -> Iterator[Violation]:
        t, who = state.t, state.seat_name(action.seat)
        for w, i in ((action.a, action.a_index), (action.b, action.b_index)):
            c = state.cell(w, i)
            if c is None or not is_die(c):
                yield Violation("no-die-there", r_ability(t, "tuulu"), f"{who}, Intervention rerolls dice; there is no die at {w!r} {i}.")

    def _v_transcend(self, state: DicetopiaState, action: Transcend) -> Iterator[Violation]:
        t, who = state.t, state.seat_name(action.seat)
        if action.hood not in state.city:
            yield Violation("no-such-neighbourhood", r_ability(t, "ewo"), f"{who}, choose one of the six neighbourhoods' actions.")
        elif not self._possible(state, action.hood):
            yield Violation("not-possible", r_ability(t, "ewo"), f"{who}, {t.hood(action.hood).name}'s action is not possible now.")

    def _v_adapt(self, state: DicetopiaState, action: Adapt) -> Iterator[Violation]:
        t, who = state.t, state.seat_name(action.seat)
        c = state.cell(action.seat, action.index)
        if c is None or not is_die(c):
            yield Violation("no-die-there", r_ability(t, "hollows"), f"{who}, Adaptation changes one of the dice on your faction board.")
        elif action.delta not in (1, -1) or not 1 <= int(c[1]) + action.delta <= 6:
            yield Violation("bad-adaptation", r_ability(t, "hollows"), f"{who}, change the die by +1 or -1, keeping it from 1 to 6.")

    def explain(self, state: DicetopiaState, action: Action, prompt: Prompt) -> Iterator[Violation]:
        t = state.t
        who = state.seat_name(action.seat) if action.seat in state._seat_ids else "That seat"
        needs = {SaveTurn: "roamers", Exterminate: "shakra", Intervene: "tuulu", Transcend: "ewo", Hypnotize: "perceptioneers",
                 Block: "banxa", Adapt: "hollows", Clone: "dangmer", Rig: "bingmai", Choose: "centauri"}
        f = needs.get(type(action))
        if f is not None and action.seat in state._seat_ids:
            if state.faction.get(action.seat) != f:
                yield Violation("not-your-ability", r_ability(t, f), f"{who} does not play {t.factions[f].name}.")
            elif state.flipped.get(action.seat) and t.factions[f].once:
                yield Violation("ability-used", r_ability(t, f), f"{who} has already used {t.factions[f].ability} (once per game).")
            elif isinstance(action, SaveTurn) and state.hypnosis and state.current == action.seat:
                yield Violation("ability-cancels-ability", R_TIMING,
                                f"{who} cannot skip a turn Hypnosis has chosen: a Faction Ability can never cancel another (RULINGS.md D-32).")

    def _hypnotize(self, state: DicetopiaState, action: Hypnotize) -> None:
        state.flipped[action.seat] = True
        state.hypnosis = action.hood
        state.note(f"{state.seat_name(action.seat)} uses Hypnosis: {state.seat_name(state.current)} must deploy in {state.t.hood(action.hood).name}.", action.seat)

    def _save_turn(self, state: DicetopiaState, action: SaveTurn) -> None:
        state.flipped[action.seat] = True
        state.saved = action.seat
        state.note(f"{state.seat_name(action.seat)} uses Last Resort: this turn is saved for after the very last turn.", action.seat)
        self._end_turn(state)

    def _exterminate(self, state: DicetopiaState, action: Exterminate) -> None:
        state.flipped[action.seat] = True
        die = state.city[action.hood][action.space]
        state.city[action.hood][action.space] = DEAD
        state.removed.append(die)
        state.turn_moves += 1
        state.note(f"{state.seat_name(action.seat)} uses Exterminate: the {self._die_words(state, die)} in {state.t.hood(action.hood).name} leaves the game "
                   f"and its space is useless.", action.seat)

    def _intervene(self, state: DicetopiaState, action: Intervene) -> None:
        state.flipped[action.seat] = True
        state.rerolls = [[action.a, action.a_index], [action.b, action.b_index]]
        state.turn_moves += 1
        state.phase = "intervene"
        twice = (action.a, action.a_index) == (action.b, action.b_index)
        state.note(f"{state.seat_name(action.seat)} uses Intervention: " + ("one die rerolled twice." if twice else "two dice rerolled once each."), action.seat)

    def _transcend(self, state: DicetopiaState, action: Transcend) -> None:
        state.flipped[action.seat] = True
        state.act_hood = action.hood
        state.note(f"{state.seat_name(action.seat)} uses Transcendence: {state.t.hood(action.hood).name}'s action instead.", action.seat)
        self._begin_action(state)

    def _block(self, state: DicetopiaState, action: Block) -> None:
        state.flipped[action.seat] = True
        state.reactions.pop()
        state.note(f"{state.seat_name(action.seat)} uses Block: {state.seat_name(state.current)}'s {state.pending[0]} does not happen.", action.seat)
        state.pending = []
        state.reactions.drop(lambda r: r.window == "block")
        self._end_turn(state)

    def _adapt(self, state: DicetopiaState, action: Adapt) -> None:
        c = state.boards[action.seat][action.index]
        state.boards[action.seat][action.index] = c[0] + str(int(c[1]) + action.delta)
        state.reactions.pop()
        state.note(f"{state.seat_name(action.seat)} uses Adaptation: their {self._die_words(state, c)} becomes {int(c[1]) + action.delta}.", action.seat)
        self._after_reaction(state)

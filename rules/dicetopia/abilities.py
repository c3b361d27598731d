"""The faction abilities used during play (§7): Hypnosis, Last Resort, Exterminate,
Intervention, Transcendence, Block and Adaptation. The abilities of end scoring (Cloning,
Rigging, Opportunist) are in ``ending``; why one is not on offer, in ``refusals``."""
from __future__ import annotations

from typing import Iterator

from rules.core import Action, Decision, Die, Prompt, RollRequest, Violation, step

from .actions import Adapt, Block, Decline, Exterminate, Hypnotize, Intervene, SaveTurn, Transcend
from .scoring import is_die
from .refusals import FACTION_OF
from .sections import R_TIMING, r_ability
from .state import DEAD, DicetopiaState
from .turn import hypnotist, start_ability

_KIND_CLASS = {"save_turn": SaveTurn, "exterminate": Exterminate, "intervene": Intervene, "hypnotize": Hypnotize}


class Abilities:
    """Faction abilities during play: a part of :class:`~rules.dicetopia.game.Dicetopia`."""

    @step("intervene", rule="§7 Factions and Abilities: Tuulu Priests, Intervention")
    def ask_intervene(self, state: DicetopiaState) -> Prompt:
        where, index = state.rerolls[0]
        return Prompt.single(state.current, RollRequest((Die(6, self._owner(state, where)),),
                                                        f"Intervention: reroll the die on {state.where_name(where)}"))

    @step("first", rule=R_TIMING)
    def ask_first(self, state: DicetopiaState) -> Prompt:
        """A turn-start ability was announced by a player after another in Player Order who
        may still use theirs now: that player answers first (D-32)."""
        held = state.held
        assert held is not None
        seat, kind = self._first_in_order(state, held)
        return Prompt.single(seat, Decision((kind, "decline"), f"{state.seat_name(seat)} comes first in Player Order: "
                                            f"{self._ability_name(state, _KIND_CLASS[kind])} before "
                                            f"{state.seat_name(held.seat)}'s {self._ability_name(state, type(held))}, or let it go first"))

    def _first_in_order(self, state: DicetopiaState, action: Action) -> tuple[str, str]:
        """Who else may use a turn-start ability at the moment ``action`` is announced, and
        its kind (``("", "")`` when nobody may): the Perceptioneers' Hypnosis beside the
        current player's own ability, and the other way round."""
        cur = state.current
        if action.seat == cur:
            other = hypnotist(state)
            return ("", "") if other is None else (other, "hypnotize")
        kind = start_ability(state, cur)
        return (cur, kind) if kind else ("", "")

    def _ability_name(self, state: DicetopiaState, cls: type) -> str:
        return state.t.factions[FACTION_OF[cls]].ability

    def _turn_start(self, state: DicetopiaState, action: Action) -> None:
        """A turn-start ability. Announced at the turn's start while a player before its
        seat in Player Order may still use their own, it waits for that player's answer
        (``state.held``); that player's ability is then carried out first, and the held
        one after it, unless it would now cancel it (§7: "Should any timing conflict occur,
        always resolve in Player Order"; "A Faction Ability can never cancel another")."""
        effect = _TURN_START_EFFECTS[type(action)]
        if state.phase == "first":
            state.phase = "deploy"
            turn = state.turn
            effect(self, state, action)
            self._resolve_held(state, turn)
            return
        other, kind = self._first_in_order(state, action)
        order = state.order
        if other and order.index(other) < order.index(action.seat):
            state.held = action
            state.phase = "first"
            state.note(f"{state.seat_name(action.seat)} announces {self._ability_name(state, type(action))}. "
                       f"{state.seat_name(other)} comes first in Player Order and may use "
                       f"{self._ability_name(state, _KIND_CLASS[kind])} before it.", action.seat)
            return
        effect(self, state, action)

    def _let_first(self, state: DicetopiaState, action: Decline) -> None:
        """The player first in Player Order lets the held ability go first."""
        held = state.held
        assert held is not None
        state.note(f"{state.seat_name(action.seat)} lets {state.seat_name(held.seat)}'s {self._ability_name(state, type(held))} go first.",
                   action.seat)
        state.phase = "deploy"
        self._resolve_held(state, state.turn)

    def _resolve_held(self, state: DicetopiaState, turn: int) -> None:
        """Carry out the held ability after the answer of the player first in Player Order,
        or let it lapse, its token still up, when that answer left it nothing to do or it
        would cancel that player's ability."""
        held, state.held = state.held, None
        if held is None or state.result is not None:
            return
        name = f"{state.seat_name(held.seat)}'s {self._ability_name(state, type(held))}"
        why = ""
        if state.turn != turn or state.phase not in ("deploy", "intervene"):
            why = "the turn it was for is over"
        elif isinstance(held, SaveTurn) and state.hypnosis:
            why = "skipping the turn Hypnosis has chosen would cancel it"
        elif isinstance(held, Exterminate) and any(self._v_exterminate(state, held)):
            why = f"it would take the last die of {state.t.hood_names[held.hood]}, where Hypnosis sends the agent"
        elif isinstance(held, Hypnotize) and any(self._v_hypnotize(state, held)):
            why = f"{state.t.hood_names[held.hood]} has no die left to swap with"
        if why:
            state.note(f"{name} lapses: {why}. A Faction Ability can never cancel another; "
                       f"{state.seat_name(held.seat)} may use it later.", held.seat)
            return
        _TURN_START_EFFECTS[type(held)](self, state, held)

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


# The effect of each turn-start ability, run once Player Order is settled (D-32).
_TURN_START_EFFECTS = {SaveTurn: Abilities._save_turn, Exterminate: Abilities._exterminate,
                       Intervene: Abilities._intervene, Hypnotize: Abilities._hypnotize}

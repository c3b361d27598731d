"""A turn (§4, §5): the leftmost agent swaps with a die, the neighbourhood's action (The
Agency, a reroll, the four swaps), announcements Banxa may Block, the Hollows' Adaptation
window, and the next seat with an agent left."""
from __future__ import annotations

from typing import Any, Iterable

from rules.core import Decision, Die, DrawRequest, Prompt, Reaction, RollRequest, Violation, step

from .actions import Bottom, Decline, Deploy, Reroll, Swap
from .scoring import DICE, is_die
from .sections import R_ACTIONS, R_ADVANCED, R_ROUND, R_SETUP, R_TIMING, r_ability
from .state import AGENT, MISSIONS, UNUSED, DicetopiaState


def _deploy_key(s: DicetopiaState) -> tuple[Any, ...]:
    """What the deploy prompt reads, and nothing more (so that another player's token
    flipped does not make it anew): the seat and whether its own ability is still up,
    Hypnosis, whether the Perceptioneers may still Hypnotize, and for the Roamers whether
    another player has an agent left (Last Resort)."""
    cur, flipped = s.current, s.flipped
    used = flipped[cur]
    # The Perceptioneers' token (None when nobody plays them): read where it lies, the
    # seat itself being fixed for the game.
    hypnotist = flipped.get(s.seat_of("perceptioneers"))
    return (cur, s.hypnosis, used, hypnotist,
            not used and s.faction.get(cur) == "roamers" and any(AGENT in b for x, b in s.boards.items() if x != cur))


_START_ABILITY = {"roamers": "save_turn", "shakra": "exterminate", "tuulu": "intervene"}
"""The abilities a player may use at the start of their own turn, before swapping (D-32)."""


def start_ability(state: DicetopiaState, seat: str) -> str:
    """The action kind of ``seat``'s own turn-start ability on offer now ('' for none): a
    seat plays one faction, so at most one of Last Resort, Exterminate and Intervention is
    its own. Last Resort is not offered once Hypnosis has chosen the turn (it would cancel
    it), nor when nobody else has a turn left to play."""
    if state.flipped.get(seat, False):
        return ""
    kind = _START_ABILITY.get(state.faction.get(seat, ""), "")
    if kind == "save_turn" and (state.hypnosis or not any(state.agents_left(s) for s in state.order if s != seat)):
        return ""
    return kind


def hypnotist(state: DicetopiaState) -> str | None:
    """The Perceptioneers' seat while they may still choose the neighbourhood of the
    current player's turn: not their own turn, Hypnosis not used, nor used on this turn."""
    p = state.seat_of("perceptioneers")
    if p is None or p == state.current or state.hypnosis or state.flipped[p]:
        return None
    return p


class Turn:
    """The turn: a part of :class:`~rules.dicetopia.game.Dicetopia`."""

    @step("deploy", rule=R_ROUND, depends=_deploy_key)
    def ask_deploy(self, state: DicetopiaState) -> Prompt:
        seat = state.current
        ability = start_ability(state, seat)
        where = f" in {state.t.hood(state.hypnosis).name} (Hypnosis)" if state.hypnosis else ""
        note = f"{state.seat_name(seat)}: swap your leftmost agent with a die{where}"
        waits: dict[str, Any] = {seat: Decision(("deploy",), note, also=(ability,) if ability else ())}
        percept = hypnotist(state)
        if percept is not None:
            waits[percept] = Decision(("hypnotize",), f"{state.seat_name(percept)} may choose the neighbourhood for {state.seat_name(seat)}'s turn")
        return Prompt(waits) if len(waits) > 1 else Prompt.single(seat, waits[seat])

    @step("agency-draw", rule=f"{R_ACTIONS}: The Agency", depends=lambda s: (s.current, s.flipped.get(s.current, False)))
    def ask_agency_draw(self, state: DicetopiaState) -> Prompt:
        # Ewo may still Transcend instead of The Agency's action.
        also = ("transcend",) if state.can_use(state.current, "ewo") else ()
        return Prompt.single(state.current, DrawRequest(MISSIONS, "The Agency: draw a mission", also=also))

    @step("agency-bottom", rule=f"{R_ACTIONS}: The Agency", depends=("current",))
    def ask_agency_bottom(self, state: DicetopiaState) -> Prompt:
        return Prompt.single(state.current, Decision(("bottom",), "The Agency: put one of your missions on the bottom of the deck"))

    # No ``depends``: whether the action is possible reads the whole city. Only
    # _begin_action enters this step, and it ends the turn when the action is not possible
    # and Ewo cannot Transcend: so the city is read only when Transcendence is still up.
    @step("act", rule=R_ACTIONS)
    def ask_act(self, state: DicetopiaState) -> Prompt:
        seat, hood = state.current, state.t.hood(state.act_hood)
        # The Gugu Airforce rerolls; the four others swap (The Agency has steps of its own).
        kind = "reroll" if hood.action == "reroll" else "swap"
        note = f"{hood.name}: {hood.summary}"
        if not state.can_use(seat, "ewo"):
            return Prompt.single(seat, Decision((kind,), note))
        if not self._possible(state, hood.id):
            return Prompt.single(seat, Decision(("transcend",), f"{hood.name}: the action is not possible", also=("decline",)))
        return Prompt.single(seat, Decision((kind,), note, also=("transcend",)))

    # No ``depends``: nearly every reroll of a game is of a new place, so a key would only
    # add its own cost.
    @step("reroll", rule=f"{R_ACTIONS}: The Gugu Airforce")
    def ask_reroll(self, state: DicetopiaState) -> Prompt:
        _, where, _ = state.pending
        die = Die(6, self._owner(state, where))
        return Prompt.single(state.current, RollRequest((die,), f"The Gugu Airforce: reroll the die on {state.where_name(where)}"))

    @step("react", rule=R_TIMING)
    def ask_react(self, state: DicetopiaState) -> Prompt:
        r = state.reactions.peek()
        if r.window == "block":
            return Prompt.single(r.seat, Decision(("block", "decline"), f"{state.seat_name(r.seat)} may Block {state.seat_name(state.current)}'s {r.data[0]}"))
        return Prompt.single(r.seat, Decision(("adapt", "decline"), f"{state.seat_name(r.seat)} may Adapt a die by +1 or -1"))

    def _v_deploy(self, state: DicetopiaState, action: Deploy) -> Iterable[Violation]:
        t, who, hypnosis = state.t, state.seat_name(action.seat), state.hypnosis
        cell = state.cell(action.hood, action.space) if action.hood in state.city else None
        found = []
        if cell is None:
            found.append(Violation("no-such-space", R_ROUND, f"{who}, choose a space of a neighbourhood on the city board."))
        elif cell == UNUSED:
            found.append(Violation("space-not-used", R_SETUP, f"{who}, that space of {t.hood(action.hood).name} is not used with {len(state.order)} players."))
        elif not is_die(cell):
            found.append(Violation("no-die-there", R_ROUND, f"{who}, your agent swaps with a die; that space of {t.hood(action.hood).name} holds none."))
        if hypnosis and action.hood != hypnosis:
            p = state.seat_of("perceptioneers")
            found.append(Violation("hypnotized", r_ability(t, "perceptioneers"),
                                   f"{state.seat_name(p or '')}'s Hypnosis sends {who}'s agent to {t.hood(hypnosis).name}."))
        return found

    def _v_reroll(self, state: DicetopiaState, action: Reroll) -> Iterable[Violation]:
        if state.cell(action.where, action.index) in DICE:
            return ()
        return (Violation("no-die-there", f"{R_ACTIONS}: The Gugu Airforce", f"{state.seat_name(action.seat)}, reroll a die in a neighbourhood or on a faction board."),)

    def _v_swap(self, state: DicetopiaState, action: Swap) -> Iterable[Violation]:
        t = state.t
        why = self._swap_ok(state, t.hood_actions[state.act_hood], action.a, action.a_index, action.b, action.b_index)
        if why is None:
            return ()
        hood = t.hood(state.act_hood)
        rule = R_ADVANCED if "Advanced" in why else f"{R_ACTIONS}: {hood.name}"
        return (Violation("bad-swap", rule, f"{state.seat_name(action.seat)}, {hood.summary.lower()}: {why}."),)

    def _v_bottom(self, state: DicetopiaState, action: Bottom) -> Iterable[Violation]:
        if action.card in state.hands[action.seat].cards:
            return ()
        return (Violation("not-your-mission", f"{R_ACTIONS}: The Agency", f"{state.seat_name(action.seat)}, put one of your own missions on the bottom of the deck."),)

    def _deploy(self, state: DicetopiaState, action: Deploy) -> None:
        # §4: the leftmost agent on the faction board swaps with the die.
        seat, board = action.seat, state.boards[action.seat]
        die = state.city[action.hood][action.space]
        board[board.index(AGENT)] = die
        state.city[action.hood][action.space] = AGENT + seat
        state.act_hood = action.hood
        state.turn_moves += 1
        t = state.t
        state.note(f"{state.seat_name(seat)} swaps an agent with the {t.die_words(die)} in {t.hood(action.hood).name}.", seat)
        self._begin_action(state)

    def _begin_action(self, state: DicetopiaState) -> None:
        hood = state.act_hood
        if self._possible(state, hood):
            state.phase = "agency-draw" if state.t.hood_actions[hood] == "agency" else "act"
        elif state.can_use(state.current, "ewo"):
            state.phase = "act"  # Ewo may still Transcend
        else:
            state.note(f"{state.t.hood_names[hood]}'s action is not possible: the turn ends (§4).")
            self._end_turn(state)

    def _announce(self, state: DicetopiaState, what: str) -> bool:
        """A reroll or swap (``what``) from an action is announced: when Banxa may Block
        it, Banxa is asked first (True: the caller keeps it pending); else it happens now
        (False: the caller carries it out)."""
        banxa = state.holder("banxa")
        if banxa is not None and banxa != state.current:
            state.phase = "react"
            state.reactions.push(Reaction(banxa, "block", (what,)))
            return True
        return False

    def _carry_out(self, state: DicetopiaState) -> None:
        """The announced reroll or swap happens (Banxa let it)."""
        if state.pending[0] == "reroll":
            state.phase = "reroll"
            return
        _, a, ai, b, bi = state.pending
        state.pending = []
        self._exchange(state, a, ai, b, bi)

    def _exchange(self, state: DicetopiaState, a: str, ai: int, b: str, bi: int) -> None:
        """A swap happens: then the Hollows may Adapt, or the turn ends."""
        ca, cb = state.cell(a, ai), state.cell(b, bi)
        state.put(a, ai, cb)
        state.put(b, bi, ca)
        # Adaptation (§7): after another player swaps the Hollows' agent or die with an
        # action, when they have a die to change.
        hollows = state.seat_of("hollows")
        if (hollows is not None and hollows != state.current
                and (hollows in (a, b) or AGENT + hollows in (ca, cb))
                and any(is_die(c) for c in state.boards[hollows])):
            state.reactions.push(Reaction(hollows, "adapt", ()))
            state.phase = "react"
            return
        self._end_turn(state)

    def _after_reaction(self, state: DicetopiaState) -> None:
        if state.reactions:
            return
        if state.pending:
            self._carry_out(state)
        else:
            self._end_turn(state)

    def _reroll(self, state: DicetopiaState, action: Reroll) -> None:
        state.pending = ["reroll", action.where, action.index]
        state.note(f"{state.seat_name(action.seat)} rerolls {self._place_words(state, action.where, action.index)}.", action.seat)
        if not self._announce(state, "reroll"):
            state.phase = "reroll"

    def _swap(self, state: DicetopiaState, action: Swap) -> None:
        a, ai, b, bi = action.a, action.a_index, action.b, action.b_index
        state.note(f"{state.seat_name(action.seat)} swaps {self._place_words(state, a, ai)} with {self._place_words(state, b, bi)}.", action.seat)
        # Pending only while Banxa may Block it: most swaps happen at once.
        if self._announce(state, "swap"):
            state.pending = ["swap", a, ai, b, bi]
        else:
            self._exchange(state, a, ai, b, bi)

    def _bottom(self, state: DicetopiaState, action: Bottom) -> None:
        state.hands[action.seat].remove(action.card)
        state.deck.put_bottom(action.card)
        state.note(f"{state.seat_name(action.seat)} puts a mission on the bottom of the deck.", action.seat)
        self._end_turn(state)

    def _decline(self, state: DicetopiaState, action: Decline) -> None:
        who = state.seat_name(action.seat)
        if state.phase == "react":
            r = state.reactions.pop()
            state.note(f"{who} lets it happen." if r.window == "block" else f"{who} does not adapt.", action.seat)
            self._after_reaction(state)
        elif state.phase == "first":
            self._let_first(state, action)
        elif state.phase == "act":
            state.note(f"{state.t.hood(state.act_hood).name}'s action is not possible: the turn ends (§4).", action.seat)
            self._end_turn(state)
        elif state.phase == "clone":
            self._next_end_step(state, done="clone")
        elif state.phase == "rig":
            self._next_end_step(state, done="rig")

    def _start_turn(self, state: DicetopiaState, seat: str) -> None:
        state.current = seat
        state.turn += 1
        state.turn_moves = 0
        state.hypnosis = ""
        state.act_hood = ""
        state.phase = "deploy"

    def _end_turn(self, state: DicetopiaState) -> None:
        if state.pending:
            state.pending = []
        if state.reactions.pending:
            state.reactions.drop(lambda r: True)
        boards = state.boards
        for seat in state.after[state.current]:
            if AGENT in boards[seat]:
                self._start_turn(state, seat)
                return
        state.current = ""
        state.note("Every player has six dice on their faction board: the game ends (§6).")
        self._next_end_step(state)

"""The end of the game (§6, §8): its moments in order (RULINGS.md D-30): Dangmer's Cloning,
Bingmai's Rigging, the missions revealed, Centauri's Opportunist, High Stakes Gambling,
Copycat; then the tally, the tie-breaks and the outcome."""
from __future__ import annotations

from typing import Iterator

from rules.core import Decision, DrawRequest, Outcome, Prompt, Score, Violation, step

from .actions import Choose, Clone, CopyMission, Rig
from .scoring import Domination, Played, any_tied, is_die, ranked, score
from .sections import R_END, R_MISSIONS, r_ability
from .state import MISSIONS, DicetopiaState
from .tables import tables


COPYCAT = "copycat"
GAMBLING = "high-stakes"


class Ending:
    """End scoring: a part of :class:`~rules.dicetopia.game.Dicetopia`."""

    @step("clone", timed=False, rule=r_ability(tables(), "dangmer"))
    def ask_clone(self, state: DicetopiaState) -> Prompt:
        seat = state.holder("dangmer")
        assert seat is not None
        right = self._right_of(state, seat)
        return Prompt.single(seat, Decision(("clone", "decline"), f"{state.seat_name(seat)} may copy the value or colour of one of {state.seat_name(right)}'s dice"))

    @step("rig", timed=False, rule=r_ability(tables(), "bingmai"))
    def ask_rig(self, state: DicetopiaState) -> Prompt:
        seat = state.holder("bingmai")
        assert seat is not None
        return Prompt.single(seat, Decision(("rig", "decline"), f"{state.seat_name(seat)} may decide a tied domination"))

    @step("choose", timed=False, rule=r_ability(tables(), "centauri"))
    def ask_choose(self, state: DicetopiaState) -> Prompt:
        seat = state.seat_of("centauri")
        assert seat is not None
        return Prompt.single(seat, Decision(("choose",), f"{state.seat_name(seat)}: choose the mission not to score (Opportunist)"))

    @step("gamble", timed=False, rule=R_MISSIONS + ": High Stakes Gambling")
    def ask_gamble(self, state: DicetopiaState) -> Prompt:
        seat = self._gambler(state)
        assert seat is not None
        return Prompt.single(seat, DrawRequest(MISSIONS, f"High Stakes Gambling: {state.seat_name(seat)} draws a new mission"))

    @step("copy", timed=False, rule=R_MISSIONS + ": Copycat")
    def ask_copy(self, state: DicetopiaState) -> Prompt:
        seat = self._copier(state)
        assert seat is not None
        return Prompt.single(seat, Decision(("copy",), f"Copycat: {state.seat_name(seat)} copies another player's mission"))

    def _v_clone(self, state: DicetopiaState, action: Clone) -> Iterator[Violation]:
        t, who = state.t, state.seat_name(action.seat)
        mine, theirs = state.cell(action.seat, action.index), state.cell(self._right_of(state, action.seat), action.theirs)
        if mine is None or not is_die(mine) or theirs is None or not is_die(theirs):
            yield Violation("no-die-there", r_ability(t, "dangmer"), f"{who}, copy onto one of your dice from a die of the opponent to your right.")
        if action.what not in ("value", "colour"):
            yield Violation("bad-clone", r_ability(t, "dangmer"), f"{who}, Cloning copies a die's value or its colour.")

    def _v_rig(self, state: DicetopiaState, action: Rig) -> Iterator[Violation]:
        t, who = state.t, state.seat_name(action.seat)
        # Only the named neighbourhood's domination is asked about.
        cells = state.city.get(action.hood)
        hold = None if cells is None else Domination.of(t, {action.hood: cells}, state.order, {})[action.hood]
        if hold is None or not hold.tied:
            yield Violation("not-tied", r_ability(t, "bingmai"), f"{who}, Rigging decides a neighbourhood whose domination is tied.")
        elif action.winner not in hold.winners:
            yield Violation("not-tied-player", r_ability(t, "bingmai"), f"{who}, the winner must be one of the players tied in {t.hood(action.hood).name}.")

    def _v_choose(self, state: DicetopiaState, action: Choose) -> Iterator[Violation]:
        if action.unused not in state.hands[action.seat]:
            yield Violation("not-your-mission", r_ability(state.t, "centauri"), f"{state.seat_name(action.seat)}, set aside one of your three missions.")

    def _v_copy(self, state: DicetopiaState, action: CopyMission) -> Iterator[Violation]:
        if action.card not in self._copy_targets(state, action.seat):
            yield Violation("cannot-copy", R_MISSIONS + ": Copycat", f"{state.seat_name(action.seat)}, copy a mission another player scores (not a Copycat).")

    def _clone(self, state: DicetopiaState, action: Clone) -> None:
        state.flipped[action.seat] = True
        right = self._right_of(state, action.seat)
        mine, theirs = state.boards[action.seat][action.index], state.boards[right][action.theirs]
        new = (mine[0] + theirs[1]) if action.what == "value" else (theirs[0] + mine[1])
        state.boards[action.seat][action.index] = new
        state.cloned = [action.seat, action.what, mine, new]
        state.note(f"{state.seat_name(action.seat)} uses Cloning: their {self._die_words(state, mine)} copies the {action.what} of "
                   f"{state.seat_name(right)}'s {self._die_words(state, theirs)} and becomes a {self._die_words(state, new)}.", action.seat)
        self._next_end_step(state, done="clone")

    def _rig(self, state: DicetopiaState, action: Rig) -> None:
        state.flipped[action.seat] = True
        state.rigged[action.hood] = action.winner
        state.note(f"{state.seat_name(action.seat)} uses Rigging: {state.seat_name(action.winner)} wins the tied domination of {state.t.hood(action.hood).name}.", action.seat)
        self._next_end_step(state, done="rig")

    def _choose(self, state: DicetopiaState, action: Choose) -> None:
        state.unused[action.seat] = action.unused
        state.note(f"{state.seat_name(action.seat)} (Opportunist) will not score {state.t.mission(action.unused).name}.", action.seat)
        self._next_end_step(state)

    def _copy(self, state: DicetopiaState, action: CopyMission) -> None:
        state.copied[action.seat] = action.card
        state.note(f"{state.seat_name(action.seat)}'s Copycat copies {state.t.mission(action.card).name}.", action.seat)
        self._next_end_step(state)

    def _next_end_step(self, state: DicetopiaState, done: str = "") -> None:
        """On to the next moment of end scoring (RULINGS.md D-30): Cloning, Rigging, the
        reveal, Opportunist, High Stakes Gambling, Copycat; then the tally."""
        if done:
            state.done.append(done)
        if "clone" not in state.done and state.holder("dangmer") is not None:
            state.phase = "clone"
            return
        if "rig" not in state.done and state.holder("bingmai") is not None and any_tied(state.city):
            state.phase = "rig"
            return
        self._reveal_missions(state)
        c = state.seat_of("centauri")
        if c is not None and c not in state.unused and len(state.hands[c]) > 2:
            state.phase = "choose"
            return
        g = self._gambler(state)
        while g is not None and not state.deck.cards:
            state.gambled[g] = ""
            state.note(f"{state.seat_name(g)}'s High Stakes Gambling finds the deck empty: nothing to score.")
            g = self._gambler(state)
        if g is not None:
            state.phase = "gamble"
            return
        c = self._copier(state)
        if c is not None:
            if self._copy_targets(state, c):
                state.phase = "copy"
                return
            state.copied[c] = ""
            state.note(f"{state.seat_name(c)}'s Copycat has no mission to copy.")
        self._score(state)

    def _reveal_missions(self, state: DicetopiaState) -> None:
        if state.revealed:
            return
        state.revealed = True
        self.reveal(state)
        for s in state.order:
            names = ", ".join(state.t.mission(c).name for c in state.hands[s].cards)
            state.note(f"{state.seat_name(s)} reveals {names or 'no missions'}.", s)

    def used_missions(self, state: DicetopiaState, seat: str) -> list[str]:
        return [c for c in state.hands[seat].cards if c != state.unused.get(seat)]

    def _kinds(self, state: DicetopiaState, seat: str) -> set[str]:
        """The kinds of the missions ``seat`` scores."""
        return {state.t.mission(c).kind for c in self.used_missions(state, seat)}

    def _gambler(self, state: DicetopiaState) -> str | None:
        """The first player in play order whose High Stakes Gambling has not drawn its new
        mission yet (§8: "discard this card and draw a new one")."""
        for s in state.order:
            if s not in state.gambled and GAMBLING in self._kinds(state, s):
                return s
        return None

    def played(self, state: DicetopiaState, seat: str) -> list[Played]:
        """How each mission ``seat`` scores: itself; High Stakes Gambling as the card it
        drew, times its factor; Copycat (or a Copycat so drawn) as the card it copies."""
        out = []
        for card in self.used_missions(state, seat):
            spec = state.t.mission(card)
            if spec.kind == GAMBLING:
                drawn = state.gambled.get(seat, "")
                if drawn and state.t.mission(drawn).kind == COPYCAT:
                    drawn = state.copied.get(seat, "")
                out.append(Played(card, drawn, spec.params["factor"]))
            elif spec.kind == COPYCAT:
                out.append(Played(card, state.copied.get(seat, "")))
            else:
                out.append(Played(card, card))
        return out

    def _copier(self, state: DicetopiaState) -> str | None:
        """The first player in play order whose Copycat, their own or drawn by High Stakes
        Gambling, has not copied yet (§8)."""
        for s in state.order:
            if s in state.copied:
                continue
            kinds, drawn = self._kinds(state, s), state.gambled.get(s)
            if COPYCAT in kinds or (GAMBLING in kinds and drawn and state.t.mission(drawn).kind == COPYCAT):
                return s
        return None

    def _copy_targets(self, state: DicetopiaState, seat: str) -> list[str]:
        t = state.t
        out = []
        for s in state.order:
            if s == seat:
                continue
            for p in self.played(state, s):
                if p.effect and t.mission(p.effect).kind not in (COPYCAT, GAMBLING) and p.effect not in out:
                    out.append(p.effect)
        return out

    def _score(self, state: DicetopiaState) -> None:
        t = state.t
        played = {s: self.played(state, s) for s in state.order}
        lines, _, keys = score(t, state.order, state.boards, state.city, played, state.rigged, state.options["relative_ties"])
        state.tally = lines
        ranks = ranked(keys)
        top = ranks[0][1]
        best, tied_total = [], 0
        for s, k in ranks:
            if k == top:
                best.append(s)
            if k[0] == top[0]:
                tied_total += 1
        winners = (*best,)
        names = " and ".join(map(state.seat_name, winners))
        if tied_total == 1:
            reason = f"{names} wins with {top[0]} ★"
        elif len(winners) == 1 and [s for s, k in ranks if k[:2] == top[:2]] == list(winners):
            reason = f"{names} wins the tie on {top[0]} ★ by dominating the most neighbourhoods ({top[1]})"
        elif len(winners) == 1:
            reason = f"{names} wins the tie on {top[0]} ★ and {top[1]} neighbourhoods with the highest total dice value ({top[2]})"
        else:
            reason = f"{names} share the win: {top[0]} ★, {top[1]} neighbourhoods and {top[2]} in dice each"
        scores = {}
        for s in state.order:
            total, breakdown, said = keys[s][0], {}, []
            for _, label, points in lines[s]:
                breakdown[label] = points
                said.append(f"{label} {points}")
            scores[s] = Score(total, breakdown)
            state.note(f"{state.seat_name(s)}: " + "; ".join(said) + f" = {total} ★", s)
        state.phase = "over"
        self.finish(state, Outcome(state.faction[winners[0]] if len(winners) == 1 else None, f"{reason} ({R_END})", scores, winners))

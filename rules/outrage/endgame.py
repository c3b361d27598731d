"""MONEY and THE ENDGAME: "You escape when you have paid the Ferryman and left the Cradle
Tower" with a coin from the Mint (or taken in an attack) and one or more jewels; then,
with the all-jewels endgame, go back in from Start (still accredited, a fresh hand) or
retire. The game ends at the first escape (first-escape) or when every jewel is out
(all-jewels; RULINGS E-01); the winner is decided by BEFORE PLAY BEGINS' tie-breaks.
"""
from __future__ import annotations

from rules.core import Outcome, Score

from .places import BOARD, CRADLE
from .sections import R_END
from .squares import HAND_START
from .state import ESCAPED, OutrageState


def can_escape(state: OutrageState, seat: str) -> bool:
    """At the Cradle Tower with a coin for the ferryman and a jewel to take out."""
    return state.pos[seat] == CRADLE and state.coins[seat] and seat in state.jewels.values()


class Endgame:
    """Escaping, going back in or retiring, and the winner (the rules' part of
    :class:`~rules.outrage.game.Outrage`)."""

    def can_escape(self, state: OutrageState, seat: str) -> bool:
        return can_escape(state, seat)

    def _escape(self, state: OutrageState, seat: str) -> None:
        jewels = state.carried(seat)
        state.coins[seat] = False
        state.mint += 1
        for j in jewels:
            state.jewels[j] = ESCAPED
            state.escaped[seat].append(j)
        state.note(f"{state.seat_name(seat)} pays the ferryman and escapes from the Cradle Tower with {', '.join(BOARD.jewel_name[j] for j in jewels)}! [{R_END}]")
        state.tasks = []
        state.end_now = True
        state.again = False
        if state.options["endgame"] == "first-escape":
            self._finish(state, f"{state.seat_name(seat)} escaped with a Crown Jewel")
            return
        if all(w == ESCAPED for w in state.jewels.values()):
            self._finish(state, "every Crown Jewel has been taken out of the Tower")
            return
        self._ask(state, seat, "ferry", ["reenter", "retire"], "go back into the Tower, or retire")
        state.phase = "ferry"

    def _ferry(self, state: OutrageState, seat: str, option: str) -> bool:
        """After an escape: go back in, or retire; whether the game is over."""
        if option == "reenter":
            self._reenter(state, seat)
            return False
        state.retired.append(seat)
        state.note(f"{state.seat_name(seat)} retires with their jewels. [{R_END}]")
        if all(not state.in_play(s) for s in state.order.order):
            self._finish(state, "every player has retired")
            return True
        return False

    def _reenter(self, state: OutrageState, seat: str) -> None:
        """"A player choosing this option remains accredited, returns all Tower Cards to the
        pack which is then shuffled and returns the coin to the Mint. The player receives
        three new cards from the Tower Card pack and begins again from the Start position.\""""
        n = len(state.hands[seat].cards)
        self._to_pack(state, state.hands[seat].cards)
        state.hands[seat].cards.clear()
        self._shuffle_pack(state)
        state.pos[seat] = BOARD.places["start"]
        state.end_now = True
        state.tasks[:0] = [("draw-tower", seat, "")] * HAND_START
        returned = (f"{n} Tower card{'s' if n != 1 else ''} returned and shuffled" if n
                    else "no Tower cards to return, the pack shuffled")
        state.note(f"{state.seat_name(seat)} goes back in from Start, still accredited: {returned}, three new cards. [{R_END}]")

    def scores(self, state: OutrageState) -> dict[str, Score]:
        """Each side's escaped jewels and their values ("from 5 (St Edward's Crown) to 1
        (the Sword of State)"); a team's are added together."""
        out: dict[str, Score] = {}
        for s in state.order.order:
            key = state.team(s)
            jewels = state.escaped[s]
            total = sum(BOARD.jewel_value[j] for j in jewels)
            breakdown = {j: BOARD.jewel_value[j] for j in jewels}
            prev = out.get(key)
            if prev is not None:
                total += prev.total
                breakdown = {**prev.breakdown, **breakdown}
            out[key] = Score(total, breakdown)
        return out

    def _finish(self, state: OutrageState, reason: str) -> None:
        """The winner by the book's tie-breaks (BEFORE PLAY BEGINS 2): the highest value,
        then the fewest jewels, then St Edward's Crown; else shared."""
        scores = self.scores(state)

        def key(k: str) -> tuple[int, int, int]:
            sc = scores[k]
            return (sc.total, -len(sc.breakdown), 1 if "st-edwards-crown" in sc.breakdown else 0)
        ranked = sorted(scores, key=key, reverse=True)
        best = key(ranked[0])
        top = [k for k in ranked if key(k) == best]
        if len(top) > 1 or best[0] == 0:
            winner = None
            why = f"{reason}; an unbreakable tie"
        else:
            winner = top[0]
            why = reason
        seats = tuple(s for s in state.order.order if state.team(s) in top and best[0] > 0)
        if winner is not None and not state.options["teams"]:
            winner = state._faction[winner]
        self.finish(state, Outcome(winner, why, scores, seats))

"""Arriving on a square and obeying it (GENERAL REGULATIONS: "Players moved under any
circumstances must always obey any instructions on the square to which they have been
moved, picking up Raven Cards or Tower Cards as appropriate"): the Wall Walk's towers
(Tower cards, the Mint's coin, a turn missed, go to, go back, an extra turn, change or
swap a card, surrender weapons, prison), a Raven card on the Inner Ward's unmarked
squares, a jewel's case faced, the Cradle Tower's ferry.

What a landing sets going is queued in ``state.tasks`` as :data:`~rules.outrage.state.Task`
tuples ``(kind, seat, arg)``, done in order by the turn (``Outrage.proceed``); each kind
has one handler here, which says whether it waits for a player.
"""
from __future__ import annotations

from typing import Callable, Iterator

from rules.core import Violation

from .actions import Give
from .cards import TOWER
from .places import BOARD, CRADLE, QUEENS_HOUSE, QUIET, RAVEN_SQUARES, REGION
from .sections import R_ACCR, R_DICE, R_MONEY, R_TOWER, R_WALL
from .state import CASE, OutrageState, Task

HAND_START = 3
"""Tower cards dealt to each player (BEFORE PLAY BEGINS), and again on going back in (THE ENDGAME)."""


class Squares:
    """The squares' instructions and the tasks they queue (the rules' part of
    :class:`~rules.outrage.game.Outrage`)."""

    def _queue_landing(self, state: OutrageState, seat: str, square: str, thrown: int, front: bool = False) -> None:
        """Queue what ``square`` tells ``seat`` to do (before the tasks already queued, if
        ``front``); ``thrown`` is the count a "go back" square takes back."""
        if square in QUIET:
            return
        sq = BOARD.squares[square]
        todo: list[Task] = []
        actor = seat == state.actor
        if square == QUEENS_HOUSE and actor and not state.accredited[seat]:
            # "Players must end their first circuit of the Wall Walk at Queen's House" (ACCREDITATION).
            state.end_now = True
            state.note(f"{state.seat_name(seat)} ends the first circuit at Queen's House. [{R_ACCR}]")
        for key, value in sq.do.items():
            if key == "tower_card":
                todo += [("draw-tower", seat, "")] * value
            elif key == "coin":
                todo.append(("coin", seat, ""))
            elif key == "miss":
                todo.append(("miss", seat, str(value)))
            elif key == "go":
                todo.append(("go", seat, BOARD.places.get(value, value)))
            elif key == "back":
                todo.append(("back", seat, str(thrown)))
            elif key == "extra_turn":
                todo.append(("extra", seat, ""))
            elif key == "change_card":
                todo.append(("change", seat, ""))
            elif key == "swap_card":
                todo.append(("swap", seat, ""))
            elif key == "surrender_weapons":
                todo.append(("surrender", seat, ""))
            elif key == "prison":
                todo.append(("prison", seat, value))
        if square in RAVEN_SQUARES:
            todo.append(("raven", seat, ""))
        # The square facing a jewel in its case: an accredited player whose turn it is may
        # declare a burglary there (STEALING THE JEWELS).
        if sq.faces and actor and state.jewels.get(sq.faces) == CASE and seat not in state.burglaries \
                and state.accredited[seat]:
            todo.append(("burgle-offer", seat, sq.faces))
        if actor and square == CRADLE and self.can_escape(state, seat):
            todo.append(("escape-offer", seat, ""))
        if front:
            state.tasks[:0] = todo
        else:
            state.tasks.extend(todo)

    def _ask(self, state: OutrageState, seat: str, what: str, options: list[str], text: str) -> None:
        """Ask ``seat`` a public choice (``what`` names it for the answer's handler)."""
        state.actor, state.phase = seat, "choose"
        state.choice_for = what
        state.choices = options
        state.offer = text

    # ------------------------------------------------------------ the tasks

    def _t_deal(self, state: OutrageState, seat: str, arg: str) -> bool:
        """Deal ``arg`` more Tower cards to ``seat``; once every hand is dealt, everyone
        throws to see who starts (BEFORE PLAY BEGINS)."""
        n = int(arg)
        if n > 0 and state.decks["tower"].cards:
            state.tasks.insert(0, ("deal", seat, str(n - 1)))
            state.actor, state.phase = seat, "deal"
            return True
        if not state.tasks:
            state.contenders = list(state.order.order)
            state.phase = "first"
            state.actor = ""
            return True
        return False

    def _t_draw_tower(self, state: OutrageState, seat: str, arg: str) -> bool:
        if not state.decks["tower"].cards:
            state.note(f"The Tower pack is empty: {state.seat_name(seat)} takes no card. [{R_TOWER}]")
            return False
        state.actor, state.phase = seat, "draw-tower"
        return True

    def _t_raven(self, state: OutrageState, seat: str, arg: str) -> bool:
        state.actor, state.phase = seat, "draw-raven"
        return True

    def _t_raven_do(self, state: OutrageState, seat: str, arg: str) -> bool:
        self._raven(state, seat, arg)
        return state.phase != "busy"  # a choice asked

    def _t_coin(self, state: OutrageState, seat: str, arg: str) -> bool:
        # "Players may hold only one coin at any time" (MONEY).
        if not state.coins[seat] and state.mint > 0:
            state.coins[seat] = True
            state.mint -= 1
            state.note(f"{state.seat_name(seat)} collects a coin from the Mint. [{R_MONEY}]")
        return False

    def _t_miss(self, state: OutrageState, seat: str, arg: str) -> bool:
        who = state.seat_name(seat)
        state.order.skip(seat, int(arg))
        state.note(f"{who} misses a turn.")
        if seat == state.actor:
            # "If after throwing a double, a player is required to miss a turn, the player
            # loses the right to throw again during that turn" (THE DICE).
            if state.again:
                state.note(f"{who} loses the further throw the double earned. [{R_DICE}]")
            state.again = False
        return False

    def _t_go(self, state: OutrageState, seat: str, arg: str) -> bool:
        self.place(state, seat, arg, "")
        self._queue_landing(state, seat, arg, 0, front=True)
        return False

    def _t_back(self, state: OutrageState, seat: str, arg: str) -> bool:
        """Go back the number thrown along the Wall Walk (no further than Start)."""
        n = int(arg)
        sq = state.pos[seat]
        if REGION[sq] == "wall" and n:
            dest = f"w{max(0, int(sq[1:]) - n):02d}"
            self.place(state, seat, dest, f", going back {n}")
            self._queue_landing(state, seat, dest, 0, front=True)
        return False

    def _t_extra(self, state: OutrageState, seat: str, arg: str) -> bool:
        state.extra = True
        state.note(f"{state.seat_name(seat)} will take an extra turn.")
        return False

    def _t_change(self, state: OutrageState, seat: str, arg: str) -> bool:
        if state.hands[seat].cards and state.decks["tower"].cards:
            state.actor, state.phase = seat, "change-offer"
            return True
        return False

    def _t_swap(self, state: OutrageState, seat: str, arg: str) -> bool:
        others = [s for s in state.order.order if s != seat and state.in_play(s) and state.hands[s].cards]
        if state.hands[seat].cards and others:
            self._ask(state, seat, "swap", others + ["none"], "swap a Tower card with another player")
            return True
        return False

    def _t_surrender(self, state: OutrageState, seat: str, arg: str) -> bool:
        state.accused = seat
        state.actor, state.phase = seat, "surrender"
        return True

    def _t_prison(self, state: OutrageState, seat: str, arg: str) -> bool:
        self.imprison(state, seat, arg)
        return False

    def _t_offer(self, state: OutrageState, seat: str, arg: str) -> bool:
        """A card ``seat`` may play at this moment (``arg``), or decline."""
        state.choice_for = arg
        state.offer = {"beauchamp": "play a Royal Pardon to leave at once", "bowyer": "play a Confession",
                       "rack": "play the Royal Pardon from the Rack", "curfew": "play a Tower Pass to remain at large"}[arg]
        state.actor, state.phase = seat, "offer"
        return True

    def _t_rack_pay(self, state: OutrageState, seat: str, arg: str) -> bool:
        self._rack_pay(state, seat)
        return state.phase != "busy"  # a choice asked (cards or coin)

    def _t_burgle_offer(self, state: OutrageState, seat: str, arg: str) -> bool:
        if state.jewels.get(arg) == CASE and state.pos[seat] == BOARD.facing[arg]:
            state.actor, state.phase = seat, "burgle-offer"
            return True
        return False

    def _t_escape_offer(self, state: OutrageState, seat: str, arg: str) -> bool:
        if self.can_escape(state, seat):
            self._ask(state, seat, "escape", ["escape", "stay"], "pay the ferryman and escape")
            return True
        return False

    def _t_end(self, state: OutrageState, seat: str, arg: str) -> bool:
        """"This is the end of your turn" (a Raven card), for the player whose turn it is."""
        if seat == state.order.current:
            state.end_now = True
        return False

    def _t_resume(self, state: OutrageState, seat: str, arg: str) -> bool:
        # Back to the turn's start after a Confession's square (RULINGS P-02).
        if not state.end_now and seat == state.order.current and seat not in state.held:
            state.actor, state.phase = seat, "start"
            return True
        return False

    # ------------------------------------------------------------ Swap a card

    def swap_waiting(self, state: OutrageState) -> list[str]:
        """The players of a swap who have not yet said which card left their hand
        (``state.swap``: the two seats, then the card each has received, or "")."""
        a, b, got_a, got_b = state.swap
        return [s for s, given in ((a, bool(got_b)), (b, bool(got_a))) if not given]

    def _received(self, state: OutrageState, seat: str) -> str:
        """The card ``seat`` has been given in the swap under way ("" if none yet)."""
        a, _b, got_a, got_b = state.swap
        return got_a if seat == a else got_b

    def _swap_with(self, state: OutrageState, seat: str, option: str) -> bool:
        """The lander's answer to "swap a Tower card with another player": whether a swap
        starts (each then takes one face down from the other's hand)."""
        if option == "none":
            return False
        state.swap = [seat, option, "", ""]
        state.note(f"{state.seat_name(seat)} swaps a Tower card with {state.seat_name(option)}: each takes one face down from the other's hand. [{R_WALL}]")
        state.actor, state.phase = seat, "swap"
        return True

    def _v_give(self, state: OutrageState, action: Give) -> Iterator[Violation]:
        # Judged by the seat's own hand only: the taker's word would be judged by a hand
        # the taker may not see (RULINGS R-10).
        if action.card and (action.card not in state.hands[action.seat] or action.card == self._received(state, action.seat)):
            yield Violation("not-in-hand", R_WALL, f"{state.seat_name(action.seat)} can only say which of their own Tower cards was taken, not one they have just been given.")

    def _give(self, state: OutrageState, action: Give) -> None:
        """One side of a swap (RULINGS R-10): the card the other player took from ``seat``'s
        hand (``seat``'s word, or the app's blind pick) goes into the taker's hand; once
        both sides are entered the turn goes on."""
        seat = action.seat
        a, b = state.swap[:2]
        taker = b if seat == a else a
        card = action.card
        if not card:
            hand = [c for c in state.hands[seat].cards if c != self._received(state, seat)]
            card = hand[state.rng.fork().below(len(hand))]
        state.hands[seat].remove(card)
        state.hands[taker].add(card)
        state.swap[2 if taker == a else 3] = card
        how = "" if action.card else " (the app's blind pick)"
        state.note(f"{state.seat_name(taker)} has taken a Tower card from {state.seat_name(seat)}'s hand{how}. [{R_WALL}]")
        name = TOWER[card].name
        state.note(f"{state.seat_name(taker)} took your {name}{how}.", seat, to=(seat,))
        state.note(f"You took {state.seat_name(seat)}'s {name}{how}.", taker, to=(taker,))
        if not self.swap_waiting(state):
            state.swap = []
            self.proceed(state)


TASKS: dict[str, Callable[[Squares, OutrageState, str, str], bool]] = {
    "deal": Squares._t_deal, "draw-tower": Squares._t_draw_tower, "raven": Squares._t_raven,
    "raven-do": Squares._t_raven_do, "coin": Squares._t_coin, "miss": Squares._t_miss, "go": Squares._t_go,
    "back": Squares._t_back, "extra": Squares._t_extra, "change": Squares._t_change, "swap": Squares._t_swap,
    "surrender": Squares._t_surrender, "prison": Squares._t_prison, "offer": Squares._t_offer,
    "rack-pay": Squares._t_rack_pay, "burgle-offer": Squares._t_burgle_offer,
    "escape-offer": Squares._t_escape_offer, "end": Squares._t_end, "resume": Squares._t_resume,
}
"""Each task kind's handler: it does the task and says whether it now waits for a player
(having set the phase)."""

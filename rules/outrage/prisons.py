"""PRISON and THE RACK OF TORMENT: the Bloody Tower (only a double gets a player out),
the Beauchamp Tower (rope, ladder, disguise, a Royal Pardon, or a double), the Bowyer Tower
(a double, a Royal Pardon, or a Confession informing on an opponent; RULINGS P-02), and
the Rack (the jewels go back, cards or coin confiscated, three turns, unless a Royal
Pardon from the Rack or a rope or ladder on the next turn).
"""
from __future__ import annotations

from rules.core import Roll

from .cards import TOWER
from .places import BOARD
from .sections import R_PRISON, R_RACK, R_TOWER, a
from .state import CASE, Held, OutrageState

PRISON_NAMES = {"bloody": "the Bloody Tower", "bowyer": "the Bowyer Tower", "beauchamp": "the Beauchamp Tower",
                "rack": "the Rack"}
PRISON_SQUARE = {"bloody": "bloody_tower", "bowyer": "bowyer_tower", "beauchamp": "beauchamp_tower", "rack": "rack"}
ESCAPE_CARDS = {"bowyer": ("pardon",), "beauchamp": ("rope", "ladder", "disguise", "pardon"), "rack": ("rope", "ladder")}
"""The Tower cards that release a player held in each place at the beginning of a turn
(PRISON; RAVEN CARDS: Held for questioning, Imprisoned in the Beauchamp Tower)."""
RACK_CARDS = ("rope", "ladder", "rack-pardon")
"""What frees a player on the Rack at the beginning of a turn (THE RACK OF TORMENT)."""


def prison_cards(place: str) -> tuple[str, ...]:
    """The kinds of Tower card a player held in ``place`` may play at a turn's start: its
    escape cards, and in the Bowyer Tower a Confession too."""
    return ESCAPE_CARDS.get(place, ()) + (("confession",) if place == "bowyer" else ())


class Prisons:
    """Imprisonment, the throws and cards that end it, and the Rack (the rules' part of
    :class:`~rules.outrage.game.Outrage`)."""

    def imprison(self, state: OutrageState, seat: str, place: str) -> None:
        who = state.seat_name(seat)
        state.pos[seat] = BOARD.places[PRISON_SQUARE[place]]
        self.drop_burglary(state, seat)
        if seat == state.order.current:
            state.end_now = True
            state.again = False
        if place == "rack":
            state.note(f"{who} is taken to the Rack of Torment. [{R_RACK}]")
            state.tasks.insert(0, ("offer", seat, "rack"))
            return
        state.held[seat] = Held(place)
        state.note(f"{who} is imprisoned in {PRISON_NAMES[place]}. [{R_PRISON}]")
        # "If you are lucky enough to have a Royal Pardon you may leave immediately" (the
        # Beauchamp Tower); a Confession "to obtain release" (the Bowyer Tower).
        if place in ("beauchamp", "bowyer"):
            state.tasks.insert(0, ("offer", seat, place))

    def _prison_roll(self, state: OutrageState, roll: Roll) -> None:
        """"When a double is thrown, the total on the disc is moved immediately. If after
        three attempts a double has not been thrown, the prisoner is released immediately.\""""
        seat = roll.seat
        who = state.seat_name(seat)
        a_, b_ = roll.values
        total = a_ + b_
        held = state.held[seat]
        place = PRISON_NAMES[held.place]
        if a_ == b_:
            del state.held[seat]
            state.note(f"{who} throws a double ({total}) and escapes from {place}, moving {total} at once. [{R_PRISON}]")
            state.released = True
            self._start_move(state, seat, total)
            return
        held.served += 1
        if held.served >= held.limit:
            del state.held[seat]
            state.note(f"{who} throws {total}: no double after {held.limit} attempts, so {who} is released from {place}. [{R_PRISON}]")
        else:
            state.note(f"{who} throws {total}: no double; turn {held.served} of {held.limit} in {place}. [{R_PRISON}]")
        self.end_turn(state)

    def _play_in_prison(self, state: OutrageState, seat: str, card: str, kind: str, target: str) -> None:
        """A card played at the beginning of a turn in prison: a Confession (the Bowyer
        Tower) or an escape card."""
        who = state.seat_name(seat)
        place = state.held.pop(seat).place
        if kind == "confession":
            theirs = self._inform(state, seat, target, place)
            state.note(f"{who} plays a Confession and informs on {state.seat_name(target)}: they swap places, and {state.seat_name(target)} is questioned in the Bowyer Tower instead. [{R_TOWER}]")
            # The informer is moved, so obeys the square (RULINGS P-02), then throws.
            self._queue_landing(state, seat, theirs, 0, front=True)
            state.tasks.append(("resume", seat, ""))
            self.proceed(state)
            return
        state.note(f"{who} plays {a(TOWER[card].name)} and is released from {PRISON_NAMES[place]}. [{R_TOWER}]")
        state.phase = "start"

    def _inform(self, state: OutrageState, seat: str, other: str, place: str) -> str:
        """A Confession: ``seat`` informs on ``other``, they swap places and ``other`` is held
        in ``place`` instead (RULINGS P-02); the square ``seat`` goes to."""
        mine, theirs = state.pos[seat], state.pos[other]
        state.pos[seat], state.pos[other] = theirs, mine
        state.held[other] = Held(place)
        self.drop_burglary(state, other)
        return theirs

    def _play_on_offer(self, state: OutrageState, seat: str, target: str) -> None:
        """The card offered at the moment of imprisonment (``state.choice_for``): a Royal
        Pardon in the Beauchamp Tower, a Confession in the Bowyer Tower, the Royal Pardon
        from the Rack."""
        who = state.seat_name(seat)
        moment = state.choice_for
        if moment == "beauchamp":
            del state.held[seat]
            state.note(f"{who} presents a Royal Pardon and leaves the Beauchamp Tower at once, throwing again. [{R_TOWER}]")
            if seat == state.order.current:
                state.end_now = False
                state.again = True
        elif moment == "bowyer":
            del state.held[seat]
            theirs = self._inform(state, seat, target, "bowyer")
            state.note(f"{who} plays a Confession and informs on {state.seat_name(target)}: they swap places, and {state.seat_name(target)} suffers instead. [{R_TOWER}]")
            state.actor = state.order.current  # the informer obeys the square as a player moved (RULINGS P-02)
            self._queue_landing(state, seat, theirs, 0, front=True)
        elif moment == "rack":
            state.note(f"{who} presents the Royal Pardon from the Rack and is released without penalty. [{R_TOWER}]")
            if seat == state.order.current:
                state.end_now = False

    # ------------------------------------------------------------ the Rack

    def _rack_pay(self, state: OutrageState, seat: str) -> None:
        """"Any jewels you have still within the Tower of London are returned and either your
        Tower cards or your coin are confiscated: the choice is yours ... if you have neither
        cards nor a coin to hand in you must return to the Start, but you remain accredited.\""""
        who = state.seat_name(seat)
        for j in state.carried(seat):
            state.jewels[j] = CASE
            state.note(f"{who} confesses everything: the {BOARD.jewel_name[j]} goes back to its case. [{R_RACK}]")
        has_cards, has_coin = bool(state.hands[seat].cards), state.coins[seat]
        if has_cards and has_coin:
            self._ask(state, seat, "rack-pay", ["cards", "coin"], "what the Rack confiscates: your Tower cards or your coin")
            return
        if has_cards or has_coin:
            self._confiscate(state, seat, "cards" if has_cards else "coin")
            return
        state.pos[seat] = BOARD.places["start"]
        state.note(f"{who} has neither cards nor coin to hand in and returns to Start, still accredited. [{R_RACK}]")

    def _confiscate(self, state: OutrageState, seat: str, what: str) -> None:
        who = state.seat_name(seat)
        if what == "cards":
            n = len(state.hands[seat].cards)
            self._to_pack(state, state.hands[seat].cards)
            state.hands[seat].cards.clear()
            state.note(f"{who}'s {n} Tower cards are confiscated. [{R_RACK}]")
        else:
            state.coins[seat] = False
            state.mint += 1
            state.note(f"{who}'s coin is confiscated and goes back to the Mint. [{R_RACK}]")
        state.held[seat] = Held("rack")
        state.note(f"{who} suffers on the Rack for three turns. [{R_RACK}]")

    def _suffer(self, state: OutrageState, seat: str) -> None:
        """A turn suffered on the Rack ("You suffer for three turns")."""
        who = state.seat_name(seat)
        held = state.held[seat]
        held.served += 1
        if held.served >= held.limit:
            del state.held[seat]
            state.note(f"{who} has suffered three turns and is released from the Rack. [{R_RACK}]")
        else:
            state.note(f"{who} suffers on the Rack: turn {held.served} of {held.limit}. [{R_RACK}]")
        self.end_turn(state)

    def _escape_rack(self, state: OutrageState, seat: str, name: str) -> None:
        """"... unless escaping with a rope on the next turn" (a Rope or a Ladder)."""
        del state.held[seat]
        state.note(f"{state.seat_name(seat)} escapes from the Rack with {a(name)}. [{R_TOWER}]")
        state.phase = "start"

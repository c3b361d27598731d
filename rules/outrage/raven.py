"""RAVEN CARDS: "A card is taken each time a player lands on an unmarked square in the
Inner Ward. The card is read aloud, shown to every player and the instructions obeyed if
possible. It is then returned to the bottom of the pack." One branch per kind of card,
in the rulebook's order, and the choices some of them ask for.
"""
from __future__ import annotations

from rules.core import Draw

from .cards import RAVEN
from .places import BENCHES, BOARD, PLACES_OF_INTEREST, REGION
from .sections import R_GENERAL, R_RAVEN
from .state import CASE, OutrageState, Task

SKIP_PLACES = {"pecked": "hospital", "film": "shop"}
"""Where "Pecked by a raven" and "Run out of film" send a player for one turn."""


class RavenCards:
    """Taking and obeying a Raven card (the rules' part of :class:`~rules.outrage.game.Outrage`)."""

    def _take_raven_card(self, state: OutrageState, action: Draw) -> None:
        seat = action.seat
        deck = state.decks["raven"]
        deck.take(action.card)
        deck.put_bottom(action.card)  # read aloud, obeyed, and back to the bottom of the pack
        state.raven = action.card
        state.note(f"{state.seat_name(seat)} takes a Raven card: {RAVEN[action.card].text} [{R_RAVEN}]")
        state.tasks.insert(0, ("raven-do", seat, action.card))
        self.proceed(state)

    def _raven(self, state: OutrageState, seat: str, cid: str) -> None:
        """Start obeying Raven card ``cid``: either done at once (tasks queued), or a choice asked."""
        b = BOARD
        card = RAVEN[cid]
        kind = card.kind
        who = state.seat_name(seat)
        ask = self._ask
        front: list[Task] = []
        if kind == "go":
            dest = b.places.get(card.to, card.to)
            if card.optional:
                # "Others give the option of moving or staying in place and forfeiting the turn."
                ask(state, seat, "go:" + dest, ["go", "stay"], f"go to {b.name_of(dest)}, or stay and forfeit the turn")
                return
            front = [("go", seat, dest)]
        elif kind == "jewel":
            if state.accredited[seat] and state.jewels.get(card.jewel) == CASE and seat == state.actor:
                ask(state, seat, "go:" + b.facing[card.jewel], ["go", "stay"], f"go to the square facing the {b.jewel_name[card.jewel]}")
                return
            state.note(f"The card does not apply to {who} now.")
        elif kind == "warder-out":
            if card.post:
                self.call_out(state, card.post)
            else:
                ask(state, seat, "call-out", list(b.posts), "the post a Yeoman Warder is called out to")
                return
        elif kind == "warder-back":
            posted = [p for p, on in state.warders.items() if on]
            if not posted:
                state.note(f"No Yeoman Warder is at his post: the card is ignored. [{R_RAVEN}]")
            else:
                ask(state, seat, "send-back", posted, "the Yeoman Warder sent back to the Waterloo Barracks")
                return
        elif kind == "lost":
            front = [("go", seat, b.places["queens_house"]), ("end", seat, "")]
        elif kind == "photograph":
            spots = self.photo_spots(state)
            if not spots:
                state.note(f"No Yeoman Warder is at his post: {who} stays where they are. [{R_RAVEN}]")
            else:
                ask(state, seat, "photo", spots, "a square next to a Yeoman Warder's post")
                return
        elif kind in SKIP_PLACES:
            self.place(state, seat, b.places[SKIP_PLACES[kind]], " for one turn")
            state.order.skip(seat, 1)
            front = [("end", seat, "")]
        elif kind == "bench":
            ask(state, seat, "bench", list(BENCHES), "the bench to rest on")
            return
        elif kind == "ghost":
            self.place(state, seat, b.places["chapel_royal"], " to recover")
            front = [("end", seat, "")]
        elif kind == "curfew":
            front = [("offer", seat, "curfew")]
        elif kind == "birthday":
            # "All players celebrate by taking a Tower Card. If the date really is April 21st
            # ... all players each take two Tower Cards" (RULINGS R-05), from the reader on.
            n = 2 if state.options["birthday_today"] else 1
            order = state.order.order
            start = order.index(seat)
            for s in order[start:] + order[:start]:
                if state.in_play(s):
                    front += [("draw-tower", s, "")] * n
            state.note(f"Everyone takes {'two Tower cards: it really is 21 April' if n == 2 else 'a Tower card'}. [{R_RAVEN}]")
        elif kind == "governor-tea":
            self.place(state, seat, b.places["queens_house"], " for tea with the Resident Governor")
            if seat not in state.tea:
                state.tea.append(seat)
            front = [("end", seat, "")]
        elif kind == "clerk-tea":
            if seat == state.actor:
                state.extra = True
                state.note(f"While the others take tea, {who} takes another turn. [{R_RAVEN}]")
        elif kind == "chief-warder":
            front = [("draw-tower", seat, "")]
        elif kind == "place-of-interest":
            here = state.pos[seat]
            places = list(PLACES_OF_INTEREST)
            if REGION[here] in ("wall", "inner"):
                places.remove(here)
            ask(state, seat, "visit", places, "a place of interest on the Wall Walk or in the Inner Ward")
            return
        elif kind == "tour":
            front = [("go", seat, b.places["mint"])]
        elif kind in ("bowyer", "beauchamp", "bloody", "rack"):
            front = [("prison", seat, kind)]
        elif kind == "searched":
            jewels = state.carried(seat)
            if jewels or state.options["searched"] == "always":
                for j in jewels:
                    state.jewels[j] = CASE
                if jewels:
                    state.note(f"{who}'s jewels are seized and returned to their cases: {', '.join(b.jewel_name[j] for j in jewels)}. [{R_RAVEN}]")
                front = [("surrender", seat, ""), ("prison", seat, "bloody")]
            else:
                state.note(f"{who} carries no stolen jewels and is let go. [RULINGS R-07]")
        state.tasks[:0] = front

    def photo_spots(self, state: OutrageState) -> list[str]:
        """"Choose any square next to a Yeoman Warder's post" (with a warder at it)."""
        spots: list[str] = []
        for post, on in state.warders.items():
            if not on:
                continue
            for sq in BOARD.posts[post]:
                for n in sorted(BOARD.graph.neighbours(sq, edges={"ward"})):
                    if not BOARD.square(n).post and n not in spots:
                        spots.append(n)
        return spots

    def call_out(self, state: OutrageState, post: str) -> None:
        """"If a post named on the card is unoccupied by a Yeoman Warder, one is taken from
        the Waterloo Barracks and placed on that post. If a player occupies that post, the
        player is sent to the Bloody Tower.\""""
        name = BOARD.post_names[post]
        if state.warders[post]:
            state.note(f"A Yeoman Warder is already at the {name} post. [{R_RAVEN}]")
            return
        state.warders[post] = True
        state.note(f"A Yeoman Warder is called out of the Waterloo Barracks to the {name} post. [{R_RAVEN}]")
        for s in state.order.order:
            if state.pos[s] in BOARD.posts[post] and state.in_play(s):
                state.note(f"{state.seat_name(s)} is on the post and is sent to the Bloody Tower. [{R_GENERAL}]")
                state.tasks.insert(0, ("prison", s, "bloody"))

    def _raven_choice(self, state: OutrageState, seat: str, what: str, option: str) -> None:
        """The answer to a choice a Raven card asked (``what`` names it)."""
        who = state.seat_name(seat)
        if what.startswith("go:"):
            if option == "go":
                dest = what[3:]
                self.place(state, seat, dest, "")
                self._queue_landing(state, seat, dest, 0, front=True)
            else:
                state.note(f"{who} stays and forfeits the turn. [{R_RAVEN}]")
                state.end_now = state.end_now or seat == state.order.current
        elif what == "call-out":
            self.call_out(state, option)
        elif what == "send-back":
            state.warders[option] = False
            state.note(f"The Yeoman Warder at the {BOARD.post_names[option]} post is sent back to the Waterloo Barracks. [{R_RAVEN}]")
        elif what == "photo":
            self.place(state, seat, option, " to be photographed with a Yeoman Warder")
            # "... and if it is unmarked take another Raven Card"
            if BOARD.square(option).draws_raven:
                state.tasks.insert(0, ("raven", seat, ""))
        elif what == "bench":
            # "You must sit and read the guidebook for one turn"
            self.place(state, seat, option, " to rest for one turn")
            state.order.skip(seat, 1)
            state.end_now = state.end_now or seat == state.order.current
        elif what == "visit":
            self.place(state, seat, option, ", a place of interest")
            self._queue_landing(state, seat, option, 0, front=True)

    # ------------------------------------------------------------ tea and curfew

    def _stay_for_tea(self, state: OutrageState, seat: str) -> None:
        """"If not you must stay for one turn longer" (The Resident Governor invites you to tea)."""
        state.tea.remove(seat)
        state.note(f"{state.seat_name(seat)} has no Tower Pass and stays at tea one turn longer. [{R_RAVEN}]")
        self.end_turn(state)

    def _leave_tea(self, state: OutrageState, seat: str) -> None:
        """"If you have a Tower Pass you may play it at the beginning of your next turn to
        make your excuses and leave.\""""
        state.tea.remove(seat)
        state.note(f"{state.seat_name(seat)} presents a Tower Pass, makes their excuses and leaves. [{R_RAVEN}]")
        state.phase = "start"

    def _curfew(self, state: OutrageState, seat: str, pass_played: bool) -> None:
        """Out after curfew: "present yourself there for one turn without taking a Tower
        Card. If you have a Tower Pass you may play it if you wish to remain at large.\""""
        if pass_played:
            state.note(f"{state.seat_name(seat)} presents a Tower Pass and remains at large after curfew. [{R_RAVEN}]")
            return
        self.place(state, seat, BOARD.places["bell_tower"], " after curfew, for one turn, without taking a Tower card")
        state.order.skip(seat, 1)
        state.end_now = state.end_now or seat == state.order.current

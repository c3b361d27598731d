"""The Liberation engine: the app is the trusted referee for everything hidden.

>>> from rules.core import Draw
>>> g = Liberation()
>>> s = g.new(g.default_seats(), {"balance": 1}, seed=3)
>>> str(g.prompt(s))
'dynasty-1: draw from city (setup: discard the top card face down (1 left))'
>>> while s.phase != "first-city":
...     g.push(s, g.sample(s))                 # the app's own deck
>>> len(s.hands["dynasty-1"]), len(s.hands["liberation-2"]), len(s.deck), len(s.deck.discard)
(3, 3, 7, 1)
>>> g.push(s, FirstCity("dynasty-1", s.hands["dynasty-1"].cards[0]))
>>> g.push(s, PlaceBase("liberation-2", s.hands["liberation-2"].cards[0]))
>>> "city" in g.view(s, "liberation-2")["base"], "city" in g.view(s)["base"]
(True, False)
>>> g.prompt(s).awaiting.accepted
('draw', 'unexploit', 'pass')
"""
from __future__ import annotations

import itertools
from typing import Any, Iterable, Iterator

from rules.core import (
    Action, Decision, Deck, Draw, DrawRequest, Game, Hand, Option, Outcome, Prompt, Rng,
    Score, Seat, Violation, next_pile, step, swap_hidden,
)

from . import checks, position
from .naming import Naming
from .actions import AskReferee, Attack, Claim, Discard, Evade, FirstCity, Mission, Occupy, Pass, PlaceBase, Sabotage, Unexploit
from .mapdata import MapError, MapSpec, parse_map, placeholder_data
from .missions import Mission as MissionSpec, MissionsError, default_missions_data, parse_missions
from .rulebook import R_ATTACK, R_D2, R_MISSIONS, R_SETUP, R_STEP1, R_STEP3
from .state import DECK, HAND_LIMIT, BaseMove, Event, LiberationState

RECENT = 6
"""How many recent public events a view shows (the log keeps them all)."""
LISTED_ASK_SIZE = 2
"""``legal_actions`` lists "which of these Cities" questions up to this many Cities."""

class Liberation(Naming, Game[LiberationState]):
    """Liberation (Button Shy, 2018): two seats, factions ``dynasty`` and ``liberation``."""

    id = "liberation"
    title = "Liberation"
    rulebook = "dynasty-liberation.txt"
    min_seats = 2
    max_seats = 2
    factions = ("dynasty", "liberation")
    options = (
        Option(
            "balance", 1, (0, 1, 2),
            help="Balance adjustment: how many top cards are discarded face down at setup "
            "(0 easier for the Dynasty, 1 standard, 2 easier for the Liberation).",
            ruling="L-02",
        ),
        Option("map", placeholder_data(), help="The map in use, as map JSON data (see mapdata.py).", ruling="L-01"),
        Option("missions", default_missions_data(), help="The missions table: costs and referee questions.", ruling="L-10"),
    )
    action_types = (Draw, FirstCity, PlaceBase, Pass, Unexploit, Occupy, Attack, Claim, Mission, AskReferee, Evade, Sabotage, Discard)
    turn_rule = "Setup: the Dynasty takes the first turn, then players alternate"
    cards_rule = "Components: 14 City cards"

    # ------------------------------------------------------------------ setup

    def check_setup(self, seats: list[Seat], options: dict[str, Any]) -> Iterator[Violation]:
        for faction in self.factions:
            n = sum(1 for s in seats if s.faction == faction)
            if n != 1:
                yield Violation("faction-count", R_SETUP, f"Liberation needs exactly one {faction} seat, not {n}.")
        try:
            parse_map(options["map"])
        except MapError as e:
            yield Violation("bad-map", R_SETUP, "The map cannot be played: " + "; ".join(e.problems))
        try:
            parse_missions(options["missions"])
        except MissionsError as e:
            yield Violation("bad-missions", R_SETUP, "The missions table cannot be used: " + "; ".join(e.problems))

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng, seed: int) -> LiberationState:
        spec = parse_map(options["map"])
        deck = Deck(DECK, cards=list(spec.city_ids), auto_reshuffle=True)
        deck.shuffle(rng)
        state = LiberationState(
            seats=seats, options=options, seed=seed, rng=rng, deck=deck,
            hands={s.id: Hand(s.id) for s in seats},
            setup_left=options["balance"],
        )
        state.phase = "setup-discard" if state.setup_left else "deal"
        state.note(f"Setup on {spec.name}: balance adjustment {options['balance']} (discard {options['balance']} card{'s' if options['balance'] != 1 else ''}).")
        return state

    def position(self, state: LiberationState) -> dict[str, Any]:
        """The public position at a turn's start: see :mod:`rules.liberation.position`."""
        return position.write(self, state)

    def from_position(self, seats: list[Seat], options: dict[str, Any], pos: dict[str, Any], rng: Rng, seed: int) -> LiberationState:
        return position.read(self, seats, options, pos, rng, seed)

    def random_setup(self, rng: Rng) -> tuple[list[Seat], dict[str, Any]]:
        return self.default_seats(), {"balance": rng.choice((0, 1, 1, 2))}

    def deck(self, state: LiberationState, name: str) -> Deck:
        return state.deck

    # ----------------------------------------------------------------- helpers

    def map_of(self, state: LiberationState) -> MapSpec:
        """The map in use (public: draw the board from it)."""
        return state.map

    def adjacent(self, state: LiberationState, a: str, b: str) -> bool:
        return state.map.adjacent(a, b)

    def reachable(self, state: LiberationState, city: str, steps: int = 1) -> frozenset[str]:
        """Cities at most ``steps`` lines from ``city`` (itself included)."""
        return state.map.reachable(city, steps)

    def mission_of(self, state: LiberationState, card: str, side: str) -> MissionSpec:
        return state.missions.mission(state.map.category_of(card), side)

    def evade_options(self, state: LiberationState) -> list[str]:
        """Where the base may go by Evade now (the Liberation's private information)."""
        if not state.base:
            return []
        hand = state.hands[state.liberation].cards
        return sorted(c for c in {state.base, *hand} if c == state.base or state.map.adjacent(state.base, c))

    def can_draw(self, state: LiberationState) -> bool:
        return bool(state.deck.cards or state.deck.discard)

    # ------------------------------------------------------------------ prompt

    @step("setup-discard", timed=False, rule=R_SETUP, depends=("setup_left",))
    def ask_setup_discard(self, state: LiberationState) -> Prompt:
        return Prompt.single(state.dynasty, DrawRequest(DECK, f"setup: discard the top card face down ({state.setup_left} left)"))

    @step("deal", timed=False, rule=R_SETUP, depends=lambda s: len(s.hands[s.dynasty]) < HAND_LIMIT)
    def ask_deal(self, state: LiberationState) -> Prompt:
        dyn = state.dynasty
        seat = dyn if len(state.hands[dyn]) < HAND_LIMIT else state.liberation
        return Prompt.single(seat, DrawRequest(DECK, f"setup: {state.side(seat)} draws 3 cards"))

    @step("first-city", timed=False, rule=R_SETUP, depends=())
    def ask_first_city(self, state: LiberationState) -> Prompt:
        return Prompt.single(state.dynasty, Decision(("first_city",), "place a card face up: your first occupied City"))

    @step("base", timed=False, rule=R_SETUP, depends=())
    def ask_base(self, state: LiberationState) -> Prompt:
        return Prompt.single(state.liberation, Decision(("place_base",), "place a card face down: your secret base"))

    @step("step1", rule=R_STEP1,
          depends=lambda s: (s.active, bool(s.deck.cards), bool(s.deck.discard), s.deck.reshuffles))
    def ask_step1(self, state: LiberationState) -> Prompt:
        dynasty = state.active == state.dynasty
        also = ("unexploit", "pass") if dynasty else ("pass",)
        if not self.can_draw(state):
            return Prompt.single(state.active, Decision(also, "step 1: nothing left to draw"))
        purpose = "step 1: draw a card" + (", unexploit a City, or neither" if dynasty else ", or not")
        if not state.deck.cards:
            if state.deck.reshuffles >= 2:
                purpose += " — the deck is empty: drawing now would be the third reshuffle, which ends the game (the Liberation wins)"
            else:
                purpose += f" — the deck is empty: drawing reshuffles the discards and starts ACT {'I' * (state.act + 1)}"
        return Prompt.single(state.active, DrawRequest(DECK, purpose, also=also))

    @step("step2", rule=R_D2, depends=("active",))
    def ask_step2(self, state: LiberationState) -> Prompt:
        dynasty = state.active == state.dynasty
        kinds = ("mission", "occupy", "attack", "unexploit", "pass") if dynasty else ("evade", "sabotage", "mission", "pass")
        return Prompt.single(state.active, Decision(kinds, "step 2: take one action, or pass"))

    @step("claim", rule=R_ATTACK, depends=("active", "taken"))
    def ask_claim(self, state: LiberationState) -> Prompt:
        return Prompt.single(state.active, Decision(("claim",), f"occupy or discard {state.name(state.taken)}, taken by your Attack"))

    @step("ask", rule=R_MISSIONS, depends=("active", "asking"))
    def ask_ask(self, state: LiberationState) -> Prompt:
        m = self.mission_of(state, state.asking, state.side(state.active))
        return Prompt.single(state.active, Decision(("ask",), f"{m.name}: ask the referee"))

    @step("step3", rule=R_STEP3, depends=("active",))
    def ask_step3(self, state: LiberationState) -> Prompt:
        return Prompt.single(state.active, Decision(("discard",), f"step 3: discard down to {HAND_LIMIT} cards (face down)"))

    # -------------------------------------------------------------- validation

    def unseen_zones(self, state: LiberationState, seat: str, deck: str) -> list[list[str]]:
        """Where a City card may be that ``seat`` cannot see (RULINGS L-14): the face-down
        discards and the other side's hand; for the Dynasty, the base too (a copy: the
        base is moved by :meth:`reconcile_draw` itself). None for the setup's discard,
        which nobody looks at."""
        if state.phase == "setup-discard":
            return []
        zones = [state.deck.discard] + [h.cards for s, h in state.hands.items() if s != seat]
        if seat != state.liberation and state.base:
            zones.append([state.base])
        return zones

    def drawable(self, state: LiberationState, seat: str, deck: str) -> list[str]:
        # A card shown face up and discarded is publicly in the discard pile: it can be
        # drawn only once the discards are reshuffled into the deck (L-14).
        if not state.deck.cards:
            return super().drawable(state, seat, deck)
        return [c for c in super().drawable(state, seat, deck) if c not in state.shown]

    def not_drawable(self, state: LiberationState, seat: str, deck: str, card: str) -> str:
        """Why ``seat`` cannot have drawn ``card``: only where everyone, or ``seat``
        alone, can see it is (L-14). The card is not named: the refusal may be read aloud."""
        if card not in state.map.city_ids:
            return "That is not one of the City cards."
        if card in state.hands[seat]:
            return "That card is in your hand."
        if card in state.occupied:
            return "That City is occupied: its card lies face up on the map."
        if card == state.base and seat == state.liberation:
            return "That card is your base."
        if card == state.taken:
            return "That card was taken by the Attack and waits for the Dynasty's claim."
        if card in state.shown:
            return "That card was shown and discarded: it is in the discard pile until the next reshuffle."
        return "The deck and the discard pile are empty: there is no card to draw."

    def reconcile_draw(self, state: LiberationState, action: Draw) -> str | None:
        """A physical draw naming a card the app had in a place the drawer cannot see:
        the card the app had on top of the deck takes its place there (L-14), the holder
        is told privately what the app now records, and the setup's stand-ins follow."""
        deck, card, seat = state.deck, action.card, action.seat
        pile = next_pile(deck)
        if card == state.base and seat != state.liberation and not deck.can_draw(card) and pile:
            new = pile[0]
            pile[0], state.base = card, new
            state.moves.append(BaseMove(state.ply, state.turn, state.act, card, new, redrawn=True))
            state.note(f"A physical draw named the card of your base: the app now records your base at {state.name(new)} "
                       "(RULINGS L-14). Put that card down as your base.", state.liberation, to=(state.liberation,))
            return new
        holder = next((s for s, h in state.hands.items() if s != seat and card in h), None)
        new = super().reconcile_draw(state, action)
        if new is None:
            return None
        if card in state.unseen:
            state.unseen[state.unseen.index(card)] = new
        if holder is not None:
            state.note(f"A physical draw named a card the app had in your hand: it now records {state.name(new)} "
                       "in its place (RULINGS L-14). Check your hand.", holder, to=(holder,))
        return new

    def violations(self, state: LiberationState, action: Action, prompt: Prompt) -> Iterable[Violation]:
        # Only the seat that must act gets rule checks: anything else is already
        # "not-your-turn", and checking it against the other side's cards could leak them.
        if action.seat not in prompt.actors:
            return ()
        return checks.violations(state, action)

    def explain(self, state: LiberationState, action: Action, prompt: Prompt) -> Iterable[Violation]:
        """Why the seat that must act may not take this kind now, in the rulebook's words
        (:func:`rules.liberation.checks.explain`); a seat whose turn it is not is told so by
        the kernel."""
        if action.seat not in prompt.actors:
            return ()
        return checks.explain(state, action.seat, action.kind)

    # --------------------------------------------------------------- execution

    def execute(self, state: LiberationState, action: Action) -> None:
        seat = action.seat
        t = type(action)  # the action classes, most frequent first
        if t is Pass:
            state.note(f"{_side_name(state, seat)} {'does not draw' if state.phase == 'step1' else 'takes no action'}.", seat)
            self._next_step(state)
        elif t is Draw:
            self._draw(state, action)  # type: ignore[arg-type]
        elif t is Mission:
            self._mission(state, action)  # type: ignore[arg-type]
        elif t is Unexploit:
            state.exploited.remove(action.city)  # type: ignore[attr-defined]
            self._event(state, "unexploit", seat, city=action.city, text=f"The Dynasty unexploits {state.name(action.city)}.")  # type: ignore[attr-defined]
            self._next_step(state)
        elif t is Sabotage:
            self._sabotage(state, action)  # type: ignore[arg-type]
        elif t is AskReferee:
            self._answer(state, action)  # type: ignore[arg-type]
        elif t is Evade:
            self._evade(state, action)  # type: ignore[arg-type]
        elif t is Attack:
            self._attack(state, action)  # type: ignore[arg-type]
        elif t is Discard:
            state.hands[seat].remove(action.card)  # type: ignore[attr-defined]
            state.deck.put_discard(action.card)  # type: ignore[attr-defined]
            state.note(f"{_side_name(state, seat)} discards a card face down.", seat)
            state.note(f"You discard {state.name(action.card)}.", seat, to=(seat,))  # type: ignore[attr-defined]
            if len(state.hands[seat]) <= HAND_LIMIT:
                self._end_turn(state)
        elif t is Occupy:
            state.exploited.append(action.exploit)  # type: ignore[attr-defined]
            state.hands[seat].remove(action.card)  # type: ignore[attr-defined]
            state.occupied.append(action.card)  # type: ignore[attr-defined]
            self._event(state, "occupy", seat, city=action.card, exploit=action.exploit,  # type: ignore[attr-defined]
                        text=f"The Dynasty exploits {state.name(action.exploit)} and occupies {state.name(action.card)}.")  # type: ignore[attr-defined]
            self._end_step2(state)
        elif t is Claim:
            card, state.taken = state.taken, ""
            if action.occupy:  # type: ignore[attr-defined]
                state.occupied.append(card)
            else:
                state.deck.put_discard(card)
                state.shown.append(card)
            self._event(state, "claim", seat, city=card, result="occupied" if action.occupy else "discarded",  # type: ignore[attr-defined]
                        text=f"The Dynasty {'occupies' if action.occupy else 'discards'} {state.name(card)}.")  # type: ignore[attr-defined]
            self._end_step2(state)
        elif t is FirstCity:
            state.hands[seat].remove(action.card)  # type: ignore[attr-defined]
            state.occupied.append(action.card)  # type: ignore[attr-defined]
            self._event(state, "first-city", seat, city=action.card, text=f"The Dynasty occupies {state.name(action.card)}, its first City.")  # type: ignore[attr-defined]
            state.phase = "base"
        elif t is PlaceBase:
            state.hands[seat].remove(action.card)  # type: ignore[attr-defined]
            state.base = action.card  # type: ignore[attr-defined]
            state.moves.append(BaseMove(state.ply, state.turn, state.act, "", action.card))  # type: ignore[attr-defined]
            state.note("The Liberation places its secret base face down.")
            state.note(f"Your secret base is {state.name(action.card)}.", seat, to=(seat,))  # type: ignore[attr-defined]
            state.turn = 1
            state.active = state.dynasty
            state.phase = "step1"

    def _draw(self, state: LiberationState, action: Draw) -> None:
        deck, seat = state.deck, action.seat
        if state.phase == "setup-discard":
            deck.take(action.card)
            deck.put_discard(action.card)
            state.unseen.append(action.card)
            state.setup_left -= 1
            state.note("Setup: the top card is discarded face down.")
            if not state.setup_left:
                state.phase = "deal"
            return
        if state.phase == "step1" and not deck.cards:
            if deck.reshuffles >= 2:
                state.note("The deck is empty for the third time: ACT III is over.")
                self.finish(state, self._outcome(state, "liberation", "the Liberation survived three ACTS (the third reshuffle would occur)"))
                return
            deck.take_drawn(action.card, state.rng)
            state.unseen.clear()  # the setup's discards are in the new deck now
            state.shown.clear()
            state.note(f"The deck is empty: the discards are reshuffled. ACT {'I' * state.act} begins.")
        else:
            deck.take(action.card)
        state.hands[seat].add(action.card)
        state.note(f"{_side_name(state, seat)} draws a card.", seat)
        state.note(f"You draw {state.name(action.card)}.", seat, to=(seat,))
        if state.phase == "deal":
            if len(state.hands[state.liberation]) == HAND_LIMIT:
                state.phase = "first-city"
        else:
            state.phase = "step2"

    def _attack(self, state: LiberationState, action: Attack) -> None:
        seat, city = action.seat, action.city
        state.exploited.append(action.exploit)
        head = f"The Dynasty exploits {state.name(action.exploit)} and attacks {state.name(city)}"
        if city == state.base:
            self._event(state, "attack", seat, city=city, exploit=action.exploit, result="base-found", text=f"{head}: BASE FOUND!")
            self.finish(state, self._outcome(state, "dynasty", "the Dynasty attacked the Liberation's secret base"))
            return
        lib_hand = state.hands[state.liberation]
        if city in lib_hand:
            lib_hand.remove(city)
            state.taken = city
            self._event(state, "attack", seat, city=city, exploit=action.exploit, result="taken", text=f"{head}: the Liberation held it — card taken.")
            state.phase = "claim"
            return
        self._event(state, "attack", seat, city=city, exploit=action.exploit, result="miss", text=f"{head}: MISS.")
        self._end_step2(state)

    def _mission(self, state: LiberationState, action: Mission) -> None:
        seat, card = action.seat, action.card
        side = state.side(seat)
        spec = self.mission_of(state, card, side)
        hand = state.hands[seat]
        # The cost is paid first (Glossary: Costs).
        if action.pay_card:
            hand.remove(action.pay_card)
            state.deck.put_discard(action.pay_card)
            state.note(f"You pay with {state.name(action.pay_card)}.", seat, to=(seat,))
        if action.pay_city:
            state.exploited.append(action.pay_city)
        if spec.cost == "discard":
            cost = ", paying 1 card discarded face down"
        elif spec.cost == "exploit":
            cost = f", paying by exploiting {state.name(action.pay_city)}"
        else:
            cost = ""
        if action.occupied:
            state.exploited.append(card)
            text = f"The Dynasty exploits {state.name(card)} to perform {spec.name}{cost}."
        else:
            hand.remove(card)
            state.deck.put_discard(card)
            state.shown.append(card)
            text = f"{_side_name(state, seat)} reveals {state.name(card)} and performs {spec.name}{cost}; the card is discarded."
        self._event(state, "mission", seat, city=card, exploit=action.pay_city, result=spec.name, text=text)
        if spec.question is not None:
            state.asking = card
            state.phase = "ask"
        else:
            self._end_step2(state)

    def _answer(self, state: LiberationState, action: AskReferee) -> None:
        seat = action.seat
        spec = self.mission_of(state, state.asking, state.side(seat))
        q = spec.question
        assert q is not None
        m = state.map
        if q.kind == "base-among":
            yes = state.base in action.cities
            text = q.text(cities=[m.name_of(c) for c in action.cities])
        elif q.kind == "base-within":
            d = m.distance(state.base, action.city)
            yes = d is not None and d <= action.steps
            text = q.text(city=m.name_of(action.city), steps=action.steps)
        else:
            opponent = state.hands[state.other(seat)]
            yes = any(c in opponent for c in action.cities)
            text = q.text(cities=[m.name_of(c) for c in action.cities]).replace("the opponent", "the " + state.side(state.other(seat)).title())
        answer = "yes" if yes else "no"
        self._event(state, "answer", seat, city=action.city, cities=action.cities, result=answer,
                    text=f"{spec.name}: {text} The referee answers: {answer.upper()}.")
        state.asking = ""
        self._end_step2(state)

    def _evade(self, state: LiberationState, action: Evade) -> None:
        seat, old = action.seat, state.base
        hand = state.hands[seat]
        hand.add(old)
        hand.remove(action.to)
        state.base = action.to
        state.moves.append(BaseMove(state.ply, state.turn, state.act, old, action.to))
        # The public entry is the same whichever City was chosen, the same one included.
        state.note("The Liberation evades: its base is returned to hand and put down again, face down.", seat)
        stay = action.to == old
        state.note(f"Your base {'stays at' if stay else 'moves from ' + state.name(old) + ' to'} {state.name(action.to)}.", seat, to=(seat,))
        self._end_step2(state)

    def _sabotage(self, state: LiberationState, action: Sabotage) -> None:
        seat, city = action.seat, action.city
        dyn_hand = state.hands[state.dynasty]
        head = f"The Liberation sabotages {state.name(city)}"
        if city in dyn_hand:
            dyn_hand.remove(city)
            state.deck.put_discard(city)
            state.shown.append(city)
            self._event(state, "sabotage", seat, city=city, result="discarded", text=f"{head}: the Dynasty held it, reveals it and discards it.")
        else:
            self._event(state, "sabotage", seat, city=city, result="miss", text=f"{head}: the Dynasty does not hold it.")
        self._end_step2(state)

    # -------------------------------------------------------------- turn flow

    def _event(self, state: LiberationState, kind: str, seat: str, text: str, **fields: Any) -> None:
        state.events.append(Event(state.ply, state.turn, kind, seat, **fields))
        # Views show the recent events; the log keeps the whole story in words.
        del state.events[:-RECENT]
        state.note(text, seat)

    def _next_step(self, state: LiberationState) -> None:
        if state.phase == "step1":
            state.phase = "step2"
        else:
            self._end_step2(state)

    def _end_step2(self, state: LiberationState) -> None:
        if len(state.hands[state.active]) > HAND_LIMIT:
            state.phase = "step3"
        else:
            self._end_turn(state)

    def _end_turn(self, state: LiberationState) -> None:
        state.active = state.other(state.active)
        state.turn += 1
        state.phase = "step1"

    def _outcome(self, state: LiberationState, winner: str, reason: str) -> Outcome:
        seat = state.dynasty if winner == "dynasty" else state.liberation
        facts = {"act": min(state.act, 3), "turns": state.turn, "occupied": len(state.occupied), "evades": len(state.moves) - 1}
        return Outcome(
            winner, reason,
            {f: Score(1 if f == winner else 0, dict(facts)) for f in self.factions},
            (seat,),
        )

    # -------------------------------------------------------------- listing

    def candidates(self, state: LiberationState, prompt: Prompt) -> Iterator[Action]:
        phase = state.phase
        if phase == "first-city":
            for c in state.hands[state.dynasty].cards:
                yield FirstCity(state.dynasty, c)
            return
        if phase == "base":
            for c in state.hands[state.liberation].cards:
                yield PlaceBase(state.liberation, c)
            return
        seat = state.active
        if not seat:
            return
        hand = state.hands[seat].cards
        dynasty = seat == state.dynasty
        m = state.map
        if phase == "step1":
            if dynasty:
                for c in state.exploited:
                    yield Unexploit(seat, c)
            yield Pass(seat)
        elif phase == "step2":
            yield Pass(seat)
            yield from self._mission_candidates(state, seat)
            if dynasty:
                ready = [c for c in state.occupied if c not in state.exploited]
                for c in state.exploited:
                    yield Unexploit(seat, c)
                for ex in ready:
                    for card in hand:
                        if m.adjacent(ex, card):
                            yield Occupy(seat, ex, card)
                    for n in sorted(m.neighbours(ex)):
                        yield Attack(seat, ex, n)
            else:
                for c in self.evade_options(state):
                    yield Evade(seat, c)
                reach = set()
                for c in (*hand, state.base):
                    reach |= m.neighbours(c)
                for c in sorted(reach):
                    yield Sabotage(seat, c)
        elif phase == "claim":
            yield Claim(seat, True)
            yield Claim(seat, False)
        elif phase == "ask":
            q = self.mission_of(state, state.asking, state.side(seat)).question
            assert q is not None
            if q.kind == "base-within":
                for c in m.city_ids:
                    for n in range(1, q.max_steps + 1):
                        yield AskReferee(seat, city=c, steps=n)
            else:
                # Every set of one or two Cities (up to the limit). Larger sets are legal
                # too — the UI builds them by tapping and checks them with ``in`` — but
                # listing all 469 sets of up to three would swamp the listing.
                for k in range(1, min(q.max_cities, LISTED_ASK_SIZE) + 1):
                    for combo in itertools.combinations(m.city_ids, k):
                        yield AskReferee(seat, cities=combo)
        elif phase == "step3":
            for c in hand:
                yield Discard(seat, c)

    def _mission_candidates(self, state: LiberationState, seat: str) -> Iterator[Mission]:
        side = state.side(seat)
        hand = state.hands[seat].cards
        ready = [c for c in state.occupied if c not in state.exploited]
        sources: list[tuple[str, bool]] = [(c, False) for c in hand]
        if side == "dynasty":
            sources += [(c, True) for c in ready]
        for card, occupied in sources:
            cost = self.mission_of(state, card, side).cost
            if cost == "none":
                yield Mission(seat, card, occupied)
            elif cost == "discard":
                for p in hand:
                    if p != card:
                        yield Mission(seat, card, occupied, pay_card=p)
            else:
                for p in ready:
                    if p != card:
                        yield Mission(seat, card, occupied, pay_city=p)

    # --------------------------------------------------------------- views

    def render(self, state: LiberationState, viewer: str) -> dict[str, Any]:
        m = state.map
        over = state.result is not None
        view: dict[str, Any] = {
            "map": {"id": m.id, "name": m.name, "placeholder": m.placeholder},
            "phase": state.phase,
            "turn": state.turn,
            "active": state.active,
            "step": state.step,
            "act": min(state.act, 3),
            "deck": len(state.deck.cards),
            "discard": len(state.deck.discard),
            "occupied": [{"city": c, "exploited": c in state.exploited} for c in state.occupied],
            "hands": {s: h.view(viewer if not over else s) for s, h in state.hands.items()},
            "base": {"placed": bool(state.base)},
            "events": self._recent_events(state),  # the last RECENT, oldest first
            "claim": state.taken or None,
            "asking": self._asking_view(state),
        }
        if state.base and (viewer == state.liberation or over):
            view["base"]["city"] = state.base
        if viewer == state.liberation and state.phase == "step2" and state.active == viewer:
            view["evade_options"] = self.evade_options(state)
        if over:
            view["audit"] = self.audit(state)
        return view

    def _recent_events(self, state: LiberationState) -> list[dict[str, Any]]:
        # An event's text is the public log line written at its ply by its seat.
        events = state.events
        if not events:
            return []
        texts: dict[tuple[int, str | None], str] = {}
        first = events[0].ply
        for entry in reversed(state.log):
            if entry.ply < first:
                break
            if entry.to is None:
                texts.setdefault((entry.ply, entry.seat), entry.text)
        return [e.public(texts.get((e.ply, e.seat), "")) for e in events]

    def _asking_view(self, state: LiberationState) -> dict[str, Any] | None:
        if not state.asking:
            return None
        spec = self.mission_of(state, state.asking, state.side(state.active))
        assert spec.question is not None
        return {"card": state.asking, "mission": spec.name, "question": spec.question.to_data()}

    def audit(self, state: LiberationState) -> dict[str, Any] | None:
        """The full reveal once the game is over (``None`` before): every position of the
        base with its ACT and turn, whether each Evade respected adjacency, and where every
        card ended up, so both players can check the referee."""
        if state.result is None:
            return None
        m = state.map
        return {
            "base": state.base,
            "base_history": [
                {
                    "ply": mv.ply, "turn": mv.turn, "act": mv.act, "from": mv.from_city, "to": mv.to_city,
                    "legal": mv.redrawn or mv.from_city == "" or mv.from_city == mv.to_city or m.adjacent(mv.from_city, mv.to_city),
                    "redrawn": mv.redrawn,
                }
                for mv in state.moves
            ],
            "hands": {s: list(h.cards) for s, h in state.hands.items()},
            "deck": list(state.deck.cards),
            "discard": list(state.deck.discard),
        }

    def secrets(self, state: LiberationState, viewer: str) -> set[str]:
        """City ids and names whose whereabouts ``viewer`` may not learn: the base (and its
        name) for everyone but the Liberation, each side's hand for the other side, the deck
        and the face-down discards for everyone. Cities a recent public event names
        legitimately appear in the view, so they are left out. Nothing is secret once the
        game is over."""
        if state.result is not None:
            return set()
        hidden = set(state.deck.cards)
        hidden.update(state.deck.discard)
        if viewer != state.liberation:
            hidden.update(state.hands[state.liberation].cards)
            if state.base:
                hidden.add(state.base)
        if viewer != state.dynasty:
            hidden.update(state.hands[state.dynasty].cards)
        for e in state.events:
            hidden -= e.named()
        hidden.discard(state.taken)
        hidden.discard(state.asking)
        m = state.map
        return hidden | {m.name_of(c) for c in hidden}

    # ------------------------------------------------------------ bookkeeping

    def hidden_variant(self, state: LiberationState, viewer: str, rng: Rng) -> LiberationState | None:
        """Swap two cards among the places ``viewer`` cannot see: the deck, the face-down
        discards, and the other side's hand."""
        if state.result is not None:
            return None
        twin = self.copy(state)
        twin.changed()
        piles = [twin.deck.cards, twin.deck.discard] + [h.cards for s, h in sorted(twin.hands.items()) if s != viewer]
        # Cities a public event names (an attack, a sabotage) stay where everyone saw them.
        named: set[str] = set()
        for e in twin.events:
            named |= e.named()
        named |= {twin.taken, twin.asking, twin.base}
        movable = [[c for c in p if c not in named] for p in piles]
        if not swap_hidden(movable, rng):
            return None
        for pile, new in zip(piles, movable):
            it = iter(new)
            pile[:] = [c if c in named else next(it) for c in pile]
        return twin

    def tracked(self, state: LiberationState) -> dict[str, int]:
        return {
            "act": min(state.act, 3),
            "turn": state.turn,
            "deck": len(state.deck.cards),
            "discard": len(state.deck.discard),
            "dynasty_hand": len(state.hands[state.dynasty]),
            "liberation_hand": len(state.hands[state.liberation]),
            "occupied": len(state.occupied),
            "exploited": len(state.exploited),
        }

    def undo_barrier(self, state: LiberationState, action: Action) -> str | None:
        if isinstance(action, Attack):
            return "the Attack's result was revealed"
        if isinstance(action, Sabotage):
            return "the Sabotage revealed whether the Dynasty held the card"
        if isinstance(action, (Mission, FirstCity, Occupy, Claim)):
            return "a card was revealed"
        if isinstance(action, AskReferee):
            return "the referee answered a question about hidden cards"
        return super().undo_barrier(state, action)

    def problems(self, state: LiberationState) -> Iterator[str]:
        zones = state.deck.cards + state.deck.discard + state.occupied
        for h in state.hands.values():
            zones += h.cards
        if state.base:
            zones.append(state.base)
        if state.taken:
            zones.append(state.taken)
        if sorted(zones) != sorted(state.map.city_ids):
            yield f"cards not conserved: {sorted(zones)}"
        if not set(state.exploited) <= set(state.occupied):
            yield f"exploited cities {state.exploited} are not all occupied"
        if len(set(state.exploited)) != len(state.exploited):
            yield f"a city is exploited twice: {state.exploited}"
        for h in state.hands.values():
            if len(h) > HAND_LIMIT + 1 or (state.phase == "step1" and len(h) > HAND_LIMIT):
                yield f"{h.owner} holds {len(h)} cards in phase {state.phase}"
        for mv in state.moves[1:]:
            if not mv.redrawn and mv.from_city != mv.to_city and not state.map.adjacent(mv.from_city, mv.to_city):
                yield f"an Evade moved the base from {mv.from_city} to {mv.to_city}, which are not adjacent"
        if state.moves and state.moves[-1].to_city != state.base:
            yield "the base is not where its last move put it"
        if not set(state.shown) <= set(state.deck.discard):
            yield f"shown cards {state.shown} are not all in the discard pile"
        if state.deck.reshuffles > 2:
            yield f"{state.deck.reshuffles} reshuffles: the game should have ended at the third"


def _q(city: str) -> str:
    """A City as an error message names it: by the id the action itself carries (a
    message never names a City the action did not, so it cannot leak one)."""
    return repr(city)


def _side_name(state: LiberationState, seat: str) -> str:
    return "The Dynasty" if seat == state.dynasty else "The Liberation"


GAME = Liberation()

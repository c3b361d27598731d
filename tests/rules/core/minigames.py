"""Three tiny games that exercise the kernel's mechanisms the five real games need:
2d6 with doubles (Outrage!), a simultaneous secret commit (Outrage! attacks, Dicetopia
missions), a deck whose reshuffles end the game (Liberation's ACTs), and an escalation
scale fed by incidents (Against All Tyrants)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable

from rules.core import (
    POOL, Action, Commit, CommitRequest, Decision, Deck, Die, Draw, DrawRequest, Escalation, Game, Hand,
    NoPositions, Outcome, Reaction, ReactionStack, step, swap_hidden,
    Prompt, Rng, Roll, RollRequest, Score, Seat, SecretRound, State, Streak,
    Track, TurnOrder, Violation, action, serializable,
)
from rules.core.position import PositionReader


def _seat_numbers(r: PositionReader, p: dict[str, Any], key: str, ids: list[str], lo: int, hi: int | None) -> dict[str, int]:
    """``p[key]``: one whole number per seat, each in lo..hi."""
    data = r.obj(key, p.get(key, {}))
    out: dict[str, int] = {}
    for s in ids:
        if s not in data:
            r.bad(f"{key}.{s}", "missing.")
    for s, v in data.items():
        if s not in ids:
            r.bad(f"{key}.{s}", f"no seat {s!r} at this table.")
        elif (n := r.int(f"{key}.{s}", v, lo, hi)) is not None:
            out[s] = n
    return out


def _turn_seat(r: PositionReader, p: dict[str, Any], ids: list[str]) -> str:
    seat = p.get("seat")
    if "seat" in p and seat not in ids:
        r.bad("seat", f"no seat {seat!r} at this table.")
    return seat  # type: ignore[return-value]


@action("mini.stop")
@dataclass(frozen=True)
class Stop(Action):
    """End the turn instead of rolling again."""


@serializable("mini.DoublesState")
@dataclass(kw_only=True)
class DoublesState(State):
    order: TurnOrder
    score: dict[str, Track]
    doubles: int = 0
    rolled: bool = False


class Doubles(Game[DoublesState]):
    """Roll 2d6 and score the total; a double rolls again, three doubles lose the turn's
    points and end it. First to 30 wins."""

    id = "mini-doubles"
    title = "Doubles"
    factions = ("red", "blue")
    action_types = (Roll, Stop)
    dice_rule = "The dice"

    def setup(self, seats, options, rng, seed):
        return DoublesState(
            seats=seats, options=options, seed=seed, rng=rng,
            order=TurnOrder([s.id for s in seats]),
            score={s.id: Track("score", 0, lo=0, hi=30) for s in seats},
        )

    def ask(self, state):
        seat = state.order.current
        if state.rolled:
            return Prompt.single(seat, RollRequest.of(2, 6, "roll again after a double", also=("stop",)))
        return Prompt.single(seat, RollRequest.of(2, 6, "score"))

    def violations(self, state, action, prompt):
        return ()

    def execute(self, state, action):
        seat = state.order.current
        if isinstance(action, Stop):
            self._end_turn(state)
            return
        assert isinstance(action, Roll)
        if action.is_double:
            state.doubles += 1
            if state.doubles == 3:
                state.note(f"{seat} rolled three doubles and loses the turn.")
                self._end_turn(state)
                return
            state.score[seat].add(action.total)
            state.rolled = True
        else:
            state.score[seat].add(action.total)
            self._end_turn(state)
        if state.score[seat].value >= 30:
            self.finish(state, Outcome(state.seat(seat).faction, f"{seat} reached 30",
                                       {s: Score(t.value) for s, t in state.score.items()}, (seat,)))

    def position(self, state):
        """``{"seat": whose turn starts, "scores": {seat: 0..29}}``: a turn's start, before its first roll."""
        if state.result is not None or state.rolled:
            raise NoPositions("A Doubles position is the start of a turn.")
        return {"seat": state.order.current, "scores": {s: t.value for s, t in state.score.items()}}

    def from_position(self, seats, options, position, rng, seed):
        ids = [s.id for s in seats]
        r = PositionReader(position, "The dice")
        r.keys(position, ("seat", "scores"))
        seat = _turn_seat(r, position, ids)
        scores = _seat_numbers(r, position, "scores", ids, 0, 29)
        r.done()
        return DoublesState(
            seats=seats, options=options, seed=seed, rng=rng,
            order=TurnOrder(ids, index=ids.index(seat)),
            score={s: Track("score", scores[s], lo=0, hi=30) for s in ids},
        )

    def _end_turn(self, state):
        state.doubles = 0
        state.rolled = False
        state.order.advance()

    def candidates(self, state, prompt):
        seat = state.order.current
        if prompt.accepts(seat, "stop"):
            yield Stop(seat)


@serializable("mini.DuelState")
@dataclass(kw_only=True)
class DuelState(State):
    round: SecretRound
    wins: dict[str, int]
    history: list[dict[str, int]] = field(default_factory=list)


PICKS = ("one", "two", "three")


@action("mini.pick")
@dataclass(frozen=True)
class Pick(Commit):
    """A secret pick, spelt out: "one", "two" or "three"."""

    choice: str = ""


class Duel(Game[DuelState]):
    """Both seats secretly pick 1, 2 or 3; the higher wins the round; first to 3 wins."""

    id = "mini-duel"
    title = "Duel"
    factions = ("red", "blue")
    action_types = (Pick,)

    def setup(self, seats, options, rng, seed):
        return DuelState(seats=seats, options=options, seed=seed, rng=rng,
                         round=SecretRound("duel", [s.id for s in seats]), wins={s.id: 0 for s in seats})

    def ask(self, state):
        return Prompt.each(state.round.waiting_for, CommitRequest("pick", "pick 1–3"))

    def explain(self, state, action, prompt):
        if action.seat in state.round.commits:
            yield Violation("already-committed", "Duel §1", "You have already chosen this round.")

    def violations(self, state, action, prompt):
        if action.choice not in PICKS:
            yield Violation("bad-choice", "Duel §1", "A pick must be 1, 2 or 3, spelt out.")

    def execute(self, state, action):
        state.round.commit(action.seat, action.choice)
        if state.round.is_complete:
            picks = state.round.reveal()
            state.history.append({s: PICKS.index(c) + 1 for s, c in picks.items()})
            (a, x), (b, y) = picks.items()
            if x != y:
                winner = a if PICKS.index(x) > PICKS.index(y) else b
                state.wins[winner] += 1
                state.note(f"{a} showed {x}, {b} showed {y}: {winner} wins the round.")
                if state.wins[winner] == 3:
                    self.finish(state, Outcome(state.seat(winner).faction, "three rounds won", winning_seats=(winner,)))
            state.round = SecretRound("duel", list(state.round.seats))
            self.reveal(state)

    def candidates(self, state, prompt):
        for seat in prompt.seats():
            for c in PICKS:
                yield Pick(seat, c)

    def render(self, state, viewer):
        view: dict[str, Any] = {"wins": dict(state.wins), "history": list(state.history)}
        view["round"] = state.round.private(viewer) if viewer in state.round.seats else state.round.public()
        return view

    def hidden_variant(self, state, viewer, rng):
        others = [s for s in state.round.commits if s != viewer]
        if not others:
            return None
        twin = self.copy(state)
        seat = rng.choice(others)
        twin.round.commits[seat] = rng.choice([p for p in PICKS if p != state.round.commits[seat]])
        return twin

    def secrets(self, state, viewer):
        # A pending choice is secret from everyone but its owner (history holds ints,
        # so a pending choice's string can only show up in a view by leaking).
        return {c for s, c in state.round.commits.items() if s != viewer}


@action("mini.discard")
@dataclass(frozen=True)
class Discard(Action):
    """Discard ``card`` face down."""

    hidden_fields: ClassVar[tuple[str, ...]] = ("card",)
    card: str = ""


@serializable("mini.ActsState")
@dataclass(kw_only=True)
class ActsState(State):
    decks: dict[str, Deck]
    hands: dict[str, Hand]
    order: TurnOrder
    tension: Escalation
    streak: Streak
    drawn: bool = False


class Acts(Game[ActsState]):
    """Draw a card, then discard one. Each reshuffle ends an ACT; the third reshuffle ends
    the game. Every card drawn is an incident on an escalation scale (4 to a level)."""

    id = "mini-acts"
    title = "Acts"
    factions = ("red", "blue")
    action_types = (Draw, Discard)
    cards = [f"c{i:02d}" for i in range(6)]

    def setup(self, seats, options, rng, seed):
        deck = Deck("main", cards=list(self.cards), auto_reshuffle=True)
        deck.shuffle(rng)
        return ActsState(seats=seats, options=options, seed=seed, rng=rng, decks={"main": deck},
                         hands={s.id: Hand(s.id) for s in seats}, order=TurnOrder([s.id for s in seats]),
                         tension=Escalation(), streak=Streak(3))

    def ask(self, state):
        seat = state.order.current
        deck = state.decks["main"]
        if not state.drawn:
            return Prompt.single(seat, DrawRequest("main", "draw a card"))
        return Prompt.single(seat, Decision(("discard",), "discard a card"))

    def violations(self, state, action, prompt):
        if isinstance(action, Draw) and state.decks["main"].needs_reshuffle and state.decks["main"].reshuffles == 2:
            pass  # allowed: the third reshuffle ends the game when it happens
        if isinstance(action, Discard) and action.card not in state.hands[action.seat]:
            yield Violation("not-in-hand", "Acts §2", "You can only discard a card from your hand.")

    def execute(self, state, action):
        deck = state.decks["main"]
        if isinstance(action, Draw):
            if deck.needs_reshuffle and deck.reshuffles == 2:
                self.finish(state, Outcome(None, "the third reshuffle"))
                return
            deck.take_drawn(action.card, state.rng)
            state.hands[action.seat].add(action.card)
            state.tension.add_incidents(1)
            state.drawn = True
        else:
            state.hands[action.seat].remove(action.card)
            deck.put_discard(action.card)
            state.drawn = False
            state.order.advance()
        state.streak.update(state.tension.level >= 2)

    def candidates(self, state, prompt):
        if state.drawn:
            seat = state.order.current
            for c in state.hands[seat].cards:
                yield Discard(seat, c)

    def render(self, state, viewer):
        deck = state.decks["main"]
        return {"deck": len(deck), "discard": len(deck.discard), "act": deck.reshuffles + 1,
                "hands": {s: h.view(viewer) for s, h in state.hands.items()},
                "tension": [state.tension.level, state.tension.incidents]}

    def secrets(self, state, viewer):
        hidden = set(state.decks["main"].cards) | set(state.decks["main"].discard)
        for s, h in state.hands.items():
            if s != viewer:
                hidden |= set(h.cards)
        return hidden - {c for c in self.cards if viewer != "public" and c in state.hands.get(viewer, Hand(viewer))}

    def hidden_variant(self, state, viewer, rng):
        twin = self.copy(state)
        piles = [twin.decks["main"].cards] + [h.cards for s, h in sorted(twin.hands.items()) if s != viewer]
        return twin if swap_hidden(piles, rng) else None

    def problems(self, state):
        deck = state.decks["main"]
        everywhere = deck.cards + deck.discard + [c for h in state.hands.values() for c in h.cards]
        if sorted(everywhere) != sorted(self.cards):
            yield f"cards not conserved: {sorted(everywhere)}"




# ------------------------------------------------------------------- Raid
# The fourth mini-game shows the kernel end to end: a roll of pool dice and a seat's own
# custom die (with an identity), a simultaneous structured commit with "pass", and a
# reaction window on the kernel's stack. Data, not code, would hold a real game's dice.

BONUS = Die(faces=(0, 0, 1, 1, 2, 3), id="bonus")
"""The raider's own die, identified: a hardware die must say it is this one."""


@action("raid.bid")
@dataclass(frozen=True)
class Bid(Commit):
    """Secretly claim pool die ``die`` (0-2), staking ``stake`` tokens (1-3)."""

    die: int = 0
    stake: int = 1


@action("raid.pass")
@dataclass(frozen=True)
class Fold(Commit):
    """Secretly claim nothing this round (a pass is sealed like a bid)."""


@action("raid.block")
@dataclass(frozen=True)
class Block(Action):
    """React to a claimed 6: spend the block token, and the claim scores nothing."""


@action("raid.allow")
@dataclass(frozen=True)
class Allow(Action):
    """Let the claim stand."""


@serializable("raid.State")
@dataclass(kw_only=True)
class RaidState(State):
    order: TurnOrder
    score: dict[str, Track]
    tokens: dict[str, Track]
    blocks: dict[str, int]
    pool: list[int] = field(default_factory=list)
    bonus: int = 0
    bids: dict[str, Any] = field(default_factory=dict)
    claim: list[Any] = field(default_factory=list)  # [seat, points] awaiting reactions
    reactions: ReactionStack = field(default_factory=ReactionStack)
    rounds: int = 0


class Raid(Game[RaidState]):
    """The raider rolls three pool dice and its bonus die; every seat then secretly bids
    tokens for one pool die, or passes; the highest single stake takes its die plus the
    bonus. A claimed 6 may be blocked by any other seat holding its block token. Six rounds;
    the highest score wins."""

    id = "mini-raid"
    title = "Raid"
    min_seats, max_seats = 2, 3
    factions = ("red", "blue", "green")
    action_types = (Roll, Bid, Fold, Block, Allow)
    dice_rule = "Raid: the dice"

    def setup(self, seats, options, rng, seed):
        ids = [s.id for s in seats]
        state = RaidState(seats=seats, options=options, seed=seed, rng=rng, order=TurnOrder(ids),
                          score={s: Track("score", 0, lo=0) for s in ids},
                          tokens={s: Track("tokens", 6, lo=0, hi=6) for s in ids},
                          blocks={s: 1 for s in ids})
        state.phase = "roll"
        return state

    def random_setup(self, rng):
        n = 2 + rng.below(2)
        return [Seat(f"{f}-{i}", f) for i, f in zip(range(1, n + 1), self.factions)], {}

    @step("roll", rule="Raid §1")
    def ask_roll(self, state):
        raider = state.order.current
        dice = (Die(6, POOL),) * 3 + (Die(faces=BONUS.faces, owner=raider, id=BONUS.id),)
        return Prompt.single(raider, RollRequest(dice, "raid"))

    @step("bid", rule="Raid §2")
    def ask_bid(self, state):
        waiting = [s for s in state.order.order if s not in state.bids]
        return Prompt({s: CommitRequest("bid", "claim a pool die", also=("pass",)) for s in waiting})

    @step("react", rule="Raid §3")
    def ask_react(self, state):
        r = state.reactions.peek()
        return Prompt.single(r.seat, Decision(("block", "allow"), f"block {state.seat_name(r.data[0])}'s 6?"))

    def violations(self, state, action, prompt):
        if isinstance(action, Bid):
            if not 0 <= action.die < 3:
                yield Violation("no-such-die", "Raid §2", "Claim pool die 1, 2 or 3.")
            if not 1 <= action.stake <= 3:
                yield Violation("bad-stake", "Raid §2", "Stake 1 to 3 tokens.")
            elif action.stake > state.tokens[action.seat].value:
                yield Violation("too-few-tokens", "Raid §2", f"You have {state.tokens[action.seat].value} tokens left.")

    def explain(self, state, action, prompt):
        if isinstance(action, Block) and state.blocks.get(action.seat) == 0:
            yield Violation("no-block-token", "Raid §3", "Your block token is spent.")

    def execute(self, state, action):
        if isinstance(action, Roll):
            state.pool = list(action.values[:3])
            state.bonus = action.values[3]
            state.bids = {}
            state.phase = "bid"
            state.note(f"{state.seat_name(action.seat)} rolls {', '.join(map(str, state.pool))} (bonus {state.bonus}).")
        elif isinstance(action, (Bid, Fold)):
            state.bids[action.seat] = action
            state.note(f"{state.seat_name(action.seat)} has chosen.")
            if len(state.bids) == len(state.order.order):
                self._reveal(state)
        elif isinstance(action, Block):
            state.blocks[action.seat] = 0
            state.reactions = ReactionStack()
            state.note(f"{state.seat_name(action.seat)} blocks the claim.")
            state.claim = []
            self._next_round(state)
        elif isinstance(action, Allow):
            state.reactions.pop()
            if not state.reactions:
                self._score_claim(state)

    def _reveal(self, state):
        self.reveal(state)
        stakes = {}
        for seat, bid in state.bids.items():
            if isinstance(bid, Bid):
                state.tokens[seat].add(-bid.stake)
                stakes.setdefault(bid.stake, []).append(seat)
                state.note(f"{state.seat_name(seat)} staked {bid.stake} on die {bid.die + 1}.")
            else:
                state.note(f"{state.seat_name(seat)} passed.")
        top = max(stakes, default=0)
        if not top or len(stakes[top]) > 1:
            state.note("Nobody takes a die.")
            self._next_round(state)
            return
        seat = stakes[top][0]
        value = state.pool[state.bids[seat].die]
        state.claim = [seat, value + state.bonus]
        if value == 6:
            for other in reversed(state.order.order):
                if other != seat and state.blocks[other]:
                    state.reactions.push(Reaction(other, "block", (seat,)))
        if state.reactions:
            state.phase = "react"
        else:
            self._score_claim(state)

    def _score_claim(self, state):
        seat, points = state.claim
        state.score[seat].add(points)
        state.note(f"{state.seat_name(seat)} scores {points}.")
        state.claim = []
        self._next_round(state)

    def position(self, state):
        """``{"seat": the raider, "round": rounds played 0..5, "scores": {seat: n >= 0},
        "tokens": {seat: 0..6}, "blocks": {seat: 0 or 1}}``: a round's start, before the roll."""
        if state.result is not None or state.phase != "roll":
            raise NoPositions("A Raid position is the start of a round.")
        return {"seat": state.order.current, "round": state.rounds,
                "scores": {s: t.value for s, t in state.score.items()},
                "tokens": {s: t.value for s, t in state.tokens.items()}, "blocks": dict(state.blocks)}

    def from_position(self, seats, options, position, rng, seed):
        ids = [s.id for s in seats]
        r = PositionReader(position, "Raid §1")
        r.keys(position, ("seat", "round", "scores", "tokens", "blocks"))
        seat = _turn_seat(r, position, ids)
        rounds = r.int("round", lo=0, hi=5) if "round" in position else None
        scores = _seat_numbers(r, position, "scores", ids, 0, None)
        tokens = _seat_numbers(r, position, "tokens", ids, 0, 6)
        blocks = _seat_numbers(r, position, "blocks", ids, 0, 1)
        r.done()
        return RaidState(seats=seats, options=options, seed=seed, rng=rng, phase="roll", rounds=rounds,
                         order=TurnOrder(ids, index=ids.index(seat), turn=rounds + 1, round=1 + (rounds // len(ids))),
                         score={s: Track("score", scores[s], lo=0) for s in ids},
                         tokens={s: Track("tokens", tokens[s], lo=0, hi=6) for s in ids}, blocks=blocks)

    def _next_round(self, state):
        state.rounds += 1
        state.bids = {}
        state.phase = "roll"
        state.order.advance()
        if state.rounds == 6:
            best = max(t.value for t in state.score.values())
            winners = tuple(s for s, t in state.score.items() if t.value == best)
            self.finish(state, Outcome(state.seat(winners[0]).faction if len(winners) == 1 else None,
                                       "six rounds played", {s: Score(t.value) for s, t in state.score.items()}, winners))

    def candidates(self, state, prompt):
        for seat in prompt.seats():
            if state.phase == "bid":
                yield Fold(seat)
                for die in range(3):
                    for stake in range(1, 4):
                        yield Bid(seat, die, stake)
            elif state.phase == "react":
                yield Block(seat)
                yield Allow(seat)

    def render(self, state, viewer):
        view = {"pool": list(state.pool), "bonus": state.bonus,
                "score": {s: t.value for s, t in state.score.items()},
                "tokens": {s: t.value for s, t in state.tokens.items()},
                "chosen": sorted(state.bids)}
        if viewer in state.bids:
            view["my_bid"] = state.bids[viewer].to_data()
        return view

    def hidden_variant(self, state, viewer, rng):
        sealed = [s for s, b in state.bids.items() if s != viewer]
        if state.phase != "bid" or not sealed:
            return None
        twin = self.copy(state)
        seat = rng.choice(sealed)
        bid = twin.bids[seat]
        twin.bids[seat] = Fold(seat) if isinstance(bid, Bid) else Bid(seat, rng.below(3), 1)
        return twin

    def tracked(self, state):
        return {f"score:{s}": t.value for s, t in state.score.items()}


DOUBLES, DUEL, ACTS, RAID = Doubles(), Duel(), Acts(), Raid()

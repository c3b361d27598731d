"""The Outrage! engine: the kernel contract for the rulebook in ``rules/outrage`` (sections
cited by the rulebook's headings).

>>> from rules.core import Draw, Roll
>>> state = GAME.new([("ann", "red"), ("bob", "blue")], seed=1)
>>> state.phase, GAME.prompt(state).awaiting.deck
('deal', 'tower')
>>> while state.phase == "deal": GAME.push(state, GAME.sample(state))
>>> GAME.push(state, Roll("ann", (6, 5))); GAME.push(state, Roll("bob", (1, 2)))
>>> state.phase, state.order.current
('start', 'ann')
>>> GAME.push(state, Roll("ann", (2, 1)))
>>> sorted(moves(state, "ann", 3))
['w03']
"""
from __future__ import annotations

import functools
import itertools
import operator
from typing import Any, Iterable, Iterator

from rules.core import (
    Action, CommitRequest, Decision, Deck, Draw, DrawRequest, Game, Hand, Option, Outcome, Prompt, Rng, Roll,
    RollRequest, Score, SecretRound, Seat, TurnOrder, Violation, step, swap_hidden, to_data,
)
from rules.core.seats import PUBLIC

from .naming import Naming
from . import position
from .actions import (
    Abandon, Arm, Attack, Burgle, Challenge, Change, Choose, Decline, Escape, Give, MoveTo, Play, Split, Surrender,
)
from .board import ACCREDITED, FIRST_CIRCUIT, Board, default_board
from .cards import KIND_NAME, RAVEN, RAVEN_CARDS, TOWER, TOWER_CARDS, attack_value, burglary_target, kind_of
from .state import CASE, ESCAPED, Burglary, Held, OutrageState, Task

R_SETUP = "BEFORE PLAY BEGINS"
R_DICE = "THE DICE"
R_SPLIT = "SPLITTING THE SEVEN"
R_WALL = "THE WALL WALK"
R_ACCR = "ACCREDITATION"
R_INNER = "INNER WARD"
R_INMOST = "INMOST WARD AND WHITE TOWER"
R_GENERAL = "GENERAL REGULATIONS"
R_SURRENDER = "SURRENDERING WEAPONS"
R_STEAL = "STEALING THE JEWELS"
R_ATTACK = "ATTACK"
R_MONEY = "MONEY"
R_PRISON = "PRISON"
R_RACK = "THE RACK OF TORMENT"
R_END = "THE ENDGAME"
R_RAVEN = "RAVEN CARDS"
R_TOWER = "TOWER CARDS"

UNACCREDITED = frozenset({"wall", "ward", "gate", "exit"})
"""Arcs a player not yet accredited may use: the Wall Walk anticlockwise, and the Inner
Ward's lanes and Queen's House gate if an instruction sent them down (RULINGS M-03)."""
MOVING = ACCREDITED | {"exit"}
HAND_START = 3
FACTIONS = ("red", "blue", "green", "yellow", "white", "black")
LOG_KEEP = 120
PRISON_NAMES = {"bloody": "the Bloody Tower", "bowyer": "the Bowyer Tower", "beauchamp": "the Beauchamp Tower",
                "rack": "the Rack"}
PRISON_SQUARE = {"bloody": "bloody_tower", "bowyer": "bowyer_tower", "beauchamp": "beauchamp_tower", "rack": "rack"}
ESCAPE_CARDS = {"bowyer": ("pardon",), "beauchamp": ("rope", "ladder", "disguise", "pardon"), "rack": ("rope", "ladder")}
SKIP_PLACES = {"pecked": "hospital", "film": "shop"}


# The shipped board's facts, read once at import (the board is an immutable value): the
# turn flow asks them on every action.
_BOARD = default_board()
_REGION = {sid: sq.region for sid, sq in _BOARD.squares.items()}
_SHELTER = frozenset(sid for sid, r in _REGION.items() if r in ("inmost", "white"))
"""The squares of the Inmost Ward and the White Tower (immune, not moved by others)."""
_ROPE_LADDER = frozenset(sid for sid, sq in _BOARD.squares.items() if sq.rope_ladder)
_RAVEN_SQUARES = frozenset(sid for sid, sq in _BOARD.squares.items() if sq.draws_raven)
_NAME = {sid: sq.name for sid, sq in _BOARD.squares.items()}
_BENCH_EXIT = {sid: sq.bench_exit for sid, sq in _BOARD.squares.items()}
_BENCHES = tuple(sid for sid, sq in _BOARD.squares.items() if sq.bench_exit)
_PLACES_OF_INTEREST = tuple(sid for sid, r in _REGION.items() if r in ("wall", "inner"))
"""The squares a "place of interest" Raven card may send a player to, in the board's order."""
_QUEENS_HOUSE = _BOARD.places["queens_house"]
_CRADLE = _BOARD.places["cradle"]
_QUIET = frozenset(sid for sid, sq in _BOARD.squares.items()
                   if not sq.do and sid not in _RAVEN_SQUARES and not sq.faces and sid not in (_QUEENS_HOUSE, _CRADLE))
"""The squares where a landing queues nothing: no instruction, no Raven card, no jewel's
case faced, neither Queen's House nor the Cradle Tower."""
_RUNAWAY = range(200)
"""The most tasks one action may set going: more is a board whose instructions loop."""


def _a(name: str) -> str:
    return ("an " if name[:1] in "AEIOU" else "a ") + name


def _has_target(state: OutrageState, seat: str) -> bool:
    """Whether ``seat`` may attack anyone (:meth:`Outrage.targets` is not empty): the same
    tests, stopping at the first target and building no reason (asked at every turn's start)."""
    for s in state._foes[seat]:
        # immune()'s tests, without its reasons (as _can_attack); the first opponent is
        # usually a target, so the state's fields are read in place, not bound first
        if (state.accredited[s] and s not in state.held and state.pos[s] not in _SHELTER
                and not state.order.skips.get(s) and s not in state.sanctuary and s not in state.retired):
            return True
    return False


def _start_facts(state: OutrageState) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """What the start step's prompt is made of: the seat, the kinds also allowed (change,
    attack, escape) and the private ones (a Tower card that may begin the turn: Sanctuary
    anywhere; a Rope or Ladder on a White Tower square where they are marked)."""
    seat = state.actor
    hand = state.hands[seat].cards
    pos = state.pos[seat]
    # The few combinations of the kinds also allowed (change, attack, escape), looked up
    # (not built) each turn.
    also = _START_ALSO[bool(hand and state.decks["tower"].cards),
                       state.accredited[seat] and _has_target(state, seat),
                       pos == _CRADLE and state.coins[seat] and seat in state.jewels.values()]
    if hand and not (_ROPE_START_CARDS if pos in _ROPE_LADDER else _START_CARDS).isdisjoint(hand):
        return seat, also, _PLAY
    return seat, also, ()


class Outrage(Naming, Game[OutrageState]):
    """Steal the Crown Jewels from the Tower of London and escape by the ferry."""

    id = "outrage"
    title = "Outrage!"
    rulebook = "Outrage! Crowns and Regalia (Imperial Games, 1992)"
    min_seats = 2
    max_seats = 6
    factions = FACTIONS
    turn_rule = R_SETUP
    dice_rule = R_DICE
    cards_rule = R_TOWER
    options = (
        Option("endgame", "first-escape", ("first-escape", "all-jewels"),
               "The first escape with a jewel wins, or play until every jewel has been taken out.", "E-01"),
        Option("teams", False, (), "Seats of one colour play as a team.", "S-02"),
        Option("movement", "checked", ("checked", "unchecked"),
               "Check moves against the reconstructed board, or let players name the square they landed on.", "B-01"),
        Option("searched", "jewels-only", ("jewels-only", "always"),
               "Stopped and Searched: only a player carrying jewels is flung into the Bloody Tower, or everyone.", "R-07"),
        Option("birthday_today", False, (),
               "The device's date is 21 April (the app sets it): the Queen's Birthday gives two cards each.", "R-05"),
    )
    action_types = (Roll, Draw, MoveTo, Split, Choose, Play, Decline, Change, Burgle, Abandon, Attack, Arm,
                    Surrender, Challenge, Escape, Give)

    # ---------------------------------------------------------------- setup

    def check_setup(self, seats: list[Seat], options: dict[str, Any]) -> Iterable[Violation]:
        factions = [s.faction for s in seats]
        if not options["teams"] and len(set(factions)) != len(factions):
            yield Violation("shared-colour", R_SETUP, "Without teams every player needs a colour of their own.")
        if options["teams"] and len(set(factions)) < 2:
            yield Violation("one-team", R_SETUP, "Teams need at least two colours.")

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng, seed: int) -> OutrageState:
        b = _BOARD
        tower = Deck("tower", cards=list(TOWER_CARDS), auto_reshuffle=False)
        tower.shuffle(rng)
        raven = Deck("raven", cards=list(RAVEN_CARDS), auto_reshuffle=False)
        raven.shuffle(rng)
        ids = [s.id for s in seats]
        state = OutrageState(
            seats=seats, options=options, seed=seed, rng=rng, order=TurnOrder(ids),
            pos={s: b.places["start"] for s in ids}, accredited={s: False for s in ids},
            coins={s: False for s in ids}, mint=len(ids), jewels={j: CASE for j in b.jewels},
            escaped={s: [] for s in ids}, warders={p: True for p in b.posts},
            hands={s: Hand(s) for s in ids}, decks={"tower": tower, "raven": raven},
        )
        state.tasks = [("deal", s, str(HAND_START)) for s in ids]
        state.note(f"One coin for each player is in the Mint; the Yeoman Warders are at their posts; the Crown Jewels are in their cases. Each player is dealt {HAND_START} Tower cards.")
        self.proceed(state)
        return state

    def position(self, state: OutrageState) -> dict[str, Any]:
        """The public position at a turn's start: see :mod:`rules.outrage.position`."""
        return position.write(state)

    def from_position(self, seats: list[Seat], options: dict[str, Any], pos: dict[str, Any], rng: Rng, seed: int) -> OutrageState:
        return position.read(self, seats, options, pos, rng, seed)

    def random_setup(self, rng: Rng) -> tuple[list[Seat], dict[str, Any]]:
        n = 2 + rng.below(5)
        teams = n >= 4 and rng.below(3) == 0
        seats = [Seat(f"p{i + 1}", FACTIONS[i % 2 if teams else i], f"Player {i + 1}") for i in range(n)]
        options = {"endgame": rng.choice(("first-escape", "all-jewels")), "teams": teams,
                   "movement": rng.choice(("checked", "checked", "checked", "unchecked")),
                   "searched": rng.choice(("jewels-only", "always")), "birthday_today": rng.below(4) == 0}
        return seats, options

    # -------------------------------------------------------------- helpers

    def board(self, state: OutrageState | None = None) -> Board:
        return _BOARD

    def name(self, state: OutrageState, seat: str) -> str:
        return state.seat_name(seat)

    def cards_of(self, state: OutrageState, seat: str, *kinds: str) -> list[str]:
        return [c for c in state.hands[seat].cards if kind_of(c) in kinds]

    def carried(self, state: OutrageState, seat: str) -> list[str]:
        return [j for j, w in state.jewels.items() if w == seat]

    def team(self, state: OutrageState, seat: str) -> str:
        return state._faction[seat] if state.options["teams"] else seat

    def in_play(self, state: OutrageState, seat: str) -> bool:
        return seat not in state.retired

    def sheltered(self, state: OutrageState, seat: str) -> bool:
        """In the Inmost Ward or the White Tower: immune, and not moved by another player."""
        return state.pos[seat] in _SHELTER and seat not in state.held

    def immune(self, state: OutrageState, seat: str) -> str:
        """Why ``seat`` cannot be attacked now ('' if it can)."""
        if not self.in_play(state, seat):
            return f"{state.seat_name(seat)} has left the Tower"
        if not state.accredited[seat]:
            return f"{state.seat_name(seat)} is not accredited"
        if seat in state.held or state.order.skips.get(seat):
            return f"{state.seat_name(seat)} is held and cannot be attacked"
        if self.sheltered(state, seat):
            return f"{state.seat_name(seat)} is in the White Tower or the Inmost Ward"
        if seat in state.sanctuary:
            return f"{state.seat_name(seat)} has claimed Sanctuary"
        return ""

    def targets(self, state: OutrageState, seat: str) -> list[str]:
        return [s for s in state.order.order if s != seat and self.team(state, s) != self.team(state, seat)
                and not self.immune(state, s)]

    def _can_attack(self, state: OutrageState, seat: str, s: str) -> bool:
        """Whether ``s`` is one of :meth:`targets` of ``seat``: the same tests, building no
        reason (an attack's check, and every turn's start)."""
        if s == seat or s not in state.pos:
            return False
        if state.options["teams"] and state._faction[s] == state._faction[seat]:
            return False
        # immune()'s tests, without its reasons
        return not (s in state.retired or not state.accredited[s] or s in state.held or state.order.skips.get(s)
                    or state.pos[s] in _SHELTER or s in state.sanctuary)

    def movable_others(self, state: OutrageState, seat: str) -> list[str]:
        """Whom a split seven may move (SPLITTING THE SEVEN; RULINGS M-06)."""
        held, skips, pos, accredited = state.held, state.order.skips, state.pos, state.accredited
        retired, sanctuary, burglaries = state.retired, state.sanctuary, state.burglaries
        # in_play and not sheltered (not held is tested first), spelt out
        return [s for s in state.order.order if s != seat and s not in retired and s not in held
                and not skips.get(s)
                and pos[s] not in _SHELTER and s not in sanctuary and s not in burglaries
                and not (not accredited[s] and pos[s] == _QUEENS_HOUSE)]

    # ------------------------------------------------------------ prompts

    @step("deal", timed=False, rule=R_SETUP, depends=("actor",))
    def ask_deal(self, state: OutrageState) -> Prompt:
        return Prompt.single(state.actor, DrawRequest("tower", "be dealt a Tower card"))

    @step("first", timed=False, rule=R_SETUP)
    def ask_first(self, state: OutrageState) -> Prompt:
        waiting = [s for s in state.contenders if s not in state.first_throws]
        return Prompt.each(waiting, RollRequest.of(2, 6, "decide who starts"))

    # The prompt is decided by the seat and the kinds it may take (a few combinations per
    # seat): the kernel builds it once per combination (``depends``).
    @step("start", rule=R_DICE, depends=_start_facts)
    def ask_start(self, state: OutrageState) -> Prompt:
        seat, also, private = _start_facts(state)
        return Prompt.single(seat, RollRequest.of(2, 6, "move", also=also, private=private))

    def start_plays(self, state: OutrageState, seat: str) -> tuple[str, ...]:
        """The Tower cards that may begin a turn: Sanctuary anywhere; a Rope or Ladder on a
        White Tower square where they are marked (Tower Cards: Aids to escape)."""
        return _ROPE_PLAYS if state.pos[seat] in _ROPE_LADDER else _SANCTUARY_PLAY

    @step("again", rule=R_DICE, depends=("actor",))
    def ask_again(self, state: OutrageState) -> Prompt:
        return Prompt.single(state.actor, RollRequest.of(2, 6, "throw again after a double"))

    @step("move", rule=R_GENERAL, derive="reachable")
    def ask_move(self, state: OutrageState) -> Prompt:
        opts = self.derived(state)
        # Nowhere to go, or only past a warder (a Disguise, if held): staying is allowed (RULINGS M-08).
        stay = False not in map(_NEEDS, opts.values())
        steps = state.steps
        split = steps == 7 and not state.split and state.mover == state.actor and not state.released \
            and bool(self.movable_others(state, state.actor))
        return Prompt.single(state.actor, Decision(_MOVE_KINDS[bool(opts), stay, split], f"move {state.seat_name(state.mover)} {steps}"))

    @step("accredit", rule=R_ACCR)
    def ask_accredit(self, state: OutrageState) -> Prompt:
        seat = state.actor
        private = ("play",) if self.cards_of(state, seat, "tower-pass") else ()
        return Prompt.single(seat, RollRequest.of(2, 6, "be accredited (an odd number)", private=private))

    @step("prison", rule=R_PRISON)
    def ask_prison(self, state: OutrageState) -> Prompt:
        seat = state.actor
        place = state.held[seat].place
        kinds = ESCAPE_CARDS.get(place, ()) + (("confession",) if place == "bowyer" else ())
        private = ("play",) if self.cards_of(state, seat, *kinds) else ()
        return Prompt.single(seat, RollRequest.of(2, 6, "escape (a double)", private=private))

    @step("rack", rule=R_RACK)
    def ask_rack(self, state: OutrageState) -> Prompt:
        seat = state.actor
        private = ("play",) if self.cards_of(state, seat, "rope", "ladder", "rack-pardon") else ()
        return Prompt.single(seat, Decision(("choose",), "suffer a turn on the Rack", private=private))

    @step("tea", rule=R_RAVEN)
    def ask_tea(self, state: OutrageState) -> Prompt:
        seat = state.actor
        private = ("play",) if self.cards_of(state, seat, "tower-pass") else ()
        return Prompt.single(seat, Decision(("choose",), "stay for tea one turn longer", private=private))

    @step("burgle", rule=R_STEAL)
    def ask_burgle(self, state: OutrageState) -> Prompt:
        b = state.burglaries[state.actor]
        return Prompt.single(state.actor, RollRequest.of(2, 6, f"burglary (needs {burglary_target(b.tools)}+)", also=("abandon",)))

    @step("attack", rule=R_ATTACK, depends=lambda s: (tuple(s.combat.seats), tuple(s.combat.commits)))
    def ask_attack(self, state: OutrageState) -> Prompt:
        assert state.combat is not None
        return Prompt.each(state.combat.waiting_for, CommitRequest("arm", "lay weapons face down"))

    @step("draw-tower", rule=R_TOWER, depends=("actor",))
    def ask_draw_tower(self, state: OutrageState) -> Prompt:
        return Prompt.single(state.actor, DrawRequest("tower", "take a Tower card"))

    @step("draw-raven", rule=R_RAVEN, depends=("actor",))
    def ask_draw_raven(self, state: OutrageState) -> Prompt:
        return Prompt.single(state.actor, DrawRequest("raven", "take a Raven card"))

    @step("choose", rule=R_RAVEN, depends=("actor", "offer"))
    def ask_choose(self, state: OutrageState) -> Prompt:
        return Prompt.single(state.actor, Decision(("choose",), state.offer))

    @step("offer", rule=R_TOWER)
    def ask_offer(self, state: OutrageState) -> Prompt:
        seat = state.actor
        private = ("play",) if self.offer_cards(state, seat) else ()
        return Prompt.single(seat, Decision(("decline",), state.offer, private=private))

    @step("burgle-offer", rule=R_STEAL)
    def ask_burgle_offer(self, state: OutrageState) -> Prompt:
        seat = state.actor
        private = ("burgle",) if self.cards_of(state, seat, "file", "crowbar", "dynamite", "key") else ()
        return Prompt.single(seat, Decision(("decline",), "declare a burglary", private=private))

    @step("change-offer", rule=R_GENERAL)
    def ask_change_offer(self, state: OutrageState) -> Prompt:
        return Prompt.single(state.actor, Decision(("change", "decline"), "change a Tower card"))

    @step("surrender", rule=R_SURRENDER)
    def ask_surrender(self, state: OutrageState) -> Prompt:
        return Prompt.single(state.actor, Decision(("surrender",), "surrender your weapons"))

    @step("challenge", rule=R_SURRENDER)
    def ask_challenge(self, state: OutrageState) -> Prompt:
        return Prompt.single(state.challengers[0], Decision(("challenge", "decline"),
                                                            f"challenge {state.seat_name(state.accused)}"))

    @step("swap", rule=R_WALL)
    def ask_swap(self, state: OutrageState) -> Prompt:
        return Prompt.each(self.swap_waiting(state), Decision(("give",), "say which Tower card was taken from your hand"))

    def swap_waiting(self, state: OutrageState) -> list[str]:
        """The players of a swap who have not yet said which card left their hand
        (``state.swap``: the two seats, then the card each has received, or "")."""
        a, b_, got_a, got_b = state.swap
        return [s for s, given in ((a, bool(got_b)), (b_, bool(got_a))) if not given]

    @step("ferry", rule=R_END)
    def ask_ferry(self, state: OutrageState) -> Prompt:
        return Prompt.single(state.actor, Decision(("choose",), "go back into the Tower, or retire"))

    def choice_options(self, state: OutrageState) -> list[str]:
        """What a ``Choose`` may name now."""
        return {"move": ["stay"], "rack": ["wait"], "tea": ["stay"]}.get(state.phase, state.choices)

    def offer_cards(self, state: OutrageState, seat: str) -> list[str]:
        kinds = {"beauchamp": ("pardon",), "bowyer": ("confession",), "rack": ("rack-pardon",),
                 "curfew": ("tower-pass",)}.get(state.choice_for, ())
        return self.cards_of(state, seat, *kinds)

    def can_escape(self, state: OutrageState, seat: str) -> bool:
        return state.pos[seat] == _CRADLE and state.coins[seat] and seat in state.jewels.values()

    # ------------------------------------------------------------ movement

    def moves(self, state: OutrageState, seat: str, steps: int) -> dict[str, tuple[tuple[str, ...], bool]]:
        """Where ``seat``'s piece may go with ``steps``: square → (route, whether it needs
        a Disguise to pass a warder). See :func:`moves`."""
        return moves(state, seat, steps)

    def reachable(self, state: OutrageState) -> dict[str, tuple[tuple[str, ...], bool]]:
        """The move step's derived value: where the piece being moved may go with the count being
        moved (:func:`moves`), worked out once per ply for the prompt, the check and the
        move itself (``self.derived(state)``)."""
        return moves(state, state.mover, state.steps)

    # ------------------------------------------------------------ checks

    def violations(self, state: OutrageState, action: Action, prompt: Prompt) -> Iterable[Violation]:
        cls = type(action)
        if cls is MoveTo:  # the commonest check, kept lean: a listed square, no card
            got = self.derived(state).get(action.square)
            if got is not None and not got[1] and not action.disguise:
                return ()
        # The rule checks of the action's class, found in one look-up (no isinstance chain;
        # a roll, a draw or a decline has none beyond its kind being awaited: None). The
        # kernel makes a tuple of what they yield.
        check = _CHECKS[cls]
        return () if check is None else check(self, state, action)

    def _violations(self, state: OutrageState, action: Action) -> Iterable[Violation]:
        # The rule checks of the action's class, found in one look-up (no isinstance chain).
        check = _CHECKS[type(action)]
        return () if check is None else check(self, state, action)

    def _v_move(self, state: OutrageState, action: MoveTo) -> Iterator[Violation]:
        seat = action.seat
        who = state.seat_name(seat)
        b = _BOARD
        got = self.derived(state).get(action.square)
        if got is None:
            where = b.name_of(action.square) if action.square in b.squares else repr(action.square)
            yield Violation("unreachable", R_GENERAL, f"{state.seat_name(state.mover)} cannot end a move of exactly {state.steps} on {where}: squares are counted along adjacent squares, none twice in a turn, through no wall, warder or out-of-bounds way.")
        elif action.disguise:
            if kind_of(action.disguise) != "disguise" or action.disguise not in state.hands[seat]:
                yield Violation("no-disguise", R_GENERAL, f"{who} has no such Disguise card in hand.")
        elif got[1]:
            yield Violation("warder-blocks", R_GENERAL, f"A Yeoman Warder at his post blocks the way to {b.name_of(action.square)}; only a Disguise lets {who} pass unnoticed.")

    def _v_split(self, state: OutrageState, action: Split) -> Iterator[Violation]:
        seat = action.seat
        who = state.seat_name(seat)
        if not 1 <= action.steps <= 6:
            yield Violation("bad-split", R_SPLIT, f"{who} splits a seven into two moves of 1 to 6 squares each, not {action.steps} and {7 - action.steps}.")
        if action.other == seat:
            yield Violation("cannot-move-other", R_SPLIT, f"{who} splits a seven between themselves and one other player.")
        elif action.other not in self.movable_others(state, seat):
            yield Violation("cannot-move-other", R_SPLIT, f"{who} cannot move {state.seat_name(action.other) if action.other in state.pos else repr(action.other)} this way: players in the White Tower or Inmost Ward, held, in Sanctuary or out of the Tower cannot be moved by another player.")

    def _v_choose(self, state: OutrageState, action: Choose) -> Iterator[Violation]:
        who = state.seat_name(action.seat)
        options = self.choice_options(state)
        if action.option not in options:
            yield Violation("not-a-choice", self._rule(state), f"{who} must choose one of the choices, not {action.option!r} ({', '.join(options[:8])}{'…' if len(options) > 8 else ''}).")

    def _v_give(self, state: OutrageState, action: Give) -> Iterator[Violation]:
        # Judged by the seat's own hand only: the taker's word would be judged by a hand
        # the taker may not see (RULINGS R-10).
        if action.card and (action.card not in state.hands[action.seat] or action.card == self._received(state, action.seat)):
            yield Violation("not-in-hand", R_WALL, f"{state.seat_name(action.seat)} can only say which of their own Tower cards was taken, not one they have just been given.")

    def _v_attack(self, state: OutrageState, action: Attack) -> Iterable[Violation]:
        if self._can_attack(state, action.seat, action.target):
            return ()
        return self._attack_refused(state, action)

    def _attack_refused(self, state: OutrageState, action: Attack) -> Iterator[Violation]:
        seat = action.seat
        who = state.seat_name(seat)
        if action.target not in self.targets(state, seat):
            why = self.immune(state, action.target) if action.target in state.pos else f"there is no player {action.target!r}"
            if action.target in state.pos and self.team(state, action.target) == self.team(state, seat):
                why = f"{state.seat_name(action.target)} is on {who}'s own team"
            yield Violation("cannot-attack", R_ATTACK, f"{who} cannot attack: {why or 'not a player to attack'}.")

    def _v_surrender(self, state: OutrageState, action: Surrender) -> Iterator[Violation]:
        seat = action.seat
        who = state.seat_name(seat)
        hand = state.hands[seat].cards
        if len(set(action.cards)) != len(action.cards) or any(c not in hand for c in action.cards):
            yield Violation("not-in-hand", R_SURRENDER, f"{who} can only surrender cards from their own hand, each once.")
        elif any(TOWER[c].group != "weapon" for c in action.cards):
            yield Violation("not-a-weapon", R_SURRENDER, f"{who} surrenders weapons only.")

    def _play_violations(self, state: OutrageState, action: Play) -> Iterator[Violation]:
        seat, card = action.seat, action.card
        who = state.seat_name(seat)
        if card not in state.hands[seat]:
            yield Violation("not-in-hand", R_TOWER, f"{who} has no such card in hand.")
            return
        kind = kind_of(card)
        phase = state.phase
        ok: tuple[str, ...] = ()
        if phase == "start":
            ok = self.start_plays(state, seat)
        elif phase == "accredit" or phase == "tea":
            ok = ("tower-pass",)
        elif phase == "prison":
            ok = ESCAPE_CARDS.get(state.held[seat].place, ()) + (("confession",) if state.held[seat].place == "bowyer" else ())
        elif phase == "rack":
            ok = ("rope", "ladder", "rack-pardon")
        elif phase == "offer":
            ok = tuple(kind_of(c) for c in self.offer_cards(state, seat))
        if kind not in ok:
            yield Violation("card-not-playable", R_TOWER, f"{who} cannot play {_a(KIND_NAME.get(kind, 'card'))} now.")
            return
        if kind == "confession":
            # An opponent (not a team-mate) whom another player may move: not held, not in
            # the White Tower or Inmost Ward, not in Sanctuary (RULINGS P-02).
            others = [s for s in state.order.order if s != seat and self.in_play(state, s) and s not in state.held
                      and not self.sheltered(state, s) and s not in state.sanctuary
                      and self.team(state, s) != self.team(state, seat)]
            if action.target not in others:
                yield Violation("bad-confession", R_TOWER, f"{who} must inform on an opponent at large outside the White Tower, the Inmost Ward and Sanctuary.")
        elif action.target:
            yield Violation("no-target", R_TOWER, f"{who}'s {KIND_NAME[kind]} names no other player.")

    def _change_violations(self, state: OutrageState, action: Change) -> Iterable[Violation]:
        cards = action.cards
        # A legal change (nearly every one) is known by two set tests, with no generator made.
        if cards and len(set(cards)) == len(cards) and set(state.hands[action.seat].cards).issuperset(cards) \
                and (len(cards) == 1 or state.phase != "change-offer"):
            return ()
        return self._change_refused(state, action)

    def _change_refused(self, state: OutrageState, action: Change) -> Iterator[Violation]:
        hand = state.hands[action.seat].cards
        who = state.seat_name(action.seat)
        if not action.cards or len(set(action.cards)) != len(action.cards) or any(c not in hand for c in action.cards):
            yield Violation("not-in-hand", R_GENERAL, f"{who} changes one or more cards from their own hand, each once.")
        elif state.phase == "change-offer" and len(action.cards) != 1:
            yield Violation("change-one", R_GENERAL, f"This square lets {who} change one Tower card.")

    def _burgle_violations(self, state: OutrageState, action: Burgle) -> Iterator[Violation]:
        hand = state.hands[action.seat].cards
        tools = action.tools
        who = state.seat_name(action.seat)
        if not tools or len(set(tools)) != len(tools) or any(c not in hand for c in tools):
            yield Violation("not-in-hand", R_STEAL, f"{state.seat_name(action.seat)} lays one or more burglary tools from their own hand.")
            return
        if any(TOWER[c].group != "tool" for c in tools):
            yield Violation("not-a-tool", R_STEAL, f"{who} lays only burglary tools (File, Crowbar, Dynamite, Key) for a burglary.")
        kinds = [kind_of(c) for c in tools]
        if len(set(kinds)) != len(kinds):
            yield Violation("two-of-a-kind", R_STEAL, f"{who} may use more than one tool, but not more than one of the same kind.")
        if "key" in kinds and len(kinds) > 1:
            yield Violation("key-alone", R_STEAL, f"{who} cannot combine the Key with any other tool.")

    def _arm_violations(self, state: OutrageState, action: Arm) -> Iterable[Violation]:
        cards = action.cards
        if not cards:
            return ()  # laying nothing is always allowed (nothing to check below)
        # Legal weapons (nearly every arming) are known by set tests, with no generator made:
        # cards of the seat's hand, each once, weapons of different kinds, Armour in defence.
        kinds = set(map(_KIND.__getitem__, cards))
        if len(kinds) == len(cards) and _WEAPON_KINDS.issuperset(kinds) \
                and set(state.hands[action.seat].cards).issuperset(cards) \
                and ("armour" not in kinds or action.seat == state.combat.seats[1]):  # type: ignore[union-attr]
            return ()
        return self._arm_refused(state, action)

    def _arm_refused(self, state: OutrageState, action: Arm) -> Iterator[Violation]:
        assert state.combat is not None
        seat = action.seat
        hand = state.hands[seat].cards
        who = state.seat_name(seat)
        if len(set(action.cards)) != len(action.cards) or any(c not in hand for c in action.cards):
            yield Violation("not-in-hand", R_ATTACK, f"{who} lays cards from their own hand, each once.")
            return
        kinds = [kind_of(c) for c in action.cards]
        defender = seat == state.combat.seats[1]
        if "sanctuary" in kinds:
            if not defender or len(kinds) > 1:
                yield Violation("sanctuary", R_ATTACK, f"{who} plays a Sanctuary card alone, in defence.")
            return
        if any(TOWER[c].group != "weapon" for c in action.cards):
            yield Violation("not-a-weapon", R_ATTACK, f"{who} lays only weapons in an attack.")
        if len(set(kinds)) != len(kinds):
            yield Violation("two-of-a-kind", R_ATTACK, f"{who} may lay any combination of weapons, but not more than one of the same kind.")
        if "armour" in kinds and not defender:
            yield Violation("armour-defence", R_ATTACK, f"{who} attacks: Armour can only be used in defence.")

    def explain(self, state: OutrageState, action: Action, prompt: Prompt) -> Iterable[Violation]:
        seat = action.seat
        if isinstance(action, Split) and state.phase == "move" and seat == state.actor:
            if state.steps != 7 or state.mover != seat:
                yield Violation("not-seven", R_SPLIT, "Only a throw totalling seven may be split, however it was made up.")
            elif action.other in state.pos:
                yield Violation("cannot-move-other", R_SPLIT, f"{state.seat_name(seat)} cannot move {state.seat_name(action.other)} this way: players in the White Tower or Inmost Ward, held, in Sanctuary or out of the Tower cannot be moved by another player.")
        if isinstance(action, Attack) and seat == state.actor and state.phase == "start" and seat in state.accredited:
            if not state.accredited[seat]:
                yield Violation("not-accredited", R_ATTACK, f"Only accredited players attack; {state.seat_name(seat)} is not accredited yet.")
            elif action.target in state.pos and action.target != seat:
                why = self.immune(state, action.target) or f"{state.seat_name(action.target)} is on {state.seat_name(seat)}'s own team"
                yield Violation("cannot-attack", R_ATTACK, f"{state.seat_name(seat)} cannot attack: {why}.")
        if isinstance(action, Escape) and seat in state.pos and seat == state.actor and state.phase == "start":
            if not state.coins[seat]:
                yield Violation("no-coin", R_MONEY, f"No-one can leave without a coin to pay the ferryman; {state.seat_name(seat)} has none.")

    # ------------------------------------------------------------ execute

    def execute(self, state: OutrageState, action: Action) -> None:
        state.fresh = False
        # The action's class finds its effect in one look-up (no isinstance chain).
        _EFFECTS[type(action)](self, state, action)
        log = state.log
        over = len(log) - LOG_KEEP
        if over > 0:
            del log[:over]

    def _split(self, state: OutrageState, action: Split) -> None:
        state.split = [action.other, 7 - action.steps]
        state.steps = action.steps
        state.note(f"{state.seat_name(action.seat)} splits the seven: {action.steps} for themselves, {7 - action.steps} for {state.seat_name(action.other)}.")

    def _decline_action(self, state: OutrageState, action: Decline) -> None:
        self._decline(state, action.seat)

    def _abandon(self, state: OutrageState, action: Abandon) -> None:
        seat = action.seat
        burglary = state.burglaries.pop(seat)
        self._to_pack(state, burglary.tools)
        state.note(f"{state.seat_name(seat)} abandons the burglary; the tools go to the bottom of the Tower pack. [{R_STEAL}]")
        state.phase = "start"

    def _attack(self, state: OutrageState, action: Attack) -> None:
        seat = action.seat
        state.combat = SecretRound("attack", [seat, action.target])
        state.laid = {}
        state.phase = "attack"
        state.note(f"{state.seat_name(seat)} attacks {state.seat_name(action.target)}! Attacker, then defender, lay weapons face down. [{R_ATTACK}]")

    def _arm(self, state: OutrageState, action: Arm) -> None:
        seat = action.seat
        assert state.combat is not None
        state.combat.commit(seat, list(action.cards))
        for c in action.cards:
            state.hands[seat].remove(c)
        state.laid[seat] = list(action.cards)
        state.note(f"{state.seat_name(seat)} has laid their cards face down.")
        if state.combat.is_complete:
            self._fight(state)

    def _challenge_action(self, state: OutrageState, action: Challenge) -> None:
        self._challenge(state, action.seat)

    def _escape_action(self, state: OutrageState, action: Escape) -> None:
        self._escape(state, action.seat)

    # ------------------------------------------------------------- dice

    def _roll(self, state: OutrageState, roll: Roll) -> None:
        seat = roll.seat
        phase = state.phase
        # Every throw is 2d6 (the prompt's RollRequest): the two dice, read once.
        values = roll.values
        a, b = values
        total = a + b
        state.dice = list(values)
        who = state.seat_name(seat)
        if phase == "first":
            state.first_throws[seat] = total
            if len(state.first_throws) == len(state.contenders):
                best = max(state.first_throws.values())
                top = [s for s in state.contenders if state.first_throws[s] == best]
                if len(top) == 1:
                    state.order.index = state.order.order.index(top[0])
                    state.note(f"{state.seat_name(top[0])} threw highest ({best}) and starts. [{R_SETUP}]")
                    state.contenders = []
                    self.begin_turn(state)
                else:
                    state.note(f"{' and '.join(state.seat_name(s) for s in top)} tie on {best} and throw again.")
                    state.contenders = top
                    state.first_throws = {}
            return
        if phase == "start" or phase == "again":
            double = a == b
            if double:
                state.doubles += 1
            elif phase == "start":
                state.doubles = 0
            state.note(who + _THROWN[values])
            if double and state.doubles >= 3:
                state.note(f"Three successive doubles: {who} goes straight to the Bloody Tower without completing the turn. [{R_DICE}]")
                self.imprison(state, seat, "bloody")
                self.end_turn(state)
                return
            state.again = double
            self._start_move(state, seat, total)
            return
        if phase == "accredit":
            if total % 2:
                state.accredited[seat] = True
                state.note(f"{who} throws {total}, an odd number, and is accredited by the Resident Governor; {who} may enter the Inner Ward next turn. [{R_ACCR}]")
            else:
                state.note(f"{who} throws {total}, an even number: not accredited yet. [{R_ACCR}]")
            self.end_turn(state)
            return
        if phase == "prison":
            held = state.held[seat]
            place = PRISON_NAMES[held.place]
            if a == b:
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
            return
        if phase == "burgle":
            burglary = state.burglaries[seat]
            burglary.attempts += 1
            target = burglary_target(burglary.tools)
            jewel = _BOARD.jewel_name[burglary.jewel]
            if total >= target:
                self._take_jewel(state, seat, burglary)
            else:
                state.note(f"{who} throws {total} and needs {target}+ for {jewel} (attempt {burglary.attempts}); try again next turn. [{R_STEAL}]")
            self.end_turn(state)
            return
        raise AssertionError(f"a roll in phase {phase}")

    def _start_move(self, state: OutrageState, seat: str, steps: int) -> None:
        state.mover = seat
        state.steps = steps
        state.split = []
        state.phase = "move"
        if not state.visited:
            state.visited = [state.pos[seat]]

    # ------------------------------------------------------------- moves

    def _move(self, state: OutrageState, action: MoveTo) -> None:
        mover = state.mover
        square = action.square
        route, _ = self.derived(state)[square]  # read before anything is written
        if action.disguise:
            state.hands[action.seat].remove(action.disguise)
            self._to_pack(state, [action.disguise])
            state.note(f"{state.seat_name(action.seat)} plays a Disguise and slips past the Yeoman Warder unnoticed. [{R_GENERAL}]")
        mine = mover == state.actor
        if mine:
            if state.options["movement"] == "checked":
                # A checked route enters no square visited this turn (moves() blocks them).
                state.visited += route[1:]
            else:  # the square the table named: it may be one visited already
                visited = state.visited
                for sq in route[1:]:
                    if sq not in visited:
                        visited.append(sq)
        state.pos[mover] = square
        state.released = False
        state.note(f"{state.seat_name(mover)} moves to {_NAME[square]}.")
        # After the thrower's part of a split seven, the other piece moves (RULINGS M-06).
        self._queue_landing(state, mover, square, state.steps if mine else 0, front=True)
        self.proceed(state)

    def place(self, state: OutrageState, seat: str, square: str, why: str) -> None:
        """Move ``seat`` straight to ``square`` (a card, an instruction) and obey it there."""
        state.pos[seat] = square
        state.note(f"{state.seat_name(seat)} goes to {_NAME.get(square, square)}{why}.")

    def land(self, state: OutrageState, seat: str, square: str, thrown: int) -> None:
        """Queue what ``square`` tells ``seat`` to do, then carry on (GENERAL REGULATIONS;
        "Players moved under any circumstances must always obey any instructions")."""
        self._queue_landing(state, seat, square, thrown, front=True)
        self.proceed(state)

    def _queue_landing(self, state: OutrageState, seat: str, square: str, thrown: int, front: bool = False) -> None:
        if square in _QUIET:  # a third of the landings: nothing to obey there
            return
        sq = _BOARD.squares[square]
        todo: list[Task] = []
        actor = seat == state.actor
        if square == _QUEENS_HOUSE and actor and not state.accredited[seat]:
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
                todo.append(("go", seat, _BOARD.places.get(value, value)))
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
        if square in _RAVEN_SQUARES:
            todo.append(("raven", seat, ""))
        if sq.faces and actor and state.jewels.get(sq.faces) == CASE and seat not in state.burglaries \
                and state.accredited[seat]:
            todo.append(("burgle-offer", seat, sq.faces))
        if actor and square == _CRADLE and self.can_escape(state, seat):
            todo.append(("escape-offer", seat, ""))
        if not todo:
            return
        if front:
            state.tasks[:0] = todo
        else:
            state.tasks.extend(todo)

    def proceed(self, state: OutrageState) -> None:
        """Do the queued tasks until one needs a player's input; then go on with the turn."""
        state.phase = "busy"
        tasks = state.tasks  # the handlers add to it in place
        if tasks:
            for _ in _RUNAWAY:
                kind, seat, arg = tasks.pop(0)
                # Each task kind finds its handler in one look-up; a handler returns True
                # when the task waits for a player (it has set the phase): the turn stops.
                if _TASKS[kind](self, state, seat, arg):
                    return
                if not tasks:
                    break
            else:
                raise AssertionError("runaway tasks")
        if state.result is None:
            self.after_tasks(state)

    def _t_deal(self, state: OutrageState, seat: str, arg: str) -> bool:
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

    def _t_coin(self, state: OutrageState, seat: str, arg: str) -> bool:
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
            if state.again:
                state.note(f"{who} loses the further throw the double earned. [{R_DICE}]")
            state.again = False
        return False

    def _t_go(self, state: OutrageState, seat: str, arg: str) -> bool:
        self.place(state, seat, arg, "")
        self._queue_landing(state, seat, arg, 0, front=True)
        return False

    def _t_back(self, state: OutrageState, seat: str, arg: str) -> bool:
        n = int(arg)
        sq = state.pos[seat]
        if _REGION[sq] == "wall" and n:
            idx = max(0, int(sq[1:]) - n)
            dest = f"w{idx:02d}"
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
        others = [s for s in state.order.order if s != seat and self.in_play(state, s) and state.hands[s].cards]
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
        state.choice_for = arg
        state.offer = {"beauchamp": "play a Royal Pardon to leave at once", "bowyer": "play a Confession",
                       "rack": "play the Royal Pardon from the Rack", "curfew": "play a Tower Pass to remain at large"}[arg]
        state.actor, state.phase = seat, "offer"
        return True

    def _t_rack_pay(self, state: OutrageState, seat: str, arg: str) -> bool:
        self._rack_pay(state, seat)
        return state.phase != "busy"  # a choice asked (cards or coin)

    def _t_burgle_offer(self, state: OutrageState, seat: str, arg: str) -> bool:
        if state.jewels.get(arg) == CASE and state.pos[seat] == _BOARD.facing[arg]:
            state.actor, state.phase = seat, "burgle-offer"
            return True
        return False

    def _t_escape_offer(self, state: OutrageState, seat: str, arg: str) -> bool:
        if self.can_escape(state, seat):
            self._ask(state, seat, "escape", ["escape", "stay"], "pay the ferryman and escape")
            return True
        return False

    def _t_raven_do(self, state: OutrageState, seat: str, arg: str) -> bool:
        self._raven(state, seat, arg)
        return state.phase != "busy"  # a choice asked

    def _t_end(self, state: OutrageState, seat: str, arg: str) -> bool:
        if seat == state.order.current:
            state.end_now = True
        return False

    def _t_resume(self, state: OutrageState, seat: str, arg: str) -> bool:
        # Back to the turn's start after a Confession's square (RULINGS P-02).
        if not state.end_now and seat == state.order.current and seat not in state.held:
            state.actor, state.phase = seat, "start"
            return True
        return False

    def after_tasks(self, state: OutrageState) -> None:
        """The queued tasks done: the other piece of a split seven moves, or a double earns a
        further throw, unless the turn was ended; else the turn passes on."""
        if not state.end_now:
            if state.split:
                other, steps = state.split
                state.split = []
                state.actor = state.order.current
                state.mover = other
                state.steps = steps
                state.phase = "move"
                return
            if state.again:
                cur = state.order.current
                if cur not in state.held and not state.order.skips.get(cur) and cur not in state.retired:  # in_play
                    state.again = False
                    state.actor = cur
                    state.mover = cur
                    state.phase = "again"
                    return
        self.end_turn(state)

    def _ask(self, state: OutrageState, seat: str, what: str, options: list[str], text: str) -> None:
        state.actor, state.phase = seat, "choose"
        state.choice_for = what
        state.choices = options
        state.offer = text

    # ------------------------------------------------------------- draws

    def _draw(self, state: OutrageState, action: Draw) -> None:
        seat = action.seat
        if action.deck == "tower":
            state.decks["tower"].take(action.card)
            state.hands[seat].add(action.card)
            state.note(f"{state.seat_name(seat)} takes a Tower card.")
            state.note(_TOOK[action.card], seat, (seat,))
            self.proceed(state)
            return
        deck = state.decks["raven"]
        deck.take(action.card)
        deck.put_bottom(action.card)  # read aloud, obeyed, and back to the bottom of the pack
        state.raven = action.card
        state.note(state.seat_name(seat) + _RAVEN_READ[action.card])
        state.tasks.insert(0, ("raven-do", seat, action.card))
        self.proceed(state)

    # ------------------------------------------------------------- Raven cards

    def _raven(self, state: OutrageState, seat: str, cid: str) -> None:
        """Start obeying Raven card ``cid``: either done at once (tasks queued), or a choice asked."""
        b = _BOARD
        card = RAVEN[cid]
        kind = card.kind
        who = state.seat_name(seat)
        front: list[Task] = []
        if kind == "go":
            dest = b.places.get(card.to, card.to)
            if card.optional:
                self._ask(state, seat, "go:" + dest, ["go", "stay"], f"go to {b.name_of(dest)}, or stay and forfeit the turn")
                return
            front = [("go", seat, dest)]
        elif kind == "jewel":
            if state.accredited[seat] and state.jewels.get(card.jewel) == CASE and seat == state.actor:
                self._ask(state, seat, "go:" + b.facing[card.jewel], ["go", "stay"], f"go to the square facing the {b.jewel_name[card.jewel]}")
                return
            state.note(f"The card does not apply to {who} now.")
        elif kind == "warder-out":
            if card.post:
                self.call_out(state, card.post)
            else:
                self._ask(state, seat, "call-out", list(b.posts), "the post a Yeoman Warder is called out to")
                return
        elif kind == "warder-back":
            posted = [p for p, on in state.warders.items() if on]
            if not posted:
                state.note(f"No Yeoman Warder is at his post: the card is ignored. [{R_RAVEN}]")
            else:
                self._ask(state, seat, "send-back", posted, "the Yeoman Warder sent back to the Waterloo Barracks")
                return
        elif kind == "lost":
            front = [("go", seat, b.places["queens_house"]), ("end", seat, "")]
        elif kind == "photograph":
            spots = self.photo_spots(state)
            if not spots:
                state.note(f"No Yeoman Warder is at his post: {who} stays where they are. [{R_RAVEN}]")
            else:
                self._ask(state, seat, "photo", spots, "a square next to a Yeoman Warder's post")
                return
        elif kind in SKIP_PLACES:
            self.place(state, seat, b.places[SKIP_PLACES[kind]], " for one turn")
            state.order.skip(seat, 1)
            front = [("end", seat, "")]
        elif kind == "bench":
            self._ask(state, seat, "bench", list(_BENCHES), "the bench to rest on")
            return
        elif kind == "ghost":
            self.place(state, seat, b.places["chapel_royal"], " to recover")
            front = [("end", seat, "")]
        elif kind == "curfew":
            front = [("offer", seat, "curfew")]
        elif kind == "birthday":
            n = 2 if state.options["birthday_today"] else 1
            order = state.order.order
            start = order.index(seat)
            for s in order[start:] + order[:start]:
                if self.in_play(state, s):
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
            places = list(_PLACES_OF_INTEREST)
            if _REGION[here] in ("wall", "inner"):
                places.remove(here)
            self._ask(state, seat, "visit", places, "a place of interest on the Wall Walk or in the Inner Ward")
            return
        elif kind == "tour":
            front = [("go", seat, b.places["mint"])]
        elif kind in ("bowyer", "beauchamp", "bloody", "rack"):
            front = [("prison", seat, kind)]
        elif kind == "searched":
            jewels = self.carried(state, seat)
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
        b = _BOARD
        spots: list[str] = []
        for post, on in state.warders.items():
            if not on:
                continue
            for sq in b.posts[post]:
                for n in sorted(b.graph.neighbours(sq, edges={"ward"})):
                    if not b.square(n).post and n not in spots:
                        spots.append(n)
        return spots

    def call_out(self, state: OutrageState, post: str) -> None:
        b = _BOARD
        name = b.post_names[post]
        if state.warders[post]:
            state.note(f"A Yeoman Warder is already at the {name} post. [{R_RAVEN}]")
            return
        state.warders[post] = True
        state.note(f"A Yeoman Warder is called out of the Waterloo Barracks to the {name} post. [{R_RAVEN}]")
        for s in state.order.order:
            if state.pos[s] in b.posts[post] and self.in_play(state, s):
                state.note(f"{state.seat_name(s)} is on the post and is sent to the Bloody Tower. [{R_GENERAL}]")
                state.tasks.insert(0, ("prison", s, "bloody"))

    def imprison(self, state: OutrageState, seat: str, place: str) -> None:
        b = _BOARD
        who = state.seat_name(seat)
        state.pos[seat] = b.places[PRISON_SQUARE[place]]
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
        if place in ("beauchamp", "bowyer"):
            state.tasks.insert(0, ("offer", seat, place))

    def drop_burglary(self, state: OutrageState, seat: str) -> None:
        """A burglar taken away forfeits the attempt; the tools go back to the pack."""
        burglary = state.burglaries.pop(seat, None)
        if burglary is not None:
            self._to_pack(state, burglary.tools)
            state.note(f"{state.seat_name(seat)}'s burglary ends; the tools go to the bottom of the Tower pack. [{R_STEAL}]")

    def _rack_pay(self, state: OutrageState, seat: str) -> None:
        b = _BOARD
        who = state.seat_name(seat)
        for j in self.carried(state, seat):
            state.jewels[j] = CASE
            state.note(f"{who} confesses everything: the {b.jewel_name[j]} goes back to its case. [{R_RACK}]")
        has_cards, has_coin = bool(state.hands[seat].cards), state.coins[seat]
        if has_cards and has_coin:
            self._ask(state, seat, "rack-pay", ["cards", "coin"], "what the Rack confiscates: your Tower cards or your coin")
            return
        if has_cards or has_coin:
            self._confiscate(state, seat, "cards" if has_cards else "coin")
            return
        state.pos[seat] = b.places["start"]
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

    # ------------------------------------------------------------- choices

    def _choose(self, state: OutrageState, action: Choose) -> None:
        b = _BOARD
        seat, option = action.seat, action.option
        what = state.choice_for
        who = state.seat_name(seat)
        state.choices = []
        if state.phase == "move":  # no move possible
            state.note(f"{who} cannot move {state.seat_name(state.mover)} exactly {state.steps} and stays put. [{R_GENERAL}]")
            state.tasks = []
            self.proceed(state)
            return
        if state.phase == "rack":
            held = state.held[seat]
            held.served += 1
            if held.served >= held.limit:
                del state.held[seat]
                state.note(f"{who} has suffered three turns and is released from the Rack. [{R_RACK}]")
            else:
                state.note(f"{who} suffers on the Rack: turn {held.served} of {held.limit}. [{R_RACK}]")
            self.end_turn(state)
            return
        if state.phase == "tea":
            state.tea.remove(seat)
            state.note(f"{who} has no Tower Pass and stays at tea one turn longer. [{R_RAVEN}]")
            self.end_turn(state)
            return
        if state.phase == "ferry":
            if option == "reenter":
                self._reenter(state, seat)
            else:
                state.retired.append(seat)
                state.note(f"{who} retires with their jewels. [{R_END}]")
                if all(not self.in_play(state, s) for s in state.order.order):
                    self._finish(state, "every player has retired")
                    return
            self.proceed(state)
            return
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
            state.note(f"The Yeoman Warder at the {b.post_names[option]} post is sent back to the Waterloo Barracks. [{R_RAVEN}]")
        elif what == "photo":
            self.place(state, seat, option, " to be photographed with a Yeoman Warder")
            if b.square(option).draws_raven:
                state.tasks.insert(0, ("raven", seat, ""))
        elif what == "bench":
            self.place(state, seat, option, " to rest for one turn")
            state.order.skip(seat, 1)
            state.end_now = state.end_now or seat == state.order.current
        elif what == "visit":
            self.place(state, seat, option, ", a place of interest")
            self._queue_landing(state, seat, option, 0, front=True)
        elif what == "rack-pay":
            self._confiscate(state, seat, option)
        elif what == "escape":
            if option == "escape":
                self._escape(state, seat)
                return
        elif what == "swap":
            if option != "none":
                state.swap = [seat, option, "", ""]
                state.note(f"{who} swaps a Tower card with {state.seat_name(option)}: each takes one face down from the other's hand. [{R_WALL}]")
                state.actor, state.phase = seat, "swap"
                return
        self.proceed(state)

    def _received(self, state: OutrageState, seat: str) -> str:
        """The card ``seat`` has been given in the swap under way ("" if none yet)."""
        a, _b, got_a, got_b = state.swap
        return got_a if seat == a else got_b

    def _give(self, state: OutrageState, action: Give) -> None:
        """One side of a swap (RULINGS R-10): the card the other player took from ``seat``'s
        hand (``seat``'s word, or the app's blind pick) goes into the taker's hand; once
        both sides are entered the turn goes on."""
        seat = action.seat
        a, b_ = state.swap[:2]
        taker = b_ if seat == a else a
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

    # ------------------------------------------------------------- cards

    def _play(self, state: OutrageState, action: Play) -> None:
        b = _BOARD
        seat, card = action.seat, action.card
        kind = kind_of(card)
        who = state.seat_name(seat)
        state.hands[seat].remove(card)
        self._to_pack(state, [card])
        name = TOWER[card].name
        phase = state.phase
        if phase == "start" and kind in ("rope", "ladder"):
            foot = sorted(b.graph.neighbours(state.pos[seat], edges={"rope"}))[0]
            self.place(state, seat, foot, f", climbing down {_a(name)} out of the White Tower [{R_TOWER}]")
            state.end_now = True
            self.land(state, seat, foot, 0)
            return
        if phase == "start":  # Sanctuary
            self.place(state, seat, b.places["chapel_royal"], f", claiming Sanctuary [{R_TOWER}]")
            if seat not in state.sanctuary:
                state.sanctuary.append(seat)
            self.end_turn(state)
            return
        if phase == "accredit":
            state.accredited[seat] = True
            state.note(f"{who} presents a Tower Pass and is accredited. [{R_ACCR}]")
            self.end_turn(state)
            return
        if phase == "tea":
            state.tea.remove(seat)
            state.note(f"{who} presents a Tower Pass, makes their excuses and leaves. [{R_RAVEN}]")
            state.phase = "start"
            return
        if phase == "prison":
            place = state.held.pop(seat).place
            if kind == "confession":
                other = action.target
                mine, theirs = state.pos[seat], state.pos[other]
                state.pos[seat], state.pos[other] = theirs, mine
                state.held[other] = Held(place)
                self.drop_burglary(state, other)
                state.note(f"{who} plays a Confession and informs on {state.seat_name(other)}: they swap places, and {state.seat_name(other)} is questioned in the Bowyer Tower instead. [{R_TOWER}]")
                # The informer is moved, so obeys the square (RULINGS P-02), then throws.
                self._queue_landing(state, seat, theirs, 0, front=True)
                state.tasks.append(("resume", seat, ""))
                self.proceed(state)
                return
            state.note(f"{who} plays {_a(name)} and is released from {PRISON_NAMES[place]}. [{R_TOWER}]")
            state.phase = "start"
            return
        if phase == "rack":
            del state.held[seat]
            state.note(f"{who} escapes from the Rack with {_a(name)}. [{R_TOWER}]")
            state.phase = "start"
            return
        # An offer made at the moment of imprisonment or a card.
        moment = state.choice_for
        if moment == "beauchamp":
            del state.held[seat]
            state.note(f"{who} presents a Royal Pardon and leaves the Beauchamp Tower at once, throwing again. [{R_TOWER}]")
            if seat == state.order.current:
                state.end_now = False
                state.again = True
        elif moment == "bowyer":
            other = action.target
            del state.held[seat]
            mine, theirs = state.pos[seat], state.pos[other]
            state.pos[seat], state.pos[other] = theirs, mine
            state.held[other] = Held("bowyer")
            self.drop_burglary(state, other)
            state.note(f"{who} plays a Confession and informs on {state.seat_name(other)}: they swap places, and {state.seat_name(other)} suffers instead. [{R_TOWER}]")
            state.actor = state.order.current  # the informer obeys the square as a player moved (RULINGS P-02)
            self._queue_landing(state, seat, theirs, 0, front=True)
        elif moment == "rack":
            state.note(f"{who} presents the Royal Pardon from the Rack and is released without penalty. [{R_TOWER}]")
            if seat == state.order.current:
                state.end_now = False
        elif moment == "curfew":
            state.note(f"{who} presents a Tower Pass and remains at large after curfew. [{R_RAVEN}]")
        self.proceed(state)

    def _decline(self, state: OutrageState, seat: str) -> None:
        phase = state.phase
        b = _BOARD
        who = state.seat_name(seat)
        if phase == "offer":
            moment = state.choice_for
            if moment == "rack":
                state.tasks.insert(0, ("rack-pay", seat, ""))
            elif moment == "curfew":
                self.place(state, seat, b.places["bell_tower"], " after curfew, for one turn, without taking a Tower card")
                state.order.skip(seat, 1)
                state.end_now = state.end_now or seat == state.order.current
        elif phase == "challenge":
            state.challengers.pop(0)
            if state.challengers:
                return
            state.note(f"Nobody challenges {state.seat_name(state.accused)}. [{R_SURRENDER}]")
        elif phase == "change-offer":
            pass
        elif phase == "burgle-offer":
            pass
        self.proceed(state)

    def _change(self, state: OutrageState, action: Change) -> None:
        seat = action.seat
        for c in action.cards:
            state.hands[seat].remove(c)
        self._to_pack(state, action.cards)
        n = len(action.cards)
        state.note(f"{state.seat_name(seat)} changes {n} Tower card{'s' if n > 1 else ''}. [{R_GENERAL}]")
        if state.phase == "start":
            state.end_now = True
            state.again = False
        state.tasks[:0] = [("draw-tower", seat, "")] * n
        self.proceed(state)

    def _to_pack(self, state: OutrageState, cards: Iterable[str]) -> None:
        # Deck.put_bottom for each card, in order, in one step (``cards`` may be a hand
        # about to be cleared: extend copies it first).
        state.decks["tower"].cards.extend(cards)

    def _shuffle_pack(self, state: OutrageState) -> None:
        state.decks["tower"].shuffle(state.rng)

    # ------------------------------------------------------------- burglary

    def _burgle(self, state: OutrageState, action: Burgle) -> None:
        b = _BOARD
        seat = action.seat
        jewel = b.square(state.pos[seat]).faces
        for c in action.tools:
            state.hands[seat].remove(c)
        state.burglaries[seat] = Burglary(jewel, list(action.tools))
        target = burglary_target(action.tools)
        tools = ", ".join(TOWER[c].name for c in action.tools)
        state.note(f"{state.seat_name(seat)} declares a burglary of the {b.jewel_name[jewel]} with {tools}: needs {target} or more on a later turn. [{R_STEAL}]")
        state.end_now = True
        state.again = False
        self.proceed(state)

    def _take_jewel(self, state: OutrageState, seat: str, burglary: Burglary) -> None:
        b = _BOARD
        jewel = burglary.jewel
        state.jewels[jewel] = seat
        del state.burglaries[seat]
        self._to_pack(state, burglary.tools)
        state.note(f"{state.seat_name(seat)} makes the throw and takes the {b.jewel_name[jewel]} from its case! [{R_STEAL}]")
        for other, rival in list(state.burglaries.items()):
            if rival.jewel == jewel:
                del state.burglaries[other]
                self._to_pack(state, rival.tools)
                state.note(f"{state.seat_name(other)} was beaten to it and forfeits their burglary tools. [{R_STEAL}]")

    # ------------------------------------------------------------- attack

    def _fight(self, state: OutrageState) -> None:
        assert state.combat is not None
        b = _BOARD
        laid = state.combat.reveal()
        self.reveal(state)
        attacker, defender = state.combat.seats
        a_cards, d_cards = laid[attacker], laid[defender]
        an, dn = state.seat_name(attacker), state.seat_name(defender)
        state.note(f"The cards are revealed: {an} laid {_shown(a_cards)}; {dn} laid {_shown(d_cards)}. [{R_ATTACK}]")
        state.combat = None
        state.laid = {}
        if d_cards and _KIND.get(d_cards[0]) == "sanctuary":
            self._to_pack(state, a_cards + d_cards)
            self.place(state, defender, b.places["chapel_royal"], f", retreating into Sanctuary [{R_ATTACK}]")
            if defender not in state.sanctuary:
                state.sanctuary.append(defender)
            self.end_turn(state)
            return
        av, dv = attack_value(a_cards), attack_value(d_cards)
        winner, loser = (attacker, defender) if av > dv else (defender, attacker)
        wn, ln = state.seat_name(winner), state.seat_name(loser)
        state.note(f"{an} {av} against {dn} {dv}{' (a tie goes to the defender)' if av == dv else ''}: {wn} wins. [{R_ATTACK}]")
        if loser in state.jewels.values():
            for j in self.carried(state, loser):
                state.jewels[j] = winner
                state.note(f"{wn} takes the {b.jewel_name[j]}.")
        if state.coins[loser]:
            state.coins[loser] = False
            if state.coins[winner]:
                state.mint += 1
                state.note(f"{wn} already has a coin: {ln}'s coin goes back to the Mint. [{R_ATTACK}]")
            else:
                state.coins[winner] = True
                state.note(f"{wn} takes {ln}'s coin.")
        lost = len(laid[winner])
        loser_square = state.pos[loser]
        self._to_pack(state, a_cards + d_cards)
        self._shuffle_pack(state)
        self.place(state, loser, b.places["hospital"], f" to recover from their wounds [{R_ATTACK}]")
        state.order.skip(loser, 1)
        self.drop_burglary(state, loser)
        state.end_now = True
        state.tasks[:0] = [("draw-tower", winner, "")] * lost
        if winner == attacker:
            self.place(state, attacker, loser_square, f", taking {ln}'s place")
            self._queue_landing(state, attacker, loser_square, 0)
        self.proceed(state)

    # ------------------------------------------------------------- surrender

    def _surrender(self, state: OutrageState, action: Surrender) -> None:
        seat = action.seat
        for c in action.cards:
            state.hands[seat].remove(c)
        self._to_pack(state, list(action.cards))
        shown = ", ".join(TOWER[c].name for c in action.cards) or "no weapons"
        state.note(f"{state.seat_name(seat)} shows and surrenders {shown}. [{R_SURRENDER}]")
        order = state.order.order
        i = order.index(seat)
        state.challengers = [s for s in order[i + 1:] + order[:i] if self.in_play(state, s)]
        if state.challengers and state.hands[seat].cards:
            state.phase = "challenge"
            state.actor = state.challengers[0]
            return
        state.challengers = []
        self.proceed(state)

    def _challenge(self, state: OutrageState, accuser: str) -> None:
        accused = state.accused
        an, cn = state.seat_name(accuser), state.seat_name(accused)
        hand = state.hands[accused].cards
        shown = ", ".join(TOWER[c].name for c in hand)
        state.note(f"{an} challenges {cn}, whose Tower cards are revealed: {shown}. [{R_SURRENDER}]")
        state.challengers = []
        if any(TOWER[c].group == "weapon" for c in hand):
            n = len(hand)
            self._to_pack(state, hand)
            hand.clear()
            state.note(f"Weapons remained: {cn} surrenders all {n} Tower cards. [{R_SURRENDER}]")
        else:
            n_acc = len(state.hands[accuser].cards)
            self._to_pack(state, state.hands[accuser].cards)
            state.hands[accuser].cards.clear()
            n = len(hand)
            self._to_pack(state, hand)
            hand.clear()
            self._shuffle_pack(state)
            state.note(f"{an} was wrong and surrenders all {n_acc} Tower cards; {cn}'s revealed cards go back, the pack is shuffled, and {cn} is dealt {n} fresh cards. [{R_SURRENDER}]")
            state.tasks[:0] = [("draw-tower", accused, "")] * n
        self.proceed(state)

    # ------------------------------------------------------------- escape

    def _escape(self, state: OutrageState, seat: str) -> None:
        b = _BOARD
        jewels = self.carried(state, seat)
        state.coins[seat] = False
        state.mint += 1
        for j in jewels:
            state.jewels[j] = ESCAPED
            state.escaped[seat].append(j)
        state.note(f"{state.seat_name(seat)} pays the ferryman and escapes from the Cradle Tower with {', '.join(b.jewel_name[j] for j in jewels)}! [{R_END}]")
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

    def _reenter(self, state: OutrageState, seat: str) -> None:
        b = _BOARD
        n = len(state.hands[seat].cards)
        self._to_pack(state, state.hands[seat].cards)
        state.hands[seat].cards.clear()
        self._shuffle_pack(state)
        state.pos[seat] = b.places["start"]
        state.end_now = True
        state.tasks[:0] = [("draw-tower", seat, "")] * HAND_START
        state.note(f"{state.seat_name(seat)} goes back in from Start, still accredited: {n} cards returned and shuffled, three new cards. [{R_END}]")

    def scores(self, state: OutrageState) -> dict[str, Score]:
        b = _BOARD
        out: dict[str, Score] = {}
        for s in state.order.order:
            key = self.team(state, s)
            jewels = [j for j in state.escaped[s]]
            prev = out.get(key)
            total = sum(b.jewel_value[j] for j in jewels)
            breakdown = {j: b.jewel_value[j] for j in jewels}
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
        seats = tuple(s for s in state.order.order if self.team(state, s) in top and best[0] > 0)
        if winner is not None and not state.options["teams"]:
            winner = state._faction[winner]
        self.finish(state, Outcome(winner, why, scores, seats))

    # ------------------------------------------------------------- turns

    def end_turn(self, state: OutrageState) -> None:
        # (begin_turn, which always follows, clears the tasks, the squares visited and the doubles)
        state.end_now = False
        state.again = False
        if state.split:
            state.split = []
        state.released = False
        state.raven = ""
        order = state.order
        retired = state.retired
        if state.extra:
            state.extra = False
            cur = order.current
            if cur not in retired and cur not in state.held:
                state.note(f"{state.seat_name(cur)} takes an extra turn.")
                self.begin_turn(state)
                return
        if not retired:  # the common case: the turn passes to the next seat not missing it
            for s in order.advance():
                state.note(f"{state.seat_name(s)} misses a turn.")
        else:
            for _ in range(len(order.order) * 4 + 4):
                for s in order.advance():
                    if s not in retired:  # in_play
                        state.note(f"{state.seat_name(s)} misses a turn.")
                if order.current not in retired:
                    break
        self.begin_turn(state)

    def begin_turn(self, state: OutrageState) -> None:
        order = state.order
        seat = order.order[order.index]  # order.current, without the property's call (every turn)
        state.actor = seat
        state.mover = seat
        state.doubles = 0
        state.visited = []
        state.tasks = []
        if seat in state.sanctuary:
            state.sanctuary.remove(seat)
        if seat in state.held:
            state.phase = "rack" if state.held[seat].place == "rack" else "prison"
        elif seat in state.tea:
            state.phase = "tea"
        elif seat in state.burglaries:
            state.phase = "burgle"
        elif not state.accredited[seat] and state.pos[seat] == _QUEENS_HOUSE:
            state.phase = "accredit"
        else:
            state.phase = "start"
        state.fresh = True

    # ----------------------------------------------------------- listing

    def candidates(self, state: OutrageState, prompt: Prompt) -> Iterable[Action]:
        phase = state.phase
        if phase == "attack":
            assert state.combat is not None
            for seat in prompt.seats():
                yield from self._arm_candidates(state, seat)
            return
        seat = prompt.seats()[0] if prompt.waits else state.actor
        awaiting = prompt.waits.get(seat)
        accepted = awaiting.accepted if awaiting is not None else ()
        if phase == "move":
            if "choose" in accepted:
                yield Choose(seat, "stay")
            if "move" in accepted:
                disguises = self.cards_of(state, seat, "disguise")
                for sq, (_, needs) in self.derived(state).items():
                    if needs:
                        if disguises:
                            yield MoveTo(seat, sq, disguises[0])
                    else:
                        yield MoveTo(seat, sq)
            if "split" in accepted:
                for other in self.movable_others(state, seat):
                    for n in range(1, 7):
                        yield Split(seat, other, n)
            return
        if "choose" in accepted:
            if phase == "rack":
                yield Choose(seat, "wait")
            elif phase == "tea":
                yield Choose(seat, "stay")
            else:
                for c in state.choices:
                    yield Choose(seat, c)
        if "decline" in accepted:
            yield Decline(seat)
        if "play" in accepted:
            for c in state.hands[seat].cards:
                if kind_of(c) == "confession":
                    for o in state.order.order:
                        if o != seat:
                            yield Play(seat, c, o)
                else:
                    yield Play(seat, c)
        if "change" in accepted:
            hand = state.hands[seat].cards
            for c in hand:
                yield Change(seat, (c,))
            if phase == "start" and len(hand) > 1:
                yield Change(seat, tuple(hand))
        if "attack" in accepted:
            for t in self.targets(state, seat):
                yield Attack(seat, t)
        if "escape" in accepted:
            yield Escape(seat)
        if "abandon" in accepted:
            yield Abandon(seat)
        if "burgle" in accepted:
            tools = self.cards_of(state, seat, "file", "crowbar", "dynamite", "key")
            by_kind: dict[str, str] = {}
            for c in tools:
                by_kind.setdefault(kind_of(c), c)
            for c in by_kind.values():
                yield Burgle(seat, (c,))
            rest = [c for k, c in by_kind.items() if k != "key"]
            if len(rest) > 1:
                yield Burgle(seat, tuple(rest))
        if "give" in accepted:
            for s in prompt.seats():
                yield Give(s)
                yield from (Give(s, c) for c in dict.fromkeys(state.hands[s].cards))
        if "surrender" in accepted:
            weapons = self.cards_of(state, seat, *[k for k, n in KIND_NAME.items() if TOWER[f"{k}-1"].group == "weapon"])
            yield Surrender(seat, tuple(weapons))
            if weapons:
                yield Surrender(seat, tuple(weapons[1:]))
        if "challenge" in accepted:
            yield Challenge(seat)

    def _arm_candidates(self, state: OutrageState, seat: str) -> Iterator[Action]:
        assert state.combat is not None
        defender = seat == state.combat.seats[1]
        by_kind: dict[str, str] = {}
        for c in state.hands[seat].cards:
            k = kind_of(c)
            if TOWER[c].group == "weapon" and (defender or k != "armour"):
                by_kind.setdefault(k, c)
        weapons = list(by_kind.values())
        yield Arm(seat, ())
        if weapons:
            yield Arm(seat, tuple(weapons))
            for c in weapons:
                yield Arm(seat, (c,))
        if defender:
            for c in self.cards_of(state, seat, "sanctuary")[:1]:
                yield Arm(seat, (c,))

    # -------------------------------------------------------------- views

    def render(self, state: OutrageState, viewer: str) -> dict[str, Any]:
        b = _BOARD
        pieces = {}
        for s in state.order.order:
            held = state.held.get(s)
            burg = state.burglaries.get(s)
            pieces[s] = {
                "square": state.pos[s], "square_name": b.name_of(state.pos[s]), "region": b.region(state.pos[s]),
                "accredited": state.accredited[s], "coin": state.coins[s], "carrying": self.carried(state, s),
                "escaped": list(state.escaped[s]), "cards": len(state.hands[s].cards),
                "held": ({"place": held.place, "turn": held.served + 1, "of": held.limit,
                          "text": f"turn {held.served + 1} of {held.limit}"} if held else None),
                "misses": state.order.skips.get(s, 0),
                "burglary": ({"jewel": burg.jewel, "tools": [TOWER[c].name for c in burg.tools],
                              "target": burglary_target(burg.tools), "attempt": burg.attempts + 1,
                              "text": f"needs {burglary_target(burg.tools)}+, attempt {burg.attempts + 1}"} if burg else None),
                "sanctuary": s in state.sanctuary, "tea": s in state.tea, "retired": s in state.retired,
            }
        view: dict[str, Any] = {
            "board": {"name": b.name, "status": "reconstructed", "movement": state.options["movement"]},
            "phase": state.phase, "actor": state.actor, "mover": state.mover, "turn": state.order.turn,
            "order": list(state.order.order), "current": state.order.current,
            "dice": {"last": list(state.dice), "doubles": state.doubles, "steps": state.steps if state.phase == "move" else 0},
            "pieces": pieces, "warders": dict(state.warders), "barracks": sum(1 for on in state.warders.values() if not on),
            "mint": state.mint, "jewels": dict(state.jewels),
            "packs": {"tower": len(state.decks["tower"].cards), "raven": len(state.decks["raven"].cards)},
            "hands": {s: h.view(viewer) for s, h in state.hands.items()},
            "raven": {"id": state.raven, "text": RAVEN[state.raven].text} if state.raven else None,
            "endgame": state.options["endgame"], "birthday_today": state.options["birthday_today"],
            "first_throws": dict(state.first_throws),
        }
        if state.combat is not None:
            view["attack"] = state.combat.public() | {"revealed": None}
            if viewer in state.laid:
                view["attack"]["mine"] = list(state.laid[viewer])
        if state.phase == "choose":
            view["choices"] = list(state.choices)
            view["choice"] = state.offer
        if state.phase == "move":
            opts = self.derived(state)
            view["reachable"] = sorted(s for s, (_, needs) in opts.items() if not needs)
            if viewer == state.actor:
                view["reachable_with_disguise"] = sorted(s for s, (_, needs) in opts.items() if needs)
        if state.phase == "challenge":
            view["accused"] = state.accused
        if state.phase == "swap":
            view["swap"] = {"seats": state.swap[:2], "waiting": self.swap_waiting(state)}
        return view

    def public_action(self, state: OutrageState, action: Action, viewer: str = PUBLIC, ply: int | None = None) -> dict[str, Any]:
        if isinstance(action, Draw) and action.deck == "raven":
            return to_data(action)  # read aloud and shown to every player
        return super().public_action(state, action, viewer, ply)

    def secrets(self, state: OutrageState, viewer: str) -> Iterable[str]:
        hidden = set(state.decks["tower"].cards)
        for s, h in state.hands.items():
            if s != viewer:
                hidden.update(h.cards)
        for s, cards in state.laid.items():
            if s != viewer:
                hidden.update(cards)
        return hidden

    def hidden_variant(self, state: OutrageState, viewer: str, rng: Rng) -> OutrageState | None:
        twin = self.copy(state)
        twin.changed()
        piles = [twin.decks["tower"].cards] + [h.cards for s, h in sorted(twin.hands.items()) if s != viewer]
        return twin if swap_hidden(piles, rng) else None

    def tracked(self, state: OutrageState) -> dict[str, int]:
        out = {"mint": state.mint, "tower_pack": len(state.decks["tower"].cards),
               "jewels_in_cases": sum(1 for w in state.jewels.values() if w == CASE)}
        for s in state.order.order:
            out[f"escaped:{s}"] = sum(_BOARD.jewel_value[j] for j in state.escaped[s])
        return out

    def undo_barrier(self, state: OutrageState, action: Action) -> str | None:
        if isinstance(action, (Play, Surrender, Challenge, Burgle)):
            return "cards were shown to the table"
        return super().undo_barrier(state, action)

    def problems(self, state: OutrageState) -> Iterable[str]:
        b = _BOARD
        everywhere = list(state.decks["tower"].cards)
        for h in state.hands.values():
            everywhere += h.cards
        for bg in state.burglaries.values():
            everywhere += bg.tools
        for cards in state.laid.values():
            everywhere += cards
        if sorted(everywhere) != sorted(TOWER_CARDS):
            yield f"Tower cards not conserved: {len(everywhere)} of {len(TOWER_CARDS)}"
        if sorted(state.decks["raven"].cards) != sorted(RAVEN_CARDS):
            yield "Raven cards not conserved"
        coins = state.mint + sum(state.coins.values())
        if coins != len(state.order.order):
            yield f"coins not conserved: {coins} for {len(state.order.order)} players"
        if sorted(state.jewels) != sorted(b.jewels):
            yield "jewels not conserved"
        for j, w in state.jewels.items():
            if w not in (CASE, ESCAPED) and w not in state.pos:
                yield f"jewel {j} is at {w!r}"
            if w == ESCAPED and sum(e.count(j) for e in state.escaped.values()) != 1:
                yield f"escaped jewel {j} is not held by exactly one player"
        for s, sq in state.pos.items():
            if sq not in b.squares:
                yield f"{s} is on an unknown square {sq!r}"
        if state.result is None and state.actor not in state.pos and state.phase != "first":
            yield f"no seat acts (actor {state.actor!r}, phase {state.phase!r})"


def moves(state: OutrageState, seat: str, steps: int) -> dict[str, tuple[tuple[str, ...], bool]]:
    """Where ``seat``'s piece may end a move of exactly ``steps``: square → (its route,
    whether it passes or lands on a warder's post, so needs a Disguise). Along adjacent
    squares, none twice in the turn, by the arcs in bounds for the player (first circuit:
    the Wall Walk anticlockwise, ending at Queen's House whatever the throw). With the
    ``movement`` option ``unchecked`` every square is offered (the table's board rules)."""
    pos = state.pos[seat]
    if state.options["movement"] == "unchecked":
        return _anywhere(pos)
    g = _BOARD.graph
    acc = state.accredited[seat]
    mine = seat == state.actor
    if mine:
        seen = state.visited
        # A turn's first move has visited only its own square: the empty set, already hashed.
        visited = _NOWHERE if len(seen) == 1 and seen[0] == pos else frozenset(seen).difference((pos,))
    else:
        visited = _NOWHERE
    if not acc and _REGION[pos] == "wall":
        qh = _QUEENS_HOUSE
        d = g.distance(pos, qh, edges=FIRST_CIRCUIT)
        if d is not None and steps >= d:
            route = g.paths(pos, d, edges=FIRST_CIRCUIT, blocked=visited)
            return {qh: (route[0], False)} if route else {}
        return {p[-1]: (p, False) for p in g.paths(pos, steps, edges=FIRST_CIRCUIT, blocked=visited)}
    posted = _POSTED[tuple(state.warders.values())]
    bench = _BENCH_EXIT[pos]
    if acc and not bench:  # the common move: the board answers it (and remembers the answer)
        return g.guarded(pos, steps, posted, edges=MOVING, blocked=visited)  # type: ignore[return-value]
    edges = MOVING if acc else UNACCREDITED
    out: dict[str, tuple[tuple[str, ...], bool]] = {}
    qh = _QUEENS_HOUSE
    for p in g.paths(pos, steps, edges=edges, blocked=visited):
        if bench and p[1] != bench:
            continue
        if not acc and qh in p[1:-1]:
            p = p[: p.index(qh) + 1]  # the first circuit ends at Queen's House whatever the count (M-02)
        needs = bool(posted) and not posted.isdisjoint(p[1:])  # one C-level set test
        known = out.get(p[-1])
        if known is None or (known[1] and not needs):
            out[p[-1]] = (p, needs)
    return out


_POSTED = {manned: frozenset(sq for post, on in zip(_BOARD.posts, manned) if on for sq in _BOARD.posts[post])
           for manned in itertools.product((False, True), repeat=len(_BOARD.posts))}
"""The squares of the posts whose warder is at his post, for each way of manning them (as
``state.warders`` lists them: the board's order, which setup, positions and saved states
keep): one look-up per move, where a cached function's key was built from the pairs."""


@functools.lru_cache(maxsize=None)
def _anywhere(pos: str) -> dict[str, tuple[tuple[str, ...], bool]]:
    """With movement unchecked: every square but the one a piece stands on and the prisons
    (which only an instruction sends a player to). One read-only answer per square."""
    b = default_board()
    return {s: ((pos, s), False) for s in b.squares if s != pos and s not in (b.places["bloody_tower"], b.places["rack"])}


_ROPE_PLAYS = ("sanctuary", "rope", "ladder")
_SANCTUARY_PLAY = ("sanctuary",)
_PLAY = ("play",)
_START_ALSO = {(change, attack, escape): tuple(k for k, on in (("change", change), ("attack", attack), ("escape", escape)) if on)
               for change in (False, True) for attack in (False, True) for escape in (False, True)}
_NEEDS = operator.itemgetter(1)
_NOWHERE: frozenset[str] = frozenset()
# The move step's kinds: (a square to go to, staying allowed, a seven to split) → kinds.
_MOVE_KINDS = {(move, stay, split): tuple(k for k, on in (("move", move), ("choose", stay), ("split", split)) if on)
               for move in (False, True) for stay in (False, True) for split in (False, True)}
_CARD_NAME = {c: card.name for c, card in TOWER.items()}
# What follows the thrower's name in the log line of a turn's throw, for each of the 36
# throws: made once here, not formatted from five values on every throw.
_THROWN = {(a, b): f" throws {a} and {b} ({a + b}){' — a double' if a == b else ''}. [{R_DICE}]"
           for a in range(1, 7) for b in range(1, 7)}


def _shown(cards: list[str]) -> str:
    """Cards laid in an attack, named for the log."""
    return ", ".join(map(_CARD_NAME.__getitem__, cards)) or "nothing"

# Tower card id -> its kind, and the private line its drawer reads (a draw is every fourth action).
_KIND = {c: card.kind for c, card in TOWER.items()}
_WEAPON_KINDS = frozenset(card.kind for card in TOWER.values() if card.group == "weapon")
_START_CARDS = frozenset(c for c, k in _KIND.items() if k in _SANCTUARY_PLAY)
_ROPE_START_CARDS = frozenset(c for c, k in _KIND.items() if k in _ROPE_PLAYS)
_TOOK = {c: f"You took {_a(card.name)}." for c, card in TOWER.items()}
# What follows the drawer's name in the log line of a Raven card read aloud, per card.
_RAVEN_READ = {c: f" takes a Raven card: {card.text} [{R_RAVEN}]" for c, card in RAVEN.items()}

# Each action class's effect, looked up by class in one step.
_EFFECTS = {
    Draw: Outrage._draw, Roll: Outrage._roll, MoveTo: Outrage._move, Split: Outrage._split, Choose: Outrage._choose,
    Play: Outrage._play, Decline: Outrage._decline_action, Change: Outrage._change, Burgle: Outrage._burgle,
    Abandon: Outrage._abandon, Attack: Outrage._attack, Arm: Outrage._arm, Surrender: Outrage._surrender,
    Challenge: Outrage._challenge_action, Escape: Outrage._escape_action, Give: Outrage._give,
}

# Each task kind's handler (see Outrage.proceed).
_TASKS = {
    "deal": Outrage._t_deal, "draw-tower": Outrage._t_draw_tower, "raven": Outrage._t_raven, "coin": Outrage._t_coin,
    "miss": Outrage._t_miss, "go": Outrage._t_go, "back": Outrage._t_back, "extra": Outrage._t_extra,
    "change": Outrage._t_change, "swap": Outrage._t_swap, "surrender": Outrage._t_surrender,
    "prison": Outrage._t_prison, "offer": Outrage._t_offer, "rack-pay": Outrage._t_rack_pay,
    "burgle-offer": Outrage._t_burgle_offer, "escape-offer": Outrage._t_escape_offer, "raven-do": Outrage._t_raven_do,
    "end": Outrage._t_end, "resume": Outrage._t_resume,
}

_CHECKS = {cls: None for cls in Outrage.action_types} | {
    MoveTo: Outrage._v_move, Split: Outrage._v_split, Choose: Outrage._v_choose, Play: Outrage._play_violations,
    Change: Outrage._change_violations, Burgle: Outrage._burgle_violations, Attack: Outrage._v_attack,
    Arm: Outrage._arm_violations, Surrender: Outrage._v_surrender, Give: Outrage._v_give,
}


GAME = Outrage()

"""The Outrage! engine: the kernel contract for the rulebook in ``rules/outrage``, its
turn structure (BEFORE PLAY BEGINS, THE DICE) and its steps. Each rulebook chapter's rules
are in a module of their own, and the engine is assembled from them: ``movement`` (the
Wall Walk, accreditation, the wards, splitting the seven), ``squares`` (the instructions
on the squares), ``raven`` (Raven cards), ``prisons`` (prisons and the Rack), ``burglary``
(stealing the jewels), ``attack`` (attack), ``surrender`` (surrendering weapons),
``tower_cards`` (Tower cards), ``endgame`` (money and the endgame), with ``listing``
(candidates), ``views`` and ``refusals`` (why a kind is not on offer).

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

from typing import Any, Callable, Iterable, Iterator

from rules.core import (
    Action, CommitRequest, Decision, Deck, Draw, DrawRequest, Game, Hand, Option, Prompt, Rng, Roll, RollRequest,
    Seat, TurnOrder, Violation, step,
)

from .naming import Naming
from . import position
from .actions import (
    Abandon, Arm, Attack, Burgle, Challenge, Change, Choose, Decline, Escape, Give, MoveTo, Play, Split, Surrender,
)
from .attack import Attacks, anyone_to_attack
from .board import Board
from .burglary import TOOL_KINDS, Burglaries
from .cards import RAVEN_CARDS, TOWER_CARDS, burglary_target
from .endgame import Endgame, can_escape
from .listing import Listing
from .movement import MOVING, UNACCREDITED, Movement, moves
from .places import BOARD, QUEENS_HOUSE
from .prisons import RACK_CARDS, Prisons, prison_cards
from .raven import RavenCards
from .refusals import Refusals
from .sections import (
    R_ACCR, R_ATTACK, R_CONTENTS, R_DICE, R_END, R_GENERAL, R_PRISON, R_RACK, R_RAVEN, R_SETUP, R_STEAL, R_SURRENDER,
    R_TOWER, R_WALL,
)
from .squares import HAND_START, TASKS, Squares
from .state import CASE, OutrageState
from .surrender import Surrendering
from .tower_cards import TowerCards, start_plays
from .views import Views

__all__ = ["FACTIONS", "GAME", "HAND_START", "MOVING", "Outrage", "UNACCREDITED", "moves"]

FACTIONS = ("red", "blue", "green", "yellow", "white", "black")
LOG_KEEP = 120
"""Log lines kept in the state (the journal keeps every action)."""
BOX_PLAYERS = 4
"""Players the box equips (GAME CONTENTS): "4 flagged playing pieces and 4 unflagged playing
pieces ; 4 coins" (each player starts on an unflagged piece and changes to a flagged one,
ACCREDITATION; "One coin for each player is placed in the Mint", BEFORE PLAY BEGINS)."""
RUNAWAY = 200
"""The most tasks one action may set going: more is a board whose instructions loop."""


def _start_facts(state: OutrageState) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """What the start step's prompt is made of: the seat, the kinds also allowed and the
    private ones (a Tower card that may begin the turn, in the seat's hand)."""
    seat = state.actor
    also: tuple[str, ...] = ()
    if state.hands[seat].cards and state.decks["tower"].cards:
        also += ("change",)  # "you may change any or all your Tower Cards instead of taking a turn" (THE CARDS)
    if state.accredited[seat] and anyone_to_attack(state, seat):
        also += ("attack",)  # "They announce their intention to attack at the beginning of a turn" (ATTACK)
    if can_escape(state, seat):
        also += ("escape",)  # "You escape when you have paid the Ferryman and left the Cradle Tower" (THE ENDGAME)
    private = ("play",) if state.cards_of(seat, *start_plays(state, seat)) else ()
    return seat, also, private


class Outrage(Movement, Squares, RavenCards, Prisons, Burglaries, Attacks, Surrendering, TowerCards, Endgame,
              Listing, Views, Refusals, Naming, Game[OutrageState]):
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
        # A game saved before this option existed was set up without the box's limit.
        Option("own_pieces", False, (), "We bring our own pieces and coins for a 5th and 6th player.", "S-04",
               saved_without=True),
        Option("birthday_today", False, (),
               "The device's date is 21 April (the app sets it): the Queen's Birthday gives two cards each.", "R-05"),
    )
    action_types = (Roll, Draw, MoveTo, Split, Choose, Play, Decline, Change, Burgle, Abandon, Attack, Arm,
                    Surrender, Challenge, Escape, Give)

    # ---------------------------------------------------------------- setup

    def check_setup(self, seats: list[Seat], options: dict[str, Any]) -> Iterable[Violation]:
        factions = [s.faction for s in seats]
        if len(seats) > BOX_PLAYERS and not options["own_pieces"]:
            # The sentence names no count: the wizard shows it once for every count it refuses.
            yield Violation("box-pieces", R_CONTENTS,
                            f"The box holds pieces and coins for {BOX_PLAYERS} players (4 flagged and 4 unflagged "
                            "pieces, 4 coins). A 5th or 6th player needs the table's own pieces and a coin each: "
                            "turn on \"We bring our own pieces and coins for a 5th and 6th player\".")
        if not options["teams"] and len(set(factions)) != len(factions):
            yield Violation("shared-colour", R_SETUP, "Without teams every player needs a colour of their own.")
        if options["teams"] and len(set(factions)) < 2:
            yield Violation("one-team", R_SETUP, "Teams need at least two colours.")

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng, seed: int) -> OutrageState:
        """BEFORE PLAY BEGINS: "Both sets of cards must first be shuffled ... One coin for
        each player is placed in the Mint, the Yeoman Warders are sent to their posts and
        the Crown Jewels are set out where indicated. All players are dealt three Tower
        Cards. The player throwing the highest number starts.\""""
        tower = Deck("tower", cards=list(TOWER_CARDS), auto_reshuffle=False)
        tower.shuffle(rng)
        raven = Deck("raven", cards=list(RAVEN_CARDS), auto_reshuffle=False)
        raven.shuffle(rng)
        ids = [s.id for s in seats]
        state = OutrageState(
            seats=seats, options=options, seed=seed, rng=rng, order=TurnOrder(ids),
            pos={s: BOARD.places["start"] for s in ids}, accredited={s: False for s in ids},
            coins={s: False for s in ids}, mint=len(ids), jewels={j: CASE for j in BOARD.jewels},
            escaped={s: [] for s in ids}, warders={p: True for p in BOARD.posts},
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
                   "searched": rng.choice(("jewels-only", "always")), "birthday_today": rng.below(4) == 0,
                   "own_pieces": n > 4}  # the box equips four (RULINGS S-04)
        return seats, options

    def board(self, state: OutrageState | None = None) -> Board:
        return BOARD

    def name(self, state: OutrageState, seat: str) -> str:
        return state.seat_name(seat)

    # ------------------------------------------------------------ the steps

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

    @step("again", rule=R_DICE, depends=("actor",))
    def ask_again(self, state: OutrageState) -> Prompt:
        return Prompt.single(state.actor, RollRequest.of(2, 6, "throw again after a double"))

    @step("move", rule=R_GENERAL, derive="reachable")
    def ask_move(self, state: OutrageState) -> Prompt:
        opts = self.derived(state)
        kinds: tuple[str, ...] = ("move",) if opts else ()
        if all(needs for _route, needs in opts.values()):
            # Nowhere to go, or only past a warder (a Disguise, if held): staying is allowed (RULINGS M-08).
            kinds += ("choose",)
        if state.steps == 7 and not state.split and state.mover == state.actor and not state.released \
                and self.movable_others(state, state.actor):
            # SPLITTING THE SEVEN: the thrower's own seven, once, not a prisoner's release throw.
            kinds += ("split",)
        return Prompt.single(state.actor, Decision(kinds, f"move {state.seat_name(state.mover)} {state.steps}"))

    @step("accredit", rule=R_ACCR)
    def ask_accredit(self, state: OutrageState) -> Prompt:
        seat = state.actor
        private = ("play",) if state.cards_of(seat, "tower-pass") else ()
        return Prompt.single(seat, RollRequest.of(2, 6, "be accredited (an odd number)", private=private))

    @step("prison", rule=R_PRISON)
    def ask_prison(self, state: OutrageState) -> Prompt:
        seat = state.actor
        private = ("play",) if state.cards_of(seat, *prison_cards(state.held[seat].place)) else ()
        return Prompt.single(seat, RollRequest.of(2, 6, "escape (a double)", private=private))

    @step("rack", rule=R_RACK)
    def ask_rack(self, state: OutrageState) -> Prompt:
        seat = state.actor
        private = ("play",) if state.cards_of(seat, *RACK_CARDS) else ()
        return Prompt.single(seat, Decision(("choose",), "suffer a turn on the Rack", private=private))

    @step("tea", rule=R_RAVEN)
    def ask_tea(self, state: OutrageState) -> Prompt:
        seat = state.actor
        private = ("play",) if state.cards_of(seat, "tower-pass") else ()
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
        private = ("burgle",) if state.cards_of(seat, *TOOL_KINDS) else ()
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

    @step("ferry", rule=R_END)
    def ask_ferry(self, state: OutrageState) -> Prompt:
        return Prompt.single(state.actor, Decision(("choose",), "go back into the Tower, or retire"))

    def choice_options(self, state: OutrageState) -> list[str]:
        """What a ``Choose`` may name now."""
        return {"move": ["stay"], "rack": ["wait"], "tea": ["stay"]}.get(state.phase, state.choices)

    # ------------------------------------------------------------ checks and effects

    def violations(self, state: OutrageState, action: Action, prompt: Prompt) -> Iterable[Violation]:
        # The rule checks of the action's class (a roll, a draw or a decline has none
        # beyond its kind being awaited).
        check = CHECKS.get(type(action))
        return () if check is None else check(self, state, action)

    def _v_choose(self, state: OutrageState, action: Choose) -> Iterator[Violation]:
        options = self.choice_options(state)
        if action.option not in options:
            yield Violation("not-a-choice", self._rule(state), f"{state.seat_name(action.seat)} must choose one of the choices, not {action.option!r} ({', '.join(options[:8])}{'…' if len(options) > 8 else ''}).")

    def execute(self, state: OutrageState, action: Action) -> None:
        state.fresh = False
        EFFECTS[type(action)](self, state, action)
        log = state.log
        over = len(log) - LOG_KEEP
        if over > 0:
            del log[:over]

    def _roll(self, state: OutrageState, roll: Roll) -> None:
        """Every throw is 2d6; what it does depends on the moment."""
        state.dice = list(roll.values)
        phase = state.phase
        if phase == "first":
            self._first_throw(state, roll)
        elif phase == "start" or phase == "again":
            self._throw(state, roll)
        elif phase == "accredit":
            self._accredit_roll(state, roll)
        elif phase == "prison":
            self._prison_roll(state, roll)
        elif phase == "burgle":
            self._burgle_roll(state, roll)
        else:
            raise AssertionError(f"a roll in phase {phase}")

    def _first_throw(self, state: OutrageState, roll: Roll) -> None:
        """"The player throwing the highest number starts" (ties throw again)."""
        state.first_throws[roll.seat] = sum(roll.values)
        if len(state.first_throws) < len(state.contenders):
            return
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

    def _throw(self, state: OutrageState, roll: Roll) -> None:
        """THE DICE: "Players throw both dice and move the total thrown. A Double entitles
        the player to a further throw, but three successive doubles in a single turn will
        send a player straight to the Bloody Tower without completing the turn.\""""
        seat = roll.seat
        who = state.seat_name(seat)
        a, b = roll.values
        double = a == b
        if double:
            state.doubles += 1
        elif state.phase == "start":
            state.doubles = 0
        state.note(f"{who} throws {a} and {b} ({a + b}){' — a double' if double else ''}. [{R_DICE}]")
        if double and state.doubles >= 3:
            state.note(f"Three successive doubles: {who} goes straight to the Bloody Tower without completing the turn. [{R_DICE}]")
            self.imprison(state, seat, "bloody")
            self.end_turn(state)
            return
        state.again = double
        self._start_move(state, seat, a + b)

    def _draw(self, state: OutrageState, action: Draw) -> None:
        if action.deck == "tower":
            self._take_tower_card(state, action)
        else:
            self._take_raven_card(state, action)

    def _choose(self, state: OutrageState, action: Choose) -> None:
        seat, option = action.seat, action.option
        what = state.choice_for
        state.choices = []
        if state.phase == "move":  # no move possible (RULINGS M-08)
            state.note(f"{state.seat_name(seat)} cannot move {state.seat_name(state.mover)} exactly {state.steps} and stays put. [{R_GENERAL}]")
            state.tasks = []
            self.proceed(state)
            return
        if state.phase == "rack":
            self._suffer(state, seat)
            return
        if state.phase == "tea":
            self._stay_for_tea(state, seat)
            return
        if state.phase == "ferry":
            if not self._ferry(state, seat, option):
                self.proceed(state)
            return
        if what == "rack-pay":
            self._confiscate(state, seat, option)
        elif what == "escape":
            if option == "escape":
                self._escape(state, seat)
                return
        elif what == "swap":
            if self._swap_with(state, seat, option):
                return
        else:
            self._raven_choice(state, seat, what, option)
        self.proceed(state)

    def _decline(self, state: OutrageState, action: Decline) -> None:
        seat = action.seat
        if state.phase == "offer":
            if state.choice_for == "rack":
                state.tasks.insert(0, ("rack-pay", seat, ""))
            elif state.choice_for == "curfew":
                self._curfew(state, seat, pass_played=False)
        elif state.phase == "challenge" and not self._no_challenge(state, seat):
            return  # the next player may challenge
        self.proceed(state)

    def _challenge_action(self, state: OutrageState, action: Challenge) -> None:
        self._challenge(state, action.seat)

    def _escape_action(self, state: OutrageState, action: Escape) -> None:
        self._escape(state, action.seat)

    # ------------------------------------------------------------ the turn

    def proceed(self, state: OutrageState) -> None:
        """Do the queued tasks until one needs a player's input; then go on with the turn."""
        state.phase = "busy"
        tasks = state.tasks  # the handlers add to it in place
        done = 0
        while tasks:
            kind, seat, arg = tasks.pop(0)
            if TASKS[kind](self, state, seat, arg):
                return  # it waits for a player (it has set the phase)
            done += 1
            if done >= RUNAWAY:
                raise AssertionError("runaway tasks: the board's instructions loop")
        if state.result is None:
            self.after_tasks(state)

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
                if cur not in state.held and not state.order.skips.get(cur) and state.in_play(cur):
                    state.again = False
                    state.actor = cur
                    state.mover = cur
                    state.phase = "again"
                    return
        self.end_turn(state)

    def end_turn(self, state: OutrageState) -> None:
        # (begin_turn, which always follows, clears the tasks, the squares visited and the doubles)
        state.end_now = False
        state.again = False
        state.split = []
        state.released = False
        state.raven = ""
        order = state.order
        if state.extra:
            state.extra = False
            cur = order.current
            if state.in_play(cur) and cur not in state.held:
                state.note(f"{state.seat_name(cur)} takes an extra turn.")
                self.begin_turn(state)
                return
        # The turn passes to the next player in the game who is not missing it.
        for _ in range(len(order.order) * 4 + 4):
            for s in order.advance():
                if state.in_play(s):
                    state.note(f"{state.seat_name(s)} misses a turn.")
            if state.in_play(order.current):
                break
        self.begin_turn(state)

    def begin_turn(self, state: OutrageState) -> None:
        seat = state.order.current
        state.actor = seat
        state.mover = seat
        state.doubles = 0
        state.visited = []
        state.tasks = []
        if seat in state.sanctuary:
            # Sanctuary lasts until the player's next turn.
            state.sanctuary.remove(seat)
        if seat in state.held:
            state.phase = "rack" if state.held[seat].place == "rack" else "prison"
        elif seat in state.tea:
            state.phase = "tea"
        elif seat in state.burglaries:
            state.phase = "burgle"
        elif not state.accredited[seat] and state.pos[seat] == QUEENS_HOUSE:
            state.phase = "accredit"
        else:
            state.phase = "start"
        state.fresh = True


EFFECTS: dict[type, Callable[[Outrage, OutrageState, Any], None]] = {
    Draw: Outrage._draw, Roll: Outrage._roll, MoveTo: Outrage._move, Split: Outrage._split, Choose: Outrage._choose,
    Play: Outrage._play, Decline: Outrage._decline, Change: Outrage._change, Burgle: Outrage._burgle,
    Abandon: Outrage._abandon, Attack: Outrage._attack, Arm: Outrage._arm, Surrender: Outrage._surrender,
    Challenge: Outrage._challenge_action, Escape: Outrage._escape_action, Give: Outrage._give,
}
"""Each action class's effect."""

CHECKS: dict[type, Callable[[Outrage, OutrageState, Any], Iterable[Violation]]] = {
    MoveTo: Outrage._v_move, Split: Outrage._v_split, Choose: Outrage._v_choose, Play: Outrage._play_violations,
    Change: Outrage._change_violations, Burgle: Outrage._burgle_violations, Attack: Outrage._v_attack,
    Arm: Outrage._arm_violations, Surrender: Outrage._v_surrender, Give: Outrage._v_give,
}
"""Each action class's rule checks, for a kind the seat awaits."""


GAME = Outrage()

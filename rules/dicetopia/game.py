"""The Dicetopia engine (All or None Games): two to four players swap agents for dice on a
city of six neighbourhoods, perform each neighbourhood's action, keep secret missions and
score loot, domination and missions at the end.

>>> g = Dicetopia()
>>> s = g.new([Seat("a", "ewo", "Ann"), Seat("b", "hollows", "Bob")], {"first": "a"}, seed=3)
>>> s.phase, str(g.prompt(s))[:40]
('roll', 'a: roll 18d6 to setup: roll every die on')
>>> g.push(s, g.sample(s))                      # the app rolls the city
>>> [len([c for c in cells if c != "-"]) for cells in s.city.values()]
[3, 3, 3, 3, 3, 3]
>>> while s.phase == "deal":
...     g.push(s, g.sample(s))                  # three missions each, from the app's deck
>>> g.push(s, Keep("a", s.hands["a"].cards[0])); g.push(s, Keep("b", s.hands["b"].cards[2]))
>>> s.phase, s.current, len(s.hands["a"])
('deploy', 'a', 2)
>>> "cards" in g.view(s, "a")["missions"]["b"], "cards" in g.view(s, "a")["missions"]["a"]
(False, True)
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator

from rules.core import (
    POOL, Action, Decision, Deck, Die, Draw, DrawRequest, Game, Hand, Option, Outcome, Prompt, Reaction, Rng,
    Roll, RollRequest, Score, Seat, Violation, CommitRequest, step, swap_hidden,
)

from . import position as positions
from .actions import (
    Adapt, Block, Bottom, Choose, Clone, CopyMission, Decline, Deploy, Exterminate, Hypnotize, Intervene, Keep, Reroll,
    Rig, SaveTurn, Swap, Transcend,
)
from .scoring import DICE, Domination, Played, is_die, ranking, tally
from .state import AGENT, BOARD_SLOTS, DEAD, FACTION_CARDS, MISSIONS, UNUSED, DicetopiaState
from .tables import Tables, tables

R_SETUP = "§3 Setup"
R_ROUND = "§4 Game round"
R_ACTIONS = "§5 Neighbourhood Actions"
R_ADVANCED = "§5 Neighbourhood Actions: Advanced Variant"
R_END = "§6 End of the game"
R_TIMING = "§7 Timing conflicts and contradictory abilities"
R_MISSIONS = "§8 Mission cards"

COPYCAT = "copycat"
GAMBLING = "high-stakes"
SWAP_ACTIONS = ("agent-die", "die-die", "city-board", "board-board")


def r_ability(t: Tables, faction: str) -> str:
    f = t.factions[faction]
    return f"§7 Factions and Abilities: {f.name}, {f.ability}"


def _deploy_key(s: DicetopiaState) -> tuple[Any, ...]:
    """What the deploy prompt reads: the seat, Hypnosis, the abilities used (flipped
    tokens only ever turn face down, so within a game their count says which), and for
    the Roamers whether another player has an agent left (Last Resort)."""
    cur = s.current
    return (cur, s.hypnosis, sum(s.flipped.values()),
            s.faction.get(cur) == "roamers" and any(AGENT in b for x, b in s.boards.items() if x != cur))


class Dicetopia(Game[DicetopiaState]):
    """Dicetopia: 2-4 seats, each one of the ten factions (or dealt, with ``deal_factions``)."""

    id = "dicetopia"
    title = "Dicetopia"
    rulebook = "dicetopia.txt"
    min_seats = 2
    max_seats = 4
    factions = tuple(tables().factions)
    options = (
        Option("first", "", help="The first player's seat id, as the table determined it; empty: the app draws one (§3 step 1).",
               ruling="D-02"),
        Option("deal_factions", False, help="Deal the faction cards (a draw each, the physical card can be entered) "
               "instead of playing the factions the seats chose.", ruling="D-03"),
        Option("advanced", False, help="Advanced Variant: Observatory Bank's swap needs a die matching in colour or number.",
               ruling="D-05"),
        Option("relative_ties", "all", ("all", "none"), help="Relative missions (most, highest, lowest) when tied: "
               "every tied player scores, or nobody does.", ruling="D-21"),
    )
    action_types = (Roll, Draw, Keep, Deploy, Bottom, Reroll, Swap, Transcend, Hypnotize, SaveTurn, Exterminate,
                    Intervene, Block, Adapt, Clone, Rig, Choose, CopyMission, Decline)
    turn_rule = R_ROUND
    dice_rule = "§1 Components: 30 x D6"
    cards_rule = "§1 Components: 40 Mission Cards"

    # ------------------------------------------------------------------ setup

    def check_setup(self, seats: list[Seat], options: dict[str, Any]) -> Iterator[Violation]:
        t = tables()
        ids = [s.id for s in seats]
        if options["first"] and options["first"] not in ids:
            yield Violation("bad-option", R_SETUP, f"The first player must be one of the seats ({', '.join(ids)}), not {options['first']!r}.")
        hoods = {h.id for h in t.hoods}
        for s in seats:
            if s.id in hoods:
                yield Violation("reserved-seat-id", R_SETUP, f"A seat may not be named like a neighbourhood ({s.id!r}).")
        if not options["deal_factions"]:
            chosen = [s.faction for s in seats]
            for f in sorted({f for f in chosen if chosen.count(f) > 1}):
                yield Violation("faction-taken", R_SETUP, f"Each player has their own faction: {t.factions[f].name} is chosen twice.")

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng, seed: int) -> DicetopiaState:
        t = tables()
        ids = [s.id for s in seats]
        first = options["first"] or ids[rng.below(len(ids))]
        k = ids.index(first)
        order = ids[k:] + ids[:k]
        n = len(ids)
        deck = Deck(MISSIONS, cards=list(t.missions), auto_reshuffle=False)
        deck.shuffle(rng)
        dealt = options["deal_factions"]
        fdeck = Deck(FACTION_CARDS, cards=list(t.factions) if dealt else [], auto_reshuffle=False)
        fdeck.shuffle(rng)
        state = DicetopiaState(
            seats=seats, options=options, seed=seed, rng=rng, order=order,
            faction={s.id: "" if dealt else s.faction for s in seats},
            city={h.id: [UNUSED] * len(h.spaces) for h in t.hoods},
            boards={s: [AGENT] * BOARD_SLOTS for s in ids}, deck=deck, hands={s: Hand(s) for s in ids},
            faction_deck=fdeck, flipped={s: False for s in ids},
        )
        state.phase = "deal-factions" if dealt else "roll"
        state.note(f"{state.seat_name(first)} is the first player; {n} players use {sum(t.space_counts(n))} spaces of the city "
                   f"and {3 * t.dice_per_colour(n)} dice. No Scenario card: the rulebook does not give their texts (RULINGS.md D-04).")
        return state

    def random_setup(self, rng: Rng) -> tuple[list[Seat], dict[str, Any]]:
        n = 2 + rng.below(3)
        factions = list(self.factions)
        rng.shuffle(factions)
        seats = [Seat(f"p{i + 1}", factions[i], f"Player {i + 1}") for i in range(n)]
        options = {"advanced": rng.below(3) == 0, "deal_factions": rng.below(4) == 0,
                   "relative_ties": rng.choice(("all", "none"))}
        return seats, options

    def default_seats(self) -> list[Seat]:
        return [Seat("p1", "banxa", "Player 1"), Seat("p2", "hollows", "Player 2")]

    def deck(self, state: DicetopiaState, name: str) -> Deck:
        return state.faction_deck if name == FACTION_CARDS else state.deck

    def position(self, state: DicetopiaState) -> dict[str, Any]:
        return positions.write(self, state)

    def from_position(self, seats: list[Seat], options: dict[str, Any], pos: dict[str, Any], rng: Rng, seed: int) -> DicetopiaState:
        return positions.read(self, seats, options, pos, rng, seed)

    # ----------------------------------------------------------------- helpers

    @staticmethod
    def city_spaces(state: DicetopiaState) -> list[tuple[str, int]]:
        """The used spaces in board order: where the setup roll's dice go, one by one."""
        n = len(state.order)
        return [(h.id, i) for h in state.t.hoods for i in h.used(n)]

    def name(self, state: DicetopiaState, seat: str) -> str:
        return state.seat_name(seat)

    def ability(self, state: DicetopiaState, faction: str) -> str:
        return r_ability(state.t, faction)

    def hood_action(self, state: DicetopiaState, hood: str) -> str:
        return state.t.hood(hood).action

    def _places(self, state: DicetopiaState) -> Iterator[tuple[str, int, str]]:
        for h, cells in state.city.items():
            for i, c in enumerate(cells):
                yield h, i, c
        for s in state.order:
            for i, c in enumerate(state.boards[s]):
                yield s, i, c

    def _dice(self, state: DicetopiaState) -> list[tuple[str, int]]:
        return [(w, i) for w, i, c in self._places(state) if is_die(c)]

    def _right_of(self, state: DicetopiaState, seat: str) -> str:
        """The opponent to the right: the previous player in clockwise play order (D-13)."""
        k = state.order.index(seat)
        return state.order[k - 1]

    def _swap_ok(self, state: DicetopiaState, kind: str, a: str, ai: int, b: str, bi: int) -> str | None:
        """Why a swap of kind ``kind`` between the two places is not allowed (None: it is)."""
        ca, cb = state.cell(a, ai), state.cell(b, bi)
        if ca is None or cb is None:
            return "no such place"
        ah, bh = a in state.city, b in state.city
        if kind == "agent-die":
            if not (ah and bh):
                return "both places must be neighbourhoods"
            if a == b:
                return "the agent and the die must be in different neighbourhoods"
            if not ((ca.startswith(AGENT) and is_die(cb)) or (cb.startswith(AGENT) and is_die(ca))):
                return "swap an agent with a die"
            return None
        if not (is_die(ca) and is_die(cb)):
            return "both places must hold a die"
        if kind == "die-die":
            if not (ah and bh):
                return "both dice must be in neighbourhoods"
            return "the dice must be in different neighbourhoods" if a == b else None
        if kind == "city-board":
            if ah == bh:
                return "swap a die in a neighbourhood with a die on a faction board"
            if state.options["advanced"] and ca[0] != cb[0] and ca[1] != cb[1]:
                return "in the Advanced Variant the dice must match in colour or number"
            return None
        if ah or bh:
            return "both dice must be on faction boards"
        return "the dice must be on two different faction boards" if a == b else None

    def _possible(self, state: DicetopiaState, hood: str) -> bool:
        """Whether neighbourhood ``hood``'s action can be performed now (§4: "if possible")."""
        act = self.hood_action(state, hood)
        if act == "agency":
            return bool(state.deck.cards)
        if act == "reroll":
            return True  # a die is always somewhere: the one just taken
        if act == "city-board" and state.options["advanced"]:
            return next(self._swap_candidates(state, act), None) is not None
        # Counted, not listed: this is asked on every action. A place holds a die when its
        # cells are not disjoint from DICE (one C-level set test per place).
        disjoint = DICE.isdisjoint
        if act in ("agent-die", "die-die", "city-board"):
            dice_hoods = [h for h, cells in state.city.items() if not disjoint(cells)]
            if act == "die-die":
                return len(dice_hoods) >= 2
            if act == "city-board":
                return bool(dice_hoods) and not all(disjoint(b) for b in state.boards.values())
            agent_hoods = [h for h, cells in state.city.items() if any(c[:1] == AGENT for c in cells)]
            return any(a != b for a in agent_hoods for b in dice_hoods)
        return sum(1 for b in state.boards.values() if not disjoint(b)) >= 2

    def _swap_candidates(self, state: DicetopiaState, kind: str) -> Iterator[tuple[str, int, str, int]]:
        """The swaps of action ``kind`` possible now, each pair once (either order is legal)."""
        city = [(h, i, c) for h, cells in state.city.items() for i, c in enumerate(cells)]
        if kind in ("agent-die", "die-die"):
            dice = [(h, i) for h, i, c in city if is_die(c)]
            firsts = [(h, i) for h, i, c in city if c.startswith(AGENT)] if kind == "agent-die" else dice
            for x, (a, ai) in enumerate(firsts):
                for b, bi in (dice if kind == "agent-die" else dice[x + 1:]):
                    if a != b:
                        yield a, ai, b, bi
            return
        board = [(s, i, c) for s in state.order for i, c in enumerate(state.boards[s]) if is_die(c)]
        if kind == "city-board":
            advanced = state.options["advanced"]
            for h, i, c in city:
                if is_die(c):
                    for s, j, d in board:
                        if not advanced or c[0] == d[0] or c[1] == d[1]:
                            yield h, i, s, j
            return
        for x, (a, ai, _) in enumerate(board):
            for b, bi, _ in board[x + 1:]:
                if a != b:
                    yield a, ai, b, bi

    # ------------------------------------------------------------------ prompt

    @step("deal-factions", timed=False, rule=R_SETUP)
    def ask_deal_factions(self, state: DicetopiaState) -> Prompt:
        seat = next(s for s in state.order if not state.faction[s])
        return Prompt.single(seat, DrawRequest(FACTION_CARDS, f"setup: deal {state.seat_name(seat)} a faction card"))

    @step("roll", timed=False, rule=R_SETUP)
    def ask_roll(self, state: DicetopiaState) -> Prompt:
        n = len(self.city_spaces(state))
        return Prompt.single(state.order[0], RollRequest((Die(6, POOL),) * n,
                             "setup: roll every die onto the city, space by space (each die's colour in ids)"))

    @step("deal", timed=False, rule=R_SETUP)
    def ask_deal(self, state: DicetopiaState) -> Prompt:
        seat = next(s for s in state.order if len(state.hands[s]) < 3)
        return Prompt.single(seat, DrawRequest(MISSIONS, f"setup: deal {state.seat_name(seat)} three missions"))

    @step("keep", timed=False, rule=R_SETUP)
    def ask_keep(self, state: DicetopiaState) -> Prompt:
        return Prompt({s: CommitRequest("keep", "keep two missions, discard one") for s in self._keepers(state) if s not in state.keeps})

    @step("deploy", rule=R_ROUND, depends=_deploy_key)
    def ask_deploy(self, state: DicetopiaState) -> Prompt:
        seat = state.current
        also = []
        if state.can_use(seat, "roamers") and not state.hypnosis and any(state.agents_left(s) for s in state.order if s != seat):
            also.append("save_turn")
        if state.can_use(seat, "shakra"):
            also.append("exterminate")
        if state.can_use(seat, "tuulu"):
            also.append("intervene")
        where = f" in {state.t.hood(state.hypnosis).name} (Hypnosis)" if state.hypnosis else ""
        waits: dict[str, Any] = {seat: Decision(("deploy",), f"{state.seat_name(seat)}: swap your leftmost agent with a die{where}", also=tuple(also))}
        percept = state.holder("perceptioneers")
        if percept is not None and percept != seat and not state.hypnosis:
            waits[percept] = Decision(("hypnotize",), f"{state.seat_name(percept)} may choose the neighbourhood for {state.seat_name(seat)}'s turn")
        return Prompt(waits) if len(waits) > 1 else Prompt.single(seat, waits[seat])

    @step("intervene", rule="§7 Factions and Abilities: Tuulu Priests, Intervention")
    def ask_intervene(self, state: DicetopiaState) -> Prompt:
        where, index = state.rerolls[0]
        return Prompt.single(state.current, RollRequest((Die(6, self._owner(state, where)),),
                                                        f"Intervention: reroll the die on {state.where_name(where)}"))

    @step("agency-draw", rule=f"{R_ACTIONS}: The Agency", depends=lambda s: (s.current, sum(s.flipped.values())))
    def ask_agency_draw(self, state: DicetopiaState) -> Prompt:
        also = ("transcend",) if state.can_use(state.current, "ewo") else ()
        return Prompt.single(state.current, DrawRequest(MISSIONS, "The Agency: draw a mission", also=also))

    @step("agency-bottom", rule=f"{R_ACTIONS}: The Agency", depends=("current",))
    def ask_agency_bottom(self, state: DicetopiaState) -> Prompt:
        return Prompt.single(state.current, Decision(("bottom",), "The Agency: put one of your missions on the bottom of the deck"))

    @step("act", rule=R_ACTIONS)
    def ask_act(self, state: DicetopiaState) -> Prompt:
        seat = state.current
        ewo = ("transcend",) if state.can_use(seat, "ewo") else ()
        hood = state.t.hood(state.act_hood)
        if not self._possible(state, hood.id):
            return Prompt.single(seat, Decision(ewo, f"{hood.name}: the action is not possible", also=("decline",)))
        kind = "reroll" if hood.action == "reroll" else "swap"
        return Prompt.single(seat, Decision((kind,), f"{hood.name}: {hood.summary}", also=ewo))

    @step("reroll", rule=f"{R_ACTIONS}: The Gugu Airforce", depends=lambda s: (s.current, s.pending[1]))
    def ask_reroll(self, state: DicetopiaState) -> Prompt:
        where = state.pending[1]
        return Prompt.single(state.current, RollRequest((Die(6, self._owner(state, where)),),
                                                        f"The Gugu Airforce: reroll the die on {state.where_name(where)}"))

    @step("react", rule=R_TIMING)
    def ask_react(self, state: DicetopiaState) -> Prompt:
        r = state.reactions.peek()
        if r.window == "block":
            return Prompt.single(r.seat, Decision(("block", "decline"), f"{state.seat_name(r.seat)} may Block {state.seat_name(state.current)}'s {r.data[0]}"))
        return Prompt.single(r.seat, Decision(("adapt", "decline"), f"{state.seat_name(r.seat)} may Adapt a die by +1 or -1"))

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

    # --------------------------------------------------------------- checks

    def violations(self, state: DicetopiaState, action: Action, prompt: Prompt) -> Iterable[Violation]:
        # The rule checks of the action's class, found in one look-up (no isinstance chain).
        check = _CHECKS.get(type(action))
        return () if check is None else check(self, state, action)

    def _v_roll(self, state: DicetopiaState, action: Roll) -> Iterable[Violation]:
        return self._roll_violations(state, action) if state.phase == "roll" else ()

    def _v_keep(self, state: DicetopiaState, action: Keep) -> Iterable[Violation]:
        if action.discard in state.hands[action.seat]:
            return ()
        return (Violation("not-your-mission", R_SETUP, f"{state.seat_name(action.seat)}, discard one of the three missions you were dealt."),)

    def _v_deploy(self, state: DicetopiaState, action: Deploy) -> Iterable[Violation]:
        cells = state.city.get(action.hood)
        space = action.space
        cell = cells[space] if cells is not None and 0 <= space < len(cells) else None
        hypnosis = state.hypnosis
        if cell in DICE and (not hypnosis or action.hood == hypnosis):
            return ()  # the common case: a die, where Hypnosis allows
        t = state.t
        who = state.seat_name(action.seat)
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

    def _v_hypnotize(self, state: DicetopiaState, action: Hypnotize) -> Iterator[Violation]:
        t, who = state.t, state.seat_name(action.seat)
        if action.hood not in state.city:
            yield Violation("no-such-neighbourhood", r_ability(t, "perceptioneers"), f"{who}, choose one of the six neighbourhoods.")
        elif not any(is_die(c) for c in state.city[action.hood]):
            yield Violation("no-die-there", r_ability(t, "perceptioneers"), f"{t.hood(action.hood).name} has no die left to swap with.")

    def _v_exterminate(self, state: DicetopiaState, action: Exterminate) -> Iterator[Violation]:
        t, who = state.t, state.seat_name(action.seat)
        cell = state.cell(action.hood, action.space) if action.hood in state.city else None
        if cell is None or not is_die(cell):
            yield Violation("no-die-there", r_ability(t, "shakra"), f"{who}, Exterminate removes a die from a neighbourhood; there is none there.")
        elif action.hood == state.hypnosis and sum(1 for c in state.city[action.hood] if is_die(c)) == 1:
            yield Violation("last-hypnosis-die", r_ability(t, "shakra"),
                            f"{who}, that is the last die of {t.hood(action.hood).name}, where Hypnosis sends your agent.")

    def _v_intervene(self, state: DicetopiaState, action: Intervene) -> Iterator[Violation]:
        t, who = state.t, state.seat_name(action.seat)
        for w, i in ((action.a, action.a_index), (action.b, action.b_index)):
            c = state.cell(w, i)
            if c is None or not is_die(c):
                yield Violation("no-die-there", r_ability(t, "tuulu"), f"{who}, Intervention rerolls dice; there is no die at {w!r} {i}.")

    def _v_transcend(self, state: DicetopiaState, action: Transcend) -> Iterator[Violation]:
        t, who = state.t, state.seat_name(action.seat)
        if action.hood not in state.city:
            yield Violation("no-such-neighbourhood", r_ability(t, "ewo"), f"{who}, choose one of the six neighbourhoods' actions.")
        elif not self._possible(state, action.hood):
            yield Violation("not-possible", r_ability(t, "ewo"), f"{who}, {t.hood(action.hood).name}'s action is not possible now.")

    def _v_reroll(self, state: DicetopiaState, action: Reroll) -> Iterable[Violation]:
        if state.cell(action.where, action.index) in DICE:
            return ()
        return (Violation("no-die-there", f"{R_ACTIONS}: The Gugu Airforce", f"{state.seat_name(action.seat)}, reroll a die in a neighbourhood or on a faction board."),)

    def _v_swap(self, state: DicetopiaState, action: Swap) -> Iterable[Violation]:
        t = state.t
        hood = t.hood(state.act_hood)
        why = self._swap_ok(state, hood.action, action.a, action.a_index, action.b, action.b_index)
        if why is None:
            return ()
        rule = R_ADVANCED if "Advanced" in why else f"{R_ACTIONS}: {hood.name}"
        return (Violation("bad-swap", rule, f"{state.seat_name(action.seat)}, {hood.summary.lower()}: {why}."),)

    def _v_bottom(self, state: DicetopiaState, action: Bottom) -> Iterable[Violation]:
        if action.card in state.hands[action.seat]:
            return ()
        return (Violation("not-your-mission", f"{R_ACTIONS}: The Agency", f"{state.seat_name(action.seat)}, put one of your own missions on the bottom of the deck."),)

    def _v_adapt(self, state: DicetopiaState, action: Adapt) -> Iterator[Violation]:
        t, who = state.t, state.seat_name(action.seat)
        c = state.cell(action.seat, action.index)
        if c is None or not is_die(c):
            yield Violation("no-die-there", r_ability(t, "hollows"), f"{who}, Adaptation changes one of the dice on your faction board.")
        elif action.delta not in (1, -1) or not 1 <= int(c[1]) + action.delta <= 6:
            yield Violation("bad-adaptation", r_ability(t, "hollows"), f"{who}, change the die by +1 or -1, keeping it from 1 to 6.")

    def _v_clone(self, state: DicetopiaState, action: Clone) -> Iterator[Violation]:
        t, who = state.t, state.seat_name(action.seat)
        mine, theirs = state.cell(action.seat, action.index), state.cell(self._right_of(state, action.seat), action.theirs)
        if mine is None or not is_die(mine) or theirs is None or not is_die(theirs):
            yield Violation("no-die-there", r_ability(t, "dangmer"), f"{who}, copy onto one of your dice from a die of the opponent to your right.")
        if action.what not in ("value", "colour"):
            yield Violation("bad-clone", r_ability(t, "dangmer"), f"{who}, Cloning copies a die's value or its colour.")

    def _v_rig(self, state: DicetopiaState, action: Rig) -> Iterator[Violation]:
        t, who = state.t, state.seat_name(action.seat)
        dom = Domination.of(t, state.city, state.order, {})
        hold = dom.get(action.hood)
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

    def _roll_violations(self, state: DicetopiaState, action: Roll) -> Iterator[Violation]:
        t = state.t
        letters = {c.id for c in t.colours}
        who = state.seat_name(action.seat)
        if len(action.ids) != len(action.values) or any(i not in letters for i in action.ids):
            yield Violation("colours-missing", R_SETUP, f"{who}, give each die's colour (purple, teal or white), space by space.")
            return
        want = t.dice_per_colour(len(state.order))
        for c in t.colours:
            n = action.ids.count(c.id)
            if n != want:
                yield Violation("wrong-colour-count", R_SETUP, f"{who}, with {len(state.order)} players the city holds {want} {c.id} dice, not {n}.")

    def explain(self, state: DicetopiaState, action: Action, prompt: Prompt) -> Iterator[Violation]:
        t = state.t
        who = state.seat_name(action.seat) if action.seat in state._seat_ids else "That seat"
        needs = {SaveTurn: "roamers", Exterminate: "shakra", Intervene: "tuulu", Transcend: "ewo", Hypnotize: "perceptioneers",
                 Block: "banxa", Adapt: "hollows", Clone: "dangmer", Rig: "bingmai", Choose: "centauri"}
        f = needs.get(type(action))
        if f is not None and action.seat in state._seat_ids:
            if state.faction.get(action.seat) != f:
                yield Violation("not-your-ability", r_ability(t, f), f"{who} does not play {t.factions[f].name}.")
            elif state.flipped.get(action.seat) and t.factions[f].once:
                yield Violation("ability-used", r_ability(t, f), f"{who} has already used {t.factions[f].ability} (once per game).")
            elif isinstance(action, SaveTurn) and state.hypnosis and state.current == action.seat:
                yield Violation("ability-cancels-ability", R_TIMING,
                                f"{who} cannot skip a turn Hypnosis has chosen: a Faction Ability can never cancel another (RULINGS.md D-32).")

    # -------------------------------------------------------------- execute

    def execute(self, state: DicetopiaState, action: Action) -> None:
        # The action's class finds its effect in one look-up (no isinstance chain).
        _EFFECTS[type(action)](self, state, action)

    def _keep(self, state: DicetopiaState, action: Keep) -> None:
        state.keeps[action.seat] = action.discard
        state.note(f"{state.seat_name(action.seat)} has kept two missions.", action.seat)
        if all(s in state.keeps for s in self._keepers(state)):
            for s, card in state.keeps.items():
                state.hands[s].remove(card)
                state.deck.cards.append(card)
            state.keeps = {}
            state.deck.shuffle(state.rng)
            state.note("The discarded missions are shuffled back into the deck.")
            self._start_turn(state, state.order[0])

    def _hypnotize(self, state: DicetopiaState, action: Hypnotize) -> None:
        state.flipped[action.seat] = True
        state.hypnosis = action.hood
        state.note(f"{state.seat_name(action.seat)} uses Hypnosis: {state.seat_name(state.current)} must deploy in {state.t.hood(action.hood).name}.", action.seat)

    def _save_turn(self, state: DicetopiaState, action: SaveTurn) -> None:
        state.flipped[action.seat] = True
        state.saved = action.seat
        state.note(f"{state.seat_name(action.seat)} uses Last Resort: this turn is saved for after the very last turn.", action.seat)
        self._end_turn(state)

    def _exterminate(self, state: DicetopiaState, action: Exterminate) -> None:
        state.flipped[action.seat] = True
        die = state.city[action.hood][action.space]
        state.city[action.hood][action.space] = DEAD
        state.removed.append(die)
        state.turn_moves += 1
        state.note(f"{state.seat_name(action.seat)} uses Exterminate: the {self._die_words(state, die)} in {state.t.hood(action.hood).name} leaves the game "
                   f"and its space is useless.", action.seat)

    def _intervene(self, state: DicetopiaState, action: Intervene) -> None:
        state.flipped[action.seat] = True
        state.rerolls = [[action.a, action.a_index], [action.b, action.b_index]]
        state.turn_moves += 1
        state.phase = "intervene"
        twice = (action.a, action.a_index) == (action.b, action.b_index)
        state.note(f"{state.seat_name(action.seat)} uses Intervention: " + ("one die rerolled twice." if twice else "two dice rerolled once each."), action.seat)

    def _transcend(self, state: DicetopiaState, action: Transcend) -> None:
        state.flipped[action.seat] = True
        state.act_hood = action.hood
        state.note(f"{state.seat_name(action.seat)} uses Transcendence: {state.t.hood(action.hood).name}'s action instead.", action.seat)
        self._begin_action(state)

    def _bottom(self, state: DicetopiaState, action: Bottom) -> None:
        state.hands[action.seat].remove(action.card)
        state.deck.put_bottom(action.card)
        state.note(f"{state.seat_name(action.seat)} puts a mission on the bottom of the deck.", action.seat)
        self._end_turn(state)

    def _reroll(self, state: DicetopiaState, action: Reroll) -> None:
        state.pending = ["reroll", action.where, action.index]
        state.note(f"{state.seat_name(action.seat)} rerolls the {self._die_words(state, state.cell(action.where, action.index) or '')} on {state.where_name(action.where)}.", action.seat)
        self._announce(state)

    def _swap(self, state: DicetopiaState, action: Swap) -> None:
        state.pending = ["swap", action.a, action.a_index, action.b, action.b_index]
        state.note(f"{state.seat_name(action.seat)} swaps {self._place_words(state, action.a, action.a_index)} with {self._place_words(state, action.b, action.b_index)}.", action.seat)
        self._announce(state)

    def _block(self, state: DicetopiaState, action: Block) -> None:
        state.flipped[action.seat] = True
        state.reactions.pop()
        state.note(f"{state.seat_name(action.seat)} uses Block: {state.seat_name(state.current)}'s {state.pending[0]} does not happen.", action.seat)
        state.pending = []
        state.reactions.drop(lambda r: r.window == "block")
        self._end_turn(state)

    def _adapt(self, state: DicetopiaState, action: Adapt) -> None:
        c = state.boards[action.seat][action.index]
        state.boards[action.seat][action.index] = c[0] + str(int(c[1]) + action.delta)
        state.reactions.pop()
        state.note(f"{state.seat_name(action.seat)} uses Adaptation: their {self._die_words(state, c)} becomes {int(c[1]) + action.delta}.", action.seat)
        self._after_reaction(state)

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

    def _draw(self, state: DicetopiaState, action: Draw) -> None:
        who = state.seat_name(action.seat)
        if action.deck == FACTION_CARDS:
            state.faction_deck.take(action.card)
            state.faction[action.seat] = action.card
            state.note(f"{who} is dealt {state.t.factions[action.card].name}.", action.seat)
            if all(state.faction.values()):
                state.phase = "roll"
            return
        state.deck.take(action.card)
        if state.phase == "gamble":
            state.gambled[action.seat] = action.card
            state.note(f"{who}'s High Stakes Gambling draws {state.t.mission(action.card).name} (scored twice).", action.seat)
            self._next_end_step(state)
            return
        state.hands[action.seat].add(action.card)
        state.note(f"{who} draws a mission.", action.seat)
        if state.phase == "deal":
            if all(len(state.hands[s]) >= 3 for s in state.order):
                state.phase = "keep"
                if not self._keepers(state):
                    self._start_turn(state, state.order[0])
        elif state.phase == "agency-draw":
            state.phase = "agency-bottom"

    def _roll(self, state: DicetopiaState, action: Roll) -> None:
        t = state.t
        if state.phase == "roll":
            for (hood, i), v, colour in zip(self.city_spaces(state), action.values, action.ids):
                state.city[hood][i] = t.letter(colour) + str(v)
            state.note(f"{state.seat_name(action.seat)} rolls the dice onto the city.", action.seat)
            state.phase = "deal"
            return
        if state.phase == "intervene":
            where, index = state.rerolls.pop(0)
            c = state.cell(where, index) or ""
            state.put(where, index, c[0] + str(action.values[0]))
            state.note(f"The {self._die_words(state, c)} on {state.where_name(where)} is rerolled: {action.values[0]}.", action.seat)
            if not state.rerolls:
                state.phase = "deploy"
            return
        _, where, index = state.pending
        c = state.cell(where, index) or ""
        state.put(where, index, c[0] + str(action.values[0]))
        state.note(f"The {self._die_words(state, c)} on {state.where_name(where)} is rerolled: {action.values[0]}.", action.seat)
        state.pending = []
        self._end_turn(state)

    def _deploy(self, state: DicetopiaState, action: Deploy) -> None:
        seat = action.seat
        slot = state.boards[seat].index(AGENT)
        die = state.city[action.hood][action.space]
        state.boards[seat][slot] = die
        state.city[action.hood][action.space] = AGENT + seat
        state.act_hood = action.hood
        state.turn_moves += 1
        state.note(f"{state.seat_name(seat)} swaps an agent with the {self._die_words(state, die)} in {state.t.hood(action.hood).name}.", seat)
        self._begin_action(state)

    def _begin_action(self, state: DicetopiaState) -> None:
        hood = state.t.hood(state.act_hood)
        possible = self._possible(state, hood.id)
        if not possible and not state.can_use(state.current, "ewo"):
            state.note(f"{hood.name}'s action is not possible: the turn ends (§4).")
            self._end_turn(state)
            return
        state.phase = "agency-draw" if hood.action == "agency" and possible else "act"

    def _announce(self, state: DicetopiaState) -> None:
        """A reroll or swap from an action is announced: Banxa may Block it first."""
        banxa = state.holder("banxa")
        state.phase = "react"
        if banxa is not None and banxa != state.current:
            state.reactions.push(Reaction(banxa, "block", (state.pending[0],)))
            return
        self._carry_out(state)

    def _carry_out(self, state: DicetopiaState) -> None:
        if state.pending[0] == "reroll":
            state.phase = "reroll"
            return
        _, a, ai, b, bi = state.pending
        ca, cb = state.cell(a, ai) or "", state.cell(b, bi) or ""
        state.put(a, ai, cb)
        state.put(b, bi, ca)
        state.pending = []
        hollows = state.seat_of("hollows")
        touched = {a, b, ca[1:] if ca.startswith(AGENT) else "", cb[1:] if cb.startswith(AGENT) else ""}
        if (hollows is not None and hollows != state.current and hollows in touched
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

    def _decline(self, state: DicetopiaState, action: Decline) -> None:
        who = state.seat_name(action.seat)
        if state.phase == "react":
            r = state.reactions.pop()
            state.note(f"{who} lets it happen." if r.window == "block" else f"{who} does not adapt.", action.seat)
            self._after_reaction(state)
        elif state.phase == "act":
            state.note(f"{state.t.hood(state.act_hood).name}'s action is not possible: the turn ends (§4).", action.seat)
            self._end_turn(state)
        elif state.phase == "clone":
            self._next_end_step(state, done="clone")
        elif state.phase == "rig":
            self._next_end_step(state, done="rig")

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

    # ----------------------------------------------------------- turn order

    def _start_turn(self, state: DicetopiaState, seat: str) -> None:
        state.current = seat
        state.turn += 1
        state.turn_moves = 0
        state.hypnosis = ""
        state.act_hood = ""
        state.phase = "deploy"

    def _end_turn(self, state: DicetopiaState) -> None:
        state.pending = []
        if state.reactions:
            state.reactions.drop(lambda r: True)
        k = state.order.index(state.current)
        n = len(state.order)
        for step_ in range(1, n + 1):
            seat = state.order[(k + step_) % n]
            if state.agents_left(seat):
                self._start_turn(state, seat)
                return
        state.current = ""
        state.note("Every player has six dice on their faction board: the game ends (§6).")
        self._next_end_step(state)

    def _keepers(self, state: DicetopiaState) -> list[str]:
        return [s for s in state.order if state.faction[s] != "centauri"]

    # ----------------------------------------------------------- end scoring

    def _next_end_step(self, state: DicetopiaState, done: str = "") -> None:
        """On to the next moment of end scoring (RULINGS.md D-30): Cloning, Rigging, the
        reveal, Opportunist, High Stakes Gambling, Copycat; then the tally."""
        if done:
            state.done.append(done)
        if "clone" not in state.done and state.holder("dangmer") is not None:
            state.phase = "clone"
            return
        if "rig" not in state.done and state.holder("bingmai") is not None and any(
                h.tied for h in Domination.of(state.t, state.city, state.order, {}).values()):
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
        t = state.t
        for s in state.order:
            state.note(f"{state.seat_name(s)} reveals {', '.join(t.mission(c).name for c in state.hands[s].cards) or 'no missions'}.", s)

    def used_missions(self, state: DicetopiaState, seat: str) -> list[str]:
        return [c for c in state.hands[seat].cards if c != state.unused.get(seat)]

    def _gambler(self, state: DicetopiaState) -> str | None:
        for s in state.order:
            if s not in state.gambled and any(state.t.mission(c).kind == GAMBLING for c in self.used_missions(state, s)):
                return s
        return None

    def played(self, state: DicetopiaState, seat: str) -> list[Played]:
        t = state.t
        out = []
        for card in self.used_missions(state, seat):
            kind = t.mission(card).kind
            if kind == GAMBLING:
                drawn = state.gambled.get(seat, "")
                factor = t.mission(card).params["factor"]
                if drawn and t.mission(drawn).kind == COPYCAT:
                    out.append(Played(card, state.copied.get(seat, ""), factor))
                else:
                    out.append(Played(card, drawn, factor))
            elif kind == COPYCAT:
                out.append(Played(card, state.copied.get(seat, "")))
            else:
                out.append(Played(card, card))
        return out

    def _copier(self, state: DicetopiaState) -> str | None:
        t = state.t
        for s in state.order:
            if s in state.copied:
                continue
            for card in self.used_missions(state, s):
                kind = t.mission(card).kind
                if kind == COPYCAT or (kind == GAMBLING and state.gambled.get(s) and t.mission(state.gambled[s]).kind == COPYCAT):
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
        lines, dom = tally(t, state.order, state.boards, state.city, played, state.rigged, state.options["relative_ties"])
        state.tally = lines
        ranked = ranking(state.order, lines, dom, state.boards)
        top = ranked[0][1]
        winners = tuple(s for s, k in ranked if k == top)
        names = " and ".join(state.seat_name(s) for s in winners)
        tied_total = [s for s, k in ranked if k[0] == top[0]]
        if len(tied_total) == 1:
            reason = f"{names} wins with {top[0]} ★"
        elif len(winners) == 1 and [s for s, k in ranked if k[:2] == top[:2]] == list(winners):
            reason = f"{names} wins the tie on {top[0]} ★ by dominating the most neighbourhoods ({top[1]})"
        elif len(winners) == 1:
            reason = f"{names} wins the tie on {top[0]} ★ and {top[1]} neighbourhoods with the highest total dice value ({top[2]})"
        else:
            reason = f"{names} share the win: {top[0]} ★, {top[1]} neighbourhoods and {top[2]} in dice each"
        scores = {s: Score(sum(ln.points for ln in lines[s]), {ln.label: ln.points for ln in lines[s]}) for s in state.order}
        for s in state.order:
            state.note(f"{state.seat_name(s)}: " + "; ".join(f"{ln.label} {ln.points}" for ln in lines[s]) + f" = {scores[s].total} ★", s)
        state.phase = "over"
        self.finish(state, Outcome(state.faction[winners[0]] if len(winners) == 1 else None, f"{reason} ({R_END})", scores, winners))

    # ----------------------------------------------------------- candidates

    def candidates(self, state: DicetopiaState, prompt: Prompt) -> Iterator[Action]:
        t = state.t
        phase = state.phase
        if phase == "keep":
            for s in prompt.seats():
                for c in state.hands[s].cards:
                    yield Keep(s, c)
            return
        seat = state.current
        if phase == "deploy":
            hoods = [state.hypnosis] if state.hypnosis else list(state.city)
            for h in hoods:
                for i, c in enumerate(state.city[h]):
                    if is_die(c):
                        yield Deploy(seat, h, i)
            p = state.holder("perceptioneers")
            if p is not None and p in prompt.waits:
                for h in state.city:
                    yield Hypnotize(p, h)
            also = prompt.waits[seat].accepted
            if "save_turn" in also:
                yield SaveTurn(seat)
            if "exterminate" in also:
                for h, cells in state.city.items():
                    for i, c in enumerate(cells):
                        if is_die(c):
                            yield Exterminate(seat, h, i)
            if "intervene" in also:
                dice = self._dice(state)
                for x, (a, ai) in enumerate(dice):
                    for b, bi in dice[x:]:
                        yield Intervene(seat, a, ai, b, bi)
        elif phase in ("act", "agency-draw"):
            if state.can_use(seat, "ewo"):
                for h in state.city:
                    if h != state.act_hood:
                        yield Transcend(seat, h)
            if phase == "act":
                act = self.hood_action(state, state.act_hood)
                if act == "reroll":
                    for w, i in self._dice(state):
                        yield Reroll(seat, w, i)
                elif act in SWAP_ACTIONS:
                    for a, ai, b, bi in self._swap_candidates(state, act):
                        yield Swap(seat, a, ai, b, bi)
                yield Decline(seat)
        elif phase == "agency-bottom":
            for c in state.hands[seat].cards:
                yield Bottom(seat, c)
        elif phase == "react":
            r = state.reactions.peek()
            yield Decline(r.seat)
            if r.window == "block":
                yield Block(r.seat)
            else:
                for i, c in enumerate(state.boards[r.seat]):
                    if is_die(c):
                        yield Adapt(r.seat, i, 1)
                        yield Adapt(r.seat, i, -1)
        elif phase == "clone":
            s = state.holder("dangmer")
            if s is not None:
                yield Decline(s)
                for i in range(BOARD_SLOTS):
                    for j in range(BOARD_SLOTS):
                        for what in ("value", "colour"):
                            yield Clone(s, i, j, what)
        elif phase == "rig":
            s = state.holder("bingmai")
            if s is not None:
                yield Decline(s)
                for h, hold in Domination.of(t, state.city, state.order, {}).items():
                    if hold.tied:
                        for w in hold.winners:
                            yield Rig(s, h, w)
        elif phase == "choose":
            s = state.seat_of("centauri")
            if s is not None:
                for c in state.hands[s].cards:
                    yield Choose(s, c)
        elif phase == "copy":
            s = self._copier(state)
            if s is not None:
                for c in self._copy_targets(state, s):
                    yield CopyMission(s, c)

    def chance_candidates(self, state: DicetopiaState, prompt: Prompt) -> Iterator[Action]:
        if state.phase == "roll":
            # 6^30 values times every arrangement of colours: listing is a sample (D-06).
            for k in range(4):
                yield self._city_roll(state, Rng(state.rng.state ^ (0x9E37 * (k + 1))))
            return
        yield from super().chance_candidates(state, prompt)

    def sample(self, state: DicetopiaState, seat: str | None = None) -> Action | None:
        if state.phase == "roll" and state.result is None and (seat is None or seat == state.order[0]):
            return self._city_roll(state, state.rng.fork(), source="app")
        return super().sample(state, seat)

    def _city_roll(self, state: DicetopiaState, rng: Rng, source: str = "touch") -> Roll:
        t = state.t
        per = t.dice_per_colour(len(state.order))
        colours = [c.id for c in t.colours for _ in range(per)]
        rng.shuffle(colours)
        values = tuple(rng.randint(1, 6) for _ in colours)
        return Roll(state.order[0], values, tuple(colours), source=source)

    # --------------------------------------------------------------- views

    @staticmethod
    def _owner(state: DicetopiaState, where: str) -> str:
        return POOL if where in state.city else where

    def _die_words(self, state: DicetopiaState, cell: str) -> str:
        if not is_die(cell):
            return "die"
        return f"{state.t.colour_of_letter(cell[0])} {cell[1]}"

    def _place_words(self, state: DicetopiaState, where: str, index: int) -> str:
        c = state.cell(where, index) or ""
        thing = f"{state.seat_name(c[1:])}'s agent" if c.startswith(AGENT) else f"the {self._die_words(state, c)}"
        return f"{thing} on {state.where_name(where)}"

    def public_score(self, state: DicetopiaState) -> dict[str, int]:
        """Loot and domination as they stand (both public): the live score."""
        dom = Domination.of(state.t, state.city, state.order, state.rigged)
        return {s: sum(int(c[1]) for c in state.boards[s] if is_die(c)) + sum(h.share for h in dom.values() if s in h.winners)
                for s in state.order}

    def render(self, state: DicetopiaState, viewer: str) -> dict[str, Any]:
        over = state.result is not None
        missions: dict[str, Any] = {}
        for s in state.order:
            entry: dict[str, Any] = {"count": len(state.hands[s])}
            if s == viewer or state.revealed or over:
                entry["cards"] = list(state.hands[s].cards)
            missions[s] = entry
        view: dict[str, Any] = {
            "phase": state.phase,
            "order": list(state.order),
            "current": state.current,
            "turn": state.turn,
            "factions": {s: {"faction": state.faction[s], "flipped": state.flipped[s]} for s in state.order},
            "city": {h: list(c) for h, c in state.city.items()},
            "boards": {s: list(b) for s, b in state.boards.items()},
            "removed": list(state.removed),
            "hypnosis": state.hypnosis,
            "act_hood": state.act_hood,
            "pending": list(state.pending),
            "rerolls": [list(r) for r in state.rerolls],
            "deck": len(state.deck.cards),
            "missions": missions,
            "kept": sorted(state.keeps),
            "saved": state.saved,
            "public_score": self.public_score(state) if state.phase not in ("deal-factions", "roll") else {},
            "end": {"rigged": dict(state.rigged), "cloned": list(state.cloned), "unused": dict(state.unused),
                    "gambled": dict(state.gambled), "copied": dict(state.copied)},
            "tally": {s: [[ln.what, ln.label, ln.points] for ln in lines] for s, lines in state.tally.items()},
        }
        if viewer in state.keeps:
            view["my_discard"] = state.keeps[viewer]
        return view

    def public_action(self, state: DicetopiaState, action: Action, viewer: str = "public", ply: int | None = None) -> dict[str, Any]:
        if isinstance(action, Draw) and action.deck == FACTION_CARDS:
            return action.to_data()  # faction cards are dealt face up
        return super().public_action(state, action, viewer, ply)

    def secrets(self, state: DicetopiaState, viewer: str) -> set[str]:
        """Mission ids and names ``viewer`` may not see: the deck, and before the reveal the
        other players' missions. Nothing once the game is over."""
        if state.result is not None:
            return set()
        t = state.t
        hidden = set(state.deck.cards)
        if not state.revealed:
            for s in state.order:
                if s != viewer:
                    hidden.update(state.hands[s].cards)
        shown = {c for s in state.order if s == viewer or state.revealed for c in state.hands[s].cards} | set(state.gambled.values())
        hidden -= shown
        return hidden | {t.mission(c).name for c in hidden}

    def hidden_variant(self, state: DicetopiaState, viewer: str, rng: Rng) -> DicetopiaState | None:
        """Swap two missions among those ``viewer`` cannot see: the deck's, and before the
        reveal the other players' (a sealed keep follows its card's place in the hand)."""
        if state.result is not None:
            return None
        twin = self.copy(state)
        twin.changed()
        others = [] if twin.revealed else [s for s in twin.order if s != viewer]
        at = {s: twin.hands[s].cards.index(c) for s, c in twin.keeps.items() if s in others}
        if not swap_hidden([twin.deck.cards] + [twin.hands[s].cards for s in others], rng):
            return None
        for s, i in at.items():
            twin.keeps[s] = twin.hands[s].cards[i]
        return twin

    def tracked(self, state: DicetopiaState) -> dict[str, int]:
        return {f"score:{s}": v for s, v in self.public_score(state).items()} | {"deck": len(state.deck.cards), "turn": state.turn}

    def undo_barrier(self, state: DicetopiaState, action: Action) -> str | None:
        if isinstance(action, (Block, Rig, Clone, Choose, CopyMission)):
            return "an ability or a mission choice was announced at the end"
        return super().undo_barrier(state, action)

    def problems(self, state: DicetopiaState) -> Iterator[str]:
        t = state.t
        n = len(state.order)
        used = tuple(sum(1 for c in cells if c != UNUSED) for cells in state.city.values())
        if state.phase not in ("deal-factions", "roll") and used != t.space_counts(n):
            yield f"spaces used {used}, not {t.space_counts(n)}"
        for s in state.order:
            agents = state.boards[s].count(AGENT) + sum(cells.count(AGENT + s) for cells in state.city.values())
            if agents != BOARD_SLOTS:
                yield f"{s} has {agents} agents in play, not 6"
        if state.phase not in ("deal-factions", "roll"):
            dice = state.dice_on_city() + [c for b in state.boards.values() for c in b if is_die(c)] + state.removed
            per = t.dice_per_colour(n)
            for c in t.colours:
                k = sum(1 for d in dice if d[0] == c.letter)
                cloned_colour = state.cloned[1:2] == ["colour"]
                if k != per and not cloned_colour:
                    yield f"{k} {c.id} dice in play, not {per}"
            if len(dice) != 3 * per:
                yield f"{len(dice)} dice in play, not {3 * per}"
        cards = state.deck.cards + [c for h in state.hands.values() for c in h.cards] + [c for c in state.gambled.values() if c]
        if sorted(cards) != sorted(t.missions):
            yield f"missions not conserved ({len(cards)})"
        if len(state.removed) > 1:
            yield "more than one die exterminated"


# Each action class's rule checks and effect, looked up by class in one step.
_CHECKS = {
    Roll: Dicetopia._v_roll, Keep: Dicetopia._v_keep, Deploy: Dicetopia._v_deploy, Hypnotize: Dicetopia._v_hypnotize,
    Exterminate: Dicetopia._v_exterminate, Intervene: Dicetopia._v_intervene, Transcend: Dicetopia._v_transcend,
    Reroll: Dicetopia._v_reroll, Swap: Dicetopia._v_swap, Bottom: Dicetopia._v_bottom, Adapt: Dicetopia._v_adapt,
    Clone: Dicetopia._v_clone, Rig: Dicetopia._v_rig, Choose: Dicetopia._v_choose, CopyMission: Dicetopia._v_copy,
}
_EFFECTS = {
    Draw: Dicetopia._draw, Roll: Dicetopia._roll, Keep: Dicetopia._keep, Deploy: Dicetopia._deploy,
    Hypnotize: Dicetopia._hypnotize, SaveTurn: Dicetopia._save_turn, Exterminate: Dicetopia._exterminate,
    Intervene: Dicetopia._intervene, Transcend: Dicetopia._transcend, Bottom: Dicetopia._bottom,
    Reroll: Dicetopia._reroll, Swap: Dicetopia._swap, Block: Dicetopia._block, Adapt: Dicetopia._adapt,
    Decline: Dicetopia._decline, Clone: Dicetopia._clone, Rig: Dicetopia._rig, Choose: Dicetopia._choose,
    CopyMission: Dicetopia._copy,
}


GAME = Dicetopia()

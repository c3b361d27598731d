"""The Tyranny engine: the kernel contract (``ask``, ``violations``, ``execute``…) for the
rulebook in ``rules/tyranny`` (sections cited as the rulebook's headings).

>>> from rules.core import Roll
>>> state = GAME.new([("cop-1", "cops"), ("crim-1", "criminals")], seed=3)
>>> GAME.prompt(state).awaiting.purpose, state.influence.value
('move', 500)
>>> GAME.push(state, Roll("cop-1", (2,)))
>>> sorted(reachable(state, "cop-1", 2))
['o-gamble-1']
>>> GAME.push(state, MoveTo("cop-1", "o-gamble-1")); GAME.prompt(state).awaiting.deck
'gamble'
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator

from rules.core import (
    Action, Decision, Deck, Draw, DrawRequest, Game, Hand, Option, Outcome, Prompt, Reaction, Rng,
    Roll, RollRequest, Score, Seat, Streak, Term, Text, Track, TurnOrder, Violation, step, swap_hidden, t, tn,
)

from . import effects, offers, position
from .naming import Naming
from .actions import (
    Arrest, Capture, ChooseRange, CollapseTunnel, CrossTier, Decline, MoveTo, OpenTunnel, PayEscape,
    PickCard, PlayCard,
)
from .board import Board, board_for
from .cards import ALL_CARDS, CARDS, DECK_NAMES, DECK_WORDS, DECKS, card_words
from .rulebook import (
    COPS, CRIMINALS, ESCAPE_COST, FACTION_WORDS, R_CAPTURE, R_CARDS, R_ESCAPE, R_MOVE, R_PLAYER, R_SETUP, R_TIERS, R_TUNNEL,
    START_INFLUENCE, WIN_INFLUENCE,
)
from .state import STREAK, TyrannyState

# The state keeps the last LOG_KEEP log lines: the journal (seed + actions) is the full
# history, and a bounded log keeps copies, saves and views of a long game cheap.
LOG_KEEP = 100



class Tyranny(Naming, Game[TyrannyState]):
    """Cops against criminals over a two-tier city; influence decides it."""

    id = "tyranny"
    title = "Tyranny"
    rulebook = "Tyranny rulebook (Concept, Contents, Setup, Cards, Gameplay, Winning)"
    min_seats = 2
    max_seats = 4
    factions = (COPS, CRIMINALS)
    turn_rule = "Setup 4 (turn order)"
    dice_rule = "Contents: 1 six-sided dice"
    cards_rule = R_CARDS
    options = (
        Option("streak_turn", "round", ("round", "seat-turn"), "What a 'turn' is for the 3-turn win streaks.", "W-01"),
        Option("move", "exact", ("exact", "up-to"), "Move exactly the roll, or any number of tiles up to it.", "M-01"),
        Option("cop_collapse", "criminals-gain", ("criminals-gain", "free"), "What a cop's tunnel collapse costs.", "T-03"),
        Option("cop_escape_pay", "criminals-gain", ("criminals-gain", "roll-only"), "How a captured cop pays 200.", "E-02"),
        Option("board", {}, (), "A table's own board (board-file data); {} = the shipped default.", "B-01"),
        Option("switch_tier", "facing", ("facing", "home"), "Where Gamble 7 puts you on the other tier: the facing tile, or your home base.", "C-09"),
        Option("react_windows", "always", ("always", "when-held"), "After a cop's arrest, ask both seats whether they play Gamble 3 every time (nobody learns who holds it), or only when one holds it (faster, but the table sees it).", "P-03"),
        Option("neutralise", "enemy", ("enemy", "any"), "Which property Gains 4 neutralises: the closest enemy-owned, or the closest owned by anyone.", "C-14"),
    )
    action_types = (
        Roll, Draw, MoveTo, Capture, PlayCard, OpenTunnel, CollapseTunnel, PayEscape, ChooseRange, Arrest,
        CrossTier, PickCard, Decline,
    )

    # ---------------------------------------------------------------- setup

    def check_setup(self, seats: list[Seat], options: dict[str, Any]) -> Iterable[Violation]:
        n = len(seats)
        if n == 3:
            yield Violation(
                "three-seats", R_SETUP,
                t("Seats are pieces and the box has 2 cops and 2 criminals: for 3 players use 4 seats, one person playing two pieces (RULINGS S-02)."),
            )
            return
        cops = sum(1 for s in seats if s.faction == COPS)
        if cops != n - cops:
            yield Violation("unbalanced", R_SETUP, t("Each faction needs the same number of pieces (1 each, or 2 each)."))
        elif any(seats[i].faction == seats[(i + 1) % n].faction for i in range(n)):
            yield Violation("order-not-alternating", "Setup 4", t("The turn order must alternate between factions, e.g. cop 1, criminal 1, cop 2, criminal 2."))
        if options.get("board"):
            try:
                board_for(options["board"])
            except Exception as e:  # a BoardError, or a malformed file
                yield Violation("bad-board", "Setup", t("The board file cannot be used: {problem}", problem=str(e)))

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng, seed: int) -> TyrannyState:
        board = board_for(options["board"] or None)
        decks = {}
        for name, ids in DECKS.items():
            deck = Deck(name, cards=list(ids))
            deck.shuffle(rng)
            decks[name] = deck
        start = board.start
        state = TyrannyState(
            seats=seats, options=options, seed=seed, rng=rng,
            order=TurnOrder([s.id for s in seats]),
            pos={s.id: start[s.faction] for s in seats},
            custody={}, owner={},
            open_tunnels=sorted(t.id for t in board.tunnels.values() if t.open),
            influence=Track("influence", START_INFLUENCE, lo=0),
            criminal_streak=Streak(STREAK), cop_streak=Streak(STREAK),
            decks=decks, hands={s.id: Hand(s.id) for s in seats},
            board=board,
        )
        state.influence.mark(0)
        self._begin_turn(state)
        state.note(t("Criminals' influence starts at {value}. {seat} moves first.", value=START_INFLUENCE, seat=state.actor))
        return state

    def position(self, state: TyrannyState) -> dict[str, Any]:
        """The public position at a turn's start: see :mod:`rules.tyranny.position`."""
        return position.write(self, state)

    def from_position(self, seats: list[Seat], options: dict[str, Any], pos: dict[str, Any], rng: Rng, seed: int) -> TyrannyState:
        return position.read(self, seats, options, pos, rng, seed)

    def random_setup(self, rng: Rng) -> tuple[list[Seat], dict[str, Any]]:
        if rng.below(2):
            seats = [Seat("cop-1", COPS), Seat("crim-1", CRIMINALS), Seat("cop-2", COPS), Seat("crim-2", CRIMINALS)]
        else:
            seats = [Seat("crim-1", CRIMINALS), Seat("cop-1", COPS)]
        options = {
            "streak_turn": rng.choice(("round", "seat-turn")), "move": rng.choice(("exact", "exact", "up-to")),
            "switch_tier": rng.choice(("facing", "home")), "neutralise": rng.choice(("enemy", "any")),
            "react_windows": rng.choice(("always", "when-held")),
        }
        return seats, options

    # -------------------------------------------------------------- helpers

    def board(self, state: TyrannyState) -> Board:
        return state.board

    def seat_faction(self, state: TyrannyState, seat: str) -> str:
        return state._faction[seat]

    def enemies(self, state: TyrannyState, seat: str) -> list[str]:
        faction = state._faction[seat]
        return [s for s in state.order.order if state._faction[s] != faction]

    def arrestable(self, state: TyrannyState, seat: str, board: Board | None = None) -> bool:
        """Whether ``seat`` can be captured where it stands (free, and not on a safe tile)."""
        if seat in state.custody:
            return False
        b = board or state.board
        tile = state.pos[seat]
        return b.tiles[tile].kind != "safe" and tile not in b.homes[state._faction[seat]]

    def playable(self, state: TyrannyState, seat: str, kinds: frozenset[str]) -> list[str]:
        """The cards in ``seat``'s hand whose half for its faction may be played now (window ``kinds``)."""
        faction = state._faction[seat]
        return [c for c in state.hands[seat].cards if CARDS[c].half(faction).effect in kinds and effects.usable(self, state, seat, c)]

    # ------------------------------------------------------------ prompts

    @step("start", rule=R_MOVE)
    def ask_start(self, state: TyrannyState) -> Prompt:
        actor = state.actor
        also: tuple[str, ...] = ()
        if offers.why_not_capture(state, actor) is None:
            also += ("capture",)
        work = offers.tunnel_work(state, actor)
        if work and offers.why_not_dig(state, actor, work) is None:
            also += (work,)
        return Prompt.single(actor, RollRequest.of(1, 6, "move", also=also, private=self._plays(state, actor)))

    @step("custody", rule=R_ESCAPE)
    def ask_custody(self, state: TyrannyState) -> Prompt:
        actor = state.actor
        also = ("pay",) if offers.why_not_pay(state, actor) is None else ()
        return Prompt.single(actor, RollRequest.of(1, 6, "escape", also=also, private=self._plays(state, actor)))

    @step("capture", rule=R_CAPTURE)
    def ask_capture(self, state: TyrannyState) -> Prompt:
        return Prompt.single(state.actor, RollRequest.of(1, 6, "capture", private=self._plays(state, state.actor)))

    @step("move", rule=R_MOVE, depends=("actor",))
    def ask_move(self, state: TyrannyState) -> Prompt:
        return Prompt.single(state.actor, Decision(("move",), "choose the destination tile"))

    @step("passing", rule=R_PLAYER, depends=lambda s: (s.actor, s.queue[0]))
    def ask_passing(self, state: TyrannyState) -> Prompt:
        return Prompt.single(state.actor, Decision(("range", "decline"), f"passed {state.seat_name(state.queue[0])}: capture roll?"))

    @step("capture-roll", rule=R_PLAYER, depends=lambda s: (s.target, tuple(s.numbers)))
    def ask_capture_roll(self, state: TyrannyState) -> Prompt:
        n = state.numbers
        return Prompt.single(state.target, RollRequest.of(1, 6, f"capture roll: {n[0]}-{n[-1]} goes free"))

    @step("arrest", rule=R_PLAYER, depends=("actor",))
    def ask_arrest(self, state: TyrannyState) -> Prompt:
        return Prompt.single(state.actor, Decision(("arrest", "decline"), "capture the enemy on this tile?"))

    @step("react", rule=R_CARDS)
    def ask_react(self, state: TyrannyState) -> Prompt:
        # Every arrest by a cop opens both windows whatever the hands hold: whether a
        # window opens must not tell the table who holds Gamble 3 (RULINGS P-03).
        r = state.reactions.peek()
        what = "make the arrest inescapable" if r.window == "inescapable_arrest" else "escape at once"
        return Prompt.single(r.seat, Decision(("decline",), f"play a card to {what}?", private=self._plays(state, r.seat)))

    @step("draw", rule=R_CARDS, depends=("actor", "draw_deck"))
    def ask_draw(self, state: TyrannyState) -> Prompt:
        return Prompt.single(state.actor, DrawRequest(state.draw_deck, f"{state.draw_deck} tile", also=("decline",)))

    @step("cross", rule=R_TIERS, depends=("actor",))
    def ask_cross(self, state: TyrannyState) -> Prompt:
        return Prompt.single(state.actor, Decision(("cross", "decline"), "move to the other tier?"))

    @step("card-roll", rule=R_CARDS, depends=("actor",))
    def ask_card_roll(self, state: TyrannyState) -> Prompt:
        return Prompt.single(state.actor, RollRequest.of(1, 6, "card move"))

    @step("pick", rule=R_CARDS, depends=("actor", "pick"))
    def ask_pick(self, state: TyrannyState) -> Prompt:
        return Prompt.single(state.actor, Decision(("pick",), f"choose a card to {state.pick} from an opponent's face-down hand"))

    def _plays(self, state: TyrannyState, seat: str) -> tuple[str, ...]:
        """``("play",)`` when ``seat`` holds a card it may play now (the moments are the
        cards' own, :func:`rules.tyranny.effects.window`): a private kind, as a face-down
        hand decides it."""
        return ("play",) if self.playable(state, seat, effects.window(state, seat)) else ()

    # ---------------------------------------------------------- validation

    def explain(self, state: TyrannyState, action: Action, prompt: Prompt) -> Iterable[Violation]:
        """Why the seat that must act may not take this kind now, in the rulebook's words
        (:mod:`rules.tyranny.offers`); a seat whose turn it is not is told so by the kernel."""
        if action.seat not in prompt.actors:
            return ()
        return offers.explain(state, action.seat, action.kind)

    def violations(self, state: TyrannyState, action: Action, prompt: Prompt) -> Iterator[Violation]:
        """The rules an action of a kind the seat may take now breaks. A roll, a draw, a
        capture, a crossing, a payment and a decline break none: the prompt offers them
        only when their rule allows, and the kernel checks the dice and the card."""
        seat = action.seat
        if isinstance(action, MoveTo):
            if action.tile not in state.routes:
                yield Violation("unreachable", R_MOVE if state.phase == "move" else R_CARDS,
                                t("{tile} is not a tile this move can reach ({n} can be reached).",
                                  tile=self._tile_words(state, action.tile), n=len(state.routes)))
        elif isinstance(action, PlayCard):
            yield from effects.play_violations(self, state, action)
        elif isinstance(action, (OpenTunnel, CollapseTunnel)):
            b = state.board
            here = b.tunnel_at.get(state.pos[seat])
            if action.tunnel != here:
                yield Violation("not-on-tunnel", R_TUNNEL, t("You can only dig or collapse the tunnel whose end you stand on."))
        elif isinstance(action, ChooseRange):
            if action.target != state.queue[0]:
                yield Violation("wrong-target", R_PLAYER, t("The Capture Roll now is against {seat}.", seat=state.seat_name(state.queue[0])))
            if not 1 <= action.low <= 4:
                yield Violation("bad-range", R_PLAYER, t("The range is three numbers in a row on a die: 1-3, 2-4, 3-5 or 4-6."))
        elif isinstance(action, Arrest):
            if action.target not in self._arrest_targets(state):
                yield Violation("cannot-arrest", R_PLAYER, t("{seat} is not an enemy you can capture on this tile.", seat=state.seat_name(action.target)))
        elif isinstance(action, PickCard):
            if action.target not in self.enemies(state, seat):
                yield Violation("not-an-opponent", R_CARDS, t("Choose an opponent (a seat of the other faction)."))
            elif not 0 <= action.index < len(state.hands[action.target]):
                yield Violation("no-such-card", R_CARDS, tn("{seat} holds {n} face-down card.", "{seat} holds {n} face-down cards.", "n",
                                   seat=state.seat_name(action.target), n=len(state.hands[action.target])))

    def _tile_words(self, state: TyrannyState, tile: str) -> Text | Term:
        """A tile as players name it (its printed name), for messages; an id the board
        does not have is quoted as given."""
        found = self.board(state).tiles.get(tile)
        return found.term if found is not None else t("{tile} (no such tile on this board)", tile=repr(tile))

    def _arrest_targets(self, state: TyrannyState) -> list[str]:
        actor, pos, faction_of = state.actor, state.pos, state._faction
        tile, faction = pos[actor], faction_of[actor]
        b = state.board
        return [e for e in state.order.order
                if faction_of[e] != faction and pos[e] == tile and e not in state.declined and self.arrestable(state, e, b)]

    # ------------------------------------------------------------- execute

    def execute(self, state: TyrannyState, action: Action) -> None:
        cls = type(action)
        phase = state.phase
        seat = action.seat
        if cls is Roll:
            value = action.values[0]  # type: ignore[attr-defined]
            if phase == "start":
                state.note(t("{seat} rolls {value} to move.", seat=seat, value=value), seat)
                self._offer_moves(state, seat, value)
            elif phase == "capture":
                self._capture_roll(state, seat, value)
            elif phase == "custody":
                self._escape_roll(state, seat, value)
            elif phase == "capture-roll":
                self._capture_roll_result(state, value)
            else:  # card-roll
                state.note(t("{seat} rolled {value} (Gamble 8).", seat=seat, value=value), seat)
                self._offer_moves(state, seat, value)
        elif cls is MoveTo:
            self._move(state, seat, action.tile)  # type: ignore[attr-defined]
        elif cls is Draw:
            self._draw(state, seat, action)  # type: ignore[arg-type]
        elif cls is Decline:
            self._decline(state, seat)
        elif cls is Capture:
            tile = state.pos[seat]
            state.phase = "capture"
            state.note(t("{seat} tries to capture {tile}.", seat=seat, tile=state.board.tiles[tile].term), seat)
        elif cls is PlayCard:
            effects.play(self, state, action)  # type: ignore[arg-type]
        elif cls is OpenTunnel or cls is CollapseTunnel:
            effects.tunnel(self, state, seat, action.tunnel, "open" if cls is OpenTunnel else "collapse", paid=True)  # type: ignore[attr-defined]
            state.tunnel_done = True
        elif cls is PayEscape:
            if state._faction[seat] == CRIMINALS:
                state.influence.add(-ESCAPE_COST)
                state.note(t("{seat} pays {cost} influence to escape custody.", seat=seat, cost=ESCAPE_COST), seat)
            else:
                state.influence.add(ESCAPE_COST)
                state.note(t("{seat} escapes custody; the criminals gain {cost} influence (RULINGS E-02).", seat=seat, cost=ESCAPE_COST), seat)
            del state.custody[seat]
            self.end_turn(state)
        elif cls is ChooseRange:
            state.target = state.queue.pop(0)
            state.numbers = list(action.numbers)  # type: ignore[attr-defined]
            state.phase = "capture-roll"
            state.note(t("{seat} starts a Capture Roll against {target}: {low}-{high} goes free.", seat=seat, target=state.target,
                         low=action.low, high=action.low + 2), seat)  # type: ignore[attr-defined]
        elif cls is Arrest:
            self.arrest(state, seat, action.target)  # type: ignore[attr-defined]
            self.proceed(state)
        elif cls is CrossTier:
            b = state.board
            to = b.home_on(state._faction[seat], b.other_tier(b.tier_of[state.pos[seat]]))
            state.pos[seat] = to
            state.note(t("{seat} crosses to {tile}.", seat=seat, tile=b.tiles[to].term), seat)
            self.end_turn(state)
        elif cls is PickCard:
            effects.pick(self, state, action)  # type: ignore[arg-type]

    def _offer_moves(self, state: TyrannyState, seat: str, steps: int, up_to: bool | None = None) -> None:
        if up_to is None:
            up_to = state.options["move"] == "up-to"
        moves = state.board.routes(state.pos[seat], range(1, steps + 1) if up_to else steps, state.open_tunnels)
        state.routes = moves.copy()  # type: ignore[attr-defined]  # the state's own dict: the board's answer is shared and read-only
        state.phase = "move"

    def _move(self, state: TyrannyState, seat: str, tile: str) -> None:
        passed = state.routes[tile]
        state.routes = {}
        pos = state.pos
        pos[seat] = tile
        b = state.board
        state.note(t("{seat} moves to {tile}.", seat=seat, tile=b.tiles[tile].term), seat)
        queue: list[str] = []
        if passed:
            faction_of = state._faction
            faction = faction_of[seat]
            # Enemies passed on the way, queued in the order they were passed (seat order
            # on one tile); most moves pass none, and then nothing more is looked at.
            hit = []
            for e in state.order.order:
                if faction_of[e] != faction and pos[e] in passed:
                    hit.append(e)
            if hit:
                for p in passed:
                    for e in hit:
                        if pos[e] == p and e not in queue and self.arrestable(state, e, b):
                            queue.append(e)
        state.queue = queue
        state.declined = []
        state.stage = "passing"
        self.proceed(state)

    def proceed(self, state: TyrannyState) -> None:
        """Go on with a move's landing from wherever it has got to (``stage``)."""
        if state.reactions.pending:
            state.phase = "react"
            return
        seat = state.actor
        b = state.board
        if state.stage == "passing":
            while state.queue:
                if self.arrestable(state, state.queue[0], b) and seat not in state.custody:
                    state.phase = "passing"
                    return
                state.queue.pop(0)
            state.stage = "landing"
        if state.stage == "landing":
            if seat not in state.custody and self._arrest_targets(state):
                state.phase = "arrest"
                return
            state.stage = "tile"
        if state.stage == "tile":
            state.stage = "done"
            if seat in state.custody:
                self.end_turn(state)
                return
            tile = b.tiles[state.pos[seat]]
            faction = state._faction[seat]
            if tile.kind == "property" and state.owner.get(tile.id) == faction:
                delta = tile.base if faction == CRIMINALS else -tile.base
                state.influence.add(delta)
                state.note(t("{seat} lands on {tile}, owned by the {faction}: influence {delta:+d} → {value}.", seat=seat,
                             tile=tile.term, faction=FACTION_WORDS[faction], delta=delta, value=state.influence.value), seat)
            elif tile.kind in ("gamble", "gains"):
                deck = state.decks[tile.kind]
                if deck.cards or deck.discard:
                    state.draw_deck = tile.kind
                    state.phase = "draw"
                    return
                state.note(t("The {deck} deck is empty (every card is in a hand): no draw.", deck=DECK_WORDS[tile.kind]), seat)
            elif tile.id in b.homes[faction]:
                state.phase = "cross"
                return
        self.end_turn(state)

    def _decline(self, state: TyrannyState, seat: str) -> None:
        phase = state.phase
        if phase == "passing":
            state.note(t("{seat} lets {target} pass.", seat=seat, target=state.queue.pop(0)), seat)
            self.proceed(state)
        elif phase == "arrest":
            state.declined = self._arrest_targets(state)
            state.stage = "tile"
            self.proceed(state)
        elif phase == "react":
            state.reactions.pop()
            self._after_reactions(state)
        else:  # draw, cross
            self.end_turn(state)

    def _after_reactions(self, state: TyrannyState) -> None:
        if not state.reactions:
            self.proceed(state)

    # --------------------------------------------------------- capturing

    def _capture_roll(self, state: TyrannyState, seat: str, value: int) -> None:
        b = state.board
        tile = b.tiles[state.pos[seat]]
        low, high = state.capture_range if state.capture_range else tile.range
        faction = state._faction[seat]
        if low <= value <= high:
            if tile.id in state.owner:
                del state.owner[tile.id]
                state.note(t("{seat} rolls {value} (needs {low}-{high}): {tile} is neutral now.", seat=seat, value=value, low=low, high=high,
                             tile=tile.term), seat)
            else:
                state.owner[tile.id] = faction
                state.note(t("{seat} rolls {value} (needs {low}-{high}): the {faction} own {tile}.", seat=seat, value=value, low=low, high=high,
                             faction=FACTION_WORDS[faction], tile=tile.term), seat)
        elif state.extra_rolls:
            state.extra_rolls -= 1
            state.note(t("{seat} rolls {value} (needs {low}-{high}) and rolls again (Gains 1).", seat=seat, value=value, low=low, high=high), seat)
            return
        else:
            state.note(t("{seat} rolls {value} (needs {low}-{high}): no capture.", seat=seat, value=value, low=low, high=high), seat)
        self.end_turn(state)

    def _capture_roll_result(self, state: TyrannyState, value: int) -> None:
        target = state.target
        if value in state.numbers:
            state.note(t("{seat} rolls {value} and is free to go.", seat=target, value=value), target)
        else:
            state.note(t("{seat} rolls {value}: captured by {captor}.", seat=target, value=value, captor=state.actor), target)
            self.arrest(state, state.actor, target)
        state.target = ""
        state.numbers = []
        self.proceed(state)

    def arrest(self, state: TyrannyState, captor: str, captive: str) -> None:
        """``captor`` captures ``captive``: into custody at the captor's home base (start
        tile), with the chance to play Gamble 3 for either side (RULINGS P-03)."""
        b = state.board
        tile = state.pos[captive]
        state.custody[captive] = [6]
        state.pos[captive] = b.start[state._faction[captor]]
        state.note(t("{captor} captures {captive}.", captor=captor, captive=captive), captor)
        if state._faction[captor] == COPS:
            # Pushed so that the captor answers first (the newest window is on top).
            always = state.options["react_windows"] == "always"
            for seat, window in ((captive, "immediate_escape"), (captor, "inescapable_arrest")):
                if always or self.playable(state, seat, frozenset({window})):
                    state.reactions.push(Reaction(seat, window, (captive, tile)))

    def _escape_roll(self, state: TyrannyState, seat: str, value: int) -> None:
        numbers = state.custody[seat]
        if value in numbers:
            del state.custody[seat]
            state.note(t("{seat} rolls {value} and escapes custody.", seat=seat, value=value), seat)
        else:
            state.note(t("{seat} rolls {value}: still in custody (needs {numbers}).", seat=seat, value=value, numbers=_numbers(numbers)), seat)
        self.end_turn(state)

    # --------------------------------------------------------------- cards

    # ------------------------------------------------------- physical draws (C-16)

    def unseen_zones(self, state: TyrannyState, seat: str, deck: str) -> list[list[str]]:
        """The other seats' kept cards, face down: a physical draw may name one (C-16)."""
        return [h.cards for s, h in sorted(state.hands.items()) if s != seat]

    def drawable(self, state: TyrannyState, seat: str, deck: str) -> list[str]:
        # Hands hold both decks' cards: only this deck's may be the card drawn.
        return [c for c in super().drawable(state, seat, deck) if CARDS[c].deck == deck]

    def not_drawable(self, state: TyrannyState, seat: str, deck: str, card: str) -> Text:
        """Why ``seat`` cannot have drawn ``card``: only what it may see (C-16)."""
        c = CARDS.get(card)
        name = DECK_NAMES.get(deck) or Term(deck.title())
        if c is None or c.deck != deck:
            return t("That is not a {deck} card.", deck=name)
        if card in state.hands[seat]:
            return t("You keep that card in your hand.")
        if card in state.decks[deck].discard:
            return t("That card is face up in the {deck} discard pile.", deck=name)
        return t("The {deck} deck and its discard pile are empty.", deck=name)

    def reconcile_draw(self, state: TyrannyState, action: Draw) -> str | None:
        new = super().reconcile_draw(state, action)
        # The seat whose hand held the card drawn holds the one that took its place.
        holder = None if new is None else next((s for s, h in state.hands.items() if s != action.seat and new in h), None)
        if new is not None and holder is not None:
            c = CARDS[new]
            state.note(t("A card drawn from the table's deck was entered as one the app had in your hand: it now records "
                         "{card} in its place (RULINGS C-16). Check your hand.", card=card_words(c)), holder, to=(holder,))
        return new

    def _draw(self, state: TyrannyState, seat: str, action: Draw) -> None:
        deck = state.decks[action.deck]
        deck.take_drawn(action.card, state.rng)
        card = CARDS[action.card]
        half = card.half(state._faction[seat])
        if card.keep:
            state.hands[seat].add(card.id)
            state.note(t("{seat} draws a {deck} card and keeps it face down.", seat=seat, deck=DECK_WORDS[card.deck]), seat)
            state.note(t("You drew {card}: {text}", card=card_words(card), text=half.term), seat, to=(seat,))
            self.end_turn(state)
            return
        state.note(t("{seat} draws {card}: {text}", seat=seat, card=card_words(card), text=half.term), seat)
        deck.put_discard(card.id)
        effects.resolve(self, state, seat, card)

    # ------------------------------------------------------------ turn end

    def end_turn(self, state: TyrannyState) -> None:
        """The acting seat's turn is over: chart, streaks, winner, next seat."""
        order = state.order
        state.influence.mark(order.turn)
        if len(state.log) > LOG_KEEP + 20:
            del state.log[: len(state.log) - LOG_KEEP]
        round_before = order.round
        missed = order.advance()
        for m in missed:
            state.note(t("{seat} misses a turn.", seat=m), m)
        if state.options["streak_turn"] == "seat-turn":
            checks = 1 + len(missed)
        else:
            checks = order.round - round_before
        if checks:
            value = state.influence.value
            criminals, cops = state.criminal_streak, state.cop_streak
            for _ in range(checks):
                criminals.update(value >= WIN_INFLUENCE)
                cops.update(value == 0)
            if criminals.met:
                self._win(state, CRIMINALS, t("the criminals held {value}+ influence for {n} consecutive turns", value=WIN_INFLUENCE, n=STREAK))
                return
            if cops.met:
                self._win(state, COPS, t("the cops held the criminals' influence at 0 for {n} consecutive turns", n=STREAK))
                return
        self._begin_turn(state)

    def _begin_turn(self, state: TyrannyState) -> None:
        seat = state.order.current
        state.actor = seat
        state.phase = "custody" if seat in state.custody else "start"
        state.stage = "done"
        state.tunnel_done = False
        state.extra_rolls = 0
        state.capture_range = []
        state.queue = []
        state.declined = []

    def _win(self, state: TyrannyState, faction: str, reason: Text) -> None:
        state.phase = "over"
        scores = {
            CRIMINALS: Score(state.influence.value, {"influence": state.influence.value, "properties": self.properties(state, CRIMINALS)}),
            COPS: Score(self.properties(state, COPS), {"properties": self.properties(state, COPS), "captured": sum(1 for s in state.custody if state._faction[s] == CRIMINALS)}),
        }
        seats = tuple(s.id for s in state.seats if s.faction == faction)
        self.finish(state, Outcome(faction, str(reason), scores, seats, words=reason))

    def properties(self, state: TyrannyState, faction: str) -> int:
        return sum(1 for f in state.owner.values() if f == faction)

    # ----------------------------------------------------------- listing

    def candidates(self, state: TyrannyState, prompt: Prompt) -> Iterable[Action]:
        phase, seat = state.phase, state.actor
        accepted = prompt.awaiting.accepted
        if phase == "move":
            for tile in state.routes:
                yield MoveTo(seat, tile)
            return
        if phase == "passing":
            for low in range(1, 5):
                yield ChooseRange(seat, state.queue[0], low)
        elif phase == "arrest":
            for e in self._arrest_targets(state):
                yield Arrest(seat, e)
        elif phase == "pick":
            for e in self.enemies(state, seat):
                for i in range(len(state.hands[e])):
                    yield PickCard(seat, e, i)
        elif phase == "cross":
            yield CrossTier(seat)
        if "decline" in accepted:
            yield Decline(next(iter(prompt.actors)))
        if "capture" in accepted:
            yield Capture(seat)
        if "pay" in accepted:
            yield PayEscape(seat)
        if "open" in accepted or "collapse" in accepted:
            tunnel = state.board.tunnel_at[state.pos[seat]]
            yield (OpenTunnel if "open" in accepted else CollapseTunnel)(seat, tunnel)
        if "play" in accepted:
            player = next(iter(prompt.actors))
            yield from effects.play_candidates(self, state, player)

    # -------------------------------------------------------------- views

    def render(self, state: TyrannyState, viewer: str) -> dict[str, Any]:
        b = state.board
        view: dict[str, Any] = {
            "board": b.name,
            "phase": state.phase,
            "influence": state.influence.value,
            "influence_history": [list(h) for h in state.influence.history],
            "streaks": {CRIMINALS: state.criminal_streak.count, COPS: state.cop_streak.count, "target": STREAK},
            "turn": state.order.turn,
            "round": state.order.round,
            "order": list(state.order.order),
            "misses": dict(state.order.skips),
            "pieces": {s: {"tile": state.pos[s], "custody": s in state.custody,
                           "escape_on": list(state.custody.get(s, []))} for s in state.order.order},
            "owners": dict(state.owner),
            "tunnels": {t: t in state.open_tunnels for t in b.tunnels},
            "decks": {n: {"count": len(d.cards), "discard": list(d.discard)} for n, d in state.decks.items()},
            "hands": {s: h.view(viewer) for s, h in state.hands.items()},
        }
        if viewer in state.hands:
            faction = state._faction[viewer]
            view["my_cards"] = [{"id": c, "deck": CARDS[c].deck, "number": CARDS[c].number,
                                 "text": CARDS[c].half(faction).text} for c in state.hands[viewer].cards]
        if state.phase == "move":
            view["reachable"] = sorted(state.routes)
        if state.phase == "capture-roll":
            view["capture_roll"] = {"target": state.target, "free_on": list(state.numbers)}
        return view

    def secrets(self, state: TyrannyState, viewer: str) -> Iterable[str]:
        hidden: set[str] = set()
        for d in state.decks.values():
            hidden.update(d.cards)
        for s, h in state.hands.items():
            if s != viewer:
                hidden.update(h.cards)
        return hidden

    def hidden_variant(self, state: TyrannyState, viewer: str, rng: Rng) -> TyrannyState | None:
        """Swap two cards of one deck's kind among the places ``viewer`` cannot see: the
        deck's face-down pile and the other seats' hands."""
        twin = self.copy(state)
        twin.changed()
        name = rng.choice(sorted(twin.decks))
        piles = [twin.decks[name].cards] + [
            [c for c in h.cards if c.startswith(name)] for s, h in sorted(twin.hands.items()) if s != viewer]
        # Hands hold both decks' cards: swap within the named deck's cards, in place.
        hands = [h for s, h in sorted(twin.hands.items()) if s != viewer]
        if not swap_hidden(piles, rng):
            return None
        for h, mine in zip(hands, piles[1:]):
            it = iter(mine)
            h.cards[:] = [next(it) if c.startswith(name) else c for c in h.cards]
        return twin

    def tracked(self, state: TyrannyState) -> dict[str, int]:
        return {
            "influence": state.influence.value,
            "criminal_streak": state.criminal_streak.count,
            "cop_streak": state.cop_streak.count,
            "criminal_properties": self.properties(state, CRIMINALS),
            "cop_properties": self.properties(state, COPS),
            "open_tunnels": len(state.open_tunnels),
            "in_custody": len(state.custody),
            "gamble_deck": len(state.decks["gamble"].cards),
            "gains_deck": len(state.decks["gains"].cards),
        }

    def undo_barrier(self, state: TyrannyState, action: Action) -> str | None:
        if isinstance(action, PlayCard):
            return "a card from a face-down hand was played and shown"
        if isinstance(action, PickCard):
            return "a card was taken from a face-down hand"
        return super().undo_barrier(state, action)

    def problems(self, state: TyrannyState) -> Iterable[str]:
        everywhere: list[str] = []
        for d in state.decks.values():
            everywhere += d.cards + d.discard
        for h in state.hands.values():
            everywhere += h.cards
        if len(everywhere) != len(ALL_CARDS) or set(everywhere) != ALL_CARDS:
            yield f"cards not conserved: {len(everywhere)} held, {len(set(everywhere))} distinct of {len(ALL_CARDS)}"
        for name, d in state.decks.items():
            if any(CARDS[c].deck != name for c in d.cards + d.discard):
                yield f"a card is in the wrong deck ({name})"
        b = state.board
        for s, tile in state.pos.items():
            if tile not in b.tiles:
                yield f"{s} is on an unknown tile {tile!r}"
        for tile, f in state.owner.items():
            if b.tiles[tile].kind != "property" or f not in self.factions:
                yield f"bad ownership {tile}={f}"
        if state.result is None and state.actor not in state._faction:
            yield f"no seat acts (actor {state.actor!r})"


def _numbers(ns: list[int]) -> str:
    return ns and (str(ns[0]) if len(ns) == 1 else f"{ns[0]}-{ns[-1]}") or "—"


def reachable(state: TyrannyState, seat: str, steps: int, up_to: bool | None = None) -> dict[str, tuple[str, ...]]:
    """Tiles ``seat`` can move to with ``steps`` (the roll), each with the tiles passed on
    the way — for the UI to highlight. ``up_to`` (default: the ``move`` option) also offers
    every shorter move (RULINGS M-01)."""
    b = state.board
    if up_to is None:
        up_to = state.options["move"] == "up-to"
    moves = b.routes(state.pos[seat], range(1, steps + 1) if up_to else steps, state.open_tunnels)
    return moves.copy()  # type: ignore[attr-defined]  # the state's own dict: the board's answer is shared and read-only


GAME = Tyranny()

"""The Against All Tyrants engine: the app referees the rules system; the cards are the
table's (or the example set).

>>> g = AgainstAllTyrants()
>>> s = g.new([("att", "attacker"), ("def", "defender")], {}, seed=1)
>>> str(g.prompt(s))
'def: draw from deck-def (setup: draw 5 cards (0 of 5))'
>>> while s.phase in ("deal", "mulligan", "redraw", "infiltrate"):
...     g.push(s, g.sample(s) or next(iter(g.legal_actions(s))))
>>> s.phase, s.active == "def", len(s.sides["def"].hand)
('draw', True, 5)
"""
from __future__ import annotations

import itertools
from typing import Any, Iterable, Iterator

from rules.core import (
    Action, Decision, Deck, Draw, DrawRequest, Game, Hand, Option, Outcome, Prompt, Rng, Score as KScore,
    Seat, Violation, step, swap_hidden,
)
from rules.core.errors import InvalidSetup

from .naming import Naming
from . import position as positions
from .actions import (
    Attack, Clear, Damage, Delegate, Discard, Done, EndPhase, Heal, Infiltrate, Instruct, Move, MoveTheater,
    Incident, Mulligan, Order, Place, PlaceObjective, Play, Score, Skip, Token,
)
from .cards import MAINFRAME_LIMIT, THEATER_NAMES, THEATERS, TOKENS, Card, CardError
from .combat import Hit, Side, combat_preview, damage_preview
from .decks import check_deck
from .objectives import Objective, objective_of
from .state import HOME, ROLES, AatState, Pending, Piece, SideState, cards_of, deck_of, instances

HAND_START = 5
PLAYS = 2
PRIMITIVES = ("damage", "heal", "token", "incident", "discard", "place", "move_theater", "instruct", "score", "done")
MAX_AMOUNT = 20
ALWAYS_ON = ("Armor", "Fighter", "Capital")
UNIT_KINDS = ("unit", "objective")

R_SETUP = "5.2.5 Game Setup"
R_HAND = "5.2.5.2 Starting Hand"
R_DRAW = "5.2.6.1.1 Draw 1 Card"
R_PLAY = "5.2.6.2.1 Play 2 Cards"
R_EFFECT = "5.2.6.2.1.1 Playing One-Time Effect Cards"
R_DEPLOY = "5.2.6.2.1.2 Deploying a Unit"
R_LEADER = "5.2.6.2.1.2 Deploying a Leader"
R_COMBAT = "5.2.6.2 Phase Two - Combat"
R_ACTIONS = "5.2.6.2.1 Actions"
R_ATTACK = "5.2.6.2.1 Attack"
R_BASES = "5.2.6.2.1.1 Attacking Bases"
R_LEADERS = "5.2.6.2.1.2 Attacking Leaders"
R_ORDERS = "5.2.6.2.2 Orders"
R_MOVE = "5.2.6.2.3 Change Theaters"
R_END = "5.2.6.3 Phase 3 - End of Turn"
R_OBJECTIVE = "5.2.6.3.1 Alternate Objective Unit Placement"
R_TRAITS = "5.2.8.2 Traits"
R_TOKENS = "5.2.8.4 Tokens"
R_INSTRUCTION = "5.2.8.1 Game Terms: Instruction"
R_UNIQUE = "5.2.4.3 Deckbuilding (Unique)"
R_ESCALATION = "5.2.7 Escalation"
R_ALT = "5.1.2.3 Alternate Objective"
R_TEXT = "RULINGS A-12 (resolving a card's text)"


def _pending_key(s: AatState) -> tuple[Any, ...] | None:
    """Everything the prompt of the first thing being resolved reads (None: nothing is)."""
    if not s.pending:
        return None
    p = s.pending[0]
    return (p.kind, p.seat, p.card, p.left, p.kind_of, p.text, p.expert, not s.sides[p.seat].deck.cards)


class AgainstAllTyrants(Naming, Game[AatState]):
    """Against All Tyrants: two seats, factions ``attacker`` and ``defender`` (the roles)."""

    id = "against_all_tyrants"
    title = "Against All Tyrants"
    rulebook = "against-all-tyrants.txt"
    min_seats = 2
    max_seats = 2
    factions = ROLES
    options = (
        Option("cards", {}, help="The table's own card set (card-set file data) added to the example set; {} = the example set alone.", ruling="A-01"),
        Option("attacker_deck", "", help="The Attacker's deck: an example deck's key, or deck-file data ('' = the First Leader's Navy example).", ruling="A-01"),
        Option("defender_deck", "", help="The Defender's deck: an example deck's key, or deck-file data ('' = the Freedom Fighters example).", ruling="A-01"),
    )
    action_types = (Draw, Mulligan, Infiltrate, Play, EndPhase, Attack, Order, Move, Clear, PlaceObjective, Damage, Heal,
                    Token, Incident, Discard, Place, MoveTheater, Instruct, Score, Done, Delegate, Skip)
    turn_rule = "5.2.6 Turn Structure"
    cards_rule = "5.2.4 The Deck"

    # ------------------------------------------------------------------ setup

    def resolve_options(self, options: dict[str, Any]) -> dict[str, Any]:
        # A deck is either an example deck's key (text) or a deck file's data (an object).
        loose = {k: v for k, v in options.items() if k not in ("attacker_deck", "defender_deck")}
        out = super().resolve_options(loose)
        for k in ("attacker_deck", "defender_deck"):
            if k in options:
                v = options[k]
                if not isinstance(v, (str, dict)):
                    raise InvalidSetup([Violation("bad-option", "Setup", f"Option {k!r} is an example deck's key or deck-file data.")])
                out[k] = v
        return out

    def check_setup(self, seats: list[Seat], options: dict[str, Any]) -> Iterator[Violation]:
        for role in ROLES:
            n = sum(1 for s in seats if s.faction == role)
            if n != 1:
                yield Violation("role-count", "5.2.1 Players", f"Against All Tyrants needs one Attacker and one Defender, not {n} {role}s.")
        try:
            cards = cards_of(options)
        except CardError as e:
            yield Violation("bad-cards", R_SETUP, "The card set cannot be used: " + "; ".join(e.problems[:5]))
            return
        for seat in seats:
            role = seat.faction
            if role not in ROLES:
                continue
            try:
                deck = deck_of(options, role)
            except CardError as e:
                yield Violation("bad-deck", R_SETUP, f"{seat.label}'s deck (the {role.title()}) cannot be read: {e}")
                continue
            except KeyError as e:
                yield Violation("bad-deck", R_SETUP, f"{seat.label}'s deck (the {role.title()}): {e.args[0]}")
                continue
            for v in check_deck(deck, cards):
                yield Violation("illegal-deck", v.rule, f"{seat.label}'s deck (the {role.title()}): {v.message}")

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng, seed: int) -> AatState:
        sides = {}
        for s in seats:
            deck = deck_of(options, s.faction)
            inst = instances(deck, s.faction)
            main = Deck(f"deck-{s.id}", cards=list(inst["main"]), auto_reshuffle=False)
            main.shuffle(rng)
            bases = inst["bases"]
            cards = cards_of(options)
            home = next(b for b in bases if cards[_cid(b)].theaters == (HOME[s.faction],))
            sides[s.id] = SideState(main, Hand(s.id), list(inst["special_forces"]), list(inst["objectives"]),
                                    unused_base=next(b for b in bases if b != home))
        state = AatState(seats=seats, options=options, seed=seed, rng=rng, sides=sides)
        for s in seats:
            home = next(b for b in instances(deck_of(options, s.faction), s.faction)["bases"] if b != sides[s.id].unused_base)
            state.pieces[home] = Piece(home, _cid(home), s.id, HOME[s.faction])
            o = self.objective(state, s.id)
            where = THEATER_NAMES[HOME[s.faction]]
            state.note(f"{state.name(s.id)} is the {s.faction.title()} ({deck_of(options, s.faction).subfaction}): "
                       f"base {state.card(home).title} in {where} (5.2.2.2).")
            if o.goal == "tbd":
                state.note(f"{o.subfaction}'s alternate objective ({o.name}) is To Be Determined in the rulebook ({o.rule}): "
                           f"{state.name(s.id)} plays for the primary objective only (RULINGS A-20).")
            elif o.goal == "none":
                state.note(f"{o.subfaction} has no alternate objective in the rulebook: {state.name(s.id)} plays for the primary objective only (RULINGS A-20).")
            else:
                state.note(f"{state.name(s.id)}'s alternate objective: {o.name} — {o.text} ({o.rule})")
        state.active = state.seat_of("defender")
        state.note("Both main decks are shuffled; Special Forces and objective cards are set aside unshuffled (5.2.5.1).")
        return state

    def random_setup(self, rng: Rng) -> tuple[list[Seat], dict[str, Any]]:
        keys = ("first-leaders-navy", "freedom-fighters")
        a = rng.choice(keys)
        return [Seat("att", "attacker", "Ann"), Seat("def", "defender", "Bob")], {"attacker_deck": a, "defender_deck": rng.choice(keys)}

    def default_seats(self) -> list[Seat]:
        return [Seat("attacker-1", "attacker"), Seat("defender-2", "defender")]

    def deck(self, state: AatState, name: str) -> Deck:
        return state.sides[name[len("deck-"):]].deck

    def objective(self, state: AatState, seat: str) -> Objective:
        return objective_of(state.subfaction(seat), state.role(seat))

    def position(self, state: AatState) -> dict[str, Any]:
        return positions.write(self, state)

    def from_position(self, seats: list[Seat], options: dict[str, Any], pos: dict[str, Any], rng: Rng, seed: int) -> AatState:
        return positions.read(self, seats, options, pos, rng, seed)

    # ----------------------------------------------------------------- queries

    def works(self, state: AatState, piece: Piece, trait: str) -> bool:
        """Whether ``piece``'s trait works now: a Disruption token leaves only Armor,
        Fighter and Capital (5.2.8.4)."""
        # The card's trait table read directly: this is asked many times per action.
        return trait in state.cards.cards[piece.card]._by_name and (trait in ALWAYS_ON or "Disruption" not in piece.tokens)

    def side_of(self, state: AatState, piece: Piece) -> Side:
        return Side.of(state.card(piece.id), piece.tokens, piece.theater)

    def kind(self, state: AatState, piece_or_card: str) -> str:
        return state.card(piece_or_card).kind

    def leaders(self, state: AatState, seat: str) -> list[Piece]:
        return [p for p in state.pieces.values() if p.owner == seat and self.kind(state, p.id) == "leader"]

    def preview(self, state: AatState, attack: Attack) -> Hit:
        """The arithmetic of an attack, step by step, before it is confirmed (an attack on
        one's own base purges a Computation token: no damage, 5.1.2.3.3)."""
        a, t = state.pieces[attack.piece], state.pieces[attack.target]
        if t.owner == a.owner:
            return Hit(0, 0, False, 0, 0, False, ("purges 1 Computation token from your base; no damage (5.1.2.3.3)",))
        return combat_preview(self.side_of(state, a), self.side_of(state, t))

    def preview_text(self, state: AatState, attack: Attack) -> str:
        """What the screen shows before an attack is confirmed: the arithmetic, then
        Point-Defense's reply if it will come."""
        hit = self.preview(state, attack)
        a, t = state.pieces[attack.piece], state.pieces[attack.target]
        text = f"{state.card(a.id).title} → {state.card(t.id).title}: {hit.text}"
        if not hit.destroyed and t.owner != a.owner and self.works(state, t, "Point-Defense") and self.works(state, a, "Fighter"):
            back = damage_preview(self.side_of(state, a), state.card(t.id).x("Point-Defense"), "Point-Defense")
            text += f"; then {state.card(t.id).title}'s Point-Defense: {back.text}"
        return text

    def can_act(self, state: AatState, piece: Piece, attack: bool = False) -> str:
        """How ``piece`` may act now: ``"repeat"`` (an attack left by Repeater, when
        ``attack``), ``"own"`` (its action, or an instruction given by a card's text),
        ``"command"`` (an instruction from a Command unit), or ``""``."""
        if state.phase != "combat" or state.pending:
            return ""
        if attack and state.repeat and state.repeat[0] == piece.id:
            return "repeat"
        if piece.id in state.ready:
            return "own"
        if piece.id in state.instructed:
            return ""
        if state.command and state.command[2] != piece.id and state.command[0] in state.card(piece.id).types \
                and self.kind(state, piece.id) in UNIT_KINDS:
            return "command"
        return ""

    # ------------------------------------------------------------------ prompts

    # Something being resolved (state.pending) is asked for first, whatever the phase:
    # every step starts with it, and every step's key names it (_pending_key), so the
    # kernel can reuse each step's prompts across plies.

    @step("deal", timed=False, rule=R_HAND, depends=lambda s: (_pending_key(s) if s.pending else None, s.active, len(s.sides[s.active].hand)))
    def ask_deal(self, state: AatState) -> Prompt:
        if state.pending:
            return self._ask_pending(state, state.pending[0])
        seat = state.active
        n = len(state.sides[seat].hand)
        return Prompt.single(seat, DrawRequest(f"deck-{seat}", f"setup: draw 5 cards ({n} of 5)"))

    @step("mulligan", timed=False, rule=R_HAND, depends=lambda s: (_pending_key(s) if s.pending else None, s.active))
    def ask_mulligan(self, state: AatState) -> Prompt:
        if state.pending:
            return self._ask_pending(state, state.pending[0])
        return Prompt.single(state.active, Decision(("mulligan",), "discard any number of cards to draw that many (none is fine)"))

    @step("redraw", timed=False, rule=R_HAND, depends=lambda s: (_pending_key(s) if s.pending else None, s.active, s.redraw))
    def ask_redraw(self, state: AatState) -> Prompt:
        if state.pending:
            return self._ask_pending(state, state.pending[0])
        return Prompt.single(state.active, DrawRequest(f"deck-{state.active}", f"setup: draw {state.redraw} more"))

    @step("infiltrate", timed=False, rule=R_TRAITS, depends=lambda s: (_pending_key(s) if s.pending else None, s.active))
    def ask_infiltrate(self, state: AatState) -> Prompt:
        if state.pending:
            return self._ask_pending(state, state.pending[0])
        return Prompt.single(state.active, Decision(("infiltrate",), "deploy an Infiltrate unit from the Special Forces Deck"))

    def _ask_pending(self, state: AatState, p: Pending) -> Prompt:
        seat = p.seat
        if p.kind == "text":
            note = f"resolve {state.card(p.card).title}: {p.text}" + (f" — {p.expert}" if p.expert else "")
            if state.sides[seat].deck.cards:
                return Prompt.single(seat, DrawRequest(f"deck-{seat}", note, also=PRIMITIVES))
            return Prompt.single(seat, Decision(PRIMITIVES, note))
        if p.kind == "supply":
            if state.sides[seat].deck.cards:
                return Prompt.single(seat, DrawRequest(f"deck-{seat}", f"Supply: draw {p.left} card{'s' if p.left != 1 else ''}"))
            return Prompt.single(seat, Decision(("skip",), "Supply: the main deck is empty (RULINGS A-06)"))
        if p.kind == "delegate":
            return Prompt.single(seat, Decision(("delegate",), f"{p.left} damage to your base: delegate some to a leader?"))
        if p.kind in ("compute", "backup"):
            return Prompt.single(seat, Decision(("token", "skip"), f"{'Compute' if p.kind == 'compute' else 'Backup'}: place {p.left} Computation token(s) on Mainframe units"))
        what = f"{p.kind_of} units" if p.kind == "transport" else "Rallied units"
        return Prompt.single(seat, Decision(("place", "skip"), f"{'Transport' if p.kind == 'transport' else 'Sympathized'}: place up to {p.left} {what}"))

    @step("draw", rule=R_DRAW, depends=lambda s: (_pending_key(s) if s.pending else None, s.active, not s.sides[s.active].deck.cards))
    def ask_draw(self, state: AatState) -> Prompt:
        if state.pending:
            return self._ask_pending(state, state.pending[0])
        seat = state.active
        if state.sides[seat].deck.cards:
            return Prompt.single(seat, DrawRequest(f"deck-{seat}", "phase 1: draw 1 card"))
        return Prompt.single(seat, Decision(("end_phase",), "phase 1: the main deck is empty, nothing to draw (RULINGS A-06)"))

    @step("deploy", rule=R_PLAY, depends=lambda s: (_pending_key(s) if s.pending else None, s.active, s.plays, not s.sides[s.active].hand, s.escalation.level))
    def ask_deploy(self, state: AatState) -> Prompt:
        if state.pending:
            return self._ask_pending(state, state.pending[0])
        seat = state.active
        kinds = ("play", "end_phase") if state.plays < PLAYS and len(state.sides[seat].hand) else ("end_phase",)
        return Prompt.single(seat, Decision(kinds, f"phase 1: play up to {PLAYS - state.plays} more card(s) at escalation {state.escalation.level}"))

    @step("combat", rule=R_COMBAT, depends=lambda s: (_pending_key(s) if s.pending else None, s.active))
    def ask_combat(self, state: AatState) -> Prompt:
        if state.pending:
            return self._ask_pending(state, state.pending[0])
        return Prompt.single(state.active, Decision(("attack", "order", "move", "clear", "end_phase"), "phase 2: actions"))

    @step("end", rule=R_END, depends=lambda s: (_pending_key(s) if s.pending else None, s.active, not s.sides[s.active].objectives, s.placed_objective))
    def ask_end(self, state: AatState) -> Prompt:
        if state.pending:
            return self._ask_pending(state, state.pending[0])
        seat = state.active
        kinds = ("place_objective", "end_phase") if state.sides[seat].objectives and not state.placed_objective else ("end_phase",)
        return Prompt.single(seat, Decision(kinds, "phase 3: place an objective unit, or end the turn"))

    # --------------------------------------------------------------- violations

    def violations(self, state: AatState, action: Action, prompt: Prompt) -> tuple[Violation, ...]:
        cls = type(action)
        # A draw's card is checked by the kernel against the deck; nothing else to see.
        # (The kernel asks only for a seat it awaits, with a kind it accepts.)
        if cls is Draw:
            return ()
        # The rule checks of the action's class, found in one look-up (no isinstance chain);
        # the effect primitives (damage, heal, tokens…) share one.
        check = _CHECKS.get(cls)
        if check is not None:
            found = check(self, state, action)
        else:
            found = self._primitive_violations(state, action, state.pending[0] if state.pending else None)
        return tuple(found) if found else ()

    def _mulligan_violations(self, state: AatState, action: Mulligan) -> list[Violation]:
        found: list[Violation] = []
        side = state.sides[action.seat]
        if len(set(action.cards)) != len(action.cards):
            found.append(Violation("repeated-card", R_HAND, f"{state.name(action.seat)}, name each card you discard once."))
        for c in action.cards:
            if c not in side.hand:
                found.append(Violation("not-in-hand", R_HAND, f"{state.name(action.seat)}, {c!r} is not a card in your hand."))
        return found

    def _end_phase_violations(self, state: AatState, action: EndPhase) -> Iterable[Violation]:
        if state.phase == "draw" and state.sides[action.seat].deck.cards:
            return (Violation("must-draw", R_DRAW, f"{state.name(action.seat)} draws 1 card at the start of the turn before anything else."),)
        return ()

    def _move_violations(self, state: AatState, action: Move) -> list[Violation]:
        found: list[Violation] = []
        seat = action.seat
        piece = self._actor(state, action.piece, seat, R_MOVE, found)
        if piece is not None:
            if self.kind(state, piece.id) == "base" or set(state.card(piece.id).theaters) != set(THEATERS):
                found.append(Violation("one-theater", R_MOVE, f"{state.name(seat)}, {state.card(piece.id).title} can be deployed in only one theater, so it cannot change theaters."))
            elif piece.count("Disruption"):
                found.append(Violation("disrupted", R_TOKENS, f"{state.name(seat)}, {state.card(piece.id).title} is Disrupted: its only action is removing 1 Disruption token."))
        return found

    def _clear_violations(self, state: AatState, action: Clear) -> list[Violation]:
        found: list[Violation] = []
        piece = self._actor(state, action.piece, action.seat, R_TOKENS, found)
        if piece is not None and not piece.count("Disruption"):
            found.append(Violation("no-disruption", R_TOKENS, f"{state.name(action.seat)}, {state.card(piece.id).title} has no Disruption token to remove."))
        return found

    def _delegate_violations(self, state: AatState, action: Delegate) -> list[Violation]:
        found: list[Violation] = []
        seat = action.seat
        p = state.pending[0] if state.pending else None
        if action.amount < 0 or p is None or action.amount > p.left:
            found.append(Violation("bad-amount", R_BASES, f"{state.name(seat)}, delegate from 0 to {p.left if p else 0} damage."))
        if action.amount and not any(l.id == action.leader for l in self.leaders(state, seat)):
            found.append(Violation("not-a-leader", R_BASES, f"{state.name(seat)}, {action.leader!r} is not one of your leaders in play."))
        return found

    def _skip_violations(self, state: AatState, action: Skip) -> Iterable[Violation]:
        p = state.pending[0] if state.pending else None
        if p is not None and p.kind == "supply" and state.sides[action.seat].deck.cards:
            return (Violation("must-draw", R_TRAITS, f"{state.name(action.seat)}, Supply draws {p.left} card(s): draw them."),)
        return ()

    def explain(self, state: AatState, action: Action, prompt: Prompt) -> Iterator[Violation]:
        """Why a kind is not on offer, in the game's words (only from public facts)."""
        seat = action.seat
        if seat not in prompt.actors or state.pending:
            return
        if state.phase == "draw" and not isinstance(action, Draw):
            yield Violation("must-draw", R_DRAW, f"{state.name(seat)} draws 1 card at the start of the turn before anything else.")
        elif state.phase == "deploy" and isinstance(action, Play):
            if state.plays >= PLAYS:
                yield Violation("two-plays", R_PLAY, f"{state.name(seat)} has already played {PLAYS} cards this turn.")
            else:
                yield Violation("empty-hand", R_PLAY, f"{state.name(seat)} has no card in hand to play.")
        elif isinstance(action, PlaceObjective) and state.phase == "end" and state.placed_objective:
            yield Violation("one-objective", R_OBJECTIVE, f"{state.name(seat)} may place one objective unit per turn.")
        elif isinstance(action, (Attack, Order, Move, Clear)) and state.phase != "combat":
            yield Violation("not-combat", R_COMBAT, f"{state.name(seat)}, units act in phase 2 (combat), not now.")

    def _infiltrate_violations(self, state: AatState, a: Infiltrate) -> Iterator[Violation]:
        pending = self._infiltrators(state, a.seat)
        if a.card not in pending:
            yield Violation("not-infiltrator", R_TRAITS, f"{state.name(a.seat)}, {a.card!r} is not an Infiltrate unit waiting in your Special Forces Deck.")
        elif a.theater not in state.card(a.card).theaters:
            yield Violation("wrong-theater", R_DEPLOY, f"{state.name(a.seat)}, {state.card(a.card).title} can only be deployed in {self._theaters(state.card(a.card))}.")

    def _infiltrators(self, state: AatState, seat: str) -> list[str]:
        return [c for c in state.sides[seat].special_forces if state.card(c).has("Infiltrate") and state.card(c).kind == "unit"]

    def _theaters(self, card: Card) -> str:
        return " or ".join(THEATER_NAMES[t] for t in card.theaters) or "no theater"

    def _placement(self, state: AatState, seat: str, card_id: str, theater: str, rule: str, *, level: bool = True) -> Iterator[Violation]:
        """The checks every placement of a unit or leader shares: the theater, the
        escalation requirement."""
        c = state.card(card_id)
        if level and c.escalation > state.escalation.level:
            yield Violation("escalation-too-low", R_PLAY, f"{state.name(seat)}, {c.title} needs escalation {c.escalation}; it is {state.escalation.level}.")
        if c.kind == "leader" or c.kind == "effect":
            if theater:
                yield Violation("no-theater", R_LEADER if c.kind == "leader" else R_EFFECT,
                                f"{state.name(seat)}, {'a leader goes beside your base' if c.kind == 'leader' else 'a one-time effect is not placed in a theater'}: leave the theater empty.")
        elif theater not in c.theaters:
            yield Violation("wrong-theater", rule, f"{state.name(seat)}, {c.title} can only be deployed in {self._theaters(c)}, not {theater or 'no theater'!r}.")

    def _play_violations(self, state: AatState, a: Play) -> list[Violation]:
        found: list[Violation] = []
        if a.card not in state.sides[a.seat].hand:
            found.append(Violation("not-in-hand", R_PLAY, f"{state.name(a.seat)}, {a.card!r} is not a card in your hand."))
            return found
        if state.plays >= PLAYS:
            found.append(Violation("two-plays", R_PLAY, f"{state.name(a.seat)} has already played {PLAYS} cards this turn."))
        c = state.card(a.card)
        if c.kind not in ("unit", "leader", "effect"):
            found.append(Violation("not-playable", R_PLAY, f"{state.name(a.seat)}, {c.title} is not played from the hand."))
            return found
        found.extend(self._placement(state, a.seat, a.card, a.theater, R_DEPLOY))
        return found

    def _actor(self, state: AatState, piece_id: str, seat: str, rule: str, found: list[Violation],
               attack: bool = False) -> Piece | None:
        """The piece that acts, if it may act now; else None, with the reason added to ``found``."""
        piece = state.pieces.get(piece_id)
        if piece is None or piece.owner != seat:
            found.append(Violation("not-yours", rule, f"{state.name(seat)}, {piece_id!r} is not a card of yours in play."))
            return None
        if not self.can_act(state, piece, attack):
            found.append(Violation("no-action", R_COMBAT, f"{state.name(seat)}, {state.card(piece.id).title} has no action left this turn (units placed during phase 2 do not act; 5.2.8.1: one instruction per unit per turn)."))
            return None
        return piece

    def _attack_violations(self, state: AatState, a: Attack) -> list[Violation]:
        found: list[Violation] = []
        piece = self._actor(state, a.piece, a.seat, R_ATTACK, found, attack=True)
        if piece is None:
            return found
        me = state.card(piece.id)
        if me.kind not in UNIT_KINDS:
            found.append(Violation("base-cannot-attack", R_ACTIONS, f"{state.name(a.seat)}, bases can only perform orders listed on their card or their leader's card."))
            return found
        if piece.count("Disruption"):
            found.append(Violation("disrupted", R_TOKENS, f"{state.name(a.seat)}, {me.title} is Disrupted: its only action is removing 1 Disruption token."))
            return found
        target = state.pieces.get(a.target)
        if target is None:
            found.append(Violation("no-target", R_ATTACK, f"{state.name(a.seat)}, {a.target!r} is not a card in play."))
            return found
        them = state.card(target.id)
        if a.mark and not piece.count("Mark"):
            found.append(Violation("no-mark", R_TRAITS, f"{state.name(a.seat)}, {me.title} has no Mark token to spend."))
        if target.theater != piece.theater:
            found.append(Violation("other-theater", R_ATTACK, f"{state.name(a.seat)}, {me.title} can only attack in its own theater ({THEATER_NAMES[piece.theater]})."))
            return found
        if target.owner == a.seat:
            if not (them.kind == "base" and self._viral_against(state, a.seat)):
                found.append(Violation("own-card", R_ATTACK, f"{state.name(a.seat)}, attack an enemy card, not your own."))
            elif not target.count("Computation"):
                found.append(Violation("no-computation", R_ALT, f"{state.name(a.seat)}, your base has no Computation token to remove."))
            return found
        if them.kind == "leader":
            if not a.mark:
                found.append(Violation("leader-needs-mark", R_LEADERS, f"{state.name(a.seat)}, leaders can not be attacked unless the attacking unit spends a Mark token on itself."))
            return found
        if them.kind == "base":
            if any(self.works(state, q, "Defender") for q in state.in_theater(target.theater, target.owner) if q.id != target.id):
                found.append(Violation("base-defended", R_TRAITS, f"{state.name(a.seat)}, {state.name(target.owner)}'s base is protected by a Defender unit in {THEATER_NAMES[target.theater]}."))
            if self.works(state, piece, "Capital") and any(self.works(state, q, "Capital") for q in state.in_theater(target.theater, target.owner)):
                found.append(Violation("capital-blocked", R_TRAITS, f"{state.name(a.seat)}, a Capital unit can not attack the enemy base while enemy Capital units are in the same theater."))
            if self.works(state, piece, "Fighter") and any(self.works(state, q, "Fighter") for q in state.in_theater(target.theater, target.owner)):
                found.append(Violation("fighter-blocked", R_TRAITS, f"{state.name(a.seat)}, a Fighter can not attack the enemy base while enemy Fighters are in the same theater."))
            return found
        if self.works(state, target, "Capital") and self.works(state, piece, "Fighter") and not (self.works(state, piece, "Bomber") or self.works(state, piece, "Torpedo")):
            found.append(Violation("fighter-vs-capital", R_TRAITS, f"{state.name(a.seat)}, a Fighter can not attack a Capital unit (only with Bomber or Torpedo)."))
        if self.works(state, target, "Fighter") and self.works(state, piece, "Capital") and not self.works(state, piece, "Point-Defense"):
            found.append(Violation("capital-vs-fighter", R_TRAITS, f"{state.name(a.seat)}, a Capital unit can attack a Fighter only through Point-Defense."))
        if self.works(state, target, "Defended") and not a.mark and any(
                self.works(state, q, "Defender") for q in state.in_theater(target.theater, target.owner) if q.id != target.id):
            found.append(Violation("defended", R_TRAITS, f"{state.name(a.seat)}, {them.title} is Defended while an allied Defender unit is in its theater (spend a Mark token to ignore it)."))
        return found

    def _viral_against(self, state: AatState, seat: str) -> bool:
        """Whether ``seat``'s opponent plays Viral Computer Takeover (5.1.2.3.3)."""
        return self.objective(state, state.other(seat)).goal == "viral"

    def _order_violations(self, state: AatState, a: Order) -> list[Violation]:
        found: list[Violation] = []
        piece = self._actor(state, a.piece, a.seat, R_ORDERS, found)
        if piece is None:
            return found
        if piece.count("Disruption"):
            found.append(Violation("disrupted", R_TOKENS, f"{state.name(a.seat)}, {state.card(piece.id).title} is Disrupted: its only action is removing 1 Disruption token."))
            return found
        source = state.pieces.get(a.card)
        if source is None or source.owner != a.seat:
            found.append(Violation("not-yours", R_ORDERS, f"{state.name(a.seat)}, {a.card!r} is not a card of yours in play."))
            return found
        ok = source.id == piece.id or (self.kind(state, piece.id) == "base" and self.kind(state, source.id) == "leader")
        if not ok:
            found.append(Violation("not-its-order", R_ORDERS, f"{state.name(a.seat)}, a unit performs its own orders; a base its own or a leader's."))
        elif not 0 <= a.index < len(state.card(source.id).orders):
            found.append(Violation("no-such-order", R_ORDERS, f"{state.name(a.seat)}, {state.card(source.id).title} has no order number {a.index + 1}."))
        return found

    def _objective_violations(self, state: AatState, a: PlaceObjective) -> list[Violation]:
        found: list[Violation] = []
        if state.placed_objective:
            found.append(Violation("one-objective", R_OBJECTIVE, f"{state.name(a.seat)} may place one objective unit per turn."))
        if a.card not in state.sides[a.seat].objectives:
            found.append(Violation("not-objective", R_OBJECTIVE, f"{state.name(a.seat)}, {a.card!r} is not one of your objective cards set aside."))
            return found
        c = state.card(a.card)
        role = state.role(a.seat)
        if c.has("Attacker") and role != "attacker" or c.has("Defender (Objective)") and role != "defender":
            found.append(Violation("wrong-role", R_TRAITS, f"{state.name(a.seat)}, {c.title} can only be put into play by the {'Attacker' if c.has('Attacker') else 'Defender'}."))
        base = state.base(a.seat)
        home = base.theater if base else HOME[role]
        if a.theater != home:
            found.append(Violation("not-base-theater", R_OBJECTIVE, f"{state.name(a.seat)}, an objective unit goes in the same theater as your base ({THEATER_NAMES[home]})."))
        elif home not in c.theaters:
            found.append(Violation("wrong-theater", R_OBJECTIVE, f"{state.name(a.seat)}, {c.title} can not be placed in {THEATER_NAMES[home]}, your base's theater."))
        if c.escalation > state.escalation.level:
            found.append(Violation("escalation-too-low", R_PLAY, f"{state.name(a.seat)}, {c.title} needs escalation {c.escalation}; it is {state.escalation.level}."))
        return found

    def _primitive_violations(self, state: AatState, a: Action, p: Pending | None) -> list[Violation]:
        found: list[Violation] = []
        if p is None:
            return found
        if p.kind in ("compute", "backup"):
            if not isinstance(a, Token):
                return found
            t = state.pieces.get(a.target)
            if a.token != "Computation" or a.delta != 1:
                found.append(Violation("bad-token", R_TRAITS, f"{state.name(a.seat)}, {'Compute' if p.kind == 'compute' else 'Backup'} places Computation tokens one at a time (token 'Computation', delta 1)."))
            if t is None or t.owner != a.seat or not self.works(state, t, "Mainframe") or t.id == p.card:
                found.append(Violation("not-mainframe", R_TRAITS, f"{state.name(a.seat)}, Computation tokens go on your {'other ' if p.kind == 'backup' else ''}units with the Mainframe trait."))
            elif t.count("Computation") >= MAINFRAME_LIMIT:
                found.append(Violation("mainframe-full", R_TRAITS, f"{state.name(a.seat)}, {state.card(t.id).title} already hosts {MAINFRAME_LIMIT} Computation tokens (Mainframe)."))
            return found
        if p.kind in ("transport", "rally"):
            if isinstance(a, Place):
                found.extend(self._place_violations(state, a, p))
            return found
        if p.kind != "text":
            return found
        cls = type(a)
        if cls in _TARGETED:
            t = state.pieces.get(a.target)  # type: ignore[attr-defined]
            if t is None:
                found.append(Violation("no-target", R_TEXT, f"{state.name(a.seat)}, {getattr(a, 'target')!r} is not a card in play."))
                return found
            # One branch per class; a card's title is looked up only for a message.
            if cls is Damage or cls is Heal:
                if not 1 <= a.amount <= MAX_AMOUNT:  # type: ignore[attr-defined]
                    found.append(Violation("bad-amount", R_TEXT, f"{state.name(a.seat)}, the amount is from 1 to {MAX_AMOUNT}."))
                if cls is Damage:
                    if state.card(t.id).kind == "leader":
                        found.append(Violation("leader-needs-mark", R_LEADERS, f"{state.name(a.seat)}, leaders can not be directly damaged unless an attacking unit spends a Mark token (RULINGS A-07)."))
                elif "Damage" not in t.tokens:
                    found.append(Violation("no-damage", R_TOKENS, f"{state.name(a.seat)}, {state.card(t.id).title} has no Damage token to remove."))
            elif cls is Token:
                found.extend(self._token_violations(state, a, t))  # type: ignore[arg-type]
            elif cls is MoveTheater:
                c = state.card(t.id)
                if c.kind not in UNIT_KINDS or len(c.theaters) != 2:
                    found.append(Violation("one-theater", R_MOVE, f"{state.name(a.seat)}, {c.title} can be deployed in only one theater, so it cannot change theaters."))
            elif cls is Instruct:
                if t.owner != a.seat or state.card(t.id).kind not in UNIT_KINDS:
                    found.append(Violation("not-yours", R_INSTRUCTION, f"{state.name(a.seat)}, only your own units receive instructions."))
                elif state.phase != "combat":
                    found.append(Violation("not-combat", R_INSTRUCTION, f"{state.name(a.seat)}, an instruction is an additional action in phase 2."))
                elif t.id in state.instructed or t.id in state.ready:
                    found.append(Violation("one-instruction", R_INSTRUCTION, f"{state.name(a.seat)}, {state.card(t.id).title} {'still has its own action' if t.id in state.ready else 'has already received an instruction this turn'}."))
            else:
                found.extend(self._score_violations(state, a, t))  # type: ignore[arg-type]
        elif isinstance(a, Discard):
            if a.card not in state.sides[a.seat].hand:
                found.append(Violation("not-in-hand", R_TEXT, f"{state.name(a.seat)}, {a.card!r} is not a card in your hand."))
        elif isinstance(a, Place):
            found.extend(self._place_violations(state, a, p))
        return found

    def _token_violations(self, state: AatState, a: Token, t: Piece) -> list[Violation]:
        found: list[Violation] = []
        spec = TOKENS.get(a.token)
        if spec is None or a.token == "Damage" or "scale" in spec.on:
            found.append(Violation("bad-token", R_TOKENS, f"{state.name(a.seat)}, {a.token!r} is not a token placed on cards this way (use damage or heal for Damage tokens)."))
            return found
        if a.delta == 0 or abs(a.delta) > MAX_AMOUNT:
            found.append(Violation("bad-amount", R_TOKENS, f"{state.name(a.seat)}, add or remove from 1 to {MAX_AMOUNT} tokens."))
            return found
        if a.delta < 0:
            if t.count(a.token) < -a.delta:
                found.append(Violation("too-few-tokens", R_TOKENS, f"{state.name(a.seat)}, {state.card(t.id).title} holds {t.count(a.token)} {a.token} token(s), not {-a.delta}."))
            return found
        k = state.card(t.id).kind
        where = k if k == "base" or k == "leader" else "unit"
        if where not in spec.on:
            found.append(Violation("wrong-host", R_TOKENS, f"{state.name(a.seat)}, {a.token} tokens are not placed on a {where} ({', '.join(spec.on)} only)."))
            return found
        if a.token == "Computation":
            viral = where == "base" and t.owner != a.seat and self.objective(state, a.seat).goal == "viral"
            if not viral and not self.works(state, t, "Mainframe"):
                found.append(Violation("not-mainframe", R_TOKENS, f"{state.name(a.seat)}, Computation tokens go only on units with the Mainframe trait."))
            elif not viral and t.count("Computation") + a.delta > MAINFRAME_LIMIT:
                found.append(Violation("mainframe-full", R_TRAITS, f"{state.name(a.seat)}, {state.card(t.id).title} can host up to {MAINFRAME_LIMIT} Computation tokens (Mainframe)."))
        return found

    def _score_violations(self, state: AatState, a: Score, t: Piece) -> list[Violation]:
        found: list[Violation] = []
        o = self.objective(state, a.seat)
        title = state.card(t.id).title
        if t.owner != a.seat:
            found.append(Violation("not-yours", R_ALT, f"{state.name(a.seat)}, score with your own cards."))
            return found
        if a.escape:
            if o.goal != "escape":
                found.append(Violation("no-escape", R_ALT, f"{state.name(a.seat)}, {o.name or 'your subfaction'} does not score by escaping (it is not Base Evacuation)."))
            elif "Transport" not in state.card(t.id).types or t.theater != "space":
                found.append(Violation("not-escaping", o.rule, f"{state.name(a.seat)}, only a Transport in Space can escape the system; {title} is not one."))
        else:
            if o.goal != "score":
                found.append(Violation("no-objective-tokens", R_ALT, f"{state.name(a.seat)}, {o.name or 'your subfaction'} does not score Objective tokens."))
            elif self.kind(state, t.id) != "objective":
                found.append(Violation("not-objective", o.rule, f"{state.name(a.seat)}, Objective tokens are scored with your objective units; {title} is not one."))
        return found

    def _place_violations(self, state: AatState, a: Place, p: Pending) -> list[Violation]:
        found: list[Violation] = []
        side = state.sides[a.seat]
        if a.card not in side.hand and a.card not in side.special_forces:
            found.append(Violation("not-available", R_TEXT, f"{state.name(a.seat)}, {a.card!r} is not in your hand or Special Forces Deck."))
            return found
        c = state.card(a.card)
        if c.kind not in ("unit", "leader") or (p.kind != "text" and c.kind != "unit"):
            found.append(Violation("not-a-unit", R_TRAITS, f"{state.name(a.seat)}, only units (and, by a card's text, leaders) are placed: {c.title} is not one."))
            return found
        if p.kind == "transport" and p.kind_of not in c.types:
            found.append(Violation("wrong-type", R_TRAITS, f"{state.name(a.seat)}, this Transport places {p.kind_of} units; {c.title} is not one."))
        if p.kind == "rally" and not c.has("Rallied"):
            found.append(Violation("not-rallied", R_TRAITS, f"{state.name(a.seat)}, Sympathized places units with the Rallied trait; {c.title} has none."))
        found.extend(self._placement(state, a.seat, a.card, a.theater, R_DEPLOY))

    # ---------------------------------------------------------------- execution
        return found

    def execute(self, state: AatState, action: Action) -> None:
        cls = type(action)
        if state.pending and cls is not Mulligan and cls is not Infiltrate:
            self._resolve(state, action, state.pending[0])
            return
        # The action's class finds its effect in one look-up (no isinstance chain).
        effect = _EFFECTS.get(cls)
        if effect is not None:
            effect(self, state, action)

    def _mulligan(self, state: AatState, action: Mulligan) -> None:
        seat = action.seat
        side = state.sides[seat]
        for c in action.cards:
            side.hand.remove(c)
            side.aside.append(c)
        state.redraw = len(action.cards)
        state.note(f"{state.name(seat)} mulligans {len(action.cards)} card(s) (5.2.5.2).", seat)
        state.note(f"You set aside {', '.join(state.card(c).title for c in action.cards) or 'nothing'}.", seat, to=(seat,))
        if state.redraw:
            state.phase = "redraw"
        else:
            self._after_mulligan(state)

    def _infiltrate(self, state: AatState, action: Infiltrate) -> None:
        self._place_piece(state, action.seat, action.card, action.theater, "infiltrates")
        self._next_infiltrator(state)

    def _end_phase_action(self, state: AatState, action: EndPhase) -> None:
        self._end_phase(state)

    def _order(self, state: AatState, action: Order) -> None:
        seat = action.seat
        piece = state.pieces[action.piece]
        self._spend(state, piece)
        text = state.card(action.card).orders[action.index]
        state.note(f"{state.name(seat)}: {state.card(piece.id).title} performs the order of {state.card(action.card).title}: »{text}« (5.2.6.2.2).", seat)
        leader = state.pieces[action.card]
        self._commanded(state, piece, extra=leader if leader.id != piece.id else None)
        state.pending.insert(0, Pending("text", seat, action.card, text=text))

    def _move_action(self, state: AatState, action: Move) -> None:
        piece = state.pieces[action.piece]
        self._spend(state, piece)
        self._move(state, piece)
        self._commanded(state, piece)

    def _clear(self, state: AatState, action: Clear) -> None:
        piece = state.pieces[action.piece]
        self._spend(state, piece)
        piece.add("Disruption", -1)
        state.note(f"{state.name(action.seat)}: {state.card(piece.id).title} removes 1 Disruption token (5.2.8.4).", action.seat)

    def _place_objective(self, state: AatState, action: PlaceObjective) -> None:
        seat = action.seat
        state.sides[seat].objectives.remove(action.card)
        state.placed_objective = True
        self._place_piece(state, seat, action.card, action.theater, "places the objective unit")

    def _draw(self, state: AatState, action: Draw) -> None:
        seat = action.seat
        side = state.sides[seat]
        side.deck.take(action.card)
        side.hand.add(action.card)
        state.note(f"{state.name(seat)} draws a card.", seat)
        state.note(f"You draw {state.card(action.card).title}.", seat, to=(seat,))
        if state.phase == "deal":
            if len(side.hand) == HAND_START:
                if seat == state.seat_of("defender"):
                    state.active = state.seat_of("attacker")
                else:
                    state.active = state.seat_of("defender")
                    state.phase = "mulligan"
        elif state.phase == "redraw":
            state.redraw -= 1
            if not state.redraw:
                self._after_mulligan(state)
        elif state.phase == "draw":
            state.phase = "deploy"

    def _after_mulligan(self, state: AatState) -> None:
        seat = state.active
        side = state.sides[seat]
        if side.aside:
            side.deck.cards.extend(side.aside)
            side.aside.clear()
            side.deck.shuffle(state.rng)
            state.note(f"{state.name(seat)} shuffles the discarded cards back into the main deck (5.2.5.2).", seat)
        if seat == state.seat_of("defender"):
            state.active = state.seat_of("attacker")
            state.phase = "mulligan"
            return
        # Infiltrate (5.2.8.2): units able to go to one theater only deploy by themselves.
        for s in (state.seat_of("defender"), state.seat_of("attacker")):
            for c in list(self._infiltrators(state, s)):
                if len(state.card(c).theaters) == 1:
                    self._place_piece(state, s, c, state.card(c).theaters[0], "infiltrates")
        state.active = state.seat_of("defender")
        self._next_infiltrator(state)

    def _next_infiltrator(self, state: AatState) -> None:
        for s in (state.seat_of("defender"), state.seat_of("attacker")):
            if self._infiltrators(state, s):
                state.active = s
                state.phase = "infiltrate"
                return
        self._start_turn(state, state.seat_of("defender"))

    def _start_turn(self, state: AatState, seat: str) -> None:
        state.active = seat
        state.turn += 1
        state.phase = "draw"
        state.plays = 0
        state.ready.clear()
        state.instructed.clear()
        state.command.clear()
        state.repeat.clear()
        state.placed_objective = False
        state.note(f"Turn {state.turn}: {state.name(seat)} ({state.role(seat).title()}).", seat)

    def _end_phase(self, state: AatState) -> None:
        seat = state.active
        if state.phase == "draw":
            state.note(f"{state.name(seat)}'s main deck is empty: no card is drawn (RULINGS A-06).", seat)
            state.phase = "deploy"
        elif state.phase == "deploy":
            state.phase = "combat"
            cards = state.cards.cards
            state.ready = [p.id for p in state.pieces.values()
                           if p.owner == seat and cards[p.card].kind in ("unit", "objective", "base")]
            state.note(f"{state.name(seat)} begins phase 2: {len(state.ready)} card(s) may act.", seat)
        elif state.phase == "combat":
            state.ready.clear()
            state.command.clear()
            state.repeat.clear()
            state.phase = "end"
        elif state.phase == "end":
            o = self.objective(state, seat)
            if o.goal == "viral":
                enemy = state.base(state.other(seat))
                if enemy is not None and enemy.count("Computation") >= o.target:
                    self._win(state, seat, f"{state.name(seat)} completed {o.name}: {enemy.count('Computation')} Computation tokens on the enemy base ({o.rule})")
                    return
            self._start_turn(state, state.other(seat))

    def _play(self, state: AatState, a: Play) -> None:
        seat = a.seat
        c = state.card(a.card)
        state.plays += 1
        if c.kind == "effect":
            state.sides[seat].hand.remove(a.card)
            state.sides[seat].discard.append(a.card)
            state.note(f"{state.name(seat)} plays the one-time effect {c.title}: {c.effect} (5.2.6.2.1.1)", seat)
            expert = self._experts(state, seat, a.card)
            if expert:
                state.note(f"{c.title}: {expert}.", seat)
            frames = self._immediate(state, seat, a.card)
            if c.effect:
                frames.append(Pending("text", seat, a.card, text=c.effect, expert=expert))
            state.pending[0:0] = frames
            return
        self._place_piece(state, seat, a.card, a.theater, "deploys", self._experts(state, seat, a.card))

    def _experts(self, state: AatState, seat: str, card_id: str) -> str:
        """X Expert (5.2.8.2): "When you play an X card, count this unit twice instead of
        once." The book never says what is counted (RULINGS A-25), so the engine counts
        nothing itself: when a card is played, it names the seat's working X Expert units
        whose X is one of the card's types, in the log and in the prompt of the card's text,
        for the table to count them twice there."""
        types = state.card(card_id).types
        experts = [q for q in state.pieces.values() if q.owner == seat and q.id != card_id and self.works(state, q, "Expert")
                   and state.card(q.id).trait("Expert").x in types]  # type: ignore[union-attr]
        if not experts:
            return ""
        kinds = sorted({str(state.card(q.id).trait("Expert").x) for q in experts})  # type: ignore[union-attr]
        names = ", ".join(state.card(q.id).title for q in experts)
        return (f"{' and '.join(k + ' Expert' for k in kinds)}: wherever this {'/'.join(kinds)} card counts units, "
                f"count {names} twice (RULINGS A-25)")

    def _place_piece(self, state: AatState, seat: str, card_id: str, theater: str, verb: str, expert: str = "") -> None:
        """A unit, leader or objective unit enters play: Unique, then its immediate traits."""
        side = state.sides[seat]
        for zone in (side.hand.cards, side.special_forces, side.objectives):
            if card_id in zone:
                zone.remove(card_id)
        c = state.card(card_id)
        if c.unique:
            for other in list(state.pieces.values()):
                if other.owner == seat and state.card(other.id).name == c.name and state.card(other.id).unique:
                    del state.pieces[other.id]
                    side.discard.append(other.id)
                    state.note(f"{state.name(seat)} discards the {c.title} already in play: only one can be out at a time ({R_UNIQUE}).", seat)
        if c.kind == "leader":
            base = state.base(seat)
            theater = base.theater if base else HOME[state.role(seat)]
        piece = Piece(card_id, c.id, seat, theater)
        state.pieces[card_id] = piece
        where = f"in {THEATER_NAMES[theater]}" if c.kind != "leader" else "beside the base"
        state.note(f"{state.name(seat)} {verb} {c.title} {where}.", seat)
        if expert:
            state.note(f"{c.title}: {expert}.", seat)
        # A piece enters play with no token, so no Disruption: its traits all work.
        if c.has("Stealth"):
            piece.add("Stealth", 1)
        if c.has("Mark") and c.x("Mark"):
            piece.add("Mark", c.x("Mark"))
        if c.has("Funds") and c.x("Funds"):
            base = state.base(seat)
            if base is not None:
                base.add("Funds", c.x("Funds"))
                state.note(f"{state.name(seat)} gains {c.x('Funds')} Funds token(s) (Funds).", seat)
        frames = self._immediate(state, seat, card_id)
        if c.effect:
            frames.append(Pending("text", seat, card_id, text=c.effect, expert=expert))
        state.pending[0:0] = frames

    def _immediate(self, state: AatState, seat: str, card_id: str) -> list[Pending]:
        """The frames of a placed card's immediate traits that need a choice or a draw."""
        c = state.card(card_id)
        frames: list[Pending] = []
        if c.has("Supply") and c.x("Supply"):
            frames.append(Pending("supply", seat, card_id, c.x("Supply")))
        if c.has("Compute") and c.x("Compute") and any(
                self.works(state, p, "Mainframe") for p in state.pieces.values() if p.owner == seat):
            frames.append(Pending("compute", seat, card_id, c.x("Compute")))
        t = c.trait("Transport")
        if t is not None and isinstance(t.x, int) and t.x > 0:
            frames.append(Pending("transport", seat, card_id, t.x, kind_of=str(t.y)))
        return frames

    def _move(self, state: AatState, piece: Piece) -> None:
        piece.theater = "space" if piece.theater == "planetside" else "planetside"
        state.note(f"{state.name(piece.owner)}: {state.card(piece.id).title} moves to {THEATER_NAMES[piece.theater]} (5.2.6.2.3).", piece.owner)

    def _spend(self, state: AatState, piece: Piece, attack: bool = False) -> None:
        """Use up the action ``piece`` acts with."""
        how = self.can_act(state, piece, attack)
        if how == "repeat":
            state.repeat[1] = str(int(state.repeat[1]) - 1)
            if state.repeat[1] == "0":
                state.repeat.clear()
            return
        state.repeat.clear()
        if how == "own":
            state.ready.remove(piece.id)
        elif how == "command":
            state.instructed.append(piece.id)
            left = int(state.command[1]) - 1
            state.note(f"{state.name(piece.owner)}: {state.card(piece.id).title} takes an instruction (Command).", piece.owner)
            if left:
                state.command[1] = str(left)
            else:
                state.command.clear()

    def _commanded(self, state: AatState, piece: Piece, extra: Piece | None = None) -> None:
        """Command X: Y — when this unit takes an action, Y other X units may take an
        additional action (a base performing a Command leader's order counts as the leader's)."""
        for src in (piece, extra):
            if src is None or not self.works(state, src, "Command"):
                continue
            t = state.card(src.id).trait("Command")
            if t is not None and isinstance(t.y, int) and t.y > 0:
                state.command[:] = [str(t.x), str(t.y), piece.id]
                state.note(f"{state.name(piece.owner)}: {state.card(src.id).title}'s Command gives {t.y} other {t.x} unit(s) an additional action.", piece.owner)

    def _attack(self, state: AatState, a: Attack) -> None:
        seat = a.seat
        piece, target = state.pieces[a.piece], state.pieces[a.target]
        repeat = self.can_act(state, piece, attack=True) == "repeat"
        self._spend(state, piece, attack=True)
        me, them = state.card(piece.id), state.card(target.id)
        if a.mark:
            piece.add("Mark", -1)
        if target.owner == seat:
            target.add("Computation", -1)
            state.note(f"{state.name(seat)}: {me.title} attacks its own base to purge the virus: 1 Computation token removed, no damage (5.1.2.3.3).", seat)
        else:
            hit = combat_preview(self.side_of(state, piece), self.side_of(state, target))
            state.note(f"{state.name(seat)}: {me.title} attacks {them.title}{' (spending a Mark token)' if a.mark else ''}: {hit.text} (5.2.6.2.1).", seat)
            self._land(state, target, hit)
            reply = state.pieces.get(target.id)
            if reply is not None and a.piece in state.pieces and self.works(state, reply, "Point-Defense") and self.works(state, piece, "Fighter"):
                x = state.card(reply.id).x("Point-Defense")
                back = damage_preview(self.side_of(state, piece), x, "Point-Defense")
                state.note(f"{state.card(reply.id).title}'s Point-Defense answers {me.title}: {back.text}.", reply.owner)
                self._land(state, piece, back)
        if state.result is not None:
            return
        if not repeat and a.piece in state.pieces and self.works(state, piece, "Repeater") and me.x("Repeater"):
            state.repeat[:] = [piece.id, str(me.x("Repeater"))]
        if not repeat and a.piece in state.pieces:
            self._commanded(state, piece)

    def _land(self, state: AatState, target: Piece, hit: Hit) -> None:
        """Apply a worked-out hit to ``target``: Stealth, Shields, Damage, destruction; a
        base's owner may first delegate damage to a leader."""
        if hit.stealth:
            target.add("Stealth", -1)
            return
        target.add("Shield", -hit.shields)
        if not hit.damage:
            return
        if self.kind(state, target.id) == "base" and self.leaders(state, target.owner):
            state.pending.insert(0, Pending("delegate", target.owner, target.id, hit.damage, target=target.id))
            return
        target.add("Damage", hit.damage)
        if target.count("Damage") >= state.card(target.id).health:
            self._destroy(state, target)

    def _destroy(self, state: AatState, piece: Piece) -> None:
        c = state.card(piece.id)
        owner = piece.owner
        if c.kind == "base":
            del state.pieces[piece.id]
            state.sides[owner].discard.append(piece.id)
            winner = state.other(owner)
            by = ""
            if self.objective(state, winner).goal == "crack":
                by = f" ({self.objective(state, winner).name})" if any(
                    state.card(p.id).name == self.objective(state, winner).card for p in state.pieces.values() if p.owner == winner) else ""
            self._win(state, winner, f"{state.name(winner)} destroyed {state.name(owner)}'s base{by} (5.1.2.1)")
            return
        working = {t: self.works(state, piece, t) for t in ("Backup", "Sympathized")}
        del state.pieces[piece.id]
        state.sides[owner].discard.append(piece.id)
        for lst in (state.ready, state.instructed):
            if piece.id in lst:
                lst.remove(piece.id)
        if state.repeat and state.repeat[0] == piece.id:
            state.repeat.clear()
        state.note(f"{state.name(owner)}'s {c.title} is destroyed and discarded (5.2.6.2.1).", owner)
        self._incident(state, f"{c.title} destroyed")
        frames = []
        if working["Backup"] and c.x("Backup") and piece.count("Computation") and any(
                self.works(state, p, "Mainframe") for p in state.pieces.values() if p.owner == owner):
            frames.append(Pending("backup", owner, piece.id, min(c.x("Backup"), piece.count("Computation"))))
        if working["Sympathized"] and c.x("Sympathized"):
            frames.append(Pending("rally", owner, piece.id, c.x("Sympathized")))
        state.pending[0:0] = frames

    def _incident(self, state: AatState, why: str) -> None:
        before = state.escalation.level
        state.escalation.add_incidents(1)
        if state.escalation.level > before:
            state.note(f"Incident ({why}): escalation rises to {state.escalation.level} (5.2.7).")
        else:
            state.note(f"Incident ({why}): {state.escalation.incidents} of 4 toward the next level (5.2.7).")

    def _win(self, state: AatState, seat: str, reason: str) -> None:
        facts = {"turns": state.turn, "escalation": state.escalation.level}
        role = state.role(seat)
        self.finish(state, Outcome(role, reason, {r: KScore(1 if r == role else 0, dict(facts)) for r in ROLES}, (seat,)))

    # ------------------------------------------------------------- resolution

    def _resolve(self, state: AatState, a: Action, p: Pending) -> None:
        cls = type(a)
        title = state.card(p.card).title if p.card else ""
        if p.kind == "text":
            # The common case first: a primitive applying a card's text, found in one look-up.
            effect = _PRIMITIVES.get(cls)
            if effect is not None:
                effect(self, state, a, f"applying {title}", title)
                return
        seat = a.seat
        if cls is Skip:
            state.pending.pop(0)
            state.note(f"{state.name(seat)} {'stops' if p.kind != 'supply' else 'cannot draw more'} ({title}).", seat)
            return
        if cls is Delegate:
            state.pending.pop(0)
            base = state.pieces[p.target]
            if a.amount:
                leader = state.pieces[a.leader]
                hit = damage_preview(self.side_of(state, leader), a.amount, "delegated")
                state.note(f"{state.name(seat)} delegates {a.amount} of the base's damage to {state.card(leader.id).title}: {hit.text} (5.2.6.2.1.1).", seat)
                self._hurt_directly(state, leader, hit)
            rest = p.left - a.amount
            if rest and state.result is None:
                base.add("Damage", rest)
                state.note(f"{state.name(seat)}'s base takes {rest} damage ({base.count('Damage')} of {state.card(base.id).health}).", seat)
                if base.count("Damage") >= state.card(base.id).health:
                    self._destroy(state, base)
            return
        if cls is Draw:
            side = state.sides[seat]
            side.deck.take(a.card)
            side.hand.add(a.card)
            state.note(f"{state.name(seat)} draws a card ({title}).", seat)
            state.note(f"You draw {state.card(a.card).title}.", seat, to=(seat,))
            if p.kind == "supply":
                p.left -= 1
                if not p.left:
                    state.pending.pop(0)
            return
        if cls is Token and p.kind in ("compute", "backup"):
            t = state.pieces[a.target]
            t.add("Computation", 1)
            state.note(f"{state.name(seat)} places 1 Computation token on {state.card(t.id).title} ({title}'s {'Compute' if p.kind == 'compute' else 'Backup'}).", seat)
            p.left -= 1
            if not p.left or not self._mainframe_room(state, seat, p.card):
                state.pending.pop(0)
            return
        if cls is Place:
            c = state.card(a.card)
            if p.kind in ("transport", "rally"):
                p.left -= 1
                if not p.left:
                    state.pending.pop(0)
            self._place_piece(state, seat, a.card, a.theater if c.kind != "leader" else "", f"places ({title})")
            return
        if cls is Done:
            state.pending.pop(0)
            state.note(f"{state.name(seat)} finishes resolving {title}.", seat)
            return
        self._primitive(state, a, title)

    def _mainframe_room(self, state: AatState, seat: str, source: str) -> bool:
        return any(self.works(state, q, "Mainframe") and q.count("Computation") < MAINFRAME_LIMIT and q.id != source
                   for q in state.pieces.values() if q.owner == seat)

    def _hurt_directly(self, state: AatState, t: Piece, hit: Hit) -> None:
        if hit.stealth:
            t.add("Stealth", -1)
            return
        t.add("Shield", -hit.shields)
        t.add("Damage", hit.damage)
        if hit.damage and t.count("Damage") >= state.card(t.id).health:
            self._destroy(state, t)

    def _primitive(self, state: AatState, a: Action, title: str) -> None:
        # The primitive's class finds its effect in one look-up (no isinstance chain).
        effect = _PRIMITIVES.get(type(a))
        if effect is not None:
            effect(self, state, a, f"applying {title}", title)

    def _p_damage(self, state: AatState, a: Damage, src: str, title: str) -> None:
        t = state.pieces[a.target]
        hit = damage_preview(self.side_of(state, t), a.amount)
        state.note(f"{state.name(a.seat)}, {src}: {a.amount} damage to {state.card(t.id).title}: {hit.text}.", a.seat)
        self._land(state, t, hit)

    def _p_heal(self, state: AatState, a: Heal, src: str, title: str) -> None:
        t = state.pieces[a.target]
        n = min(a.amount, t.count("Damage"))
        t.add("Damage", -n)
        state.note(f"{state.name(a.seat)}, {src}: {state.card(t.id).title} heals {n} damage.", a.seat)

    def _p_token(self, state: AatState, a: Token, src: str, title: str) -> None:
        t = state.pieces[a.target]
        t.add(a.token, a.delta)
        state.note(f"{state.name(a.seat)}, {src}: {'+' if a.delta > 0 else ''}{a.delta} {a.token} token(s) on {state.card(t.id).title}.", a.seat)

    def _p_incident(self, state: AatState, a: Incident, src: str, title: str) -> None:
        self._incident(state, f"{state.name(a.seat)}, {src}")

    def _p_discard(self, state: AatState, a: Discard, src: str, title: str) -> None:
        state.sides[a.seat].hand.remove(a.card)
        state.sides[a.seat].discard.append(a.card)
        state.note(f"{state.name(a.seat)}, {src}: discards {state.card(a.card).title} from hand.", a.seat)

    def _p_move_theater(self, state: AatState, a: MoveTheater, src: str, title: str) -> None:
        # Not _move: the log names the card whose text moved it, not a unit's action.
        piece = state.pieces[a.target]
        piece.theater = "space" if piece.theater == "planetside" else "planetside"
        state.note(f"{state.name(a.seat)}, {src}: {state.card(piece.id).title} moves to {THEATER_NAMES[piece.theater]}.", a.seat)

    def _p_instruct(self, state: AatState, a: Instruct, src: str, title: str) -> None:
        t = state.pieces[a.target]
        state.instructed.append(t.id)
        state.ready.append(t.id)
        state.note(f"{state.name(a.seat)}, {src}: {state.card(t.id).title} receives an instruction: one additional action (5.2.8.1).", a.seat)

    def _p_score(self, state: AatState, a: Score, src: str, title: str) -> None:
        self._score(state, a, title)

    def _score(self, state: AatState, a: Score, title: str) -> None:
        seat = a.seat
        side = state.sides[seat]
        o = self.objective(state, seat)
        t = state.pieces[a.target]
        if a.escape:
            del state.pieces[t.id]
            side.escaped.append(t.id)
            n = len(side.escaped)
            state.note(f"{state.name(seat)}: {state.card(t.id).title} escapes the system ({n} of {o.target}, {o.name}; {o.rule}).", seat)
        else:
            side.scored += 1
            t.add("Objective", 1)
            n = side.scored
            state.note(f"{state.name(seat)} scores an Objective token with {state.card(t.id).title} ({n} of {o.target}, {o.name}; {o.rule}).", seat)
        self._incident(state, f"{o.name} step")
        if n >= o.target:
            state.pending.clear()
            self._win(state, seat, f"{state.name(seat)} completed {o.name} ({o.rule})")

    # -------------------------------------------------------------- listing

    def candidates(self, state: AatState, prompt: Prompt) -> Iterator[Action]:
        seat = prompt.seats()[0] if prompt.waits else ""
        if not seat:
            return
        side = state.sides[seat]
        if state.pending:
            yield from self._pending_candidates(state, seat, state.pending[0])
            return
        phase = state.phase
        if phase == "mulligan":
            hand = side.hand.cards
            for k in range(len(hand) + 1):
                for combo in itertools.combinations(hand, k):
                    yield Mulligan(seat, combo)
        elif phase == "infiltrate":
            for c in self._infiltrators(state, seat):
                for t in state.card(c).theaters:
                    yield Infiltrate(seat, c, t)
        elif phase in ("draw", "deploy", "end"):
            yield EndPhase(seat)
            if phase == "deploy":
                for c in side.hand.cards:
                    card = state.card(c)
                    for t in (card.theaters if card.kind == "unit" else ("",)):
                        yield Play(seat, c, t)
            if phase == "end":
                base = state.base(seat)
                for c in side.objectives:
                    yield PlaceObjective(seat, c, base.theater if base else HOME[state.role(seat)])
        elif phase == "combat":
            yield EndPhase(seat)
            for piece in list(state.pieces.values()):
                if piece.owner != seat or not self.can_act(state, piece, attack=True):
                    continue
                yield Move(seat, piece.id)
                yield Clear(seat, piece.id)
                for q in state.pieces.values():
                    if q.theater == piece.theater:
                        yield Attack(seat, piece.id, q.id)
                        if piece.count("Mark"):
                            yield Attack(seat, piece.id, q.id, True)
                for src in [piece] + (self.leaders(state, seat) if self.kind(state, piece.id) == "base" else []):
                    for i in range(len(state.card(src.id).orders)):
                        yield Order(seat, piece.id, src.id, i)

    def _pending_candidates(self, state: AatState, seat: str, p: Pending) -> Iterator[Action]:
        side = state.sides[seat]
        if p.kind == "supply":
            yield Skip(seat)
        elif p.kind == "delegate":
            for n in range(p.left + 1):
                for l in self.leaders(state, seat) if n else [None]:
                    yield Delegate(seat, l.id if l else "", n)
        elif p.kind in ("compute", "backup"):
            yield Skip(seat)
            for q in state.pieces.values():
                yield Token(seat, q.id, "Computation", 1)
        elif p.kind in ("transport", "rally"):
            yield Skip(seat)
            for c in side.hand.cards + side.special_forces:
                for t in state.card(c).theaters:
                    yield Place(seat, c, t)
        elif p.kind == "text":
            yield Done(seat)
            yield Incident(seat)
            goal = self.objective(state, seat).goal
            for q in state.pieces.values():
                kind = self.kind(state, q.id)
                yield Damage(seat, q.id, 1)
                if q.count("Damage"):
                    yield Heal(seat, q.id, 1)
                if kind in UNIT_KINDS and len(state.card(q.id).theaters) == 2:
                    yield MoveTheater(seat, q.id)
                if q.owner == seat and state.phase == "combat" and kind in UNIT_KINDS:
                    yield Instruct(seat, q.id)
                if q.owner == seat and goal == "score" and kind == "objective":
                    yield Score(seat, q.id)
                if q.owner == seat and goal == "escape" and q.theater == "space":
                    yield Score(seat, q.id, True)
                host = "base" if kind == "base" else ("leader" if kind == "leader" else "unit")
                for tok in ("Shield", "Charge", "Computation", "Disruption", "Funds", "Stealth", "Mark"):
                    if host in TOKENS[tok].on:
                        yield Token(seat, q.id, tok, 1)
                    if q.count(tok):
                        yield Token(seat, q.id, tok, -1)
            for c in side.hand.cards:
                yield Discard(seat, c)
            for c in side.hand.cards + side.special_forces:
                card = state.card(c)
                for t in (card.theaters if card.kind == "unit" else ("",)):
                    yield Place(seat, c, t)

    # --------------------------------------------------------------- views

    def render(self, state: AatState, viewer: str) -> dict[str, Any]:
        over = state.result is not None
        pieces = []
        for p in state.pieces.values():
            c = state.card(p.id)
            pieces.append({"id": p.id, "card": c.id, "name": c.title, "kind": c.kind, "owner": p.owner, "theater": p.theater,
                           "attack": c.attack, "health": c.health, "tokens": dict(sorted(p.tokens.items())),
                           "traits": [str(t) for t in c.traits], "orders": list(c.orders),
                           "acts": bool(self.can_act(state, p, attack=True)) if p.owner == state.active else False})
        sides = {}
        for s, side in state.sides.items():
            mine = viewer == s or over
            o = self.objective(state, s)
            sides[s] = {
                "role": state.role(s),
                "subfaction": state.subfaction(s),
                "deck": len(side.deck.cards),
                "hand": side.hand.view(viewer if not over else s),
                "special_forces": {"count": len(side.special_forces), **({"cards": list(side.special_forces)} if mine else {})},
                "aside": len(side.aside),
                "objectives": list(side.objectives),
                "discard": list(side.discard),
                "unused_base": side.unused_base,
                "objective": {"name": o.name, "goal": o.goal, "rule": o.rule, "target": o.target,
                              "to_be_determined": o.goal == "tbd", "scored": side.scored, "escaped": list(side.escaped)},
            }
        pending = None
        if state.pending:
            p = state.pending[0]
            pending = {"kind": p.kind, "seat": p.seat, "card": p.card, "left": p.left, "type": p.kind_of, "text": p.text, "expert": p.expert}
        return {
            "phase": state.phase, "turn": state.turn, "active": state.active, "plays_left": PLAYS - state.plays if state.phase == "deploy" else 0,
            "escalation": {"level": state.escalation.level, "incidents": state.escalation.incidents, "max": state.escalation.max_level},
            "pieces": pieces, "sides": sides, "pending": pending,
            "command": list(state.command), "repeat": list(state.repeat),
        }

    def secrets(self, state: AatState, viewer: str) -> set[str]:
        if state.result is not None:
            return set()
        hidden: set[str] = set()
        for s, side in state.sides.items():
            hidden.update(side.deck.cards)
            if s != viewer:
                hidden.update(side.hand.cards)
                hidden.update(side.special_forces)
                hidden.update(side.aside)
        return hidden

    def hidden_variant(self, state: AatState, viewer: str, rng: Rng) -> AatState | None:
        """Swap two cards among one side's piles ``viewer`` cannot see (its deck, and for
        the other side's viewer or the public, its hand and cards set aside); Special
        Forces stay in their own deck (5.2.4.2)."""
        if state.result is not None:
            return None
        twin = self.copy(state)
        twin.changed()
        order = sorted(twin.sides)
        rng.shuffle(order)  # either side's hidden cards, so both hands get swapped over a run
        for s in order:
            side = twin.sides[s]
            piles = [side.deck.cards] + ([side.hand.cards, side.aside] if s != viewer else [])
            if swap_hidden(piles, rng):
                return twin
        return None

    def tracked(self, state: AatState) -> dict[str, int]:
        out = {"turn": state.turn, "escalation": state.escalation.level, "incidents": state.escalation.incidents}
        for s in state.sides:
            base = state.base(s)
            out[f"{state.role(s)}_base_damage"] = base.count("Damage") if base else 0
        return out

    def problems(self, state: AatState) -> Iterator[str]:
        for s, side in state.sides.items():
            deck = deck_of(state.options, state.role(s))
            want = sorted(c for sec in instances(deck, state.role(s)).values() for c in sec)
            zones = side.deck.cards + side.hand.cards + side.special_forces + side.objectives + side.aside + side.discard + \
                [side.unused_base] + side.escaped + [p.id for p in state.pieces.values() if p.owner == s]
            if sorted(zones) != want:
                yield f"{s}'s cards are not conserved: {len(zones)} in zones, {len(want)} in the deck"
            if len(side.hand) > 0 and state.phase == "deal" and len(side.hand) > HAND_START:
                yield f"{s} holds {len(side.hand)} cards during the deal"
        for p in state.pieces.values():
            for tok, n in p.tokens.items():
                if n <= 0:
                    yield f"{p.id} holds {n} {tok} tokens"
                spec = TOKENS.get(tok)
                if spec is None or "scale" in spec.on:
                    yield f"{p.id} holds a {tok} token"
            if p.count("Computation") > MAINFRAME_LIMIT and self.kind(state, p.id) != "base":
                yield f"{p.id} holds {p.count('Computation')} Computation tokens"
            if self.kind(state, p.id) != "base" and p.count("Damage") >= state.card(p.id).health:
                yield f"{p.id} should have been destroyed"
        if not 0 <= state.escalation.level <= 5:
            yield f"escalation {state.escalation.level} out of 0–5"

    def undo_barrier(self, state: AatState, action: Action) -> str | None:
        if isinstance(action, Mulligan):
            return "the discarded cards are shuffled back"
        if isinstance(action, (Play, Discard)) or isinstance(action, Place) and action.card in state.sides[action.seat].hand:
            return "a card from a hidden hand was shown"
        return super().undo_barrier(state, action)


def _cid(instance: str) -> str:
    return instance.partition(":")[2].rpartition("#")[0]


# Each action class's rule checks, looked up by class in one step (the effect
# primitives not listed here share _primitive_violations).
_CHECKS = {
    Mulligan: AgainstAllTyrants._mulligan_violations, Infiltrate: AgainstAllTyrants._infiltrate_violations,
    EndPhase: AgainstAllTyrants._end_phase_violations, Play: AgainstAllTyrants._play_violations,
    Attack: AgainstAllTyrants._attack_violations, Order: AgainstAllTyrants._order_violations,
    Move: AgainstAllTyrants._move_violations, Clear: AgainstAllTyrants._clear_violations,
    PlaceObjective: AgainstAllTyrants._objective_violations, Delegate: AgainstAllTyrants._delegate_violations,
    Skip: AgainstAllTyrants._skip_violations,
}

_EFFECTS = {
    Draw: AgainstAllTyrants._draw, Mulligan: AgainstAllTyrants._mulligan, Infiltrate: AgainstAllTyrants._infiltrate,
    Play: AgainstAllTyrants._play, EndPhase: AgainstAllTyrants._end_phase_action, Attack: AgainstAllTyrants._attack,
    Order: AgainstAllTyrants._order, Move: AgainstAllTyrants._move_action, Clear: AgainstAllTyrants._clear,
    PlaceObjective: AgainstAllTyrants._place_objective,
}

# The primitives aimed at a card in play (their ``target``).
_TARGETED = frozenset((Damage, Heal, Token, MoveTheater, Instruct, Score))

_PRIMITIVES = {
    Damage: AgainstAllTyrants._p_damage, Heal: AgainstAllTyrants._p_heal, Token: AgainstAllTyrants._p_token,
    Discard: AgainstAllTyrants._p_discard, MoveTheater: AgainstAllTyrants._p_move_theater,
    Instruct: AgainstAllTyrants._p_instruct, Score: AgainstAllTyrants._p_score, Incident: AgainstAllTyrants._p_incident,
}


GAME = AgainstAllTyrants()

"""Why a kind of action is not on offer now, in the game's terms (the kernel's
``explain``, added to its "The game is waiting for …"): when the rulebook allows that kind
("an attack is announced at the beginning of a turn") and what the game is waiting for
instead, or what stands in the way of the seat (not accredited, no coin, no such card).

Said only to a seat the prompt waits for (another seat hears whose turn it is), from what
the table sees and that seat's own cards, never another seat's.

>>> from rules.outrage import GAME, Attack, Escape
>>> from rules.core import Roll
>>> state = GAME.new([{"id": "ann", "faction": "red", "name": "Ann"},
...                   {"id": "bob", "faction": "blue", "name": "Bob"}], seed=1)
>>> while state.phase == "deal": GAME.push(state, GAME.sample(state))
>>> GAME.push(state, Roll("ann", (6, 5))); GAME.push(state, Roll("bob", (1, 2)))
>>> for v in GAME.check(state, Escape("ann")): print(v.message)
The game is waiting for a roll of 2d6 (move); an escape is not allowed now.
A player escapes from the Cradle Tower at the beginning of a turn, paying the ferryman with a coin and taking out one or more jewels; Ann is at Start.
>>> print(GAME.check(state, Attack("ann", "bob"))[-1].message)
Only accredited players attack; Ann is not accredited yet.
"""
from __future__ import annotations

from typing import Iterator

from rules.core import Action, Prompt, Violation

from .attack import why_not_attack
from .burglary import TOOL_KINDS
from .cards import KIND_NAME, kind_of
from .endgame import can_escape
from .movement import movable_others, unmovable
from .places import BOARD, CRADLE
from .prisons import PRISON_NAMES
from .sections import (
    R_ATTACK, R_CARDS, R_DICE, R_END, R_GENERAL, R_MONEY, R_PRISON, R_RAVEN, R_SPLIT, R_STEAL, R_SURRENDER, R_TOWER,
    R_WALL,
)
from .state import OutrageState
from .tower_cards import playable

WHEN: dict[str, tuple[str, str, str]] = {
    "roll": ("no-throw", R_DICE, "The dice are thrown at the beginning of a turn, again after a double, at Queen's House to be accredited, in prison for a double and for a burglary"),
    "draw": ("no-draw", R_CARDS, "Tower cards are taken when a square or a card says so, and a Raven card on an unmarked square of the Inner Ward"),
    "move": ("no-move", R_GENERAL, "A piece moves the number thrown, once the dice are thrown"),
    "split": ("not-seven", R_SPLIT, "Only a throw totalling seven may be split, between the thrower and another player"),
    "choose": ("no-choice", R_RAVEN, "A choice is made when a card or a square offers one"),
    "play": ("card-not-playable", R_TOWER, "A Tower card is played at the beginning of a turn, or at the moment a card or a square offers"),
    "decline": ("nothing-to-decline", R_GENERAL, "Only an offer may be let go: a card to play, a burglary, a change of card, a challenge"),
    "change": ("no-change", R_CARDS, "Tower cards are changed instead of taking a turn, or on a square that says so"),
    "burgle": ("no-burglary", R_STEAL, "An accredited player declares a burglary with burglary tools on the square facing a jewel in its case"),
    "abandon": ("no-burglary", R_STEAL, "A burglary under way may be abandoned at the beginning of the burglar's turn"),
    "attack": ("no-attack", R_ATTACK, "Accredited players announce an attack at the beginning of a turn, and no dice are thrown"),
    "arm": ("no-attack", R_ATTACK, "Weapons are laid face down only in an attack, by the attacker and the defender"),
    "surrender": ("no-surrender", R_SURRENDER, "Weapons are surrendered when a square or a Raven card says so"),
    "challenge": ("no-challenge", R_SURRENDER, "A player may challenge another who has just surrendered weapons"),
    "escape": ("no-escape", R_END, "A player escapes from the Cradle Tower at the beginning of a turn, paying the ferryman with a coin and taking out one or more jewels"),
    "give": ("no-swap", R_WALL, "Tower cards change hands only in a swap, on a \"Swap a card\" square"),
}
"""For each kind of action: its refusal's code, the rulebook section, and when the rules
allow it."""


def now(state: OutrageState, seat: str) -> str:
    """What the game is waiting for ``seat`` to do, in the game's terms."""
    who = state.seat_name(seat)
    phase = state.phase
    if phase == "deal":
        return f"{who} is being dealt Tower cards"
    if phase == "first":
        return f"{who} throws to decide who starts"
    if phase == "start":
        return f"{who}'s turn begins"
    if phase == "again":
        return f"{who} throws again after a double"
    if phase == "move":
        other = "" if state.mover == seat else f" {state.seat_name(state.mover)}"
        return f"{who} moves{other} {state.steps} squares"
    if phase == "accredit":
        return f"{who} is at Queen's House, to be accredited by a Tower Pass or an odd throw"
    if phase == "prison":
        return f"{who} is held in {PRISON_NAMES[state.held[seat].place]}"
    if phase == "rack":
        return f"{who} is on the Rack"
    if phase == "tea":
        return f"{who} is at tea with the Resident Governor"
    if phase == "burgle":
        return f"{who} throws for the burglary under way"
    if phase == "attack" and state.combat is not None:
        attacker, defender = state.combat.seats
        return f"{state.seat_name(attacker)} attacks {state.seat_name(defender)}, and each lays weapons face down"
    if phase == "draw-tower":
        return f"{who} takes a Tower card"
    if phase == "draw-raven":
        return f"{who} takes a Raven card"
    if phase == "choose":
        return f"{who} chooses: {state.offer}"
    if phase == "offer":
        return f"{who} may {state.offer}, or not"
    if phase == "burgle-offer":
        return f"{who} may declare a burglary here, or not"
    if phase == "change-offer":
        return f"{who} may change a Tower card here, or not"
    if phase == "surrender":
        return f"{who} surrenders their weapons"
    if phase == "challenge":
        return f"{who} may challenge {state.seat_name(state.accused)}, or not"
    if phase == "swap":
        return f"{who} says which Tower card was taken from their hand"
    if phase == "ferry":
        return f"{who} has escaped, and goes back into the Tower or retires"
    return f"{who} must act"


def names(kinds: tuple[str, ...]) -> str:
    """Tower card kinds named for a sentence: "a Rope, a Ladder or a Sanctuary"."""
    named = [("an " if KIND_NAME[k][:1] in "AEIOU" else "a ") + KIND_NAME[k] for k in kinds]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " or " + named[-1]


class Refusals:
    """``explain`` (the rules' part of :class:`~rules.outrage.game.Outrage`)."""

    def explain(self, state: OutrageState, action: Action, prompt: Prompt) -> Iterator[Violation]:
        seat = action.seat
        awaiting = prompt.of(seat)
        if awaiting is None or action.kind in awaiting.accepted:
            return  # not this seat's moment: the kernel says whose turn it is
        why = self._in_the_way(state, action)
        if why is not None:
            yield why
            return
        code, rule, when = WHEN[action.kind]
        yield Violation(code, rule, f"{when}; now {now(state, seat)}.")

    def _in_the_way(self, state: OutrageState, action: Action) -> Violation | None:
        """What stands in the way of ``action`` at a moment its kind could come, if anything."""
        seat, kind, phase = action.seat, action.kind, state.phase
        who = state.seat_name(seat)
        if phase == "start":
            if kind == "attack":
                if not state.accredited[seat]:
                    return Violation("not-accredited", R_ATTACK, f"Only accredited players attack; {who} is not accredited yet.")
                return Violation("cannot-attack", R_ATTACK, f"{who} cannot attack: {why_not_attack(state, seat, action.target)}.")
            if kind == "escape" and not can_escape(state, seat):
                code, rule, when = WHEN["escape"]
                if state.pos[seat] != CRADLE:
                    return Violation(code, rule, f"{when}; {who} is at {BOARD.name_of(state.pos[seat])}.")
                if not state.coins[seat]:
                    return Violation("no-coin", R_MONEY, f"No-one can leave without a coin to pay the ferryman; {who} has none.")
                return Violation(code, rule, f"{when}; {who} carries no jewel.")
            if kind == "change":
                if not state.hands[seat].cards:
                    return Violation("no-change", R_CARDS, f"{who} holds no Tower cards to change.")
                return Violation("no-change", R_CARDS, "The Tower pack is empty: there is no card to change for.")
        if kind == "play":
            return self._not_this_card(state, action)
        if kind == "burgle" and phase == "burgle-offer":
            return Violation("no-tools", R_STEAL, f"{who} holds no burglary tools ({', '.join(KIND_NAME[k] for k in TOOL_KINDS)}).")
        if kind == "abandon" and seat not in state.burglaries:
            return Violation("no-burglary", R_STEAL, f"Only a burglary under way may be abandoned; {who} has none.")
        if phase == "move":
            return self._not_this_move(state, action)
        if phase == "choose" and kind == "decline":
            return Violation("must-choose", R_RAVEN, f"The instructions must be obeyed: {who} chooses ({state.offer}).")
        return None

    def _not_this_card(self, state: OutrageState, action: Action) -> Violation | None:
        """Why no Tower card may be played at this moment, if the moment takes one. Only the
        seat's own hand is spoken of: the refusal goes to that seat."""
        seat, phase = action.seat, state.phase
        who = state.seat_name(seat)
        card = action.card
        kinds = playable(state, seat)
        if phase == "prison" and not kinds:
            place = PRISON_NAMES[state.held[seat].place]
            return Violation("card-not-playable", R_PRISON, f"In {place} the only hope of escape is by throwing a double.")
        if not kinds:
            return None
        if phase == "start" and card in state.hands[seat] and kind_of(card) in ("rope", "ladder"):
            return Violation("card-not-playable", R_TOWER, f"A Rope or a Ladder is played only on a White Tower square marked for it; {who} is at {BOARD.name_of(state.pos[seat])}.")
        return Violation("card-not-playable", R_TOWER, f"Only {names(kinds)} may be played now, and {who} holds none.")

    def _not_this_move(self, state: OutrageState, action: Action) -> Violation | None:
        """Why a move, a stay or a split is not on offer for the move under way."""
        seat, kind = action.seat, action.kind
        mover, steps = state.seat_name(state.mover), state.steps
        if kind == "move":
            return Violation("nowhere-to-go", R_GENERAL, f"{mover} cannot end a move of exactly {steps} on any square: the piece stays where it is (RULINGS M-08).")
        if kind == "choose":
            return Violation("must-move", R_GENERAL, f"{mover} can move {steps}: staying put is allowed only when no square can be reached without a Disguise (RULINGS M-08).")
        if kind == "split":
            if steps != 7:
                return Violation("not-seven", R_SPLIT, "Only a throw totalling seven may be split, however it was made up.")
            if state.mover != seat:
                return Violation("split-once", R_SPLIT, f"{state.seat_name(seat)} has split the seven already: {mover} moves the rest.")
            if state.released:
                return Violation("prison-throw", R_PRISON, f"A double thrown in prison is moved immediately by the prisoner; {mover} moves it alone.")
            other = action.other
            if (other not in state.pos or other == seat) and not movable_others(state, seat):
                return Violation("cannot-move-other", R_SPLIT, "Nobody else may be moved now: players in the White Tower or Inmost Ward, held, in Sanctuary or out of the Tower cannot be moved by another player.")
            return Violation("cannot-move-other", R_SPLIT, unmovable(state, seat, other))
        return None

"""What every card half does: the effect keys of ``data/cards.json`` mapped to code.

Cards that take effect when drawn go through :func:`resolve`; cards kept face down are
played with a ``PlayCard`` action, checked by :func:`play_violations` and applied by
:func:`play`. Which window a kept card may be played in is :func:`window`.

>>> sorted(IMMEDIATE)[:3]
['advance_within', 'force_discard', 'home_other_tier']
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Protocol

from rules.core import Term, Violation, t

from .actions import PickCard, PlayCard
from .cards import CARDS, Card, card_words
from .rulebook import COPS, CRIMINALS, FACTION_WORDS

if TYPE_CHECKING:
    from .board import Board
    from .state import TyrannyState


class Tyranny(Protocol):
    """What the card effects ask of the engine (the engine is ``rules.tyranny.game``'s,
    which imports this module: a protocol keeps the two from importing each other)."""

    def board(self, state: "TyrannyState") -> "Board": ...
    def enemies(self, state: "TyrannyState", seat: str) -> list[str]: ...
    def end_turn(self, state: "TyrannyState") -> None: ...
    def _after_reactions(self, state: "TyrannyState") -> None: ...
    def _offer_moves(self, state: "TyrannyState", seat: str, steps: int, up_to: bool | None = None) -> None: ...


IMMEDIATE = frozenset({
    "influence", "influence_percent", "home_other_tier", "sent_to_enemy_base", "advance_within",
    "roll_and_move", "miss_turn", "take_property", "neutralise_property", "force_discard",
})
KEPT = frozenset({
    "immediate_escape", "inescapable_arrest", "switch_tier", "extra_capture_roll", "capture_range",
    "escape_range", "escape_number", "tunnel_any", "steal",
})
WINDOWS = {
    "start": frozenset({"switch_tier", "tunnel_any", "steal", "escape_number"}),
    "custody": frozenset({"escape_range"}),
    "capture": frozenset({"extra_capture_roll", "capture_range"}),
}


def rule(card: Card) -> str:
    """The rulebook section a card is cited by: "Cards: Gains 6" (a citation, kept as the
    rulebook's English section name)."""
    return f"Cards: {card.deck.title()} {card.number}"


def window(state: "TyrannyState", seat: str) -> frozenset[str]:
    """The kept-card effects ``seat`` may play now."""
    if state.phase == "react":
        top = state.reactions.peek()
        return frozenset((top.window,)) if top.seat == seat else frozenset()
    if seat != state.actor:
        return frozenset()
    return WINDOWS.get(state.phase, frozenset())


def _opponents_with_cards(game: "Tyranny", state: "TyrannyState", seat: str) -> bool:
    return any(state.hands[e].cards for e in game.enemies(state, seat))


def _captured_criminals(state: "TyrannyState") -> list[str]:
    return [s for s in state.order.order if s in state.custody and state._faction[s] == CRIMINALS]


def usable(game: "Tyranny", state: "TyrannyState", seat: str, card: str) -> bool:
    """Whether the kept ``card`` would do something if ``seat`` played it now."""
    effect = CARDS[card].half(state._faction[seat]).effect
    if effect == "steal":
        return _opponents_with_cards(game, state, seat)
    if effect == "escape_number":
        return bool(_captured_criminals(state))
    if effect == "tunnel_any":
        return bool(game.board(state).tunnels)
    if effect == "capture_range":
        return not state.capture_range
    return True


def play_violations(game: "Tyranny", state: "TyrannyState", action: PlayCard) -> Iterator[Violation]:
    seat = action.seat
    if action.card not in state.hands[seat].cards:
        yield Violation("not-in-hand", "Tyranny - Cards", t("You can only play a card from your own hand."))
        return
    card = CARDS[action.card]
    half = card.half(state._faction[seat])
    effect = half.effect
    if effect not in window(state, seat) or not usable(game, state, seat, action.card):
        yield Violation("not-now", rule(card), t("{card} cannot be played now: {text}", card=card_words(card), text=half.term))
        return
    if effect == "escape_number":
        if action.target not in _captured_criminals(state):
            yield Violation("bad-target", rule(card), t("Choose a criminal in custody."))
        if not 1 <= action.number <= 6:
            yield Violation("bad-number", rule(card), t("Choose a number from 1 to 6."))
        if action.tunnel:
            yield Violation("extra-field", rule(card), t("This card names no tunnel."))
        return
    if effect == "tunnel_any":
        if action.tunnel not in game.board(state).tunnels:
            yield Violation("bad-tunnel", rule(card), t("Choose one of the tunnels ({tunnels}).", tunnels=game.board(state).tunnel_names()))
        if action.target or action.number:
            yield Violation("extra-field", rule(card), t("This card names only a tunnel."))
        return
    if action.target or action.number or action.tunnel:
        yield Violation("extra-field", rule(card), t("This card needs no target, number or tunnel."))


def play_candidates(game: "Tyranny", state: "TyrannyState", seat: str) -> Iterator[PlayCard]:
    allowed = window(state, seat)
    faction = state._faction[seat]
    for c in dict.fromkeys(state.hands[seat].cards):
        effect = CARDS[c].half(faction).effect
        if effect not in allowed:
            continue
        if effect == "escape_number":
            for tid in _captured_criminals(state):
                for n in range(1, 7):
                    yield PlayCard(seat, c, target=tid, number=n)
        elif effect == "tunnel_any":
            for tid in game.board(state).tunnels:
                yield PlayCard(seat, c, tunnel=tid)
        else:
            yield PlayCard(seat, c)


def play(game: "Tyranny", state: "TyrannyState", action: PlayCard) -> None:
    """Play a kept card: it is shown and discarded, then does what its half says."""
    seat = action.seat
    card = CARDS[action.card]
    half = card.half(state._faction[seat])
    state.hands[seat].remove(card.id)
    state.decks[card.deck].put_discard(card.id)
    state.note(t("{seat} plays {card}: {text}", seat=seat, card=card_words(card), text=half.term), seat)
    effect = half.effect
    b = game.board(state)
    if effect == "switch_tier":
        here = state.pos[seat]
        # Where on the other tier is the table's call (RULINGS C-09).
        if state.options["switch_tier"] == "home":
            to = b.home_on(state._faction[seat], b.other_tier(b.tier_of[here]))
        else:
            to = b.across[here]
        state.pos[seat] = to
        state.note(t("{seat} moves to {tile} on the {tier} tier.", seat=seat, tile=b.tiles[to].term, tier=Term(b.tier_of[to])), seat)
    elif effect == "tunnel_any":
        tunnel(game, state, seat, action.tunnel, "collapse" if action.tunnel in state.open_tunnels else "open", paid=False)
    elif effect == "steal":
        state.pick, state.pick_then, state.phase = "steal", "start", "pick"
    elif effect == "escape_number":
        state.custody[action.target] = [action.number]
        state.note(t("{seat} must now roll {number} to escape.", seat=action.target, number=action.number), seat)
    elif effect == "extra_capture_roll":
        state.extra_rolls += 1
    elif effect == "capture_range":
        state.capture_range = list(half.args["range"])
    elif effect == "escape_range":
        lo, hi = half.args["range"]
        state.custody[seat] = list(range(lo, hi + 1))
    elif effect == "inescapable_arrest":
        captive, _ = state.reactions.pop().data
        state.reactions.drop(lambda r: r.data[0] == captive)
        state.order.skip(captive, 1)
        state.note(t("{seat} cannot escape: the arrest is inescapable and {seat} misses a turn.", seat=captive), seat)
        game._after_reactions(state)
    elif effect == "immediate_escape":
        captive, tile = state.reactions.pop().data
        del state.custody[captive]
        state.pos[captive] = tile
        state.note(t("{seat} escapes at once and stays on {tile}.", seat=captive, tile=b.tiles[tile].term), seat)
        game._after_reactions(state)


def resolve(game: "Tyranny", state: "TyrannyState", seat: str, card: Card) -> None:
    """A drawn card that acts at once (already shown and discarded)."""
    faction = state._faction[seat]
    half = card.half(faction)
    effect, args = half.effect, half.args
    b = game.board(state)
    influence = state.influence
    if effect == "influence":
        influence.add(args["amount"])
    elif effect == "influence_percent":
        # Percentages of a whole number of points round towards zero (RULINGS C-04).
        amount = influence.value * abs(args["percent"]) // 100
        influence.add(amount if args["percent"] > 0 else -amount)
    elif effect == "home_other_tier":
        to = b.home_on(faction, b.other_tier(b.tier_of[state.pos[seat]]))
        state.pos[seat] = to
        state.note(t("{seat} moves to {tile}.", seat=seat, tile=b.tiles[to].term), seat)
    elif effect == "sent_to_enemy_base":
        enemy = COPS if faction == CRIMINALS else CRIMINALS
        to = b.home_on(enemy, b.tier_of[state.pos[seat]])
        state.pos[seat] = to
        state.order.skip(seat, 1)
        state.note(t("{seat} is sent to {tile} and misses a turn.", seat=seat, tile=b.tiles[to].term), seat)
    elif effect == "miss_turn":
        state.order.skip(seat, 1)
    elif effect == "advance_within":
        game._offer_moves(state, seat, args["steps"], up_to=True)
        return
    elif effect == "roll_and_move":
        state.phase = "card-roll"
        return
    elif effect == "take_property":
        for tid in b.ahead(state.pos[seat]):
            if b.tiles[tid].kind == "property" and state.owner.get(tid) != faction:
                state.owner[tid] = faction
                state.note(t("The {faction} take over {tile}.", faction=FACTION_WORDS[faction], tile=b.tiles[tid].term), seat)
                break
    elif effect == "neutralise_property":
        # "The closest owned property": the enemy's by default, or anyone's (RULINGS C-14).
        spare_own = state.options["neutralise"] == "enemy"
        for tid in b.ahead(state.pos[seat]):
            if b.tiles[tid].kind == "property" and tid in state.owner and not (spare_own and state.owner[tid] == faction):
                del state.owner[tid]
                state.note(t("{tile} is neutral now.", tile=b.tiles[tid].term), seat)
                break
    elif effect == "force_discard":
        if _opponents_with_cards(game, state, seat):
            state.pick, state.pick_then, state.phase = "discard", "", "pick"
            return
        state.note(t("No opponent holds a card: nothing to discard."), seat)
    else:  # pragma: no cover - cards.json names only known effects (tested)
        raise AssertionError(f"unknown effect {effect!r}")
    if effect.startswith("influence"):
        state.note(t("Influence is now {value}.", value=influence.value), seat)
    game.end_turn(state)


def pick(game: "Tyranny", state: "TyrannyState", action: PickCard) -> None:
    """Take the chosen face-down card from an opponent: discard it (Gains 5) or steal it (Gains 10)."""
    seat, target = action.seat, action.target
    card = state.hands[target].cards[action.index]
    state.hands[target].remove(card)
    c = CARDS[card]
    if state.pick == "discard":
        state.decks[c.deck].put_discard(card)
        state.note(t("{seat} makes {target} discard a card: {card}.", seat=seat, target=target, card=card_words(c)), seat)
    else:
        state.hands[seat].add(card)
        state.note(t("{seat} steals a face-down card from {target}.", seat=seat, target=target), seat)
        state.note(t("You stole {card}: {text}", card=card_words(c), text=c.half(state._faction[seat]).term), seat, to=(seat,))
        state.note(t("{seat} stole your {card}.", seat=seat, card=card_words(c)), seat, to=(target,))
    then = state.pick_then
    state.pick = state.pick_then = ""
    if then == "start":
        state.phase = "start"
    else:
        game.end_turn(state)


def tunnel(game: "Tyranny", state: "TyrannyState", seat: str, tunnel_id: str, kind: str, *, paid: bool) -> None:
    """Open or collapse ``tunnel_id``; ``paid``: at its influence cost (not when a card does it)."""
    cost = game.board(state).tunnels[tunnel_id].cost
    if paid:
        if state._faction[seat] == CRIMINALS:
            state.influence.add(-cost)
        elif kind == "open" or state.options["cop_collapse"] == "criminals-gain":
            state.influence.add(cost)
    if kind == "open":
        state.open_tunnels = sorted(state.open_tunnels + [tunnel_id])
    else:
        state.open_tunnels = [t for t in state.open_tunnels if t != tunnel_id]
    if kind == "open":
        state.note(t("{seat} opens {tunnel}; influence {value}.", seat=seat, tunnel=game.board(state).tunnel_words(tunnel_id),
                     value=state.influence.value), seat)
    else:
        state.note(t("{seat} collapses {tunnel}; influence {value}.", seat=seat, tunnel=game.board(state).tunnel_words(tunnel_id),
                     value=state.influence.value), seat)

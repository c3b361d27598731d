"""What a seat may do now, and why not: each of the rulebook's conditions stated once.

The prompt offers a kind when its rule gives no reason against it (a ``why_not_*`` function
returns ``None``), and a refusal of that kind gives the reason, in the rulebook's words,
with the numbers of the moment ("Paying to escape costs 200 influence; the criminals have
150."), as a :class:`~rules.core.text.Text` the reader's language words. Kinds that belong to one step of the turn (a move after the roll, a draw on a card
tile) are refused with the sentence that says when they come (:data:`WHEN`).

Everything said here is public (pieces, custody, influence, tiles, tunnels): a refusal is
shown at the table, so it never depends on a face-down hand.

>>> from rules.tyranny import GAME
>>> state = GAME.new([("crim-1", "criminals"), ("cop-1", "cops")], seed=1)
>>> str(why_not_pay(state, "crim-1"))
'Only a captured player pays 200 Influence Points to escape custody, and crim-1 is free.'
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from rules.core import Term, Text, Violation, t

from .rulebook import (
    COPS, CRIMINALS, ESCAPE_COST, FACTION_WORDS, R_CAPTURE, R_CARDS, R_ESCAPE, R_MOVE, R_PLAYER, R_TIERS, R_TUNNEL,
)

if TYPE_CHECKING:
    from .state import TyrannyState


def why_not_pay(state: "TyrannyState", seat: str) -> Text | None:
    """Escaping capture: "the captured player must pay 200 Influence Points or roll a 6 in
    order to escape custody". A cop's 200 go to the criminals (RULINGS E-02), unless the
    table plays that a captured cop only rolls."""
    if seat not in state.custody:
        return t("Only a captured player pays {cost} Influence Points to escape custody, and {seat} is free.",
                 cost=ESCAPE_COST, seat=state.seat_name(seat))
    if state._faction[seat] == CRIMINALS:
        if state.influence.value < ESCAPE_COST:
            return t("Paying to escape costs {cost} influence; the criminals have {value}.", cost=ESCAPE_COST, value=state.influence.value)
    elif state.options["cop_escape_pay"] == "roll-only":
        return t("At this table a captured cop escapes only by rolling (RULINGS E-02).")
    return None


def why_not_capture(state: "TyrannyState", seat: str) -> Text | None:
    """A typical capture turn: "at the start of their turn, the player can decide to attempt
    to capture the tile which they are on" (a property; one the faction already owns is
    not captured again)."""
    tile = state.board.tiles[state.pos[seat]]
    if tile.kind != "property":
        return t("Only a property tile can be captured, and {tile} is not one.", tile=tile.term)
    faction = state._faction[seat]
    if state.owner.get(tile.id) == faction:
        return t("{tile} already belongs to the {faction}.", tile=tile.term, faction=FACTION_WORDS[faction])
    return None


def tunnel_work(state: "TyrannyState", seat: str) -> str:
    """The work the tunnel under ``seat`` allows: ``"collapse"`` an open one, ``"open"`` a
    closed one; ``""`` off a tunnel tile."""
    tunnel = state.board.tunnel_at.get(state.pos[seat])
    if tunnel is None:
        return ""
    return "collapse" if tunnel in state.open_tunnels else "open"


def why_not_dig(state: "TyrannyState", seat: str, kind: str) -> Text | None:
    """Digging a tunnel: "Either side can dig a tunnel by utilising influence points. If a
    Criminal wishes to open a tunnel, then they must spend the designated number of
    influence points. If a Cop wishes to open a tunnel, then the criminal will gain the
    designated amount"; "a player may collapse a tunnel ... by spending the same number of
    influence points used to open it". From the tunnel's own tile, once a turn."""
    b = state.board
    tile = b.tiles[state.pos[seat]]
    tunnel = b.tunnel_at.get(tile.id)
    if tunnel is None:
        return t("A tunnel is dug or collapsed from its own tile, and {tile} is not a tunnel tile.", tile=tile.term)
    if state.tunnel_done:
        return t("A tunnel has already been dug or collapsed this turn.")
    work = tunnel_work(state, seat)
    if kind != work:
        if work == "collapse":
            return t("The tunnel at {tile} is open already.", tile=tile.term)
        return t("The tunnel at {tile} is not open.", tile=tile.term)
    cost = b.tunnels[tunnel].cost
    if state._faction[seat] == CRIMINALS and state.influence.value < cost:
        if kind == "open":
            return t("Opening this tunnel costs {cost} influence; the criminals have {value}.", cost=cost, value=state.influence.value)
        return t("Collapsing this tunnel costs {cost} influence; the criminals have {value}.", cost=cost, value=state.influence.value)
    return None


WHEN: dict[str, tuple[str, Text]] = {
    # kind: (the rulebook section, when the kind comes)
    "roll": (R_MOVE, t("The die is rolled at the start of a turn (to move, to capture the property you are on, "
                       "or to escape custody), in a Capture Roll and for Gamble 8.")),
    "move": (R_MOVE, t("You move after your movement roll: the number rolled decides how many positions forward.")),
    "draw": (R_MOVE, t("A card is drawn only when a move lands on a Gamble or a Gains tile.")),
    "capture": (R_CAPTURE, t("A capture is attempted at the start of a turn, instead of moving.")),
    "open": (R_TUNNEL, t("A tunnel is dug at the start of a turn, from its own tile.")),
    "collapse": (R_TUNNEL, t("A tunnel is collapsed at the start of a turn, from its own tile.")),
    "pay": (R_ESCAPE, t("A captured player pays {cost} Influence Points to escape at the start of a turn in custody.", cost=ESCAPE_COST)),
    "play": (R_CARDS, t("A card from your hand is played only at the moment its text names "
                        "(before a roll, on a property capture, in custody, upon an arrest), when it can take effect.")),
    "range": (R_PLAYER, t("A Capture Roll's range is chosen when your move passes an enemy.")),
    "arrest": (R_PLAYER, t("You capture an enemy by landing directly on its tile after a movement roll "
                           "(never on its Starter Tile or a Safe Zone).")),
    "cross": (R_TIERS, t("You move to the other tier after landing on your faction's home base "
                         "(the Police Station for the cops, Headquarters for the criminals).")),
    "pick": (R_CARDS, t("A card is chosen from an opponent's face-down hand only for Gains 5 or Gains 10.")),
    "decline": (R_PLAYER, t("There is nothing to decline now: a player declines a Capture Roll, an arrest, "
                            "a card draw, a move to the other tier or a card upon an arrest, when offered.")),
}


def explain(state: "TyrannyState", seat: str, kind: str) -> Iterator[Violation]:
    """Why ``seat``, which must act now, may not take ``kind``: the condition of its rule
    that fails, or when the kind comes."""
    reason: Text | None = None
    rule, when = WHEN.get(kind, ("", None))
    if kind == "pay":
        reason = why_not_pay(state, seat)
    elif state.phase == "start" and kind == "capture":
        reason = why_not_capture(state, seat)
    elif state.phase == "start" and kind in ("open", "collapse"):
        reason = why_not_dig(state, seat, kind)
    if reason is not None:
        yield Violation(f"cannot-{kind}", rule, reason)
    elif when is not None:
        yield Violation(f"not-now-{kind}", rule, when)


__all__ = ["COPS", "CRIMINALS", "WHEN", "explain", "tunnel_work", "why_not_capture", "why_not_dig", "why_not_pay"]

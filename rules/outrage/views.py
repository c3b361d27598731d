"""What each viewer sees (the shared screen and each seat's own), what the table charts,
and the invariants the harness checks: Tower cards are hidden in the hands and the pack
(BEFORE PLAY BEGINS: "kept hidden from other players"), Raven cards are read aloud and
shown to every player (RAVEN CARDS), weapons laid in an attack stay face down until both
have laid.
"""
from __future__ import annotations

from typing import Any, Iterable

from rules.core import Action, Draw, Rng, swap_hidden, to_data
from rules.core.seats import PUBLIC

from .actions import Burgle, Challenge, Give, Play, Surrender
from .cards import RAVEN, RAVEN_CARDS, TOWER, TOWER_CARDS, burglary_target
from .places import BOARD
from .state import CASE, ESCAPED, OutrageState


class Views:
    """Views, public actions, secrets and invariants (the rules' part of
    :class:`~rules.outrage.game.Outrage`)."""

    def render(self, state: OutrageState, viewer: str) -> dict[str, Any]:
        b = BOARD
        pieces = {}
        for s in state.order.order:
            held = state.held.get(s)
            burg = state.burglaries.get(s)
            pieces[s] = {
                "square": state.pos[s], "square_name": b.name_of(state.pos[s]), "region": b.region(state.pos[s]),
                "accredited": state.accredited[s], "coin": state.coins[s], "carrying": state.carried(s),
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
            out[f"escaped:{s}"] = sum(BOARD.jewel_value[j] for j in state.escaped[s])
        return out

    def undo_barrier(self, state: OutrageState, action: Action) -> str | None:
        if isinstance(action, (Play, Surrender, Challenge, Burgle)):
            return "cards were shown to the table"
        if isinstance(action, Give):
            # The swap's card is already in the other player's hand, and they have seen it.
            return "the card changed hands and its new holder has seen it"
        return super().undo_barrier(state, action)

    def problems(self, state: OutrageState) -> Iterable[str]:
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
        if sorted(state.jewels) != sorted(BOARD.jewels):
            yield "jewels not conserved"
        for j, w in state.jewels.items():
            if w not in (CASE, ESCAPED) and w not in state.pos:
                yield f"jewel {j} is at {w!r}"
            if w == ESCAPED and sum(e.count(j) for e in state.escaped.values()) != 1:
                yield f"escaped jewel {j} is not held by exactly one player"
        for s, sq in state.pos.items():
            if sq not in BOARD.squares:
                yield f"{s} is on an unknown square {sq!r}"
        if state.result is None and state.actor not in state.pos and state.phase != "first":
            yield f"no seat acts (actor {state.actor!r}, phase {state.phase!r})"

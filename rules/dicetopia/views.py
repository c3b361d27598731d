"""What each viewer sees: the rendered view (missions, the only secret, shown to their
holder), the live public score, the harness's secret checks and invariants, undo barriers."""
from __future__ import annotations

from typing import Any, Iterator

from rules.core import Action, Draw, Rng, swap_hidden

from .actions import Block, Choose, Clone, CopyMission, Rig
from .scoring import Domination, is_die
from .state import AGENT, BOARD_SLOTS, FACTION_CARDS, UNUSED, DicetopiaState


class Views:
    """Views and checks: a part of :class:`~rules.dicetopia.game.Dicetopia`."""

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
            # A turn-start ability announced and waiting for the answer first in Player Order
            # (public: abilities are announced aloud).
            "held": None if state.held is None else {"seat": state.held.seat, "kind": state.held.kind,
                                                     "ability": self._ability_name(state, type(state.held))},
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
        if not state.revealed:
            # The action that ends the game reveals every player's missions (§6), before
            # the end's last choices. Whether this one ends it is the turn's rules to say:
            # asked of a copy, not restated here.
            twin = self.copy(state)
            self.push_unchecked(twin, action)
            if twin.revealed:
                return "the game ended and every player's missions were revealed"
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

"""Outrage! behind the privacy gate: a seat's Tower cards and what it may do with them (a
card played, burglary tools, weapons laid face down, cards changed, the card a swap
took), and the card it drew from the table's own pack (RULINGS T-01). Only these read a
seat's private view, after the hold. A mixin of
:class:`~companion.ui.games.outrage.presenter.OutragePresenter`."""
from __future__ import annotations

from typing import Any

from rules import Draw
from rules.outrage.actions import Arm, Burgle, Change, Give, MoveTo, Play, Surrender
from rules.outrage.cards import RAVEN, RAVEN_CARDS, TOWER, TOWER_CARDS

from ...presenters.actions import GateChoice, GateLine, GateSection
from .words import CARD_RULES


class BehindTheGate:
    """A seat's hand and its physical draws, for that seat alone."""

    def _private(self, a: Any) -> bool:
        """Actions that name a seat's hidden cards: offered behind the gate only."""
        return (isinstance(a, (Play, Burgle, Arm, Change, Surrender)) or (isinstance(a, MoveTo) and bool(a.disguise))
                or (isinstance(a, Give) and bool(a.card)))

    def hand_purpose(self, seat: str) -> str:
        if self.view()["phase"] == "swap":
            return "say which of your Tower cards was taken"
        return "your Tower cards"

    def hand_page(self, seat: str, news: str = "") -> list[GateSection]:
        pv = self.table.private_view(seat)  # behind the gate only
        cards = list((pv.get("hands") or {}).get(seat, {}).get("cards", []))
        out: list[GateSection] = []
        news_lines = ([news] if news else []) + self.private_news(seat, pv)
        if news_lines:
            out.append(GateSection(lines=tuple(GateLine(self.humanise(n), tone="highlight") for n in news_lines)))
        lines = tuple(line for c in cards for line in (GateLine(f"• {self.card_line(c)}"),
                                                       GateLine(self.card_rule(c), tone="muted", size="small")))
        lines = lines or (GateLine("No Tower cards in your hand."),)
        out.append(GateSection(f"{self.name(seat)}'s Tower cards", lines))
        mine = [a for a in self.legal() if self._private(a) and a.seat == seat]
        choices = tuple(GateChoice(self.private_label(a), a, role="primary" if not isinstance(a, Arm) or a.cards else "normal")
                        for a in _unique(mine))
        if choices:
            out.append(GateSection("What you can do now", choices=choices))
        return out

    def private_news(self, seat: str, pv: dict[str, Any] | None = None) -> list[str]:
        """What the engine told ``seat`` alone in the last two plies ("Bob took your
        Mace.", "You took Ann's Rope."): a card swapped shows here, behind the gate."""
        pv = pv or self.table.private_view(seat)
        public = {(x.get("ply"), x.get("text")) for x in self.view().get("log", [])}
        last = int(pv.get("ply", 0)) - 2
        return [x["text"] for x in pv.get("log", [])
                if int(x.get("ply", -1)) >= last and (x.get("ply"), x.get("text")) not in public]

    def card_line(self, card: str) -> str:
        c = TOWER.get(card)
        if c is None:
            return card
        bits = [c.name]
        if c.attack:
            bits.append(f"attack {c.attack}" + (" (defence only)" if c.defence_only else ""))
        if c.points:
            bits.append(f"burglary {c.points}" + (" (alone only)" if c.alone else ""))
        return " · ".join(bits)

    def card_rule(self, card: str) -> str:
        """What a Tower card does (the rulebook's THE CARDS, in players' words)."""
        c = TOWER.get(card)
        return CARD_RULES.get(c.kind, "") if c else ""

    def private_label(self, a: Any) -> str:
        names = ", ".join(self.card_name(c) for c in getattr(a, "cards", ()) or getattr(a, "tools", ()))
        if isinstance(a, Arm):
            from rules.outrage.cards import attack_value

            return f"Lay {names} face down (total {attack_value(a.cards)})" if a.cards else "Lay nothing"
        if isinstance(a, Burgle):
            from rules.outrage.cards import burglary_target

            return f"Burgle with {names}: needs {burglary_target(a.tools)}+"
        if isinstance(a, Change):
            return f"Change {names} (instead of a turn)"
        if isinstance(a, Surrender):
            return f"Show and surrender {names}" if names else "Surrender no weapons"
        if isinstance(a, Play):
            return f"Play {self.card_name(a.card)}" + (f" on {self.name(a.target)}" if a.target else "")
        if isinstance(a, MoveTo):
            return f"Play {self.card_name(a.disguise)} and move to {self.square_name(a.square)}"
        if isinstance(a, Give):
            v = self.view()
            pair = (v.get("swap") or {}).get("seats", [])
            taker = next((x for x in pair if x != a.seat), "")
            return f"{self.name(taker)} took my {self.card_name(a.card)}"
        return self.humanise(type(a).__name__)

    def physical_draws(self, seat: str) -> list[tuple[str, Any]]:
        """The cards ``seat`` may say it drew from the table's pack (behind the gate or on
        its phone), each with the Draw that enters it: one per Tower card kind (alike
        within a kind) that the seat cannot rule out from its own hand, or per Raven card's
        words. Never the pack's exact contents: a kind missing from it would tell the seat
        that others hold every copy face down. The Draw names a copy the pack holds when
        there is one, else one another player holds, which the engine accepts and swaps
        behind the scenes (RULINGS T-01)."""
        draws = [a for a in self.legal() if isinstance(a, Draw) and a.seat == seat]
        if not draws:
            return []
        deck = draws[0].deck
        in_pack = {a.card for a in draws}
        out: list[tuple[str, Any]] = []
        if deck == "tower":
            # Exactly what the engine accepts (RULINGS T-01): the pack's cards and those of
            # the other players' hidden hands, never the seat's own or a burglary's tools.
            ok = set(self.table.game.drawable(self.table.state, seat, deck))
            left: dict[str, list[str]] = {}
            for cid in TOWER_CARDS:  # the data's order: nothing here depends on the pack
                left.setdefault(TOWER[cid].kind, []).append(cid)
            for kind, copies in left.items():
                free = [c for c in copies if c in ok]
                if not free:
                    continue
                card = next((c for c in free if c in in_pack), free[0])
                out.append((self.card_line(card), Draw(seat, deck=deck, card=card, source="card")))
            return out
        words: dict[str, list[str]] = {}
        for cid in RAVEN_CARDS:
            words.setdefault(RAVEN[cid].text, []).append(cid)
        for text, copies in words.items():
            card = next((c for c in copies if c in in_pack), copies[0])
            out.append((self.humanise(text), Draw(seat, deck=deck, card=card, source="card")))
        return out

    def physical_draw_page(self, seat: str) -> list[GateSection]:
        """The card drawn from the table's own pack: one button per card the seat cannot
        rule out (:meth:`physical_draws`)."""
        choices = tuple(GateChoice(label, action, span="full") for label, action in self.physical_draws(seat))
        return [GateSection(lines=(GateLine("Tap the card you drew from the table's pack:"),), choices=choices)]

    def card_texts(self, seat: str) -> list[tuple[str, str, str]]:
        """``seat``'s Tower cards as (id, name, rule text), as its hand page shows them.
        Only for ``seat``."""
        cards = list((self.table.private_view(seat).get("hands") or {}).get(seat, {}).get("cards", []))
        return [(c, self.card_line(c), self.card_rule(c)) for c in cards]

    def physical_draw_continues(self, seat: str) -> bool:
        """Dealing: the same seat enters its next card behind the same gate."""
        p = self.table.prompt
        return p is not None and self.view()["phase"] == "deal" and seat in p.actors

    def drawn_news(self, action: Any) -> str:
        if isinstance(action, Draw) and action.deck == "tower":
            return f"You drew: {self.card_line(action.card)}"
        return ""


def _unique(actions: list[Any]) -> list[Any]:
    """Actions once each (two copies of one card kind make the same choice twice)."""
    seen: set[Any] = set()
    out = []
    for a in actions:
        key = (type(a), tuple(TOWER[c].kind if c in TOWER else c for c in getattr(a, "cards", ()) or getattr(a, "tools", ())),
               TOWER[a.card].kind if getattr(a, "card", "") in TOWER else getattr(a, "card", ""),
               getattr(a, "target", ""), getattr(a, "square", ""))
        if key not in seen:
            seen.add(key)
            out.append(a)
    return out

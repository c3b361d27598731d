"""Tyranny at the table, without Kivy: what the screen shows (board map, pieces,
influence and the win-streak countdown, whose turn, the buttons for what the engine
waits for) and which Table call a tap becomes.

Everything on the shared screen comes from the Table's PUBLIC view. Hands are read with
``table.private_view(seat)`` only by :meth:`TyrannyPresenter.hand`, which the screen calls
from inside the privacy gate's builder, after the hold.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from rules import PUBLIC, Draw, Roll
from rules.core import DrawRequest, RollRequest
from rules.tyranny.actions import (
    Arrest, Capture, ChooseRange, CollapseTunnel, CrossTier, Decline, MoveTo, OpenTunnel, PayEscape, PickCard, PlayCard,
)
from rules.tyranny.board import Board, board_for
from rules import facts
from rules.tyranny.cards import CARDS, DECKS

from ...presenters.actions import ButtonSpec, Moment, GateChoice, GateLine, GateSection, peek_button  # noqa: F401  (peek_button: for callers)
from ...presenters.base import GamePresenter
from .layout import GridLayout, grid_layout

# The game's own display facts (rules/tyranny/data/factions.json), not a copy of them.
FACTION_GLYPH = {f.id: f.glyph for f in facts.factions("tyranny").values()}
WIN_INFLUENCE = facts.charts("tyranny")[0].lines[0].at  # the criminals' target, as the end chart draws it


def faction_name(faction: str) -> str:
    return faction.replace("-", " ").title()


@dataclass(frozen=True)
class SeatChip:
    id: str
    name: str
    faction: str
    glyph: str
    tile: str
    custody: bool
    escape_on: str
    misses: int
    cards: int
    acting: bool

    @property
    def status(self) -> str:
        bits = []
        if self.custody:
            bits.append(f"⛓ in custody (frees on {self.escape_on})")
        if self.misses:
            bits.append(f"⏭ misses {self.misses} turn{'s' if self.misses > 1 else ''}")
        bits.append(f"{self.cards} card{'s' if self.cards != 1 else ''}")
        return " · ".join(bits)


@dataclass(frozen=True)
class TileCell:
    id: str
    name: str
    kind: str
    tier: str
    col: int
    row: int
    owner: str  # "", "cops", "criminals"
    reachable: bool
    pieces: tuple[tuple[str, str, str], ...]  # (seat id, short label, faction)
    tunnel_open: bool | None
    detail: str  # "2-4 · 50" for properties, tunnel cost…

    @property
    def short(self) -> str:
        n = self.name.split(" (")[0]
        return n if len(n) <= 14 else n[:13] + "…"


@dataclass(frozen=True)
class HandCard:
    id: str
    title: str  # "Gains 6"
    text: str  # this seat's half
    plays: tuple[tuple[str, Any], ...]  # (label, PlayCard) legal now


@dataclass(frozen=True)
class DrawnCard:
    """The card a seat has just drawn, as the table sees it. A card that acts at once is
    shown to everyone and goes to the discard pile (RULINGS C-01): ``public``, with its
    ``title`` ("Gains 8") and the drawer's half (``text``). A card kept face down is
    seen only by its drawer (C-05): the table learns only the deck, so ``title`` and
    ``text`` say no more than that."""

    seat: str
    who: str
    deck: str
    public: bool
    title: str
    text: str


@dataclass
class TyrannyPresenter(GamePresenter):
    table: Any
    board: Board = field(init=False)
    layout: GridLayout = field(init=False)
    game_id = "tyranny"

    def __post_init__(self) -> None:
        self.board = self._board()
        self.layout = grid_layout(self.board)

    def _board(self) -> Board:
        # The board is public data the game's options carry (a table's own board file, or
        # the default); never read from the state, which also holds what seats hide.
        opts = getattr(self.table, "options", None)
        return board_for((opts.get("board") if isinstance(opts, dict) else None) or None)

    # ----------------------------------------------------------- reading

    def words(self) -> dict[str, str]:
        """Tiles and tunnels by name ("tile=o-docks" → "the Docks")."""
        words = {tid: t.name for tid, t in self.board.tiles.items()}
        words.update({tid: self._tunnel_name(tid) for tid in self.board.tunnels})
        return words

    def entity_name(self, kind: str, ident: str) -> str:
        """A mapped button's tile ("tile:o-docks") by its name on this board."""
        return self.tile_name(ident) if kind == "tile" else ident

    def moment(self, before: dict[str, Any], after: dict[str, Any]) -> Moment | None:
        """What the last action decided, for the whole table to read (issue: "every roll
        that decides something gets a result moment"): a property capture made or missed,
        an escape or a stay in custody, an enemy captured or gone free, an arrest, a
        property changing hands. From two public views, so nothing hidden can show.

        The roll awaited before says what was at stake; the views after say how it went."""
        waits = (before.get("prompt") or {}).get("waits") or {}
        rolled = [(seat, w.get("purpose", "")) for seat, w in waits.items() if w.get("$") == "core.RollRequest"]
        pieces0, pieces1 = before.get("pieces", {}), after.get("pieces", {})
        owners0, owners1 = before.get("owners", {}), after.get("owners", {})
        caught = [s for s, p in pieces1.items() if p.get("custody") and not pieces0.get(s, {}).get("custody")]
        freed = [s for s, p in pieces1.items() if not p.get("custody") and pieces0.get(s, {}).get("custody")]
        changed = [t for t in sorted(set(owners0) | set(owners1)) if owners0.get(t) != owners1.get(t)]
        if rolled and after.get("ply", 0) == before.get("ply", 0) + 1:
            seat, purpose = rolled[0]
            name, faction = self.name(seat), self.faction_of(seat)
            if purpose == "capture":
                tile = pieces0.get(seat, {}).get("tile", "")
                if tile in changed:
                    return Moment(f"⌂ {name} captures {self.tile_name(tile)}", "The property changes hands.", "good", faction)
                return Moment(f"✖ {name} fails to capture {self.tile_name(tile)}", "The roll was not enough.", "bad", faction)
            if purpose == "escape":
                if seat in freed:
                    return Moment(f"✔ {name} escapes custody", "", "good", faction)
                return Moment(f"⛓ {name} stays in custody", "", "bad", faction)
            if purpose.startswith("capture roll"):
                if seat in caught:
                    return Moment(f"⛓ {name} is captured", "", "bad", faction)
                return Moment(f"✔ {name} goes free", "", "good", faction)
        if caught:
            seat = caught[0]
            return Moment(f"⛓ {self.name(seat)} is arrested", "", "bad", self.faction_of(seat))
        if changed:
            tile = changed[0]
            owner = owners1.get(tile)
            side = faction_name(owner) if owner else "nobody"
            return Moment(f"⌂ {self.tile_name(tile)} now belongs to {'the ' + side if owner else side}", "", "info", owner or "")
        return None

    def drawn_card(self, before: dict[str, Any], after: dict[str, Any]) -> DrawnCard | None:
        """The card drawn by the one action between two public views (the draw a Gamble or
        Gains tile offered), or None when that action was no draw (a "Don't draw" included).
        From the public views only: a card kept face down shows as its deck, never its name.

        A drawn card that acts at once lies on top of its discard pile afterwards; a kept
        one is one more card in the drawer's face-down hand."""
        waits = (before.get("prompt") or {}).get("waits") or {}
        draw = next(((s, w.get("deck", "")) for s, w in waits.items() if w.get("$") == "core.DrawRequest"), None)
        if draw is None or after.get("ply") != before.get("ply", -2) + 1:
            return None
        seat, deck = draw
        who, deck_name = self.name(seat), deck.title()
        held0 = int(before["hands"].get(seat, {}).get("count", 0))
        if int(after["hands"].get(seat, {}).get("count", 0)) == held0 + 1:
            return DrawnCard(seat, who, deck, False, f"{deck_name} card",
                             f"Kept face down in {who}'s hand: only {who} may look at it.")
        pile0, pile1 = before["decks"][deck]["discard"], after["decks"][deck]["discard"]
        if pile1 and (len(pile1) != len(pile0) or pile1[-1] != pile0[-1]):
            card = CARDS[pile1[-1]]
            return DrawnCard(seat, who, deck, True, f"{deck_name} {card.number}", card.half(self.faction_of(seat)).text)
        return None

    def tile_name(self, tile: str) -> str:
        t = self.board.tiles.get(tile)
        return t.name if t else tile

    def chips(self, view: dict[str, Any] | None = None) -> list[SeatChip]:
        v = view or self.view()
        actors = set(self.actors())
        names = self.seat_names()
        out = []
        for sid in v["order"]:
            f = self.faction_of(sid)
            piece = v["pieces"][sid]
            esc = piece.get("escape_on") or []
            out.append(SeatChip(
                sid, names.get(sid, sid), f, FACTION_GLYPH.get(f, "○"), self.tile_name(piece["tile"]),
                bool(piece["custody"]), (f"{esc[0]}" if len(esc) == 1 else f"{esc[0]}-{esc[-1]}") if esc else "",
                int(v["misses"].get(sid, 0)), int(v["hands"][sid].get("count", 0)), sid in actors,
            ))
        return out

    def influence(self, view: dict[str, Any] | None = None) -> int:
        return int((view or self.view())["influence"])

    def influence_history(self, view: dict[str, Any] | None = None) -> list[tuple[int, int]]:
        return [(int(t), int(val)) for t, val in (view or self.view())["influence_history"]]

    def streak_lines(self, view: dict[str, Any] | None = None) -> list[str]:
        """The win-streak countdown, e.g. "◆ Criminals ≥ 1000: 2 of 3 turns"."""
        v = view or self.view()
        st = v["streaks"]
        target = st["target"]
        lines = []
        if st["criminals"] or v["influence"] >= WIN_INFLUENCE:
            lines.append(f"{FACTION_GLYPH['criminals']} Criminals ≥ {WIN_INFLUENCE}: {st['criminals']} of {target} turns")
        if st["cops"] or v["influence"] == 0:
            lines.append(f"▲ Cops hold influence at 0: {st['cops']} of {target} turns")
        if not lines:
            lines.append(f"Win: {FACTION_GLYPH['criminals']} ≥ {WIN_INFLUENCE} or {FACTION_GLYPH['cops']} at 0, held {target} turns")
        return lines

    def turn_line(self, view: dict[str, Any] | None = None) -> str:
        v = view or self.view()
        return f"Round {v['round']} · turn {v['turn']}"

    def prompt_line(self) -> str:
        """Who must act and what the game waits for, in words."""
        p = self.table.prompt
        if p is None or self.is_over():
            o = self.table.outcome
            return f"Game over — the {faction_name(o.winner)} win." if o else ""
        who = ", ".join(self.who(s) for s in sorted(p.actors))
        aw = p.awaiting
        v = self.view()
        if isinstance(aw, RollRequest):
            what = {"move": "roll to move (or choose another turn below)", "escape": "escape attempt: roll, or pay",
                    "capture": "capture roll", "card move": "roll for the card's move"}.get(aw.purpose, aw.purpose)
            if aw.purpose.startswith("capture roll"):
                cr = v.get("capture_roll", {})
                free = cr.get("free_on", [])
                what = f"Capture Roll — {free[0]}-{free[-1]} goes free, anything else is captured" if free else aw.purpose
            elif aw.purpose == "capture":
                here = v["pieces"][sorted(p.actors)[0]]["tile"]
                t = self.board.tiles[here]
                what = f"capture roll on {t.name}: needs {t.range[0]}-{t.range[1]}"
            return f"{who}: {what}"
        if isinstance(aw, DrawRequest):
            return f"{who}: landed on a {aw.deck.title()} tile — draw a card?"
        note = getattr(aw, "note", "")
        phase = v["phase"]
        if phase == "move":
            note = "tap a highlighted tile to move there"
        return f"{who}: {note}"

    # ------------------------------------------------------------ the map

    def cells(self, view: dict[str, Any] | None = None) -> list[TileCell]:
        v = view or self.view()
        reach = set(v.get("reachable", []))
        owners = v["owners"]
        by_tile: dict[str, list[tuple[str, str, str]]] = {}
        names = self.seat_names()
        for sid in v["order"]:
            f = self.faction_of(sid)
            piece = v["pieces"][sid]
            label = f"{FACTION_GLYPH.get(f, '○')}{names.get(sid, sid)[:6]}" + ("⛓" if piece["custody"] else "")
            by_tile.setdefault(piece["tile"], []).append((sid, label, f))
        out = []
        for tid, (col, row) in self.layout.cells.items():
            t = self.board.tiles[tid]
            detail = ""
            if t.kind == "property":
                detail = f"{t.range[0]}-{t.range[1]} · {t.base}"
            tunnel_open = None
            tun = self.board.tunnel_at.get(tid)
            if tun is not None:
                tunnel_open = bool(v["tunnels"].get(tun))
                detail = f"{'open' if tunnel_open else 'closed'} · {self.board.tunnels[tun].cost}"
            out.append(TileCell(tid, t.name, t.kind, t.tier, col, row, owners.get(tid, ""), tid in reach,
                                tuple(by_tile.get(tid, ())), tunnel_open, detail))
        return out

    # ------------------------------------------------------------ actions

    def buttons(self) -> list[ButtonSpec]:
        """The action panel for the current prompt. Rolls go to the dice tray and moves
        to the map (plus a button per destination, for when a tap on the map is awkward).
        Cards in a hand are never named here: a seat opens its hand behind the gate."""
        if self.is_over():
            return []
        p = self.table.prompt
        v = self.view()
        phase = v["phase"]
        legal = self.legal()
        out: list[ButtonSpec] = []
        names = self.seat_names()
        actor = sorted(p.actors)[0] if p.actors else ""
        for a in legal:
            if isinstance(a, (Roll, Draw)):
                continue
            if isinstance(a, MoveTo):
                out.append(ButtonSpec(f"→ {self.tile_name(a.tile)}", action=a, role="primary"))
            elif isinstance(a, Capture):
                t = self.board.tiles[v["pieces"][a.seat]["tile"]]
                out.append(ButtonSpec(f"⌂ Capture turn on {t.name} (roll {t.range[0]}-{t.range[1]})", action=a))
            elif isinstance(a, OpenTunnel):
                out.append(ButtonSpec(f"⇅ Dig {self._tunnel_name(a.tunnel)} ({self._tunnel_cost_text(a.seat, a.tunnel)})", action=a))
            elif isinstance(a, CollapseTunnel):
                out.append(ButtonSpec(f"⇅ Collapse {self._tunnel_name(a.tunnel)} ({self._tunnel_cost_text(a.seat, a.tunnel)})", action=a))
            elif isinstance(a, PayEscape):
                f = self.faction_of(a.seat)
                out.append(ButtonSpec("Pay 200 influence to escape" if f == "criminals" else "Escape: criminals gain 200", action=a))
            elif isinstance(a, ChooseRange):
                out.append(ButtonSpec(f"Capture Roll on {names.get(a.target, a.target)}: {a.low}-{a.low + 2} goes free", action=a))
            elif isinstance(a, Arrest):
                out.append(ButtonSpec(f"⛓ Capture {self.who(a.target)}", action=a, role="primary"))
            elif isinstance(a, CrossTier):
                here = v["pieces"][a.seat]["tile"]
                other = self.board.other_tier(self.board.tier_of[here])
                out.append(ButtonSpec(f"⇅ Cross to the {other} city", action=a, role="primary"))
            elif isinstance(a, PickCard):
                out.append(ButtonSpec(f"▯ {names.get(a.target, a.target)}'s face-down card {a.index + 1}", action=a))
            elif isinstance(a, PlayCard):
                continue  # a card is chosen behind the gate (the hand button), never shown here
            elif isinstance(a, Decline):
                out.append(ButtonSpec(self._decline_label(phase, v), action=a, role="quiet"))
        if isinstance(p.awaiting, DrawRequest):
            deck = p.awaiting.deck.title()
            out.insert(0, ButtonSpec(f"⚄ App's {deck} card", intent="app-draw", role="primary"))
            out.insert(1, ButtonSpec(f"Enter {deck} card…", intent="physical-draw", seat=actor))
        if phase == "react":
            # Offered whatever the hand holds: the shared screen must not tell who holds
            # a Gamble 3 (RULINGS P-03); behind the gate the card, if any, can be played.
            out.append(ButtonSpec(f"▤ {names.get(actor, actor)}'s hand — play a card?", intent="hand", seat=actor))
        elif actor and phase in ("start", "custody", "capture") and int(v["hands"][actor].get("count", 0)):
            out.append(ButtonSpec(f"▤ {names.get(actor, actor)}'s hand ({v['hands'][actor]['count']}) — play a card", intent="hand", seat=actor))
        return out

    def _decline_label(self, phase: str, v: dict[str, Any]) -> str:
        if phase == "passing":
            return "Let them pass"
        return {"arrest": "Don't capture", "react": "Don't play the card", "draw": "Don't draw",
                "cross": "Stay on this tier"}.get(phase, "No")

    def _tunnel_name(self, tunnel: str) -> str:
        return self.board.tunnel_name(tunnel)

    def _tunnel_cost_text(self, seat: str, tunnel: str) -> str:
        cost = self.board.tunnels[tunnel].cost
        return f"costs {cost} influence" if self.faction_of(seat) == "criminals" else f"criminals gain {cost}"

    def destinations(self) -> dict[str, MoveTo]:
        return {a.tile: a for a in self.legal() if isinstance(a, MoveTo)}

    def tap_tile(self, tile: str) -> MoveTo | None:
        """A tap on the map: the move to that tile if it is a legal destination now."""
        return self.destinations().get(tile)

    def describe_tile(self, tile: str) -> str:
        t = self.board.tiles[tile]
        v = self.view()
        # The tier once: a board may name it already ("Police Station (inner city)").
        bits = [t.name if f"{t.tier} city" in t.name else f"{t.name} ({t.tier} city)"]
        if t.kind == "property":
            owner = v["owners"].get(tile)
            bits.append(f"capture on {t.range[0]}-{t.range[1]}, worth {t.base}; " + (f"owned by the {owner}" if owner else "unowned"))
        elif t.kind in ("gamble", "gains"):
            bits.append(f"land here to draw a {t.kind.title()} card")
        elif t.kind == "safe":
            bits.append("safe from arrest")
        tun = self.board.tunnel_at.get(tile)
        if tun:
            bits.append(f"tunnel {'open' if v['tunnels'][tun] else 'closed'}, cost {self.board.tunnels[tun].cost}")
        return " — ".join(bits)

    # -------------------------------------------------------- behind the gate

    def physical_draws(self, seat: str | None = None) -> list[tuple[str, Any]]:
        """For the physical-card entry (behind the gate, or on ``seat``'s phone): one button
        per card number the drawing seat cannot rule out (none when ``seat`` is given and
        is not the one drawing), from what it may know (the face-up discards, its own
        hand), never from the deck itself: listing only what the deck still holds would
        tell it which cards the others keep face down. Each button's Draw names a copy the
        deck holds when there is one, else a copy another seat keeps: the engine accepts it
        and swaps its guess behind the scenes (RULINGS C-16)."""
        draws = [a for a in self.legal() if isinstance(a, Draw)]
        if not draws:
            return []
        if seat is not None and draws[0].seat != seat:
            return []
        seat, deck = draws[0].seat, draws[0].deck
        in_deck = {}
        for a in draws:
            in_deck.setdefault(CARDS[a.card].number, a.card)
        mine = self.table.private_view(seat)  # read behind the gate only
        known = set(mine["decks"][deck]["discard"]) | set(mine["hands"][seat].get("cards", ()))
        open_copies: dict[int, str] = {}
        for cid in DECKS[deck]:
            if cid not in known:
                open_copies.setdefault(CARDS[cid].number, cid)
        out = []
        for n in sorted(open_copies):
            card = in_deck.get(n, open_copies[n])
            half = CARDS[card].half(self.faction_of(seat))
            out.append((f"{deck.title()} {n}: {half.text}", Draw(seat, deck=deck, card=card, source="card")))
        return out

    def hand_purpose(self, seat: str) -> str:
        return "your face-down hand"

    def hand_page(self, seat: str, news: str = "") -> list[GateSection]:
        """``seat``'s hand behind the gate: what only it may read (the card it drew, what
        it stole: its private log lines, so ``news`` adds nothing), then each card with
        its plays now. A card the engine does not list as playable can still be tried:
        the refusal, with the rule, is shown behind the gate."""
        out = []
        mine = self.private_news(seat)
        if mine:
            out.append(GateSection(lines=(GateLine(self.humanise("\n".join(mine)), tone="highlight"),)))
        cards = self.hand(seat)
        if not cards:
            out.append(GateSection(lines=(GateLine("No cards in your hand."),)))
        for c in cards:
            plays = tuple(GateChoice(label, action, role="primary") for label, action in c.plays) or (
                GateChoice("Play it (not playable now)", PlayCard(seat, c.id), role="quiet"),)
            out.append(GateSection(c.title, (GateLine(c.text),), plays))
        return out

    def physical_draw_page(self, seat: str) -> list[GateSection]:
        """The physical card entry behind the gate: a button per card that can come out."""
        return [GateSection(lines=(GateLine("Tap the card you drew from the table's deck:"),),
                            choices=tuple(GateChoice(label.replace(": ", "\n", 1), action, span="tile")
                                          for label, action in self.physical_draws(seat)))]

    def drawn_news(self, action: Any) -> str:
        """After a draw: whether its seat has something only it may read now (the screen
        then offers that seat a look behind the gate)."""
        if isinstance(action, Draw):
            return "\n".join(self.private_news(action.seat))
        return ""

    def hand(self, seat: str) -> list[HandCard]:
        """``seat``'s cards with what can be played now. Only for behind the gate."""
        pv = self.table.private_view(seat)
        plays: dict[str, list[tuple[str, Any]]] = {}
        for a in self.legal():
            if isinstance(a, PlayCard) and a.seat == seat:
                plays.setdefault(a.card, []).append((self._play_label(a), a))
        out = []
        for c in pv.get("my_cards", []):
            out.append(HandCard(c["id"], f"{c['deck'].title()} {c['number']}", c["text"], tuple(plays.get(c["id"], ()))))
        return out

    def card_texts(self, seat: str) -> list[tuple[str, str, str]]:
        """``seat``'s own cards as (id, name, rule text), what its hand shows behind the
        gate (for its phone). Only for ``seat``."""
        return [(c.id, c.title, c.text) for c in self.hand(seat)]

    def _play_label(self, a: PlayCard) -> str:
        if a.tunnel:
            return f"Play on {self._tunnel_name(a.tunnel)}"
        if a.number:
            return f"{self.name(a.target)} must roll {a.number}"
        return "Play it now"

    def private_news(self, seat: str) -> list[str]:
        """Log lines only ``seat`` may read (what it drew, what it stole)."""
        public = {(getattr(x, "ply", None), getattr(x, "text", None)) for x in self.table.log(PUBLIC)}
        return [x.text for x in self.table.log(seat) if (x.ply, x.text) not in public][-3:]

    def hands_menu(self) -> list[tuple[str, str]]:
        """The "Hands" page: a button per seat, with how many cards it holds (public,
        RULINGS C-05), e.g. ("cops-1", "▤ Ann's hand (2 cards)")."""
        v = self.view()
        out = []
        for seat in v["order"]:
            n = int(v["hands"][seat].get("count", 0))
            out.append((seat, f"▤ {self.name(seat)}'s hand ({n} card{'s' if n != 1 else ''})"))
        return out

    def hand_seats(self) -> list[str]:
        v = self.view()
        return [s for s in v["order"] if int(v["hands"][s].get("count", 0))]


def chart_series(history: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Influence per turn for the end screen's chart (one value per turn, the last wins)."""
    out: dict[int, int] = {}
    for t, v in history:
        out[int(t)] = int(v)
    return sorted(out.items())

"""Outrage! at the table, without Kivy: the seat strips, the board's cells, the dice line,
the buttons for what the engine waits for, the split-seven dialog's two steps, the
square search for unchecked movement, hands behind the gate, and the result moments.

Everything on the shared screen comes from the Table's PUBLIC view. A seat's cards are
read with ``table.private_view(seat)`` only by the gate pages (``hand_page``,
``physical_draw_page``), which the privacy gate calls after the hold. Actions that name
cards (a card played, burglary tools, weapons laid face down, cards changed) are offered
only there.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules import Draw, Roll, facts
from rules.core import CommitRequest, DrawRequest, RollRequest
from rules.outrage.actions import (
    Abandon, Arm, Attack, Burgle, Challenge, Change, Choose, Decline, Escape, Give, MoveTo, Play, Split, Surrender,
)
from rules.outrage.board import Board, default_board
from rules.outrage.cards import RAVEN, RAVEN_CARDS, TOWER, TOWER_CARDS

from ...presenters.actions import ButtonSpec, GateChoice, GateLine, GateSection, Moment
from ...presenters.base import GamePresenter
from .layout import GridLayout, grid_layout

FACTIONS = facts.factions("outrage")
# What each Tower card does, in players' words (this screen's data file).
CARD_RULES: dict[str, str] = json.loads((Path(__file__).parent / "card_rules.json").read_text(encoding="utf-8"))["tower"]
# The rulebook section an engine sentence cites ("… Bob wins. [ATTACK]"): the log keeps
# it; a moment read across the table does without.
RAVEN_DRAWN = "takes a Raven card: "  # the engine's public line for a Raven card drawn
_SECTION = re.compile(r"\s*\[[A-Z][A-Z' ,]*\]")
_BIRTHDAY_TEXTS = frozenset(c.text for c in RAVEN.values() if c.kind == "birthday")
# What a public choice's option reads as on its button (the engine's words for them).
CHOICE_WORDS = {"go": "Go there", "stay": "Stay", "escape": "Pay the ferryman and escape", "none": "No swap",
                "reenter": "Go back into the Tower", "retire": "Retire", "cards": "Surrender Tower cards",
                "coin": "Surrender the coin", "choose": "Serve the turn", "wait": "Serve the turn"}
HELD_NAMES = {"bloody": "Bloody Tower", "bowyer": "Bowyer Tower", "beauchamp": "Beauchamp Tower", "rack": "the Rack"}
# Phases where a card from the hand may be played (or tools laid, cards changed): the
# hand's button is offered in them to every seat holding cards (see buttons()).
HAND_PHASES = ("start", "prison", "accredit", "rack", "tea", "offer", "burgle-offer", "change-offer", "move", "surrender")
REGION_WORDS = {"wall": "Wall Walk", "inner": "Inner Ward", "inmost": "Inmost Ward", "white": "White Tower",
                "prison": "prison", "exterior": "outside the walls"}


@dataclass(frozen=True)
class SeatStrip:
    """One seat's line on the table: who, and everything the table must not forget."""

    id: str
    name: str
    faction: str
    glyph: str
    square: str
    acting: bool
    accredited: bool
    coin: bool
    carrying: tuple[str, ...]
    escaped: tuple[str, ...]
    cards: int
    held: str  # "Bloody Tower, turn 2 of 3" or ""
    burglary: str  # "Sword of State: needs 7+, attempt 2" or ""
    notes: tuple[str, ...]  # misses a turn, sanctuary, tea, retired
    team: str = ""  # "team ♜ Red, with Cat" when teams are played, else ""

    @property
    def status(self) -> str:
        bits = [self.team] if self.team else []
        bits += ["✔ accredited" if self.accredited else "not accredited",
                "◉ coin" if self.coin else "no coin", f"{self.cards} Tower card{'s' if self.cards != 1 else ''}"]
        if self.carrying:
            bits.append("carries " + ", ".join(self.carrying))
        if self.escaped:
            bits.append("escaped with " + ", ".join(self.escaped))
        if self.held:
            bits.append("⛓ " + self.held)
        if self.burglary:
            bits.append("burgling the " + self.burglary)
        bits += list(self.notes)
        return " · ".join(bits)


    @property
    def chip(self) -> str:
        """The strip in a few marks, for the row under the board: "♜ Ann ✔ ◉ ♦1 ⛓3/3"."""
        bits = [f"{self.glyph} {self.name}"]
        if self.accredited:
            bits.append("✔")
        if self.coin:
            bits.append("◉")
        if self.carrying:
            bits.append(f"♦{len(self.carrying)}")
        if self.held:
            m = re.search(r"turn (\d+) of (\d+)", self.held)
            bits.append("⛓" + (f"{m.group(1)}/{m.group(2)}" if m else ""))
        if self.escaped:
            bits.append(f"➜{len(self.escaped)}")
        return " ".join(bits)


@dataclass(frozen=True)
class Cell:
    """One square as the board draws it."""

    id: str
    col: int
    row: int
    region: str
    mark: str  # "tower", "building", "post", "jewel", "marked", ""
    warder: bool  # a Yeoman Warder stands here
    jewel: str  # the jewel in the case this square faces, while it is there ("" else)
    pieces: tuple[tuple[str, str], ...]  # (seat id, faction)
    reachable: bool


@dataclass
class OutragePresenter(GamePresenter):
    table: Any
    board: Board = field(init=False)
    layout: GridLayout = field(init=False)
    split_with: str = ""  # the split-seven dialog: "" (closed), "?" (step 1: with whom), a seat (step 2)
    search: str | None = None  # unchecked movement: the square search, None while closed
    picked: str = ""  # the square a tap on the board put into the search: first among its namesakes
    # The Raven card drawn from the table's own pack, entered on the shared screen (Raven
    # cards are read out, never secret): the list's filter, None while closed.
    raven_entry: str | None = None

    game_id = "outrage"

    def __post_init__(self) -> None:
        self.board = default_board()
        self.layout = grid_layout(self.board)

    # ----------------------------------------------------------- reading

    def teams(self) -> bool:
        """Whether seats of one colour play as a team (the ``teams`` option, RULINGS S-02)."""
        return bool((getattr(self.table, "options", None) or {}).get("teams"))

    def team_name(self, faction: str) -> str:
        """"team ♜ Red": the colour's glyph and name, never the colour alone."""
        f = FACTIONS.get(faction)
        return f"team {f.glyph} {f.name}" if f else f"team {faction}"

    def team_members(self, faction: str) -> list[str]:
        return [s["id"] for s in self.seats() if s["faction"] == faction]

    def team_of(self, seat: str) -> str:
        """A strip's team words: "team ♜ Red, with Cat and Eve"; "" without teams."""
        if not self.teams():
            return ""
        mates = [self.name(s) for s in self.team_members(self.faction_of(seat)) if s != seat]
        with_ = f", with {_and(mates)}" if mates else ""
        return self.team_name(self.faction_of(seat)) + with_

    def glyph(self, seat: str) -> str:
        f = FACTIONS.get(self.faction_of(seat))
        return f.glyph if f else "○"

    def square_name(self, sid: str) -> str:
        return self.board.name_of(sid) if sid in self.board.squares else sid

    def jewel_name(self, jewel: str) -> str:
        return self.board.jewel_name.get(jewel, jewel)

    def card_name(self, card: str) -> str:
        c = TOWER.get(card)
        return c.name if c else card

    def words(self) -> dict[str, str]:
        """Squares, jewels, Yeoman Warders' posts and Tower cards by name."""
        words = {sid: sq.name for sid, sq in self.board.squares.items()}
        words.update(self.board.jewel_name)
        words.update(self.board.post_names)
        words.update({cid: c.name for cid, c in TOWER.items()})
        return words

    def entity_name(self, kind: str, ident: str) -> str:
        """A mapped input's square, jewel or Tower card ("square:…") by its name."""
        namer = {"square": self.square_name, "jewel": self.jewel_name, "card": self.card_name}.get(kind)
        return namer(ident) if namer is not None else ident

    # ------------------------------------------------------------ panels

    def turn_line(self, v: dict[str, Any] | None = None) -> str:
        v = v or self.view()
        cur = v.get("current") or ""
        return self.turn_words(v.get("turn", 1), cur)

    def mode_line(self, v: dict[str, Any] | None = None) -> str:
        """Which movement mode is in use, and that the board is a reconstruction."""
        v = v or self.view()
        if v["board"].get("movement") == "unchecked":
            return "⚲ Your own board · moves unchecked: tap or search the square landed on"
        return "▦ The app's board, RECONSTRUCTED · moves checked on it"

    def dice_line(self, v: dict[str, Any] | None = None) -> str:
        """The last throw and the doubles counted this turn ("⚅ 3 + 3 = 6 · double 1 of 3")."""
        v = v or self.view()
        d = v.get("dice") or {}
        last = d.get("last") or []
        out = f"Last throw {last[0]} + {last[1]} = {last[0] + last[1]}" if len(last) == 2 else "No throw yet"
        n = int(d.get("doubles", 0))
        if n:
            out += f" · doubles this turn: {n} of 3 (the third goes to the Bloody Tower)"
        if int(d.get("steps", 0)) and v.get("phase") == "move":
            out += f" · {self.name(v.get('mover', ''))} moves {d['steps']}"
        return out

    def strips(self, v: dict[str, Any] | None = None) -> list[SeatStrip]:
        v = v or self.view()
        actors = set(self.actors())
        out = []
        for sid in v["order"]:
            p = v["pieces"][sid]
            held = ""
            if p.get("held"):
                h = p["held"]
                held = f"{HELD_NAMES.get(h.get('place', ''), self.humanise(str(h.get('place', ''))))}, {h.get('text', '')}".strip(", ")
            burg = ""
            if p.get("burglary"):
                b = p["burglary"]
                burg = f"{self.jewel_name(b.get('jewel', ''))}: {b.get('text', '')}"
            notes = []
            if p.get("misses"):
                notes.append(f"⏭ misses {p['misses']} turn{'s' if p['misses'] > 1 else ''}")
            if p.get("sanctuary"):
                notes.append("in Sanctuary")
            if p.get("tea"):
                notes.append("taking tea")
            if p.get("retired"):
                notes.append("retired")
            out.append(SeatStrip(sid, self.name(sid), self.faction_of(sid), self.glyph(sid),
                                 p.get("square_name") or self.square_name(p["square"]), sid in actors,
                                 bool(p["accredited"]), bool(p["coin"]),
                                 tuple(self.jewel_name(j) for j in p.get("carrying", ())),
                                 tuple(self.jewel_name(j) for j in p.get("escaped", ())),
                                 int(p.get("cards", 0)), held, burg, tuple(notes), self.team_of(sid)))
        return out

    def jewel_lines(self, v: dict[str, Any] | None = None) -> list[str]:
        """Each jewel's whereabouts ("♦ Orb (2): carried by Ann")."""
        v = v or self.view()
        out = []
        for j in self.board.jewels:
            where = v["jewels"].get(j, "case")
            text = {"case": "in its case", "escaped": "escaped"}.get(where) or f"carried by {self.name(where)}"
            out.append(f"♦ {self.jewel_name(j)} ({self.board.jewel_value[j]}): {text}")
        return out

    def warder_line(self, v: dict[str, Any] | None = None) -> str:
        v = v or self.view()
        at = [self.board.post_names[p] for p, on in v["warders"].items() if on]
        off = [self.board.post_names[p] for p, on in v["warders"].items() if not on]
        out = "Yeoman Warders at " + (", ".join(at) if at else "no post")
        if off:
            out += f" · called out from {', '.join(off)} (in the Barracks: {v.get('barracks', 0)})"
        return out + f" · coins in the Mint: {v.get('mint', 0)}"

    def raven_text(self, v: dict[str, Any] | None = None) -> str:
        """The Raven card to read aloud: the one being obeyed, or the one the last action
        drew (most are obeyed at once); "" when none. The Queen's Birthday card says what
        the device's date makes of it (RULINGS R-05)."""
        v = v or self.view()
        r = v.get("raven")
        raw = ""
        if r:
            raw = r["text"]
        else:
            last = int(v.get("ply", 0)) - 1
            for x in reversed(v.get("log", [])):
                if int(x.get("ply", -1)) < last:
                    break
                text = x.get("text", "")
                if int(x.get("ply", -1)) == last and RAVEN_DRAWN in text:
                    raw = text.split(RAVEN_DRAWN, 1)[1]
                    break
        if not raw:
            return ""
        out = _SECTION.sub("", self.humanise(raw))
        if _SECTION.sub("", raw) in _BIRTHDAY_TEXTS:
            out += " — " + birthday_words(bool(v.get("birthday_today")))
        return out

    def prompt_line(self) -> str:
        p = self.table.prompt
        if p is None or self.is_over():
            return self.end_line()
        who = ", ".join(self.name(s) for s in sorted(p.actors))
        aw = p.awaiting
        v = self.view()
        if isinstance(aw, RollRequest):
            what = {"move": "throw the dice to move", "again": "a double: throw again"}.get(
                aw.purpose, f"throw the dice — {self.humanise(aw.purpose)}")
            return f"{who}: {what}"
        if isinstance(aw, DrawRequest):
            deck = "Raven" if aw.deck == "raven" else "Tower"
            return f"{who}: take a {deck} card"
        if isinstance(aw, CommitRequest):
            done = (v.get("attack") or {}).get("committed", [])
            wait = [self.name(s) for s in sorted(p.actors) if s not in done]
            return f"Attack: {', '.join(wait)} — lay weapons face down, in secret"
        if v["phase"] == "swap":
            a, b = (self.name(x) for x in v["swap"]["seats"])
            wait = _and([self.name(x) for x in v["swap"]["waiting"]])
            return (f"Swap: {a} and {b} each take a Tower card face down from the other's hand; "
                    f"{wait}: say behind the gate which of your cards was taken")
        if v["phase"] == "move":
            if v["board"].get("movement") == "unchecked":
                return f"{who}: move {self.name(v['mover'])} {v['dice']['steps']} on the board, then tap or search the square landed on"
            return f"{who}: move {self.name(v['mover'])} {v['dice']['steps']} — tap a highlighted square"
        return f"{who}: {self.humanise(getattr(aw, 'note', '') or '')}"

    # ------------------------------------------------------------ the board

    def reachable(self, v: dict[str, Any] | None = None) -> set[str]:
        v = v or self.view()
        r = v.get("reachable") or []
        return {x if isinstance(x, str) else x.get("square", "") for x in r}

    def cells(self, v: dict[str, Any] | None = None) -> list[Cell]:
        v = v or self.view()
        # Unchecked, every square is a legal landing: outlining them all says nothing.
        checked = v["board"].get("movement") != "unchecked"
        reach = self.reachable(v) if v.get("phase") == "move" and checked else set()
        here: dict[str, list[tuple[str, str]]] = {}
        for sid in v["order"]:
            here.setdefault(v["pieces"][sid]["square"], []).append((sid, self.faction_of(sid)))
        warders = {sq for post, on in v["warders"].items() if on for sq in self.board.posts.get(post, ())}
        in_case = {self.board.facing[j]: j for j, where in v["jewels"].items() if where == "case" and j in self.board.facing}
        out = []
        for sid, (col, row) in self.layout.cells.items():
            sq = self.board.squares[sid]
            mark = ("post" if sq.post else "jewel" if sq.faces else "tower" if sq.tower else
                    "building" if sq.building else "marked" if sq.marked else "")
            out.append(Cell(sid, col, row, sq.region, mark, sid in warders, in_case.get(sid, ""),
                            tuple(here.get(sid, ())), sid in reach))
        return out

    def describe_square(self, sid: str) -> str:
        """A square's rule in words, for a tap on it."""
        sq = self.board.squares[sid]
        bits = [f"{sq.name} — {REGION_WORDS.get(sq.region, sq.region)}"]
        do = dict(sq.do)
        if sq.tower or do.get("tower_card"):
            bits.append("a tower: land here to take a Tower card")
        if sq.post:
            bits.append(f"a Yeoman Warder's post ({self.board.post_names.get(sq.post, sq.post)}): blocked while he stands there, unless you play a Disguise")
        if sq.faces:
            bits.append(f"faces the case of the {self.jewel_name(sq.faces)}: declare a burglary here")
        if sq.rope_ladder:
            bits.append("a Rope or Ladder card leads down from here")
        if do.get("go"):
            bits.append(f"go to {self.square_name(do['go'])}")
        if do.get("miss"):
            bits.append(f"miss {do['miss']} turn{'s' if do['miss'] > 1 else ''}")
        if do.get("coin"):
            bits.append("take your coin from the Mint")
        if sq.region == "inner" and not sq.marked and not sq.post and not sq.building:
            bits.append("an unmarked Inner Ward square: take a Raven card")
        if sid == self.board.places.get("cradle"):
            bits.append("pay the ferryman with your coin to escape")
        if sid == self.board.places.get("queens_house"):
            bits.append("ends the first circuit: accreditation by a Tower Pass or an odd throw")
        v = self.view()
        here = [self.name(s) for s in v["order"] if v["pieces"][s]["square"] == sid]
        if here:
            bits.append("here: " + ", ".join(here))
        if v["board"].get("movement") == "checked" and v.get("phase") == "move" and sid not in self.reachable(v):
            bits.append(f"not a square {self.name(v.get('mover', ''))} can end on with this throw")
        return " · ".join(bits)

    def legend(self, v: dict[str, Any] | None = None) -> str:
        """What the board's marks mean (the board is a schematic of the reconstructed data)."""
        v = v or self.view()
        own = ("Moves unchecked: the board drawn here is the app's reconstruction, a guide only; your own "
               "board decides every move, and the square you name decides what happens. "
               if v["board"].get("movement") == "unchecked" else "")
        return own + ("Board key: yellow Wall Walk · grey Inner Ward · pink Inmost Ward · dark pink White Tower · "
                "W a Yeoman Warder at his post · ♦ a jewel in its case · ○ a circled square · "
                "framed: a tower or building · tap any square for its rule")

    def unchecked_move(self) -> bool:
        """Whether the player names the square landed on now (movement unchecked)."""
        v = self.view()
        return v.get("phase") == "move" and v["board"].get("movement") == "unchecked"

    def move_to(self, sid: str) -> MoveTo | None:
        """The move a tap on ``sid`` makes now, if it is one (without a Disguise)."""
        for a in self.legal():
            if isinstance(a, MoveTo) and a.square == sid and not a.disguise:
                return a
        return None

    # ------------------------------------------------------------ actions

    def _private(self, a: Any) -> bool:
        """Actions that name a seat's hidden cards: offered behind the gate only."""
        return (isinstance(a, (Play, Burgle, Arm, Change, Surrender)) or (isinstance(a, MoveTo) and bool(a.disguise))
                or (isinstance(a, Give) and bool(a.card)))

    def buttons(self) -> list[ButtonSpec]:
        if self.is_over():
            return []
        p = self.table.prompt
        if p is None:
            return []
        v = self.view()
        legal = self.legal()
        if self.split_with:
            return self.split_buttons(legal)
        if self.search is not None:
            return self.search_buttons(legal)
        if self.raven_entry is not None:
            return self.raven_entry_buttons(legal)
        out: list[ButtonSpec] = []
        actor = sorted(p.actors)[0] if p.actors else ""
        moves = [a for a in legal if isinstance(a, MoveTo) and not a.disguise]
        unchecked = v["board"].get("movement") == "unchecked"
        if v["phase"] == "move" and unchecked:
            out.append(ButtonSpec("⚲ Find the square landed on…", intent="search", role="primary"))
        elif len(moves) <= 8:
            out += [ButtonSpec(f"→ {self.square_name(a.square)}", action=a, role="primary") for a in moves]
        if any(isinstance(a, Split) for a in legal):
            out.append(ButtonSpec("⚂ Split the seven with another player…", intent="split"))
        for a in legal:
            if isinstance(a, (Roll, Draw, MoveTo, Split)) or self._private(a):
                continue
            if isinstance(a, Attack):
                out.append(ButtonSpec(f"⚔ Attack {self.name(a.target)} (no throw this turn)", action=a))
            elif isinstance(a, Escape):
                out.append(ButtonSpec("➜ Pay the ferryman and escape", action=a, role="primary"))
            elif isinstance(a, Abandon):
                out.append(ButtonSpec("Abandon the burglary", action=a, role="quiet"))
            elif isinstance(a, Challenge):
                note = self.humanise(getattr(p.awaiting, "note", "") or "challenge")
                out.append(ButtonSpec(f"{note[:1].upper()}{note[1:]}: weapons kept back?", action=a))
            elif isinstance(a, Choose):
                label = CHOICE_WORDS.get(a.option) or self.humanise(a.option)
                out.append(ButtonSpec(label, action=a, role="primary" if a.option not in ("stay", "none") else "normal"))
            elif isinstance(a, Decline):
                out.append(ButtonSpec(self._decline_label(v["phase"]), action=a, role="quiet"))
        if isinstance(p.awaiting, DrawRequest):
            deck = "Raven" if p.awaiting.deck == "raven" else "Tower"
            out.insert(0, ButtonSpec(f"⚄ App's {deck} card", intent="app-draw", role="primary"))
            # A Raven card is read out: the table enters it here, in the open; a Tower
            # card is hidden: its drawer enters it behind the gate.
            out.insert(1, ButtonSpec("⚲ Enter the Raven card drawn from the table's pack…", intent="raven-entry")
                       if p.awaiting.deck == "raven" else
                       ButtonSpec(f"Enter the {deck} card drawn…", intent="physical-draw", seat=actor))
            if v["phase"] == "deal":
                left = 3 * len(v["order"]) - sum(int(x.get("cards", 0)) for x in v["pieces"].values())
                if left > 1:
                    out.insert(0, ButtonSpec(f"⚄ Deal all {left} cards from the app's pack", intent="app-draw",
                                             count=left, role="primary", span="full"))
        if v["phase"] == "swap":
            # Each giver says which of their own cards was taken (behind their gate); the
            # app's blind pick is the fallback (RULINGS R-10).
            a, b = v["swap"]["seats"]
            for seat in v["swap"]["waiting"]:
                taker = self.name(b if seat == a else a)
                out.append(ButtonSpec(f"▤ {self.name(seat)}: which of your cards did {taker} take?", intent="hand",
                                      seat=seat, role="primary"))
                out.append(ButtonSpec(f"⚄ The app picks the card {taker} takes from {self.name(seat)} (blind)",
                                      action=Give(seat)))
            return out
        for seat in sorted(p.actors):
            if isinstance(p.awaiting, CommitRequest):
                if seat not in (v.get("attack") or {}).get("committed", []):
                    out.append(ButtonSpec(f"▤ {self.name(seat)}: lay weapons face down", intent="hand", seat=seat, role="primary"))
                continue
            # Offered whenever a card could be played here and the seat holds any card,
            # whichever it holds: a button only for a seat holding a Tower Pass would tell
            # the table it holds one. Behind the gate, the hand shows what can be done.
            mine = [a for a in legal if self._private(a) and a.seat == seat]
            holds = int(v["pieces"][seat].get("cards", 0)) > 0
            if (v["phase"] in HAND_PHASES and holds) or getattr(p.awaiting, "private", ()) or mine:
                out.append(ButtonSpec(f"▤ {self.name(seat)}'s hand — {self._hand_offer(v, p.awaiting)}", intent="hand", seat=seat))
        return out

    def _hand_offer(self, v: dict[str, Any], awaiting: Any) -> str:
        """What the hand may do in this phase (from the phase, never from the hand)."""
        phase = v["phase"]
        if phase == "start":
            return "play a card, or change cards instead of a turn"
        if phase == "burgle-offer":
            return "declare a burglary"
        if phase == "change-offer":
            return "change cards"
        if phase == "surrender":
            return "surrender your weapons (shown to all)"
        if phase == "offer":
            return self.humanise(getattr(awaiting, "note", "") or "play a card")
        return "play a card"

    def _decline_label(self, phase: str) -> str:
        return {"burgle-offer": "No burglary", "offer": "Don't play a card", "change-offer": "Don't change",
                "challenge": "No challenge"}.get(phase, "No")

    # ------------------------------------------------------------ the end

    def end_words(self) -> dict[str, str]:
        """Names for the ids in the scores' parts (the jewels), for the shared end screen."""
        return dict(self.board.jewel_name)

    def end_notes(self) -> list[str]:
        """How the game was decided, in the book's order (BEFORE PLAY BEGINS; RULINGS E-01)."""
        v = self.view()
        values = ", ".join(f"{self.jewel_name(j)} {self.board.jewel_value[j]}" for j in self.board.jewels)
        out = [f"Scores: the values of the jewels each player escaped with ({values})."]
        if v.get("endgame") == "first-escape":
            out.append("Endgame chosen: the first player to escape with a jewel wins.")
        else:
            out.append("Endgame chosen: play until every jewel is out of the Tower; the highest score wins.")
        out.append("Tie-breaks: the highest score; then the fewer jewels; then whoever holds St Edward's Crown; "
                   "else the win is shared.")
        return self.team_notes() + out

    def team_notes(self) -> list[str]:
        """With teams, the teams' outcome first: each team's players and the jewels they
        escaped with together, and which team won (RULINGS S-02); none without teams."""
        if not self.teams():
            return []
        o = self.table.outcome
        scores = getattr(o, "scores", {}) or {}
        factions = list(dict.fromkeys(s["faction"] for s in self.seats()))
        factions.sort(key=lambda f: -int(getattr(scores.get(f), "total", 0)))
        out = []
        for f in factions:
            sc = scores.get(f)
            total = int(getattr(sc, "total", 0))
            jewels = ", ".join(self.jewel_name(j) for j in (getattr(sc, "breakdown", {}) or {}))
            names = _and([self.name(s) for s in self.team_members(f)])
            out.append(f"{self.team_name(f)[:1].upper()}{self.team_name(f)[1:]} ({names}): {total}"
                       + (f" — escaped with {jewels}" if jewels else " — no jewel escaped"))
        winner = getattr(o, "winner", None) if o is not None else None
        if winner in FACTIONS and winner in factions:
            out.append(f"{self.team_name(winner)[:1].upper()}{self.team_name(winner)[1:]} wins together.")
        elif o is not None:
            out.append("No team wins outright: " + ("the teams tie." if any(int(getattr(x, "total", 0)) for x in scores.values())
                                                   else "no jewel escaped."))
        return out

    # ---------------------------------------------- the split seven, two steps

    def split_partners(self, legal: list[Any] | None = None) -> list[str]:
        seen: list[str] = []
        for a in legal if legal is not None else self.legal():
            if isinstance(a, Split) and a.other not in seen:
                seen.append(a.other)
        return seen

    def split_buttons(self, legal: list[Any]) -> list[ButtonSpec]:
        """Step 1: with whom. Step 2: how the seven is shared."""
        splits = [a for a in legal if isinstance(a, Split)]
        if not splits:
            self.split_with = ""
            return self.buttons()
        thrower = splits[0].seat
        if self.split_with == "?":
            out = [ButtonSpec("Split the seven — step 1 of 2: with whom?", intent="noop", role="quiet", span="full")]
            out += [ButtonSpec(f"{self.who(o)}", intent="split-with", seat=o, role="primary") for o in self.split_partners(legal)]
        else:
            other = self.split_with
            out = [ButtonSpec(f"Split the seven — step 2 of 2: {self.name(thrower)} and {self.name(other)}", intent="noop", role="quiet", span="full")]
            # ``steps`` is the thrower's share; the other player moves the rest of the seven.
            for a in sorted((a for a in splits if a.other == other), key=lambda a: -a.steps):
                out.append(ButtonSpec(f"{self.name(thrower)} moves {a.steps} · {self.name(other)} moves {7 - a.steps}", action=a, role="primary"))
        out.append(ButtonSpec("← Back", intent="split-back", role="quiet"))
        return out

    # ----------------------------------- unchecked movement: find the square

    def square_kinds(self, sid: str) -> list[str]:
        """What a square is, in the words a table searches by: its region, and "tower",
        "post" (with the post's name), "jewel" (with the jewel's name), "Raven" for an
        unmarked Inner Ward square, "circled", "bench", "rope", "miss a turn", "Mint"…"""
        sq = self.board.squares[sid]
        do = dict(sq.do)
        kinds = [REGION_WORDS.get(sq.region, sq.region)]
        if sq.tower:
            kinds.append("tower")
        if sq.building:
            kinds.append("building")
        if sq.post:
            kinds += ["post", "warder", self.board.post_names.get(sq.post, sq.post)]
        if sq.faces:
            kinds += ["jewel", "case", "burglary", self.jewel_name(sq.faces)]
        if sq.draws_raven:
            kinds += ["unmarked", "Raven card"]
        elif sq.marked and sq.region == "inner" and not sq.building and not sq.bench_exit:
            kinds.append("circled")
        if sq.bench_exit:
            kinds.append("bench")
        if sq.rope_ladder:
            kinds += ["rope", "ladder"]
        if do.get("miss"):
            kinds.append("miss a turn")
        if do.get("go"):
            kinds.append("go to " + self.square_name(do["go"]))
        if do.get("coin"):
            kinds += ["Mint", "coin"]
        if do.get("prison") or sq.region == "prison" or sid == "rack":
            kinds.append("prison")
        if do.get("change_card"):
            kinds.append("change a card")
        if do.get("tower_card"):
            kinds.append("Tower card")
        if sid == self.board.places.get("cradle"):
            kinds += ["ferry", "escape"]
        return kinds

    def search_results(self, text: str, limit: int = 12) -> list[str]:
        """Squares whose name or kinds (:meth:`square_kinds`) hold every word of ``text``
        ("tower", "post", "sword", "raven", "row 5", "Mint"…, any case and order): those a
        move can end on first, then those whose name holds the words as typed.

        Only the first ``limit``; :meth:`search_count` says how many matched."""
        return self._search(text)[:limit]

    def search_count(self, text: str) -> int:
        return len(self._search(text))

    def _search(self, text: str) -> list[str]:
        t = text.strip().casefold()
        words = t.split()
        if not words:
            return []
        # A number is a whole number ("row 5" is not row 15); other words match anywhere.
        pattern = re.compile("".join(rf"(?=.*\b{w}\b)" if w.isdigit() else rf"(?=.*{re.escape(w)})" for w in words), re.S)
        hits = []
        for sid, sq in self.board.squares.items():
            if pattern.match(" ".join([sid, sq.name] + self.square_kinds(sid)).casefold()):
                hits.append(sid)
        legal = {a.square for a in self.legal() if isinstance(a, MoveTo)}
        names = {s: self.board.squares[s].name.casefold() for s in hits}
        hits.sort(key=lambda s: (s not in legal, s != self.picked, names[s] != t, not names[s].startswith(t),
                                 t not in names[s]))
        # Squares of one name do the same (the Wall Walk's "Go to Queen's House"s): one
        # button for them, not several alike.
        seen: set[str] = set()
        return [s for s in hits if not (names[s] in seen or seen.add(names[s]))]

    def search_label(self, sid: str) -> str:
        """A found square's button: its name, and the jewel a case square faces."""
        sq = self.board.squares[sid]
        if sq.faces:
            return f"→ {sq.name.replace('a jewel case', f'the case of the {self.jewel_name(sq.faces)}')}"
        return f"→ {sq.name}"

    def search_buttons(self, legal: list[Any]) -> list[ButtonSpec]:
        moves = {a.square: a for a in legal if isinstance(a, MoveTo) and not a.disguise}
        if not moves:
            self.search = None
            return self.buttons()
        out = []
        text = self.search or ""
        for sid in self.search_results(text):
            a = moves.get(sid)
            if a is not None:
                out.append(ButtonSpec(self.search_label(sid), action=a, role="primary"))
        n = self.search_count(text)
        if not out:
            out.append(ButtonSpec("Type part of a square's name or kind above (tower, post, Mint, Raven…)" if not text
                                  else "No square matches", intent="noop", role="quiet", span="full"))
        elif n > len(out):
            out.insert(0, ButtonSpec(f"{len(out)} of {n} squares shown: add a word (row 5, circled…)",
                                     intent="noop", role="quiet", span="full"))
        out.append(ButtonSpec("← Back", intent="search-back", role="quiet"))
        return out

    # ------------------------- a Raven card from the table's pack, in the open

    def raven_cards(self, seat: str) -> list[tuple[str, str, Draw]]:
        """Every Raven card's words once (copies alike), as (title, words, the Draw that
        enters it): the table's physical pack has them all, face down and unseen."""
        return [(_title(text), text, action) for text, action in self.physical_draws(seat)]

    def raven_matches(self, text: str, seat: str) -> list[tuple[str, str, Draw]]:
        """The Raven cards whose words hold every word of ``text`` (any order, any case)."""
        words = text.casefold().split()
        return [c for c in self.raven_cards(seat) if all(w in c[1].casefold() for w in words)]

    def raven_entry_buttons(self, legal: list[Any]) -> list[ButtonSpec]:
        """The Raven card the table drew: a list of every card, narrowed by the search."""
        draws = [a for a in legal if isinstance(a, Draw) and a.deck == "raven"]
        if not draws:
            self.raven_entry = None
            return self.buttons()
        seat = draws[0].seat
        found = self.raven_matches(self.raven_entry or "", seat)
        total = len(self.raven_cards(seat))
        head = (f"{self.name(seat)}'s Raven card: tap the card drawn" if len(found) == total else
                f"{len(found)} of {total} Raven cards match" if found else "No Raven card has those words")
        out = [ButtonSpec(head, intent="noop", role="quiet", span="full")]
        out += [ButtonSpec(title, action=action, role="primary", span="full") for title, _words, action in found]
        out.append(ButtonSpec("← Back", intent="raven-back", role="quiet"))
        return out

    # -------------------------------------------------------- behind the gate

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

    # ------------------------------------------------------------ moments

    def moment(self, before: dict[str, Any], after: dict[str, Any]) -> Moment | None:
        """The attack's reveal, a burglary made, a release from prison, an escape, a Raven
        card to read aloud: from two public views, so nothing hidden can show."""
        ply0 = int(before.get("ply", 0))
        news = [x["text"] for x in after.get("log", []) if int(x.get("ply", -1)) >= ply0]
        words = [_SECTION.sub("", self.humanise(t)) for t in news]
        revealed = next((w for w in words if w.startswith("The cards are revealed")), "")
        if revealed:
            verdict = next((w for w in words if " against " in w), "")
            return Moment("⚔ " + (verdict or "The weapons are revealed"), revealed, "info")
        p0, p1 = before.get("pieces", {}), after.get("pieces", {})
        for sid, p in p1.items():
            was = p0.get(sid, {})
            if len(p.get("escaped", ())) > len(was.get("escaped", ())):
                return Moment(f"➜ {self.name(sid)} escapes by the ferry",
                              "With " + ", ".join(self.jewel_name(j) for j in p["escaped"]) + ".", "good", self.faction_of(sid))
            if len(p.get("carrying", ())) > len(was.get("carrying", ())) and was.get("burglary"):
                j = p["carrying"][-1]
                return Moment(f"♦ {self.name(sid)} steals the {self.jewel_name(j)}", "The burglary succeeds.", "good", self.faction_of(sid))
            if was.get("held") and not p.get("held"):
                place = HELD_NAMES.get(was["held"].get("place", ""), "prison")
                return Moment(f"✔ {self.name(sid)} is out of the {place}" if not place.startswith("the ") else f"✔ {self.name(sid)} is off {place}",
                              "", "good", self.faction_of(sid))
            if p.get("held") and not was.get("held"):
                place = HELD_NAMES.get(p["held"].get("place", ""), "prison")
                return Moment(f"⛓ {self.name(sid)} goes to the {place}" if not place.startswith("the ") else f"⛓ {self.name(sid)} goes to {place}",
                              "", "bad", self.faction_of(sid))
        return None  # a Raven card has its own large card over the board (the screen's)


def birthday_today(today: Any) -> bool:
    """Whether ``today`` (a date) is the Queen's Birthday, 21 April (RULINGS R-05).

    >>> import datetime
    >>> birthday_today(datetime.date(2027, 4, 21)), birthday_today(datetime.date(2027, 4, 22))
    (True, False)
    """
    return (today.month, today.day) == (4, 21)


def birthday_words(birthday: bool) -> str:
    """What the device's date makes of the Queen's Birthday card, for the table.

    >>> birthday_words(True)
    'Today really is 21 April (the app read the date): everyone takes two Tower cards.'
    """
    return ("Today really is 21 April (the app read the date): everyone takes two Tower cards." if birthday
            else "Today is not 21 April (the app read the date): everyone takes one Tower card.")


def setup_words(birthday: bool, movement: str) -> list[str]:
    """The wizard's words on the day and the board, in players' terms."""
    out = ["Today is 21 April, the Queen's Birthday: her Raven card gives two Tower cards (the app read the date)."
           if birthday else "Today is not 21 April: the Queen's Birthday Raven card gives one Tower card (the app read the date)."]
    if movement == "unchecked":
        out.append("Moves unchecked: after each move the player taps, or searches, the square landed on; "
                   "the app applies that square's rules.")
    else:
        out.append("Moves checked on the app's board, which is RECONSTRUCTED from public sources: if your printed "
                   "board differs, choose unchecked movement.")
    return out


def _and(names: list[str]) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cat".

    >>> _and(["Ann", "Bob", "Cat"])
    'Ann, Bob and Cat'
    """
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}" if names else ""


def _title(text: str) -> str:
    """A Raven card's heading: its words up to the first full stop, colon or comma (then
    "…"), at most sixty-odd letters.

    >>> _title("PECKED BY A RAVEN. Your treatment in Hospital takes one turn.")
    'PECKED BY A RAVEN.'
    >>> _title("GO TO THE SHOP if you wish, or stay where you are and forfeit the turn.")
    'GO TO THE SHOP if you wish…'
    """
    m = re.match(r"[^.:!,]{3,}?[.:!,](?=\s|$)", text)
    head = m.group(0) if m else text
    if head.endswith(","):
        head = head[:-1] + "…"
    return head if len(head) <= 64 else head[:61].rstrip() + "…"


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


__all__ = ["OutragePresenter", "SeatStrip", "Cell", "TOWER_CARDS"]

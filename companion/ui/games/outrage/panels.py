"""Outrage!'s panels on the shared screen, from the PUBLIC view: each seat's strip (who,
where, accredited, coin, cards, jewels, prison, burglary), the turn, mode and dice lines,
the jewels' whereabouts, the Yeoman Warders and the Mint, the Raven card to read aloud
and the prompt. A mixin of :class:`~companion.ui.games.outrage.presenter.OutragePresenter`."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rules.core import CommitRequest, DrawRequest, RollRequest

from .words import BIRTHDAY_TEXTS, HELD_NAMES, RAVEN_DRAWN, SECTION, and_names, birthday_words


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



class Panels:
    """The lines and strips the table reads (the presenter's public panels)."""

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
        out = SECTION.sub("", self.humanise(raw))
        if SECTION.sub("", raw) in BIRTHDAY_TEXTS:
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
            wait = and_names([self.name(x) for x in v["swap"]["waiting"]])
            return (f"Swap: {a} and {b} each take a Tower card face down from the other's hand; "
                    f"{wait}: say behind the gate which of your cards was taken")
        if v["phase"] == "move":
            if v["board"].get("movement") == "unchecked":
                return f"{who}: move {self.name(v['mover'])} {v['dice']['steps']} on the board, then tap or search the square landed on"
            return f"{who}: move {self.name(v['mover'])} {v['dice']['steps']} — tap a highlighted square"
        return f"{who}: {self.humanise(getattr(aw, 'note', '') or '')}"

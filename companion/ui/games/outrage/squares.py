"""Outrage!'s board as the table sees it: each square's cell (marks, warder, jewel case,
pieces, whether a move may end there), a square's rule for a tap on it, the board's key,
and the square search that unchecked movement uses (a square found by its name or kind).
A mixin of :class:`~companion.ui.games.outrage.presenter.OutragePresenter`."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rules.outrage.actions import MoveTo

from .words import REGION_WORDS


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



class BoardSquares:
    """The board's cells, a square in words, and the square search."""

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
        # A square whose cell is as last time keeps its Cell: the board then finds the
        # unchanged ones by identity.
        shown: dict[str, Cell] = self.__dict__.setdefault("_cells_shown", {})
        out = []
        for sid, col, row, region, mark in self.grounds():
            now = (sid in warders, in_case.get(sid, ""), tuple(here.get(sid, ())), sid in reach)
            cell = shown.get(sid)
            if cell is None or (cell.warder, cell.jewel, cell.pieces, cell.reachable) != now:
                cell = shown[sid] = Cell(sid, col, row, region, mark, *now)
            out.append(cell)
        return out

    def grounds(self) -> list[tuple[str, int, int, str, str]]:
        """Each square's place on the grid, region and mark (what no move changes), read
        from the board once per presenter: (square, column, row, region, mark)."""
        made = self.__dict__.get("_grounds")
        if made is None:
            made = self.__dict__["_grounds"] = [
                (sid, col, row, self.board.squares[sid].region, self._mark(self.board.squares[sid]))
                for sid, (col, row) in self.layout.cells.items()]
        return made

    @staticmethod
    def _mark(sq: Any) -> str:
        """A square's mark on the board: a warder's post, a jewel case's square, a tower,
        a building, a circled square, or none."""
        return ("post" if sq.post else "jewel" if sq.faces else "tower" if sq.tower else
                "building" if sq.building else "marked" if sq.marked else "")

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

"""Dicetopia at the table, without Kivy: what the table screen shows and which actions its
taps become. Unit-tested without a window (``tests/ui/dicetopia/``).

Public and private are kept apart:

* **public** — :meth:`DicetopiaPresenter.hoods`, :meth:`boards`, :meth:`buttons`,
  :meth:`scores`, :meth:`tally`: built from ``table.view(PUBLIC)`` and the public legal
  actions (a die, an agent, a place: never a mission). Missions appear only in the public
  view once the engine reveals them at the end.
* **private** — :meth:`hand_page` and :meth:`physical_draw_page`: one seat's missions
  and the choices that name them (keep, the Agency's bottom card, Opportunist), read with
  ``table.private_view(seat)`` only behind the privacy gate, after the hold.

The turn is guided one step at a time: the acting player taps a die (the deploy), then
the action's targets are marked on the board and each tap narrows them down
(:meth:`tap`), until one action is left (submitted) or a few that differ only in a detail
(Cloning's value or colour, Intervention's same die twice): buttons then.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules import Draw, DrawRequest, facts
from rules.dicetopia.actions import (Adapt, Block, Bottom, Choose, Clone, CopyMission, Decline, Deploy, Exterminate, Hypnotize,
                                     Intervene, Keep, Reroll, Rig, SaveTurn, Swap, Transcend)
from rules.dicetopia.scoring import Domination
from rules.dicetopia.tables import tables

from ...presenters.actions import ButtonSpec, GateChoice, GateLine, GateSection, Moment
from ...presenters.base import GamePresenter

T = tables()
COLOUR = {c.letter: c for c in T.colours}  # "p" → purple, Weapons, ⚔
HOOD = {h.id: h for h in T.hoods}
FACTION = T.factions
SHOWN = facts.factions("dicetopia")  # glyph, name, colour key (rules/dicetopia/data/factions.json)
MISSIONS = "missions"
FACTION_CARDS = "factions"
Place = tuple[str, int]


@dataclass(frozen=True)
class Cell:
    """One space of a neighbourhood or slot of a faction board, as everyone sees it."""

    where: str
    index: int
    kind: str  # die | agent | empty (an agent still on its faction board) | unused | dead
    text: str  # what the cell shows: glyph and value, or the agent's glyph and initial
    colour: str = ""  # a die's colour id (purple, teal, white)
    faction: str = ""  # an agent's faction (its colour)
    words: str = ""  # the cell in words (a tap says them)
    target: bool = False  # the current step may tap it
    picked: bool = False  # tapped already in this step


@dataclass(frozen=True)
class HoodRow:
    id: str
    title: str  # "The Agency · Draw a Mission Card and …" (name and action, one line)
    cells: tuple[Cell, ...]
    status: str  # who dominates it now and for how much, in words
    acting: bool = False  # the neighbourhood whose action is being performed


@dataclass(frozen=True)
class BoardPanel:
    seat: str
    title: str  # "Ann · ▣ Banxa Corporation"
    faction: str
    token: str  # "● Block: ready (once per game)" / "○ Block: used"
    cells: tuple[Cell, ...]
    score: int
    acting: bool = False


@dataclass
class _Pick:
    ply: int = -1
    mode: str = ""  # "" (the phase's own taps), exterminate, intervene, hypnosis, transcend
    places: list[Place] = field(default_factory=list)


class CityEntry:
    """The table's own city roll, entered die by die in board order from a colour × value
    grid: each tap fills the next used space. Kivy-free.

    >>> e = CityEntry([("agency", 0), ("agency", 1)], {"purple": 1, "teal": 1, "white": 0})
    >>> e.push("purple", 4); e.push("purple", 2)
    True
    False
    >>> e.push("teal", 6), e.complete, e.cells()
    (True, True, {('agency', 0): 'p4', ('agency', 1): 't6'})
    """

    def __init__(self, spaces: list[Place], per_colour: dict[str, int]) -> None:
        self.spaces = spaces
        self.per_colour = per_colour
        self.dice: list[tuple[str, int]] = []

    def left(self, colour: str) -> int:
        return self.per_colour[colour] - sum(1 for c, _ in self.dice if c == colour)

    def push(self, colour: str, value: int) -> bool:
        """The next space's die; False (nothing entered) when that colour is used up."""
        if self.complete or self.left(colour) <= 0 or not 1 <= value <= 6:
            return False
        self.dice.append((colour, value))
        return True

    def pop(self) -> None:
        if self.dice:
            self.dice.pop()

    @property
    def complete(self) -> bool:
        return len(self.dice) == len(self.spaces)

    def next_space(self) -> Place | None:
        return None if self.complete else self.spaces[len(self.dice)]

    def cells(self) -> dict[Place, str]:
        letter = {c.id: c.letter for c in T.colours}
        return {p: letter[c] + str(v) for p, (c, v) in zip(self.spaces, self.dice)}

    def roll(self, seat: str) -> Any:
        from rules import Roll

        return Roll(seat, tuple(v for _, v in self.dice), tuple(c for c, _ in self.dice), source="touch")


def die_text(cell: str) -> str:
    """``"p4"`` → ``"⚔4"``: the resource's glyph and the value (never colour alone)."""
    return f"{COLOUR[cell[0]].glyph}{cell[1]}"


def die_words(cell: str) -> str:
    c = COLOUR[cell[0]]
    return f"{c.id} {cell[1]} ({c.resource})"


def is_die(cell: str) -> bool:
    return len(cell) == 2 and cell[0] in COLOUR and cell[1].isdigit()


def tally_row(what: str, label: str, points: int) -> str:
    """One line of the end's tally. The loot is the dice on the board added up (§6), so
    its line is a sum with its result; the other lines say what scored and how much.

    >>> tally_row("loot", "Loot: 6 + 2 + 5", 13), tally_row("loot", "Loot: ", 0)
    ('Loot: 6 + 2 + 5 = 13 ★', 'Loot: 0 ★')
    >>> tally_row("domination", "Domination: The Agency", 7)
    'Domination: The Agency: 7 ★'
    """
    if what == "loot" and label.split(":", 1)[-1].strip():  # the dice's values, one or more
        return f"{label} = {points} ★"
    return f"{label.rstrip().rstrip(':')}: {points} ★"


def places_of(action: Any, order: list[str]) -> tuple[Place, ...]:
    """The places an action's taps name, in tap order."""
    if isinstance(action, (Deploy, Exterminate)):
        return ((action.hood, action.space),)
    if isinstance(action, Reroll):
        return ((action.where, action.index),)
    if isinstance(action, (Swap, Intervene)):
        return ((action.a, action.a_index), (action.b, action.b_index))
    if isinstance(action, Clone):
        right = order[order.index(action.seat) - 1]
        return ((action.seat, action.index), (right, action.theirs))
    return ()


class DicetopiaPresenter(GamePresenter):
    """Wraps a Table running Dicetopia."""

    game_id = "dicetopia"
    undo_rule = ("Undo: your own last moves, until the next player acts; never a roll everyone saw, "
                 "a mission drawn or an ability announced at the end")

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        self._pick = _Pick()
        self.entry: CityEntry | None = None  # the table's own city roll, while it is entered
        self._targets: tuple[dict[str, Any], tuple[Any, ...], frozenset[Place]] | None = None  # (view, pick, targets)

    # ------------------------------------------------------------ basics

    def faction_of(self, seat: str, v: dict[str, Any] | None = None) -> str:
        """The seat's faction as the engine records it ("" until a dealt one is dealt)."""
        v = v or self.view()
        return next((str(s["faction"]) for s in v["seats"] if s["id"] == seat), "")

    def seats(self) -> list[dict[str, str]]:
        # From the public view: a faction card dealt during setup names the seat's faction.
        return [{"id": s["id"], "name": s["name"], "faction": s["faction"]} for s in self.view()["seats"]]

    def words(self) -> dict[str, str]:
        """Neighbourhoods, missions and factions by name."""
        words = {h.id: h.name for h in T.hoods}
        words.update({m.id: m.name for m in T.missions.values()})
        words.update({f.id: f.name for f in FACTION.values()})
        return words

    def entity_name(self, kind: str, ident: str) -> str:
        """A mapped input's place ("place:agency") by its name."""
        return self.place_name(ident) if kind == "place" else ident

    def _sync(self, v: dict[str, Any]) -> _Pick:
        if self._pick.ply != v["ply"]:
            self._pick = _Pick(ply=v["ply"])
        return self._pick

    # ------------------------------------------------------------ the board

    def _tap_kind(self, v: dict[str, Any]) -> tuple[type, ...]:
        """The action kinds a tap on the board builds now."""
        mode = self._sync(v).mode
        phase = v["phase"]
        if phase == "deploy":
            return {"exterminate": (Exterminate,), "intervene": (Intervene,)}.get(mode, (Deploy,) if not mode else ())
        if phase == "first":  # the answer first in Player Order: an ability's targets only
            return {"exterminate": (Exterminate,), "intervene": (Intervene,)}.get(mode, ())
        if phase == "act" and not mode:
            return (Reroll, Swap)
        if phase == "clone":
            return (Clone,)
        return ()

    def candidates(self, v: dict[str, Any] | None = None) -> list[Any]:
        """The legal actions the board's taps may build now (all public: places only)."""
        v = v or self.view()
        kinds = self._tap_kind(v)
        if not kinds or self.is_over():
            return []
        return [a for a in self.table.legal_actions() if isinstance(a, kinds)]

    def _matching(self, v: dict[str, Any]) -> list[tuple[Any, tuple[Place, ...]]]:
        picked = tuple(self._sync(v).places)
        out = []
        for a in self.candidates(v):
            ps = places_of(a, v["order"])
            orders = [ps, ps[::-1]] if isinstance(a, (Swap, Intervene)) else [ps]
            for q in orders:
                if q[: len(picked)] == picked:
                    out.append((a, q))
                    break
        return out

    def targets(self, v: dict[str, Any] | None = None) -> frozenset[Place]:
        """The places a tap may pick next. Worked out once per public view and pick (the
        city and the boards both mark them): the legal actions are asked for once."""
        v = v or self.view()
        pick = self._sync(v)
        key = (pick.mode, tuple(pick.places))
        memo = self._targets
        if memo is not None and memo[0] is v and memo[1] == key:
            return memo[2]
        n = len(pick.places)
        out = frozenset(q[n] for _, q in self._matching(v) if len(q) > n)
        self._targets = (v, key, out)
        return out

    def _cell(self, where: str, index: int, c: str, targets: frozenset[Place], picked: list[Place], board: bool,
              v: dict[str, Any]) -> Cell:
        place = (where, index)
        mark = {"target": place in targets, "picked": place in picked}
        if is_die(c):
            return Cell(where, index, "die", die_text(c), COLOUR[c[0]].id, words=f"a {die_words(c)} die", **mark)
        if c.startswith("@") and len(c) > 1:
            seat = c[1:]
            f = self.faction_of(seat, v)
            glyph = SHOWN[f].glyph if f in SHOWN else "●"
            return Cell(where, index, "agent", f"{glyph}{self.name(seat)[:1]}", faction=f, words=f"{self.name(seat)}'s agent", **mark)
        if c == "@" and board:
            return Cell(where, index, "empty", "●", faction=self.faction_of(where, v), words="an agent not yet deployed", **mark)
        if c == "x":
            return Cell(where, index, "dead", "✖", words="a space Exterminate made useless")
        return Cell(where, index, "unused", "—", words="a space not used at this player count")

    def hoods(self, v: dict[str, Any] | None = None) -> list[HoodRow]:
        v = v or self.view()
        pick = self._sync(v)
        targets = self.targets(v) if pick.mode not in ("hypnosis", "transcend") else frozenset()
        entered = self.entry.cells() if self.entry is not None and v["phase"] == "roll" else {}
        dom = Domination.of(T, v["city"], v["order"], v["end"]["rigged"]) if v["phase"] not in ("deal-factions", "roll") else {}
        out = []
        for h in T.hoods:
            cells = []
            for i, c in enumerate(v["city"][h.id]):
                if (h.id, i) in entered:
                    c = entered[(h.id, i)]
                elif self.entry is not None and (h.id, i) == self.entry.next_space():
                    cells.append(Cell(h.id, i, "next", "?", words="the next die to enter", target=True))
                    continue
                cells.append(self._cell(h.id, i, c, targets, pick.places, False, v))
            hold = dom.get(h.id)
            if hold is None or not hold.winners:
                status = ""
            else:
                names = " & ".join(self.name(s) for s in hold.winners)
                status = f"★ {names} +{hold.share}" + (" each (tied)" if len(hold.winners) > 1 else "")
            mark = "◈ " if v.get("hypnosis") == h.id else ""
            out.append(HoodRow(h.id, f"{mark}{h.name} · {h.summary}", tuple(cells), status, acting=v.get("act_hood") == h.id))
        return out

    def boards(self, v: dict[str, Any] | None = None) -> list[BoardPanel]:
        v = v or self.view()
        pick = self._sync(v)
        targets = self.targets(v)
        score = v.get("public_score") or {}
        out = []
        for s in v["order"]:
            f = self.faction_of(s, v)
            spec = FACTION.get(f)
            if spec is None:
                title, token = self.name(s), "faction card not dealt yet"
            else:
                title = f"{self.name(s)} · {SHOWN[f].title}"
                used = v["factions"][s]["flipped"]
                if not spec.once:
                    token = f"● {spec.ability}: whenever it applies"
                else:
                    token = f"○ {spec.ability}: used (token flipped)" if used else f"● {spec.ability}: ready (once per game)"
            held = int(v["missions"][s]["count"])
            if held:  # how many, never which: missions are secret until the end
                token += f"\n▤ {held} secret mission{'s' if held != 1 else ''}"
            cells = tuple(self._cell(s, i, c, targets, pick.places, True, v) for i, c in enumerate(v["boards"][s]))
            out.append(BoardPanel(s, title, f, token, cells, int(score.get(s, 0)), acting=v["current"] == s))
        return out

    def scores(self, v: dict[str, Any] | None = None) -> str:
        """The live public score: loot and domination as they stand (missions stay secret)."""
        v = v or self.view()
        score = v.get("public_score") or {}
        if not score:
            return ""
        return "Public score (loot + domination): " + "   ".join(f"{self.name(s)} {score[s]} ★" for s in v["order"])

    # ------------------------------------------------------------ words

    def turn_line(self, v: dict[str, Any] | None = None) -> str:
        v = v or self.view()
        if self.is_over():
            return "Game over"
        if v["phase"] in ("deal-factions", "roll", "deal", "keep"):
            return "Setup"
        if v["phase"] in ("clone", "rig", "choose", "gamble", "copy"):
            return "End scoring"
        return self.turn_words(v["turn"], v["current"])

    def steps(self, v: dict[str, Any] | None = None) -> str:
        """The turn as guided steps, the current one marked."""
        v = v or self.view()
        phase = v["phase"]
        if phase not in ("deploy", "first", "agency-draw", "agency-bottom", "act", "react", "reroll", "intervene"):
            return ""
        hood = HOOD.get(v.get("act_hood") or "")
        second = f"2 {hood.name}'s action" if hood else "2 the neighbourhood's action"
        if phase in ("deploy", "first", "intervene"):
            return f"▶ 1 pick a die   ·   {second}"
        return f"✔ 1 die picked   ·   ▶ {second}"

    def prompt_line(self) -> str:
        if self.is_over():
            o = self.table.outcome
            return o.reason
        v = self.view()
        pick = self._sync(v)
        phase = v["phase"]
        cur = v["current"]
        if phase == "roll":
            e = self.entry
            if e is not None:
                nxt = e.next_space()
                where = f"{HOOD[nxt[0]].name}, space {nxt[1] + 1}" if nxt else "done: enter the city"
                return f"Enter the table's roll, die by die in board order ({len(e.dice)} of {len(e.spaces)}): {where}."
            return f"{self.name(self.actors()[0])}: roll the {self._space_count(v)} dice onto the city, or let the app roll and copy its layout."
        if phase in ("deploy", "first") and (cur in self.actors() or pick.mode):
            if pick.mode == "exterminate":
                return "Exterminate: tap the die to remove from the game."
            if pick.mode == "intervene":
                return "Intervention: tap a die to reroll (twice, or then a second die)." if not pick.places else "Tap a second die, or reroll this one twice."
            if pick.mode == "hypnosis":
                return f"Hypnosis: choose the neighbourhood for {self.name(cur)}'s turn."
            if phase == "deploy":
                hyp = f" in {HOOD[v['hypnosis']].name} (Hypnosis)" if v.get("hypnosis") else ""
                return f"{self.name(cur)}: tap a die{hyp} to swap your leftmost agent with it."
        if phase == "act":
            if pick.mode == "transcend":
                return "Transcendence: choose the neighbourhood whose action to perform."
            hood = HOOD[v["act_hood"]]
            if not self.candidates(v):
                return f"{hood.name}: the action is not possible."
            if hood.action == "reroll":
                return f"{hood.name}: tap the die to reroll (any neighbourhood or faction board)."
            first = {"agent-die": "an agent or a die", "die-die": "a die", "city-board": "a die",
                     "board-board": "a die on a faction board"}[hood.action]
            return f"{hood.name}: {hood.summary}. " + (f"Tap {first}." if not pick.places else "Now tap what to swap it with.")
        if phase == "clone":
            return "Cloning: tap one of your dice, then the die to copy on the board of the opponent to your right."
        a = self.table.prompt
        waits = [w for w in a.waits.values()] if hasattr(a, "waits") else []
        note = getattr(waits[0], "purpose", "") or getattr(waits[0], "note", "") if waits else ""
        names = [self.name(s) for s in self.actors()]
        note = self.humanise(note)
        if not note or not any(n in note for n in names):
            note = ", ".join(names) + (f": {note}" if note else "")
        return note[:1].upper() + note[1:]

    def _space_count(self, v: dict[str, Any]) -> int:
        n = len(v["order"])
        return sum(len(h.used(n)) for h in T.hoods)

    def describe(self, where: str, index: int | None = None) -> str:
        """A tap on a neighbourhood, a die, an agent or a faction: its rule in words."""
        if where in HOOD and index is None:
            h = HOOD[where]
            return f"{h.name}: {h.summary} (§5 Neighbourhood Actions). Most agents here scores 5 + the dice left (§6)."
        if where in FACTION:
            f = FACTION[where]
            return f"{SHOWN[where].title} · {f.ability}: {f.text} (§7)"
        v = self.view()
        if index is None:
            f = self.faction_of(where, v)
            return self.describe(f) if f else f"{self.name(where)}'s faction board."
        cells = v["city"].get(where) if where in v["city"] else v["boards"].get(where)
        if cells is None or not 0 <= index < len(cells):
            return ""
        c = self._cell(where, index, cells[index], set(), [], where not in v["city"], v)
        place = HOOD[where].name if where in HOOD else f"{self.name(where)}'s board"
        extra = " Dice on a faction board are that player's loot: their values score at the end (§6)." if c.kind == "die" and where not in HOOD else ""
        return f"{place}, space {index + 1}: {c.words}.{extra}"

    # ------------------------------------------------------------ taps

    def tap(self, where: str, index: int) -> Any | None:
        """A tap on a place: the action to submit once the taps name one, else None (the
        targets now marked, choice buttons, or the place's words in :attr:`info`)."""
        v = self.view()
        pick = self._sync(v)
        place = (where, index)
        if pick.places and pick.places[-1] == place and place not in self.targets(v):
            pick.places.pop()  # a second tap takes it back
            return None
        if place not in self.targets(v):
            self.info = self.describe(where, index)
            return None
        pick.places.append(place)
        n = len(pick.places)
        matching = self._matching(v)
        complete = [a for a, q in matching if len(q) == n]
        longer = [a for a, q in matching if len(q) > n]
        if len(complete) == 1 and not longer:
            self._pick = _Pick(ply=v["ply"])
            return complete[0]
        return None

    def set_mode(self, mode: str) -> None:
        v = self.view()
        self._pick = _Pick(ply=v["ply"], mode=mode)

    @property
    def mode(self) -> str:
        return self._sync(self.view()).mode

    def start_entry(self) -> None:
        v = self.view()
        n = len(v["order"])
        spaces = [(h.id, i) for h in T.hoods for i in h.used(n)]
        per = T.dice_per_colour(n)
        self.entry = CityEntry(spaces, {c.id: per for c in T.colours})

    # ------------------------------------------------------------ the action panel

    def buttons(self) -> list[ButtonSpec]:
        if self.is_over():
            return []
        v = self.view()
        pick = self._sync(v)
        phase = v["phase"]
        actors = self.actors()
        if not actors:
            return []
        seat = actors[0]
        cur = v["current"]
        legal = list(self.table.legal_actions()) if phase not in ("roll", "keep", "agency-bottom", "choose") else []
        out: list[ButtonSpec] = []
        if phase == "deal-factions":
            taken = {x["faction"] for x in v["factions"].values()}
            out.append(ButtonSpec(f"⚄ The app deals {self.name(seat)} a faction card", "app-draw", seat=seat, role="primary", span="full"))
            out += [ButtonSpec(f"{SHOWN[f].title}", "submit", Draw(seat, deck=FACTION_CARDS, card=f, source="card"))
                    for f in FACTION if f not in taken]
            return out
        if phase == "roll":
            if self.entry is not None:
                out.append(ButtonSpec("↶ Take back the last die", "entry-pop", role="quiet"))
                if self.entry.complete:
                    out.append(ButtonSpec("✔ Enter this city", "entry-done", role="primary"))
                out.append(ButtonSpec("✖ Stop entering", "entry-stop", role="quiet"))
                return out
            return [ButtonSpec("▦ Enter the table's roll (colour × value grid)", "entry-start", role="primary", span="full"),
                    ButtonSpec("⚄ The app rolls: copy its city onto the table", "app-draw", seat=seat, span="full")]
        if phase in ("deal", "gamble") or (phase == "agency-draw" and not pick.mode):
            if phase == "deal":
                # The seat being dealt; a seat dealt its three earlier may keep meanwhile (D-34).
                seat = next(s for s in actors if self._draws_now(s))
                left = 3 - int(v["missions"][seat]["count"])
                out += [ButtonSpec(f"▤ {self.name(seat)}: enter the mission{'s' if left > 1 else ''} you drew…", "physical-draw",
                                   seat=seat, role="primary", span="full"),
                        ButtonSpec(f"⚄ The app deals {left} mission{'s' if left > 1 else ''} to {self.name(seat)}", "app-draw",
                                   seat=seat, count=left, span="full")]
                out += self._keep_buttons(actors)
            else:
                what = "The Agency" if phase == "agency-draw" else "High Stakes Gambling"
                out += [ButtonSpec(f"▤ {what}: {self.name(seat)} enters the mission drawn…", "physical-draw", seat=seat,
                                   role="primary", span="full"),
                        ButtonSpec(f"⚄ {what}: the app draws for {self.name(seat)}", "app-draw", seat=seat, span="full")]
            if any(isinstance(a, Transcend) for a in legal):
                out.append(ButtonSpec(f"{SHOWN['ewo'].glyph} Transcendence: another action instead", "mode", seat="transcend"))
            return out
        if phase == "keep":
            return self._keep_buttons(actors)
        if phase == "agency-bottom":
            return [ButtonSpec(f"▤ {self.name(seat)}: put a mission on the bottom (behind the gate)", "hand", seat=seat, role="primary")]
        if phase == "choose":
            return [ButtonSpec(f"▤ {self.name(seat)}: choose the mission not to score (behind the gate)", "hand", seat=seat,
                               role="primary")]
        if pick.mode:
            return self._mode_buttons(v, pick, legal)
        if phase in ("deploy", "first"):
            if any(isinstance(a, SaveTurn) for a in legal):
                out.append(ButtonSpec(f"{SHOWN['roamers'].glyph} Last Resort: save this turn for after the last", "submit", SaveTurn(cur)))
            if any(isinstance(a, Exterminate) for a in legal):
                out.append(ButtonSpec(f"{SHOWN['shakra'].glyph} Exterminate a die…", "mode", seat="exterminate"))
            if any(isinstance(a, Intervene) for a in legal):
                out.append(ButtonSpec(f"{SHOWN['tuulu'].glyph} Intervention: reroll dice…", "mode", seat="intervene"))
            hyp = [a for a in legal if isinstance(a, Hypnotize)]
            if hyp:
                out.append(ButtonSpec(f"{SHOWN['perceptioneers'].glyph} {self.name(hyp[0].seat)}: Hypnosis for this turn…", "mode",
                                      seat="hypnosis"))
            decline = next((a for a in legal if isinstance(a, Decline)), None)
            if decline is not None:  # the answer first in Player Order: let the announced ability go first
                out.append(ButtonSpec(f"{self.name(decline.seat)}: let {self.name(v['held']['seat'])}'s {v['held']['ability']} go first",
                                      "submit", decline, role="quiet"))
            return out
        if phase == "act":
            if any(isinstance(a, Transcend) for a in legal):
                out.append(ButtonSpec(f"{SHOWN['ewo'].glyph} Transcendence: another action instead", "mode", seat="transcend"))
            if any(isinstance(a, Decline) for a in legal) and not any(isinstance(a, (Reroll, Swap)) for a in legal):
                out.append(ButtonSpec("Nothing possible: end the turn", "submit", Decline(cur), role="quiet"))
            return out
        if phase == "react":
            for a in legal:
                if isinstance(a, Block):
                    out.append(ButtonSpec(f"{SHOWN['banxa'].glyph} {self.name(a.seat)}: Block it", "submit", a, role="danger"))
                elif isinstance(a, Adapt):
                    die = v["boards"][a.seat][a.index]
                    new = int(die[1]) + a.delta
                    out.append(ButtonSpec(f"{SHOWN['hollows'].glyph} Adapt {die_text(die)} → {new}", "submit", a))
            decline = next((a for a in legal if isinstance(a, Decline)), None)
            if decline is not None:
                blocking = any(isinstance(a, Block) for a in legal)
                out.append(ButtonSpec("Let it happen" if blocking else "Don't adapt", "submit", decline, role="quiet"))
            return out
        if phase == "clone":
            out += self._choice_buttons(v)
            out += [ButtonSpec("Don't clone", "submit", a, role="quiet") for a in legal if isinstance(a, Decline)]
            return out
        if phase == "rig":
            for a in legal:
                if isinstance(a, Rig):
                    out.append(ButtonSpec(f"{SHOWN['bingmai'].glyph} {self.name(a.winner)} alone dominates {HOOD[a.hood].name}", "submit", a))
                elif isinstance(a, Decline):
                    out.append(ButtonSpec("Leave the ties shared", "submit", a, role="quiet"))
            return out
        if phase == "copy":
            owner = {c: s for s, m in v["missions"].items() for c in m.get("cards", ())}
            for a in legal:
                if isinstance(a, CopyMission):
                    out.append(ButtonSpec(f"Copycat: copy {self.name(owner.get(a.card, ''))}'s {T.mission(a.card).name}", "submit", a))
            return out
        return out

    def _keep_buttons(self, actors: list[str]) -> list[ButtonSpec]:
        """A button for each seat that may keep two missions now (behind the gate)."""
        return [ButtonSpec(f"▤ {self.name(s)}: keep two missions (behind the gate)", "hand", seat=s, role="primary")
                for s in actors if self._keeps_now(s)]

    def _awaits(self, seat: str) -> Any:
        p = self.table.prompt
        return None if p is None or p.over else p.waits.get(seat)

    def _keeps_now(self, seat: str) -> bool:
        """Whether ``seat`` is asked to keep two missions now: once its own three are dealt
        (during the others' deal too, D-34), until it has kept."""
        w = self._awaits(seat)
        return w is not None and "keep" in w.accepted

    def _choice_buttons(self, v: dict[str, Any]) -> list[ButtonSpec]:
        """When the taps name several actions that differ in a detail: one button each."""
        n = len(self._sync(v).places)
        if not n:
            return []
        out = []
        for a, q in self._matching(v):
            if isinstance(a, Intervene) and n == 1 and q[0] == q[1]:
                out.append(ButtonSpec(f"{SHOWN['tuulu'].glyph} Reroll this die twice", "submit", a))
                continue
            if len(q) != n:
                continue
            if isinstance(a, Clone):
                mine = v["boards"][a.seat][a.index]
                theirs = v["boards"][q[1][0]][a.theirs]
                new = mine[0] + theirs[1] if a.what == "value" else theirs[0] + mine[1]
                out.append(ButtonSpec(f"{SHOWN['dangmer'].glyph} Copy the {a.what}: {die_text(mine)} → {die_text(new)}", "submit", a))
        return out

    def _mode_buttons(self, v: dict[str, Any], pick: _Pick, legal: list[Any]) -> list[ButtonSpec]:
        out: list[ButtonSpec] = []
        if pick.mode == "hypnosis":
            out += [ButtonSpec(f"{SHOWN['perceptioneers'].glyph} {HOOD[a.hood].name}", "submit", a) for a in legal if isinstance(a, Hypnotize)]
        elif pick.mode == "transcend":
            out += [ButtonSpec(f"{SHOWN['ewo'].glyph} {HOOD[a.hood].name}: {HOOD[a.hood].summary}", "submit", a, span="full")
                    for a in legal if isinstance(a, Transcend)]
        else:
            out += self._choice_buttons(v)
        out.append(ButtonSpec("← Back", "mode", seat="", role="quiet"))
        return out

    # ------------------------------------------------------------ behind the gate

    def _mission_line(self, card: str) -> GateLine:
        m = T.mission(card)
        return GateLine(f"★ [b]{m.name}[/b]: {m.text}", markup=True)

    def hand_purpose(self, seat: str) -> str:
        return "your secret missions"

    def hand_page(self, seat: str, news: str = "") -> list[GateSection]:
        """``seat``'s missions (read only now, after the hold) and its choices with them."""
        mine = self.table.private_view(seat)
        cards = list(mine["missions"][seat].get("cards", ()))
        v = self.view()
        phase = v["phase"]
        lines = list(self.news_lines(news))
        discard = mine.get("my_discard")
        lines += [self._mission_line(c) for c in cards if c != discard]
        if discard:
            lines.append(GateLine(f"✖ Discarded: {T.mission(discard).name}", tone="muted", size="small"))
        if not cards:
            lines.append(GateLine("No missions yet."))
        choices: list[GateChoice] = []
        actors = self.actors()
        if self._keeps_now(seat):
            choices = [GateChoice(f"✖ Discard {T.mission(c).name}", Keep(seat, discard=c)) for c in cards]
            title = "Keep two missions: tap the one to discard"
        elif phase == "agency-bottom" and seat in actors:
            choices = [GateChoice(f"↓ {T.mission(c).name} to the bottom", Bottom(seat, card=c)) for c in cards]
            title = "The Agency: put one mission on the bottom of the deck"
        elif phase == "choose" and seat in actors:
            choices = [GateChoice(f"Don't score {T.mission(c).name}", Choose(seat, unused=c)) for c in cards]
            title = "Opportunist: the mission not to score"
        else:
            title = "Your secret missions"
        return [GateSection(title, tuple(lines), tuple(choices))]

    def physical_draw_continues(self, seat: str) -> bool:
        """After a mission entered behind the gate: the seat's next one (the deal's three),
        then which two it keeps, on the same page (§3 step 3: "They each get to keep two and
        discard one"; D-34): every seat deals and discards in one pass at the gate."""
        if self._keeps_now(seat):
            return True
        v = self.view()
        return v["phase"] == "deal" and self._draws_now(seat) and int(v["missions"][seat]["count"]) < 3

    def _draws_now(self, seat: str) -> bool:
        return isinstance(self._awaits(seat), DrawRequest) and self.view()["phase"] in ("deal", "agency-draw", "gamble")

    def physical_draws(self, seat: str) -> list[tuple[str, Any]]:
        """The missions ``seat`` may say it drew from the table's deck (behind the gate or
        on its phone), by name, each with the Draw that enters it: exactly what the engine
        accepts (``drawable``), every mission the seat cannot rule out. Never the deck's
        exact contents, whose gaps are the others' secret missions: those are offered
        too, and the app swaps its guess behind the scenes (RULINGS D-33)."""
        if not self._draws_now(seat):
            return []
        ok = set(self.table.game.drawable(self.table.state, seat, MISSIONS))
        return [(m.name, Draw(seat, deck=MISSIONS, card=m.id, source="card"))
                for m in sorted(T.missions.values(), key=lambda m: m.name) if m.id in ok]

    def physical_draw_page(self, seat: str) -> list[GateSection]:
        """Behind the gate: tap the mission card drawn from the table's own deck (then,
        once the seat's three are in, the one to discard: :meth:`physical_draw_continues`)."""
        if self._keeps_now(seat):
            return self.hand_page(seat)
        if not self._draws_now(seat):
            return [GateSection(lines=(GateLine("Nothing to draw now."),))]
        mine = set(self.table.private_view(seat)["missions"][seat].get("cards", ()))
        v = self.view()
        n = int(v["missions"][seat]["count"])
        head = (GateLine(f"Mission {n + 1} of 3: tap the card you drew.", size="large"),) if v["phase"] == "deal" else \
            (GateLine("Tap the mission card you drew.", size="large"),)
        held = tuple(self._mission_line(c) for c in sorted(mine))
        choices = tuple(GateChoice(label, action) for label, action in self.physical_draws(seat))
        return [GateSection("The mission you drew", head + held, choices)]

    def hand_title(self, seat: str) -> str:
        return "Your secret missions"

    def card_texts(self, seat: str) -> list[tuple[str, str, str]]:
        """``seat``'s secret missions as (id, name, rule text), as its hand page shows them.
        Only for ``seat``."""
        cards = self.table.private_view(seat)["missions"][seat].get("cards", ())
        return [(c, T.mission(c).name, T.mission(c).text) for c in cards]

    def drawn_news(self, action: Any) -> str:
        if not isinstance(action, Draw) or action.deck != MISSIONS or action.source == "card" or self.is_over():
            return ""
        if self.view()["phase"] != "agency-bottom":
            return ""  # the deal: the gate shows all three missions anyway
        mine = self.table.private_view(action.seat)["missions"][action.seat].get("cards", ())
        return f"You drew: {T.mission(action.card).name}" if action.card in mine else ""

    # ------------------------------------------------------------ moments

    def place_name(self, where: str) -> str:
        return HOOD[where].name if where in HOOD else f"{self.name(where)}'s board"

    def moment(self, before: dict[str, Any], after: dict[str, Any]) -> Moment | None:
        """What one action just decided, for the whole table (two public views one ply
        apart, so nothing hidden can show): a reroll's result, a Block, an Exterminate."""
        phase = before.get("phase")
        if phase in ("reroll", "intervene"):
            where, index = (before["pending"][1:3] if phase == "reroll" else before["rerolls"][0])
            old = before["boards"].get(where, before["city"].get(where))[index]
            new = after["boards"].get(where, after["city"].get(where))[index]
            if is_die(old) and is_die(new):
                return Moment(f"↻ {die_text(old)} → {die_text(new)}",
                              f"The {COLOUR[new[0]].id} die on {self.place_name(where)} is rerolled: {new[1]}.", "info")
        if phase == "react" and before.get("pending") and not after.get("pending"):
            seat = next((s for s, f in after["factions"].items() if f["faction"] == "banxa"), "")
            if seat and after["factions"][seat]["flipped"] and not before["factions"][seat]["flipped"]:
                return Moment(f"{SHOWN['banxa'].glyph} {self.name(seat)} blocks it", f"The {before['pending'][0]} does not happen.",
                              "bad", "banxa")
        for hood, cells in after["city"].items():
            for i, c in enumerate(cells):
                if c == "x" and before["city"][hood][i] != "x":
                    return Moment(f"{SHOWN['shakra'].glyph} Exterminate: {HOOD[hood].name}",
                                  f"A {die_words(before['city'][hood][i])} die leaves the game; its space is useless now.",
                                  "bad", "shakra")
        return None

    # ------------------------------------------------------------ the end

    def tally(self) -> list[tuple[str, list[str], int]]:
        """Once over: per player (best first) their name, each scoring line in words, and the
        total; missions revealed together in the lines."""
        v = self.view()
        lines = v.get("tally") or {}
        o = self.table.outcome
        order = list(v["order"])
        if o is not None and getattr(o, "scores", None):
            # Best first: the stars, then the tie-break's winners ahead of those they beat.
            order.sort(key=lambda s: (-o.scores[s].total if s in o.scores else 0, s not in o.winning_seats))
        out = []
        for s in order:
            rows = [tally_row(what, label, pts) for what, label, pts in lines.get(s, [])]
            out.append((self.who(s), rows, sum(p for _w, _l, p in lines.get(s, []))))
        return out

    def winner_line(self) -> str:
        o = self.table.outcome
        return self.humanise(o.reason) if o is not None else ""

    def revealed(self, v: dict[str, Any] | None = None) -> list[str]:
        """Every player's missions, once the engine has revealed them (else nothing)."""
        v = v or self.view()
        out = []
        for s in v["order"]:
            cards = v["missions"][s].get("cards")
            if cards:
                out.append(f"{self.name(s)}: " + ", ".join(T.mission(c).name for c in cards))
        return out

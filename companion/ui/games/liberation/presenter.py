"""Liberation at the table, without Kivy: what the table screen shows and which actions
its taps become. Unit-tested without a window (``tests/ui/liberation/``).

Two kinds of output, kept apart on purpose:

* **public** — :meth:`LiberationPresenter.cells`, :meth:`status`, :meth:`steps`,
  :meth:`prompt_line`, :meth:`buttons`, :meth:`reveal`, :meth:`answers`: built only from
  ``table.view(PUBLIC)``, the public log and the map. The engine's ``legal_actions`` of the
  Liberation's turn list secret choices (RULINGS L-12), so public buttons never come from
  them: every choice that names a card in a hand or the base is a *private* choice.
* **private** — :meth:`private`: one seat's hand, the base (Liberation) and the choices
  that use them, from ``table.private_view(seat)``; the screen builds it only behind the
  privacy gate after the hold.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules import PUBLIC, Decision, Draw, DrawRequest, facts
from rules.liberation import (CATEGORIES, AskReferee, Attack, Claim, Discard, Evade, FirstCity, Mission, Occupy, Pass,
                              PlaceBase, Sabotage, Unexploit, default_missions, parse_map, parse_missions, placeholder_map)

from ...presenters.actions import ButtonSpec, GateChoice, GateLine, GateSection
from ...presenters.base import GamePresenter
from rules.liberation.missions import QUESTION_KINDS
from rules.liberation.state import HAND_LIMIT

from .layout import card_outlines, layout

ROMAN = {1: "I", 2: "II", 3: "III"}
# The game's own display facts (rules/liberation/data/factions.json): (glyph, name).
SIDE = {f.id: (f.glyph, f.name) for f in facts.factions("liberation").values()}
# Never colour alone: every city state has a glyph and words as well as a colour.
STATE_GLYPH = {"free": "○", "occupied": "■", "exploited": "⟲"}
STATE_WORD = {"free": "free", "occupied": "occupied", "exploited": "exploited"}
STEP_NAMES = {
    "dynasty": ("Draw, unexploit, or neither", "One action: mission, occupy, attack, unexploit", "Discard down to 3"),
    "liberation": ("Draw, or not", "One action: evade, sabotage, mission", "Discard down to 3"),
}
REVEAL_TITLES = {"miss": "MISS", "taken": "CARD TAKEN", "base-found": "BASE FOUND"}
# The private choices behind the gate, by group, under these titles.
GROUP_TITLES = {"first-city": "Your first City", "base": "Your secret base", "evade": "Evade (secret: everyone sees only that you evaded)",
                "sabotage": "Sabotage", "occupy": "Occupy", "mission": "Missions", "discard": "Discard", "pass": "Or"}


@dataclass(frozen=True)
class CityCell:
    """One city on the map as everyone sees it."""

    id: str
    name: str
    category: str  # display name, e.g. "Shipyard"
    state: str  # free | occupied | exploited
    x: float
    y: float
    selected: bool = False  # the exploited city of an Attack being aimed, or a picked city
    target: bool = False  # a city the current tap would act on (attack target, question)
    base: bool = False  # the Liberation's base — only once the game is over and all is revealed

    @property
    def glyph(self) -> str:
        return "★" if self.base else "⚔" if self.target else STATE_GLYPH[self.state]

    @property
    def short(self) -> str:
        """The name without a trailing "(Category)" (the label shows the category anyway)."""
        tail = f" ({self.category})"
        return self.name[: -len(tail)] if self.name.endswith(tail) else self.name

    @property
    def label(self) -> str:
        """Glyph + name, category, and the state in words when the city is taken (a free
        city's ○ is explained by the map's legend; small screens have no room for it)."""
        state = "" if self.state == "free" else "\n" + STATE_WORD[self.state]
        if self.base:
            state += "\nthe base"
        return f"{self.glyph} {self.short}\n{self.category}{state}"


@dataclass(frozen=True)
class Choice:
    """A private choice behind the gate: its words, its group and the action it submits."""

    label: str
    group: str  # first-city | base | evade | sabotage | occupy | mission | discard | pass
    action: Any


@dataclass(frozen=True)
class Private:
    """What one seat sees behind the gate."""

    seat: str
    title: str
    hand: tuple[str, ...]  # card labels: "Name (Category)"
    base: str  # the base city's label (Liberation only), "" otherwise
    note: str
    choices: tuple[Choice, ...] = ()


@dataclass(frozen=True)
class Reveal:
    """The Attack result moment: MISS / CARD TAKEN / BASE FOUND."""

    ply: int
    result: str  # miss | taken | base-found
    title: str
    text: str
    city: str


@dataclass(frozen=True)
class MissionResult:
    """The moment after a mission or a referee answer, for the whole table: what the
    table resolves itself (the mission's effect, from its card), the mission's text as
    the table entered it, and what the app did (the card revealed or the City exploited,
    the cost paid, the question it will answer or answered)."""

    ply: int
    kind: str  # mission | answer
    title: str
    lines: tuple[str, ...]


@dataclass
class _Pick:
    """The public choice being built on the map (reset when the game moves on)."""

    ply: int = -1
    exploit: str = ""
    cities: list[str] = field(default_factory=list)
    steps: int = 1


class LiberationPresenter(GamePresenter):
    """Wraps a Table running Liberation."""

    game_id = "liberation"

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        # The map is public setup data: read from the table's options (the same data the
        # engine parsed at setup), never from the state, which also holds what seats hide.
        opts = getattr(table, "options", None)
        data = opts.get("map") if isinstance(opts, dict) else None
        self.map = parse_map(data) if data else placeholder_map()
        missions = opts.get("missions") if isinstance(opts, dict) else None
        self.missions = parse_missions(missions) if missions else default_missions()
        self.pos = layout(self.map)
        self.outlines = card_outlines(self.map)  # the map cards' edges (none for a fixed map)
        self._pick = _Pick()

    # ------------------------------------------------------------ basics

    def seat_of(self, faction: str) -> str:
        return next(s["id"] for s in self.seats() if s["faction"] == faction)

    def say(self, action: Any) -> str:
        """A public action from a tap on the map, in words (for its confirmation)."""
        if isinstance(action, Attack):
            return f"⚔ Attack {self.city_name(action.city)} from {self.city_name(action.exploit)}"
        return self.humanise(f"{action.kind} ({self.who(action.seat)})")

    def city_name(self, city: str) -> str:
        return self.map.name_of(city) if city in self.map else city

    def card_label(self, city: str) -> str:
        c = next((c for c in self.map.cities if c.id == city), None)
        return f"{c.name} ({CATEGORIES[c.category]})" if c is not None and CATEGORIES[c.category] not in c.name else self.city_name(city)

    undo_rule = ("Undo: your own last moves, until the next player acts; never a revealed card, "
                 "an Attack or a referee answer")

    def words(self) -> dict[str, str]:
        """The referee's question kinds and the map's cities by name."""
        words = {k: k.replace("-", " ") for k in QUESTION_KINDS}
        words.update({c.id: c.name for c in self.map.cities})
        return words

    def entity_name(self, kind: str, ident: str) -> str:
        """A mapped input's city ("city:c07") by its name on this map."""
        return self.city_name(ident) if kind == "city" else ident

    def _sync_pick(self, v: dict[str, Any]) -> _Pick:
        if self._pick.ply != v["ply"]:
            self._pick = _Pick(ply=v["ply"])
        return self._pick

    # ------------------------------------------------------------ public

    def cells(self, v: dict[str, Any] | None = None) -> list[CityCell]:
        v = v or self.view()
        pick = self._sync_pick(v)
        occupied = {o["city"]: o["exploited"] for o in v["occupied"]}
        targets = set(self.attack_targets(v)) if pick.exploit else set()
        # The public view names the base only once the game is over (the full reveal).
        base = v["base"].get("city", "") if v.get("outcome") else ""
        out = []
        for c in self.map.cities:
            state = ("exploited" if occupied[c.id] else "occupied") if c.id in occupied else "free"
            x, y = self.pos[c.id]
            out.append(CityCell(c.id, c.name, CATEGORIES[c.category], state, x, y,
                                selected=c.id == pick.exploit or c.id in pick.cities, target=c.id in targets,
                                base=c.id == base))
        return out

    def lines(self) -> list[tuple[str, str]]:
        return list(self.map.lines)

    def status(self, v: dict[str, Any] | None = None) -> dict[str, Any]:
        """ACT, deck, discards and hand sizes (all public)."""
        v = v or self.view()
        hands = [(self.who(s["id"]), int(v["hands"][s["id"]]["count"])) for s in self.seats()]
        return {
            "act": int(v["act"]),
            "act_text": f"ACT {ROMAN.get(int(v['act']), v['act'])} of III",
            "deck": int(v["deck"]),
            "discard": int(v["discard"]),
            "deck_text": f"▤ Deck {v['deck']}\n▥ Discards {v['discard']}",
            "hands": hands,
            "hands_text": "▤ Hands   " + "   ".join(
                f"{SIDE[s['faction']][0]} {s['name']}: {n} card{'s' if n != 1 else ''}" for s, (_, n) in zip(self.seats(), hands)),
            "map_text": ("⚠ " if v["map"]["placeholder"] else "") + v["map"]["name"],
        }

    def act_news(self, before: int, v: dict[str, Any] | None = None) -> str:
        """A line for the moment a new ACT starts (the deck ran out and the discards were
        reshuffled); "" when the ACT did not change."""
        v = v or self.view()
        act = int(v["act"])
        if act <= before or self.is_over():
            return ""
        return f"ACT {ROMAN.get(act, act)} begins: the deck ran out and the discards were reshuffled ({v['deck']} cards)."

    def steps(self, v: dict[str, Any] | None = None) -> list[tuple[int, str, str]]:
        """The active player's turn steps: (number, what it allows, done|current|todo)."""
        v = v or self.view()
        if v["phase"] not in ("step1", "step2", "step3", "claim", "ask") or not v["active"] or self.is_over():
            return []
        current = {"step1": 1, "step2": 2, "claim": 2, "ask": 2, "step3": 3}[v["phase"]]
        names = STEP_NAMES[self.faction_of(v["active"])]
        return [(i, names[i - 1], "done" if i < current else "current" if i == current else "todo") for i in (1, 2, 3)]

    def turn_line(self, v: dict[str, Any] | None = None) -> str:
        v = v or self.view()
        if self.is_over():
            return "Game over"
        if v["phase"] in ("setup-discard", "deal", "first-city", "base"):
            return "Setup"
        return self.turn_words(v["turn"], v["active"])

    def end_line(self) -> str:
        o = self.table.outcome
        return f"{SIDE[o.winner][0]} The {SIDE[o.winner][1]} wins: {o.reason}." if o is not None else ""

    def buttons(self) -> list[ButtonSpec]:
        """The public buttons for the prompt (never a choice that names a hidden card)."""
        if self.is_over():
            return []
        v = self.view()
        pick = self._sync_pick(v)
        p = self.table.prompt
        a = p.awaiting
        seat = sorted(p.actors)[0]
        who = self.who(seat)
        phase = v["phase"]
        out: list[ButtonSpec] = []
        if phase == "setup-discard":
            # Nobody looks at this card, with the table's deck or the app's (RULINGS L-14):
            # one button for both.
            return [ButtonSpec("▥ Discard the top card face down, unseen (the app keeps track)", "app-draw", seat=seat, role="primary")]
        if phase == "deal":
            left = 3 - int(v["hands"][seat]["count"])
            cards = f"{left} card{'s' if left != 1 else ''}"
            return self._draw_buttons(seat, f"▤ {self.name(seat)}: enter the {cards} you drew…" if left > 1 else
                                      f"▤ {self.name(seat)}: enter the card you drew…",
                                      f"⚄ Or the app's deck: deal {cards} to {self.name(seat)}", left)
        if phase == "first-city":
            return [ButtonSpec(f"▤ {who}: place your first City (your hand, behind the gate)", "hand", seat=seat, role="primary")]
        if phase == "base":
            return [ButtonSpec(f"▤ {who}: place your secret base (behind the gate)", "hand", seat=seat, role="primary")]
        dynasty = self.faction_of(seat) == "dynasty"
        if phase == "step1":
            if isinstance(a, DrawRequest):
                if v["deck"] == 0 and int(v["act"]) >= 3:
                    # The third reshuffle would occur: drawing ends the game, no card is taken.
                    out.append(ButtonSpec("Draw: the deck is out a third time — the game ends", "app-draw", seat=seat, role="danger"))
                elif v["deck"] == 0:
                    out += self._draw_buttons(seat, f"▤ {self.name(seat)}: shuffle the discards into a new deck, draw, enter the card…",
                                              "⚄ Or the app's deck: reshuffle and draw", 1)
                else:
                    out += self._draw_buttons(seat, f"▤ {self.name(seat)}: enter the card you drew…",
                                              "⚄ Or the app's deck: draw a card face down", 1)
            for o in v["occupied"]:
                if dynasty and o["exploited"]:
                    out.append(ButtonSpec(f"⟲ Unexploit {self.city_name(o['city'])}", "submit", Unexploit(seat, o["city"])))
            out.append(ButtonSpec("Don't draw" if isinstance(a, DrawRequest) else "Nothing to draw: go on", "submit", Pass(seat), role="quiet"))
            return out
        if phase == "step2" and dynasty:
            if pick.exploit:
                for t in self.attack_targets(v):
                    out.append(ButtonSpec(f"⚔ Attack {self.city_name(t)}", "submit",
                                          Attack(seat, pick.exploit, t), role="danger"))
            out.append(ButtonSpec(f"▤ {who}: occupy or mission (your hand, behind the gate)", "hand", seat=seat, role="primary"))
            for o in v["occupied"]:
                if o["exploited"]:
                    out.append(ButtonSpec(f"⟲ Unexploit {self.city_name(o['city'])}", "submit", Unexploit(seat, o["city"])))
            out.append(ButtonSpec("Take no action", "submit", Pass(seat), role="quiet"))
            return out
        if phase == "step2":
            # Evade, Sabotage, missions and even passing name (or reveal by their absence)
            # the Liberation's cards: all of them are chosen behind the gate.
            return [ButtonSpec(f"▤ {who}: your action — evade, sabotage, mission (behind the gate)", "hand", seat=seat, role="primary")]
        if phase == "claim":
            taken = self.city_name(v["claim"])
            return [ButtonSpec(f"■ Occupy {taken}", "submit", Claim(seat, True), role="primary"),
                    ButtonSpec(f"▥ Discard {taken}", "submit", Claim(seat, False))]
        if phase == "ask":
            return self._ask_buttons(v, seat, pick)
        if phase == "step3":
            return [ButtonSpec(f"▤ {who}: discard down to 3 (behind the gate)", "hand", seat=seat, role="primary")]
        if isinstance(a, Decision):
            return out
        return out

    def _draw_buttons(self, seat: str, ours: str, apps: str, count: int) -> list[ButtonSpec]:
        """A draw, two ways: the table's own card, entered by its holder behind the gate
        (first: the physical game comes first), or the app's deck (the fallback)."""
        return [ButtonSpec(ours, "physical-draw", seat=seat, role="primary", span="full"),
                ButtonSpec(apps, "app-draw", seat=seat, count=count, span="full")]

    def _question(self, v: dict[str, Any]) -> dict[str, Any]:
        return (v.get("asking") or {}).get("question") or {}

    def _ask_buttons(self, v: dict[str, Any], seat: str, pick: _Pick) -> list[ButtonSpec]:
        q = self._question(v)
        kind = q.get("type") or q.get("kind", "")
        out: list[ButtonSpec] = []
        if kind == "base-within":
            for n in range(1, int(q.get("max_steps", 1)) + 1):
                out.append(ButtonSpec(f"within {n} step{'s' if n > 1 else ''}" + (" ✔" if n == pick.steps else ""), "steps", steps=n))
            if pick.cities:
                action = AskReferee(seat, city=pick.cities[0], steps=pick.steps)
                out.append(ButtonSpec(f"? Ask: is the base within {pick.steps} step{'s' if pick.steps > 1 else ''} of {self.city_name(pick.cities[0])}?",
                                      "submit", action, role="primary"))
        elif pick.cities:
            names = ", ".join(self.city_name(c) for c in pick.cities)
            what = "is the base among" if kind == "base-among" else "does the opponent hold any of"
            out.append(ButtonSpec(f"? Ask: {what} {names}?", "submit", AskReferee(seat, cities=tuple(pick.cities)), role="primary"))
        return out

    def ask_hint(self, v: dict[str, Any] | None = None) -> str:
        v = v or self.view()
        if v["phase"] != "ask":
            return ""
        q = self._question(v)
        kind = q.get("type") or q.get("kind", "")
        mission = (v.get("asking") or {}).get("mission", "")
        if kind == "base-within":
            return f"{mission}: tap one city on the map, choose the steps, then ask."
        return f"{mission}: tap up to {q.get('max_cities', 1)} cities on the map, then ask."

    # ------------------------------------------------------------ map taps

    def aimed_lines(self, v: dict[str, Any] | None = None) -> list[tuple[str, str]]:
        """The lines of the Attack being aimed (exploited city → each target)."""
        v = v or self.view()
        pick = self._sync_pick(v)
        return [(pick.exploit, t) for t in self.attack_targets(v)] if pick.exploit else []

    def ready_cities(self, v: dict[str, Any]) -> list[str]:
        return [o["city"] for o in v["occupied"] if not o["exploited"]]

    def attack_targets(self, v: dict[str, Any]) -> list[str]:
        pick = self._sync_pick(v)
        return sorted(self.map.neighbours(pick.exploit), key=self.city_name) if pick.exploit else []

    def tap_city(self, city: str) -> Any:
        """A tap on the map: returns an action to submit, or None (the tap changed what is
        being picked, or only asked what the city is — see :attr:`info`)."""
        v = self.view()
        pick = self._sync_pick(v)
        self.info = ""
        if self.is_over():
            return None
        phase, seat = v["phase"], v["active"]
        if phase == "step2" and seat and self.faction_of(seat) == "dynasty":
            if city in self.ready_cities(v) and city != pick.exploit:
                pick.exploit = city
                self.info = f"⚔ Exploit {self.city_name(city)} to attack: tap a city next to it (marked ⚔)."
                return None
            if pick.exploit and city in self.map.neighbours(pick.exploit):
                return Attack(seat, pick.exploit, city)
            if city == pick.exploit:
                pick.exploit = ""
                return None
        if phase == "ask":
            q = self._question(v)
            kind = q.get("type") or q.get("kind", "")
            if kind == "base-within":
                pick.cities = [] if pick.cities == [city] else [city]
            elif city in pick.cities:
                pick.cities.remove(city)
            elif len(pick.cities) < int(q.get("max_cities", 1)):
                pick.cities.append(city)
            else:
                self.info = f"At most {q.get('max_cities')} cities in this question: tap one to drop it first."
            return None
        self.info = self.describe(city, v)
        return None

    def set_steps(self, n: int) -> None:
        self._sync_pick(self.view()).steps = n

    def describe(self, city: str, v: dict[str, Any] | None = None) -> str:
        v = v or self.view()
        c = next(c for c in self.map.cities if c.id == city)
        state = next((("exploited" if o["exploited"] else "occupied") for o in v["occupied"] if o["city"] == city), "free")
        near = ", ".join(sorted(self.city_name(n) for n in self.map.neighbours(city)))
        return f"{STATE_GLYPH[state]} {c.name} · {CATEGORIES[c.category]} · {STATE_WORD[state]} · lines to {near}"

    # ------------------------------------------------------------ reveal, answers, log

    def reveal(self, v: dict[str, Any] | None = None) -> Reveal | None:
        """The latest Attack among the recent public events (the screen shows it as a
        reveal moment once, when its ply is new), or None."""
        v = v or self.view()
        e = next((e for e in reversed(v["events"]) if e["kind"] == "attack"), None)
        if e is None:
            return None
        name = self.city_name(e["city"])
        texts = {
            "miss": "The Liberation does not hold it.",
            "taken": "The Liberation held it: the Dynasty takes the card.",
            "base-found": "It is the Liberation's secret base. The Dynasty wins.",
        }
        return Reveal(e["ply"], e["result"], REVEAL_TITLES.get(e["result"], e["result"].upper()), texts.get(e["result"], e["text"]), name)

    def mission_result(self, v: dict[str, Any] | None = None) -> MissionResult | None:
        """The latest mission or referee answer among the recent public events (the screen
        shows it once, when its ply is new), or None. From the public view and the public
        missions table only: a cost card discarded face down is never named."""
        v = v or self.view()
        e = next((e for e in reversed(v["events"]) if e["kind"] in ("mission", "answer")), None)
        if e is None:
            return None
        side = self.faction_of(e["seat"])
        if e["kind"] == "answer":
            asked = e["text"].split(": ", 1)[-1].split(" The referee answers:")[0]
            return MissionResult(e["ply"], "answer", f"? The referee answers: {e['result'].upper()}", (
                asked,
                "The app answered from what is hidden, truthfully and without showing it.",
            ))
        spec = self.missions.mission(self.map.category_of(e["city"]), side)
        table = "The table carries out the card's effect: " + (
            f"“{spec.text}”" if spec.text else f"read it on the card of {self.city_name(e['city'])}.")
        did = [e["text"]]  # the engine's words name a cost paid ("paying 1 card discarded face down")
        if spec.cost == "none":
            did.append("No cost.")
        if spec.question is not None:
            did.append("Next: its referee question, asked on the map; the app answers.")
        lines = [table, "The app: " + " ".join(did)]
        return MissionResult(e["ply"], "mission", f"★ {spec.name}", tuple(lines))

    def answers(self) -> list[str]:
        """Every referee answer of the game so far, as logged for both players."""
        return [ln.text for ln in self.table.log(PUBLIC) if "referee answers" in ln.text and not ln.undone]

    def audit_rows(self, v: dict[str, Any] | None = None) -> list[tuple[str, bool]]:
        """After the game: every base position in order, with whether the move was legal."""
        v = v or self.view()
        audit = v.get("audit")
        if not audit:
            return []
        rows = []
        for i, mv in enumerate(audit["base_history"]):
            act = ROMAN.get(int(mv["act"]), mv["act"])
            if not mv["from"]:
                rows.append((f"Setup: base placed at {self.city_name(mv['to'])}", True))
                continue
            if mv["from"] == mv["to"]:
                what = f"stayed at {self.city_name(mv['to'])}"
            else:
                what = f"{self.city_name(mv['from'])} → {self.city_name(mv['to'])}"
            verdict = "legal: same city" if mv["from"] == mv["to"] else ("legal: adjacent" if mv["legal"] else "ILLEGAL: not adjacent")
            rows.append((f"Evade {i} (turn {mv['turn']}, ACT {act}): {what} — {verdict}", bool(mv["legal"])))
        return rows

    def audit_summary(self, v: dict[str, Any] | None = None) -> list[str]:
        v = v or self.view()
        audit = v.get("audit")
        if not audit:
            return []
        out = [f"Final base: {self.city_name(audit['base'])}" if audit["base"] else "No base was placed."]
        for s in self.seats():
            cards = ", ".join(self.city_name(c) for c in audit["hands"].get(s["id"], [])) or "no cards"
            out.append(f"{self.who(s['id'])} held: {cards}")
        out.append("Deck: " + (", ".join(self.city_name(c) for c in audit["deck"]) or "empty"))
        out.append("Discards: " + (", ".join(self.city_name(c) for c in audit["discard"]) or "none"))
        return out

    # ------------------------------------------------------------ private (behind the gate)

    def private(self, seat: str) -> Private:
        """``seat``'s hand, its base (Liberation) and the choices it may make now."""
        pv = self.table.private_view(seat)
        hand = tuple(pv["hands"][seat].get("cards", ()))
        faction = self.faction_of(seat)
        base = pv["base"].get("city", "") if faction == "liberation" else ""
        choices = self._choices(seat, pv) if seat in self.table.prompt.actors and not self.is_over() else ()
        note = ""
        if faction == "liberation" and base:
            near = sorted(self.city_name(n) for n in self.map.neighbours(base))
            note = f"Lines from your base to: {', '.join(near)}."
        return Private(seat, self.who(seat), tuple(self.card_label(c) for c in hand),
                       self.card_label(base) if base else "", note, tuple(choices))

    def _mission_label(self, seat: str, m: Mission) -> str:
        side = self.faction_of(seat)
        spec = self.missions.mission(self.map.category_of(m.card), side)  # the public missions table
        src = f"exploit {self.city_name(m.card)}" if m.occupied else f"play {self.city_name(m.card)}"
        cost = (f", paying: discard {self.city_name(m.pay_card)}" if m.pay_card else
                f", paying: exploit {self.city_name(m.pay_city)}" if m.pay_city else "")
        q = " — asks the referee" if spec.question is not None else ""
        return f"★ {spec.name} ({src}{cost}){q}"

    def _choices(self, seat: str, pv: dict[str, Any]) -> list[Choice]:
        phase = pv["phase"]
        out: list[Choice] = []
        base = pv["base"].get("city", "")
        for a in self.table.legal_actions():
            if a.seat != seat:
                continue
            if isinstance(a, FirstCity) and phase == "first-city":
                out.append(Choice(f"■ Occupy {self.card_label(a.card)} as your first City (face up)", "first-city", a))
            elif isinstance(a, PlaceBase):
                out.append(Choice(f"● Put your secret base at {self.card_label(a.card)}", "base", a))
            elif isinstance(a, Evade):
                label = (f"● Evade: keep the base at {self.city_name(a.to)}" if a.to == base
                         else f"● Evade: move the base to {self.city_name(a.to)}")
                out.append(Choice(label, "evade", a))
            elif isinstance(a, Sabotage):
                out.append(Choice(f"✖ Sabotage {self.city_name(a.city)}", "sabotage", a))
            elif isinstance(a, Occupy):
                out.append(Choice(f"■ Exploit {self.city_name(a.exploit)} → occupy {self.city_name(a.card)}", "occupy", a))
            elif isinstance(a, Mission):
                out.append(Choice(self._mission_label(seat, a), "mission", a))
            elif isinstance(a, Discard):
                out.append(Choice(f"▥ Discard {self.card_label(a.card)} (face down)", "discard", a))
            elif isinstance(a, Pass) and phase == "step2" and self.faction_of(seat) == "liberation":
                out.append(Choice("Take no action", "pass", a))
        order = {"first-city": 0, "base": 0, "evade": 1, "occupy": 1, "sabotage": 2, "mission": 3, "discard": 4, "pass": 5}
        return sorted(out, key=lambda c: (order[c.group], "keep the base" not in c.label))

    # ------------------------------------------------------------ physical draws

    def _awaits_draw(self, seat: str) -> bool:
        return not self.is_over() and isinstance(self.table.prompt.waits.get(seat), DrawRequest)

    def physical_draws(self, seat: str) -> list[tuple[str, Draw]]:
        """The City cards ``seat`` may say it drew from the table's deck, in the map's
        order, each with the Draw that enters it. Only for behind the gate.

        Exactly the cards the engine accepts (``drawable``): every card ``seat`` cannot
        rule out from what it may see. The deck, the face-down discards, the other side's
        hand and (for the Dynasty) the base are all offered alike, and the app swaps the
        card it had guessed there behind the scenes (RULINGS L-14); what is publicly
        elsewhere (occupied, shown and discarded, its own hand or base) is not offered."""
        if not self._awaits_draw(seat):
            return []
        deck = self.table.prompt.waits[seat].deck
        ok = set(self.table.game.drawable(self.table.state, seat, deck))
        return [(self.card_label(c.id), Draw(seat, deck, c.id, source="card")) for c in self.map.cities if c.id in ok]

    def physical_draw_continues(self, seat: str) -> bool:
        """Whether ``seat`` still has a card to enter at once (the deal of 3): the gate
        stays open for it."""
        return self._awaits_draw(seat) and self.view()["phase"] == "deal"

    def physical_draw_page(self, seat: str) -> list[GateSection]:
        """Behind the gate: tap the card drawn from the table's deck (in the deal, one
        after another, with the cards entered so far)."""
        if not self._awaits_draw(seat):
            return [GateSection(lines=(GateLine("Nothing to draw now."),))]
        v = self.view()
        lines: list[GateLine] = []
        if v["phase"] == "deal":
            mine = self.table.private_view(seat)["hands"][seat].get("cards", ())
            n = len(mine)
            lines.append(GateLine(f"Enter your 3 cards one after another: card {n + 1} of 3.", size="large"))
            lines.append(GateLine("▤ Entered so far: " + ("; ".join(self.card_label(c) for c in mine) if mine else "none"),
                                  tone="highlight"))
        else:
            if v["deck"] == 0:
                lines.append(GateLine("The deck was empty: the discards are shuffled into a new deck (a new ACT).", tone="highlight"))
            lines.append(GateLine("Tap the City card you drew.", size="large"))
        lines.append(GateLine("Cities on the map and in your hand are not listed.", tone="muted", size="small"))
        choices = tuple(GateChoice(label, action, span="auto") for label, action in self.physical_draws(seat))
        return [GateSection(lines=tuple(lines)), GateSection("The card you drew", choices=choices)]

    def drawn_news(self, action: Any) -> str:
        """After a draw in a turn: what came in (private: the screen keeps it in memory and
        shows it to its seat behind the gate only)."""
        if not isinstance(action, Draw) or self.is_over() or self.view()["phase"] not in ("step1", "step2", "step3"):
            return ""
        if action.source == "card":
            return ""  # the seat holds the physical card it just entered: nothing to look at
        mine = self.table.private_view(action.seat)["hands"][action.seat].get("cards", ())
        return f"You drew: {self.card_label(action.card)}" if action.card in mine else ""

    def card_texts(self, seat: str) -> list[tuple[str, str, str]]:
        """``seat``'s own City cards as (id, name, rule text): what a tap on the City shows,
        with the mission the card's category gives this side. Only for ``seat`` (its
        phone, behind the gate)."""
        cards = list(self.table.private_view(seat)["hands"][seat].get("cards", ()))
        v, side = self.view(), self.faction_of(seat)
        out = []
        for c in cards:
            spec = self.missions.mission(self.map.category_of(c), side)
            cost = f" (cost: {spec.cost})" if spec.cost != "none" else ""
            out.append((c, self.city_name(c), f"{self.describe(c, v)} · ★ mission: {spec.name}{cost}"))
        return out

    def next_step(self, seat: str) -> str:
        """The deal on a seat's phone, as the rulebook deals it: each side draws up to a
        hand of 3 cards from the city deck, entered on the phone one by one."""
        drawing = isinstance(self.table.prompt.of(seat), DrawRequest) and self.view()["phase"] == "deal"
        if not (drawing and self.physical_draws(seat)):
            return super().next_step(seat)
        left = HAND_LIMIT - int(self.view()["hands"][seat]["count"])
        cards, them = ("a card", "it") if left == 1 else (f"{left} cards", "them")
        return f"Draw {cards} from the city deck, then enter {them} here."

    def standing_buttons(self) -> list[ButtonSpec]:
        """Offered whatever the turn: each seat's own hand behind the gate; after the game,
        the audit."""
        if self.is_over():
            return [ButtonSpec("★ The audit: every Evade revealed, then the results", "audit", role="primary")]
        return self.hand_buttons()

    def hand_purpose(self, seat: str) -> str:
        return "your hand" + (" and your secret base" if self.faction_of(seat) == "liberation" else "")

    def hand_page(self, seat: str, news: str = "") -> list[GateSection]:
        """Behind the gate, for ``seat`` only: ``news`` (the card it just drew), its base
        (Liberation), its hand, and its choices now, grouped."""
        mine = self.private(seat)  # read only now, after the hold
        lines = list(self.news_lines(news))
        if mine.base:
            glyph = SIDE["liberation"][0]
            lines.append(GateLine(f"{glyph} Your secret base: [b]{mine.base}[/b]", tone="faction:liberation", size="large", markup=True))
        if mine.note:
            lines.append(GateLine(mine.note, tone="muted", size="small"))
        lines.append(GateLine("▤ Your hand: " + ("; ".join(mine.hand) if mine.hand else "no cards")))
        out = [GateSection(lines=tuple(lines))]
        for c in mine.choices:
            if not out[-1].title or out[-1].title != GROUP_TITLES.get(c.group, c.group):
                out.append(GateSection(GROUP_TITLES.get(c.group, c.group)))
            # Short choices (one city each) two to a row, so a long list needs less scrolling.
            half = c.group in ("sabotage", "discard", "evade", "first-city", "base") and len(c.label) < 46
            choice = GateChoice(c.label, c.action, role="danger" if c.group == "sabotage" else "normal",
                                span="auto" if half else "full")
            last = out[-1]
            out[-1] = GateSection(last.title, last.lines, last.choices + (choice,))
        return out

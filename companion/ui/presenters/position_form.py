"""The "game already under way" form of the setup wizard, without Kivy.

The fields come from the game's ``position_form.json`` in its UI package (how each path of
the engine's position is asked, in players' words; its choices are the game's own,
``Game.choices``); the values start as the engine's own position of a
fresh game (``companion.positions.default_position``), so a table changes only what
differs; and every value is checked by the engine itself (``check_position``), whose
problems are shown beside the field they name. Nothing here knows a rule.

Secret fields (Liberation's base and hands, Dicetopia's missions, Outrage!'s hands, Against
All Tyrants' hand and Special Forces: ``"secret": true``) are entered by their holder behind
the privacy gate: :meth:`PositionForm.public_problems` never quotes them,
and :meth:`PositionForm.secret_problems` is for behind the gate only.

>>> seats = [{"id": "fox-1", "faction": "fox", "name": "Ann"},
...          {"id": "hare-1", "faction": "hare", "name": "Bob"}]
>>> f = PositionForm("stepping_stones", seats, {})
>>> [x.label for x in f.public_fields()]
['Whose turn starts now?', 'Turn number (this turn included)', 'Ann stands on', 'Bob stands on', "Ann's pebbles", "Bob's pebbles"]
>>> f.get("stones.hare-1"), f.get("turn"), f.ok
('ford', 1, True)

A choice offers what the game says may be chosen, by the names players use (a game under
way has nobody on the Tower: whoever stands there has won):

>>> [label for _value, label in f.choices(f.field("stones.hare-1"))]
['the Ford', 'the Stile', 'the Mill', 'the Old Oak', 'the Well']
>>> f.set("stones.hare-1", "tower"); f.ok
False
>>> f.public_problems()
{'stones.hare-1': ["no stone 'the Tower' before the Tower (one standing on the Tower has won)."]}
>>> f.set("stones.hare-1", "mill"); f.step("pebbles.hare-1", 2); f.ok
True
>>> f.to_position()["stones"], f.to_position()["pebbles"]
({'fox-1': 'ford', 'hare-1': 'mill'}, {'fox-1': 0, 'hare-1': 2})
"""
from __future__ import annotations

import copy
import json
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

import rules
from companion.positions import PRIVATE, PositionProblem, check_position, default_position, names_for

from ..gamefiles import game_file

FORM_FILE = "position_form.json"


def form_specs() -> dict[str, list[dict[str, Any]]]:
    """Each installed game's form fields, by game id: its UI package's ``position_form.json``
    (a game without one has no form: the wizard cannot join it in progress)."""
    return {g.id: spec for g in rules.catalog() if (spec := _form_file(g.id)) is not None}


@lru_cache(maxsize=None)
def _form_file(game_id: str) -> list[dict[str, Any]] | None:
    path = game_file(game_id, FORM_FILE)
    return list(json.loads(path.read_text(encoding="utf-8"))["fields"]) if path is not None else None


@dataclass(frozen=True)
class Field:
    """One question of the form: ``path`` in the engine's position, ``kind`` (seat, number,
    choice, yesno, many, owners, cards, fixed), ``label`` in players' words, ``seat`` whose
    it is (per-seat fields), ``secret`` (entered behind the gate by ``seat``)."""

    path: str
    kind: str
    label: str
    spec: Mapping[str, Any]
    seat: str = ""
    secret: bool = False

    @property
    def steps(self) -> tuple[int, ...]:
        return tuple(self.spec.get("steps", (1,)))


ASK = "ask."  # a path under it is a question of the form's own (PositionForm.asks), not of the position


class PositionForm:
    """The values of one position being entered, its fields, and the engine's verdict."""

    def __init__(self, game_id: str, seats: list[Mapping[str, Any]], options: Mapping[str, Any]) -> None:
        self.game_id = game_id
        self.seats = [dict(s) for s in seats]
        self.options = dict(options)
        self.game = rules.load(game_id)
        self.names = names_for(game_id, self.seats, self.options)
        self.position: dict[str, Any] = default_position(game_id, self.seats, self.options)
        self.asks: dict[str, Any] = {}  # the form's own questions (paths under "ask."), never the position
        self._choices: dict[str, list[tuple[Any, str]]] = {}
        self.fields: list[Field] = self._expand(form_specs().get(game_id, []))
        self.labels = {f.path: f.label for f in self.fields}
        self._verdict: list[PositionProblem] | None = None
        for f in self.fields:
            # A form question over rows ("which cards carry tokens") starts from the rows as
            # they are (an Infiltrator deployed with its Stealth token).
            c = f.spec.get("clears")
            if f.path.startswith(ASK) and c:
                self.asks[f.path[len(ASK):]] = [r.get(c["key"]) for r in self.position.get(c["in"], [])
                                                if isinstance(r, dict) and r.get(c["field"])]
        self._refresh()

    def _expand(self, specs: list[dict[str, Any]]) -> list[Field]:
        """One field per spec, per seat for '{seat}', and per item of the source named by
        ``each`` for '{item}' (a jewel, a warder's post, a neighbourhood space), whose name
        is '{item_name}' in the label."""
        out = []
        for spec in specs:
            per_seat = "{seat}" in spec["path"]
            items = self._source(spec["each"]) if spec.get("each") else [(None, "")]
            for s in (self.seats if per_seat else [None]):
                if s is not None and spec.get("factions") and s["faction"] not in spec["factions"]:
                    continue
                sid = s["id"] if s else ""
                for item, item_name in items:
                    path = spec["path"].replace("{seat}", sid)
                    label = spec.get("label", "").replace("{name}", self.names.get(sid, sid))
                    if item is not None:
                        path = path.replace("{item}", str(item))
                        label = label.replace("{item_name}", item_name)
                    label = label[:1].upper() + label[1:]
                    fspec = _subst(spec, {"{seat}": sid, "{item}": "" if item is None else str(item)}) if sid or item is not None else spec
                    out.append(Field(path, spec["kind"], label, fspec, sid, bool(spec.get("secret"))))
        return out

    def _refresh(self) -> None:
        """Fields that follow the position (a card's tokens exist while it is in play) are
        asked anew after a change."""
        if any((s.get("each") or "").split(":")[0] in self.game.live_sources for s in form_specs().get(self.game_id, [])):
            self.fields = self._expand(form_specs().get(self.game_id, []))
            self.labels = {f.path: f.label for f in self.fields}

    # Fields over the rows of a list (Against All Tyrants' cards in play: one pick per seat and
    # theater, over the "pieces" rows whose owner and theater match).
    def _rows(self, path: str) -> Field | None:
        f = next((x for x in getattr(self, "fields", ()) if x.path == path), None)
        return f if f is not None and "rows" in f.spec else None

    def _row_matches(self, f: Field, row: Any) -> bool:
        return isinstance(row, dict) and all(row.get(k) == v for k, v in f.spec["rows"]["match"].items())

    def _source(self, key: str) -> list[tuple[Any, str]]:
        """The game's choices for ``key`` (``Game.choices``): asked once per form, except a
        live source's (it follows the position being entered: asked after every change)."""
        live = key.split(":")[0] in self.game.live_sources
        if live or key not in self._choices:
            seats = [{**s, "name": self.names[s["id"]]} for s in self.seats]
            # A live source reads the position and the form's own questions (under "ask").
            position = {**self.position, "ask": dict(self.asks)} if live else None
            got = self.game.choices(key, self.options, seats, position)
            if live:
                return got
            self._choices[key] = got
        return self._choices[key]

    # ------------------------------------------------------------- reading
    def field(self, path: str) -> Field:
        return next(f for f in self.fields if f.path == path)

    def public_fields(self) -> list[Field]:
        """The fields the shared screen asks, in order; a field whose ``when`` is false is
        left out (escape numbers of a piece not in custody)."""
        return [f for f in self.fields if not f.secret and f.kind != "fixed" and self.visible(f)]

    def secret_fields(self, seat: str) -> list[Field]:
        return [f for f in self.fields if f.secret and f.seat == seat]

    def secret_seats(self) -> list[str]:
        """The seats with something to enter behind the gate, in seat order."""
        return [s["id"] for s in self.seats if self.secret_fields(s["id"])]

    def visible(self, f: Field) -> bool:
        when = f.spec.get("when")
        return not when or bool(self.get(when.replace("{seat}", f.seat)))

    def get(self, path: str, default: Any = None) -> Any:
        if path.startswith(ASK):
            return self.asks.get(path[len(ASK):], default)
        rows = self._rows(path)
        if rows is not None:
            spec = rows.spec["rows"]
            return [r.get(spec["key"]) for r in self.position.get(spec["in"], []) if self._row_matches(rows, r)]
        got = _get(self.position, path, _MISSING)
        return default if got is _MISSING else got

    def choices(self, f: Field) -> list[tuple[Any, str]]:
        """What a choice, a pick or a card field offers: (value, name)."""
        if f.kind == "seat":
            return [(s["id"], self.names[s["id"]]) for s in self.seats]
        if "choices" in f.spec:
            # "{seats}" among the choices stands for every seat, by name (who holds a jewel).
            return [c for item in f.spec["choices"]
                    for c in ([(s["id"], self.names[s["id"]]) for s in self.seats] if item == "{seats}" else [tuple(item)])]
        items = self._source(f.spec["source"])
        among = f.spec.get("among")
        if among:
            allowed = set(self.get(among, []))
            items = [(v, n) for v, n in items if v in allowed]
        besides = f.spec.get("except")
        if besides:
            # Offer only what may be picked (a base or a hand card is never an occupied City);
            # a value picked before stays, for the engine to name.
            # "except" names one path or several (a hand card is neither in play nor discarded).
            taken: set[Any] = set()
            for where in ([besides] if isinstance(besides, str) else besides):
                got = self.get(where, [])
                taken |= set(got if isinstance(got, list) else [got] if got else [])
            taken -= set(self.get(f.path) or [] if f.kind == "many" else [self.get(f.path)])
            items = [(v, n) for v, n in items if v not in taken]
        return items

    def game_factions(self) -> tuple[str, ...]:
        return tuple(self.game.factions)

    def name_of(self, value: Any) -> str:
        return self.names.get(value, str(value)) if isinstance(value, str) else str(value)

    def card_counts(self, f: Field) -> list[tuple[str, int, int]]:
        """A discard pile as (card name, how many lie there, copies in the box): copies are
        alike, so players count them rather than tell them apart."""
        held = Counter(self.get(f.path, []) or [])
        groups: dict[str, list[str]] = {}
        for cid, name in self.choices(f):
            groups.setdefault(name, []).append(cid)
        # A source may list one value as often as it has copies (Dicetopia's dice: six purple 4s).
        return [(name, sum(min(held[c], ids.count(c)) for c in set(ids)), len(ids)) for name, ids in groups.items()]

    # ------------------------------------------------------------- changing
    def set(self, path: str, value: Any) -> None:
        if path.startswith(ASK):
            self._set_ask(path, value)
            return
        rows = self._rows(path)
        if rows is not None:
            self._set_rows(rows, list(value))
            return
        parts = path.split(".")
        f = next((x for x in self.fields if x.path == path), None)
        if f is not None and f.kind == "yesno" and "yes" in f.spec:
            # A yes/no that stands for a part of the position or its absence (held in
            # prison: {place, served} or null): yes keeps what is there, else the spec's.
            current = self.get(path)
            value = (current if current else copy.deepcopy(f.spec["yes"])) if value else f.spec.get("no")
        node: Any = self.position
        for part in parts[:-1]:
            node = node[int(part)] if isinstance(node, list) else node.setdefault(part, {})
        if isinstance(node, list):
            node[int(parts[-1])] = value
        elif f is not None and f.spec.get("zero_is_absent") and value == 0:
            node.pop(parts[-1], None)
        else:
            node[parts[-1]] = value
        if f is not None and f.kind == "yesno" and not value and "yes" not in f.spec:
            # A piece let out of custody has no escape numbers left to show.
            for dep in self.fields:
                if dep.spec.get("when", "").replace("{seat}", dep.seat) == path:
                    self.set(dep.path, [])
        if f is not None and f.kind == "many" and not f.secret:
            # A pick that depends on this one ("exploited" among "occupied") keeps only what is still offered.
            for dep in self.fields:
                if dep.spec.get("among") == path:
                    self.set(dep.path, [v for v in self.get(dep.path, []) if v in value])
        self._verdict = None
        self._refresh()

    def _set_ask(self, path: str, value: Any) -> None:
        """A question of the form's own (which cards in play carry tokens): kept beside the
        position, never in it. Its spec's ``clears`` ({in, key, field, empty}) empties that
        field of every row no longer picked, so nothing hidden stays in the position."""
        self.asks[path[len(ASK):]] = value
        f = next((x for x in self.fields if x.path == path), None)
        clears = f.spec.get("clears") if f is not None else None
        if clears:
            for row in self.position.get(clears["in"], []):
                if isinstance(row, dict) and row.get(clears["key"]) not in value:
                    row[clears["field"]] = copy.deepcopy(clears.get("empty"))
        self._verdict = None
        self._refresh()

    def _set_rows(self, f: Field, picked: list[Any]) -> None:
        """The rows matching ``f`` become ``picked``: a row kept keeps its place and the rest
        of it (tokens), a new one goes last (play order) with the spec's ``new`` values."""
        spec = f.spec["rows"]
        key = spec["key"]
        rows = self.position.get(spec["in"], [])
        kept = [r for r in rows if not self._row_matches(f, r) or r.get(key) in picked]
        have = {r.get(key) for r in kept if self._row_matches(f, r)}
        for v in picked:
            if v not in have:
                kept.append({key: v, **spec["match"], **copy.deepcopy(spec.get("new", {}))})
        self.position[spec["in"]] = kept
        self._verdict = None
        self._refresh()

    def step(self, path: str, delta: int) -> None:
        f = self.field(path)
        lo = f.spec.get("min")
        value = int(self.get(path, 0) or 0) + delta
        if lo is not None:
            value = max(lo, value)
        self.set(path, value)

    def toggle(self, path: str, value: Any) -> None:
        """Add ``value`` to a pick (at its end: the order taps came in) or take it out."""
        picked = list(self.get(path, []))
        if value in picked:
            picked.remove(value)
        else:
            picked.append(value)
        f = self.field(path)
        if f.spec.get("source") == "faces":
            picked.sort()
        self.set(path, picked)

    def set_card_count(self, path: str, name: str, n: int) -> None:
        """Lay ``n`` copies of the card called ``name`` on a discard pile."""
        f = self.field(path)
        ids = [cid for cid, nm in self.choices(f) if nm == name]
        n = max(0, min(len(ids), n))
        pile = [c for c in self.get(path, []) if c not in ids] + ids[:n]
        order = {cid: i for i, (cid, _) in enumerate(self.choices(f))}
        self.set(path, sorted(pile, key=order.__getitem__))

    def set_owner(self, path: str, tile: str, owner: str | None) -> None:
        owners = dict(self.get(path, {}))
        if owner:
            owners[tile] = owner
        else:
            owners.pop(tile, None)
        self.set(path, dict(sorted(owners.items())))

    def set_secret(self, path: str, value: Any) -> None:
        """A holder's entry behind the gate (the base, the hand)."""
        self.set(path, value)

    def entered(self, seat: str) -> bool:
        """Whether ``seat`` has entered every one of its secret fields."""
        return all(self.get(f.path) is not None for f in self.secret_fields(seat))

    # ------------------------------------------------------------- the engine's verdict
    def verdict(self) -> list[PositionProblem]:
        if self._verdict is None:
            self._verdict = check_position(self.game_id, self.seats, self.options, self.position, self.labels)
        return self._verdict

    def _field_of(self, problem_field: str) -> str:
        """The form field a problem belongs to: the longest field path it starts with
        ("discards.gamble.1" → "discards.gamble"), else "" (the whole position)."""
        best = ""
        # The engine names list items as "city.agency[0]" or "pieces.0": the form, "city.agency.0".
        problem_field = re.sub(r"\[(\d+)\]", r".\1", problem_field)
        row = re.match(r"^([\w-]+)\.(\d+)(\.(.*))?$", problem_field)
        if row and not any(f.path == problem_field or problem_field.startswith(f.path + ".") for f in self.fields if "rows" not in f.spec):
            rows = self.position.get(row.group(1))
            item = rows[int(row.group(2))] if isinstance(rows, list) and int(row.group(2)) < len(rows) else None
            owner = next((f.path for f in self.fields if "rows" in f.spec and f.spec["rows"]["in"] == row.group(1)
                          and self._row_matches(f, item)), "")
            if owner:
                return owner
        for f in self.fields:
            if (problem_field == f.path or problem_field.startswith(f.path + ".")) and len(f.path) > len(best):
                best = f.path
        if not best and problem_field:
            # A problem of a whole group ("factions": two players with one faction) shows
            # beside the group's first public field.
            best = next((f.path for f in self.fields if f.path.startswith(problem_field + ".") and not f.secret), "")
        return best

    def _missing_secrets(self) -> dict[str, str]:
        """Secret fields still to enter, said without their value (the form asks every
        holder for its whole entry: a hand the app dealt at random would refuse the
        cards the player really holds)."""
        out = {}
        for f in self.fields:
            count = f.spec.get("count")
            if count and self.get(count.replace("{seat}", f.seat)) == 0:
                continue  # an empty hand has nothing to enter
            if f.secret and self.get(f.path) is None:
                out[f.path] = f"{self.names.get(f.seat, f.seat)}: enter this behind the privacy gate."
        return out

    def public_problems(self) -> dict[str, list[str]]:
        """Problems by form field ("" for the whole position), safe for the shared screen:
        a secret field's problem never quotes the value."""
        out: dict[str, list[str]] = {}
        missing = self._missing_secrets()
        for path, msg in missing.items():
            out.setdefault(path, []).append(msg)
        for p in self.verdict():
            where = self._field_of(p.field)
            if where in missing:
                continue  # already asked for: the engine's "missing" says no more
            if p.is_private or self._is_secret(where):
                holder = next((f.seat for f in self.fields if f.path == where and f.secret), "")
                msg = (p.public_message(self.names) if not holder else
                       f"{self.names[holder]}'s secret entry has a problem: {self.names[holder]} checks it behind the gate.")
            else:
                # Beside its field the message need not name the field again.
                label = self.labels.get(where, "")
                msg = p.message[len(label) + 2:] if where == p.field and label and p.message.startswith(label + ": ") else p.message
            out.setdefault(where, []).append(msg)
        return out

    def secret_problems(self, seat: str) -> list[str]:
        """The problems of ``seat``'s secret entries, in full: behind the gate only."""
        mine = {f.path for f in self.secret_fields(seat)}
        return [p.message for p in self.verdict() if self._field_of(p.field) in mine]

    def _is_secret(self, path: str) -> bool:
        return any(f.path == path and f.secret for f in self.fields)

    @property
    def ok(self) -> bool:
        return not self._missing_secrets() and not self.verdict()

    def problem_lines(self) -> list[str]:
        """Every public problem as one line, the field named (for the wizard's footer)."""
        lines = []
        for where, msgs in self.public_problems().items():
            label = self.labels.get(where, "")
            lines.extend(f"{label}: {m}" if label and not m.startswith(label) else m for m in msgs)
        return lines

    def to_position(self) -> dict[str, Any]:
        """The position to start from (its private part included: for the Table only)."""
        return copy.deepcopy(self.position)

    def summary(self) -> list[str]:
        """The start page's lines: what differs from a fresh game, in players' words, never
        a secret."""
        fresh = default_position(self.game_id, self.seats, self.options)
        lines = []
        for f in self.public_fields():
            value = self.get(f.path)
            if value == _get(fresh, f.path):
                continue
            lines.append(f"{f.label.rstrip('?')}: {self.say(f)}")
        for seat in self.secret_seats():
            lines.append(f"{self.names[seat]}'s secret entries: " + ("entered" if self.entered(seat) else "not entered yet"))
        return lines

    def say(self, f: Field) -> str:
        """A field's value in words (public fields only)."""
        value = self.get(f.path)
        if f.kind == "yesno":
            return "yes" if value else "no"
        if f.kind in ("seat", "choice"):
            return dict(self.choices(f)).get(value, str(value))
        if f.kind == "many":
            named = dict(self.choices(f))
            return ", ".join(named.get(v, str(v)) for v in value or []) or "none"
        if f.kind == "owners":
            return ", ".join(f"{self.name_of(t)}: {o}" for t, o in (value or {}).items()) or "none"
        if f.kind == "cards":
            return ", ".join(f"{name} ×{n}" for name, n, _ in self.card_counts(f) if n) or "none"
        return str(value if value is not None else 0)

    def uncovered(self) -> list[str]:
        """Paths of the engine's position that no field asks (a test keeps it empty)."""
        paths = [f.path for f in self.fields]
        return [leaf for leaf in _leaves(self.position)
                if not leaf.startswith(PRIVATE)
                and not any(leaf == p or leaf.startswith(p + ".") or p.startswith(leaf + ".") for p in paths)]


_MISSING = object()


def _subst(data: Any, words: Mapping[str, str]) -> Any:
    """``data`` with each of ``words`` replaced in every string (a field's source and rows
    name its own seat and item)."""
    if isinstance(data, str):
        for k, v in words.items():
            data = data.replace(k, v)
        return data
    if isinstance(data, dict):
        return {k: (v if k in ("label", "path") else _subst(v, words)) for k, v in data.items()}
    if isinstance(data, list):
        return [_subst(v, words) for v in data]
    return data


def _get(data: Mapping[str, Any], path: str, default: Any = None) -> Any:
    """The value at a dotted path; a number steps into a list (``city.agency.0``)."""
    node: Any = data
    for part in path.split("."):
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, Mapping) and part in node:
            node = node[part]
        else:
            return default
    return node


def _leaves(data: Mapping[str, Any], prefix: str = "") -> list[str]:
    out = []
    for k, v in data.items():
        path = f"{prefix}{k}"
        if isinstance(v, dict) and v:
            out.extend(_leaves(v, path + "."))
        else:
            out.append(path)
    return out

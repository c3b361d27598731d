"""A card's text as the app carries it out: each order or effect text a card file maps to a
sequence of checked primitives (its ``steps``), each with the targets the text allows.

The engine cannot read English (RULINGS A-12), so a card file says, next to the text as
printed, what the text does one step at a time: "Deal 1 damage to an enemy unit in Space."
is one ``damage`` step of 1 whose target is an enemy unit in the Space theater. While such a
text is resolved the prompt asks for its current step and offers exactly the cards the text
names; a text with no steps is resolved by the table with the generic primitives and is
marked so on the card (:data:`TABLE_RESOLVES`).

>>> s = parse_steps([{"do": "damage", "amount": 1, "on": {"who": "enemy", "kind": ["unit"], "theater": "space"}}], "s")
>>> s[0].words()
'deal 1 damage to an enemy unit in Space'
>>> [str(p) for p in step_problems([{"do": "damage", "amount": 0, "on": {"who": "enemy"}}], "steps[x]")]
['steps[x][0].amount: the amount is a whole number from 1 to 20']
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.datafile import kind as json_kind, short

TABLE_RESOLVES = "The table resolves this text; the app does not check it."
"""Said on a card, in the editor and in play, for a text with no steps."""
CHECKED = "The app carries this text out as written."
"""Said on a card for a text whose steps the app checks."""

ACTS = ("damage", "heal", "token", "draw", "incident", "move_theater", "instruct", "score", "escape")
"""What one step may do: the primitives of RULINGS A-12 the app can aim at the cards a text
names (a discard or a placement from a hand stays the table's: the hand is hidden)."""
AIMED = frozenset(ACTS) - {"draw", "incident"}
"""The steps aimed at a card in play (they have a target)."""
WHO = ("this", "own", "enemy", "any")
KINDS = ("unit", "base", "leader")
THEATERS = ("space", "planetside", "this")
MAX_AMOUNT = 20
_THEATER_WORDS = {"space": "in Space", "planetside": "in the Planetside theater", "this": "in this card's theater"}
_STEP_FIELDS = ("do", "amount", "token", "on", "required")
_ON_FIELDS = ("who", "kind", "theater", "type")


class StepProblem:
    """One bad field of a step (``path`` like ``steps[…][0].on.who``)."""

    def __init__(self, path: str, message: str) -> None:
        self.path, self.message = path, message

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


@dataclass(frozen=True)
class Aim:
    """Which cards in play a step may be aimed at: ``who`` (this card, one of yours, an
    enemy's, any), ``kinds`` (units — objective units included —, bases, leaders; empty:
    any), ``theater`` (Space, Planetside, this card's, or "" for either) and a card
    ``type`` ("Ship")."""

    who: str = "any"
    kinds: tuple[str, ...] = ()
    theater: str = ""
    type: str = ""

    def words(self) -> str:
        """The target in the rulebook's words: "an enemy unit in Space"."""
        if self.who == "this":
            noun = "this card"
        else:
            thing = self.type or " or ".join(self.kinds or ("card",))
            noun = {"own": f"a {thing} of yours", "enemy": f"an enemy {thing}", "any": f"a {thing}"}[self.who]
        where = _THEATER_WORDS.get(self.theater, "")
        return f"{noun} {where}".strip()

    def to_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"who": self.who}
        if self.kinds:
            out["kind"] = list(self.kinds)
        if self.theater:
            out["theater"] = self.theater
        if self.type:
            out["type"] = self.type
        return out


@dataclass(frozen=True)
class Step:
    """One checked primitive of a text: ``do`` (one of :data:`ACTS`), its ``amount`` (damage,
    healing, cards drawn, tokens: negative to remove them), its ``token``, its target
    (``on``) and whether the text cannot be performed without it (``required``: a cost such
    as "Spend 2 Funds", or a condition such as "from Space"; an order whose required steps
    have no target is not offered)."""

    do: str
    amount: int = 1
    token: str = ""
    on: Aim | None = None
    required: bool = False

    def words(self) -> str:
        """What the step does, in the card's words ("remove 2 Charge tokens from this card")."""
        n = abs(self.amount)
        if self.do == "draw":
            return f"draw {n} card{'s' if n != 1 else ''}"
        if self.do == "incident":
            return "add an Incident"
        at = self.on.words() if self.on else ""
        if self.do == "damage":
            return f"deal {n} damage to {at}"
        if self.do == "heal":
            return f"heal {n} damage from {at}"
        if self.do == "token":
            many = f"{n} {self.token} token{'s' if n != 1 else ''}"
            return f"place {many} on {at}" if self.amount > 0 else f"remove {many} from {at}"
        if self.do == "move_theater":
            return f"move {at} to the other theater"
        if self.do == "instruct":
            return f"give {at} an instruction"
        if self.do == "escape":
            return f"{at} leaves the system (escapes)"
        return f"score 1 Objective token with {at}"

    def to_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"do": self.do}
        if self.do not in ("incident", "move_theater", "instruct", "score", "escape"):
            out["amount"] = self.amount
        if self.token:
            out["token"] = self.token
        if self.on is not None:
            out["on"] = self.on.to_data()
        if self.required:
            out["required"] = True
        return out


def _aim_problems(v: Any, path: str) -> list[StepProblem]:
    if not isinstance(v, dict):
        return [StepProblem(path, f"the target is an object like {{\"who\": \"enemy\", \"kind\": [\"unit\"]}}, not {json_kind(v)}")]
    found = [StepProblem(f"{path}.{k}", f"not a field of a target (its fields: {', '.join(_ON_FIELDS)})") for k in v if k not in _ON_FIELDS]
    if v.get("who", "any") not in WHO:
        found.append(StepProblem(f"{path}.who", f"is one of {', '.join(WHO)}, not {short(v.get('who'))}"))
    kinds = v.get("kind", [])
    if not isinstance(kinds, list) or any(k not in KINDS for k in kinds):
        found.append(StepProblem(f"{path}.kind", f"is a list of {', '.join(KINDS)}, not {short(kinds)}"))
    if v.get("theater", "") not in THEATERS + ("",):
        found.append(StepProblem(f"{path}.theater", f"is space, planetside or this, not {short(v.get('theater'))}"))
    if not isinstance(v.get("type", ""), str):
        found.append(StepProblem(f"{path}.type", f"is a card type's name, not {short(v.get('type'))}"))
    return found


def step_problems(value: Any, path: str, tokens: tuple[str, ...] = ()) -> list[StepProblem]:
    """Every problem of one text's steps (``[]`` when they are good); ``tokens``: the token
    names a step may place or remove (empty: any)."""
    if not isinstance(value, list) or not value:
        return [StepProblem(path, f"the steps of a text are a non-empty list, not {short(value)}")]
    found: list[StepProblem] = []
    for i, st in enumerate(value):
        here = f"{path}[{i}]"
        if not isinstance(st, dict):
            found.append(StepProblem(here, f"a step is an object, not {json_kind(st)}"))
            continue
        found += [StepProblem(f"{here}.{k}", f"not a field of a step (its fields: {', '.join(_STEP_FIELDS)})") for k in st if k not in _STEP_FIELDS]
        do = st.get("do")
        if do not in ACTS:
            found.append(StepProblem(f"{here}.do", f"is one of {', '.join(ACTS)}, not {short(do)}"))
            continue
        amount = st.get("amount", 1)
        ok = isinstance(amount, int) and not isinstance(amount, bool) and 1 <= abs(amount) <= MAX_AMOUNT
        if not ok or (amount < 0 and do != "token"):
            found.append(StepProblem(f"{here}.amount", f"the amount is a whole number from 1 to {MAX_AMOUNT}"
                                     + (" (negative: tokens removed)" if do == "token" else "")))
        if do == "token" and (not isinstance(st.get("token"), str) or (tokens and st.get("token") not in tokens)):
            found.append(StepProblem(f"{here}.token", f"names the token, one of {', '.join(tokens)}, not {short(st.get('token'))}"))
        if do != "token" and "token" in st:
            found.append(StepProblem(f"{here}.token", "only a token step names a token"))
        if do in AIMED:
            found += _aim_problems(st.get("on"), f"{here}.on")
        elif "on" in st:
            found.append(StepProblem(f"{here}.on", f"a {do} step has no target"))
        if not isinstance(st.get("required", False), bool):
            found.append(StepProblem(f"{here}.required", "is true or false"))
    return found


def parse_steps(value: list[dict[str, Any]], path: str) -> tuple[Step, ...]:
    """The steps of one text (already checked by :func:`step_problems`)."""
    out = []
    for st in value:
        on = st.get("on")
        aim = Aim(on.get("who", "any"), tuple(on.get("kind", ())), on.get("theater", ""), on.get("type", "")) if isinstance(on, dict) else None
        out.append(Step(st["do"], st.get("amount", 1), st.get("token", ""), aim, st.get("required", False)))
    return tuple(out)

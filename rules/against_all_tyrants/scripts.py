"""A card's text carried out as written: its checked steps (``steps.py``), one at a time,
each offering only the cards the text names (5.2.6.2.2 "Resolve the text of the order";
5.2.6.2.1.1 a one-time effect, "resolve its entirety"). A text with no steps stays the
table's, resolved with the generic primitives (RULINGS A-12); see ``resolution.py``."""
from __future__ import annotations

from typing import Iterator

from rules.core import Action, Decision, DrawRequest, Prompt, Violation

from .actions import Damage, Heal, Incident, Instruct, MoveTheater, Score, Skip, Token
from .cards import THEATER_NAMES
from .sections import R_ORDERS, R_TEXT, UNIT_KINDS
from .state import AatState, Pending, Piece
from .steps import Aim, Step

# Each step's kind of action, as the prompt names it.
_CHOICE = {"damage": "damage", "heal": "heal", "token": "token", "incident": "incident", "move_theater": "move_theater",
           "instruct": "instruct", "score": "score", "escape": "score"}


def aimed_action(step: Step, seat: str, target: str) -> Action:
    """The primitive that performs ``step`` on ``target``."""
    if step.do == "damage":
        return Damage(seat, target, step.amount)
    if step.do == "heal":
        return Heal(seat, target, step.amount)
    if step.do == "token":
        return Token(seat, target, step.token, step.amount)
    if step.do == "move_theater":
        return MoveTheater(seat, target)
    if step.do == "instruct":
        return Instruct(seat, target)
    return Score(seat, target, step.do == "escape")


def _same(a: Action, b: Action) -> bool:
    """The same primitive, whatever input sent it (an action's ``source`` is not compared)."""
    return type(a) is type(b) and a == b


class Scripts:
    """Texts with steps: a part of :class:`~rules.against_all_tyrants.game.AgainstAllTyrants`."""

    def script(self, state: AatState, p: Pending) -> tuple[Step, ...]:
        """The steps of the text being resolved (``()``: the table resolves it)."""
        if p.kind != "text" or not p.card:
            return ()
        return state.card(p.card).steps_of(p.text)

    def _aimed_at(self, state: AatState, aim: Aim, seat: str, source: str, q: Piece) -> bool:
        """Whether the text's target words (``aim``) name ``q``: "an enemy unit in Space"."""
        src = state.pieces.get(source)
        if aim.who == "this":
            if q.id != source:
                return False
        elif aim.who == "own" and q.owner != seat or aim.who == "enemy" and q.owner == seat:
            return False
        c = state.card(q.id)
        if aim.kinds and not any(c.kind in (UNIT_KINDS if k == "unit" else (k,)) for k in aim.kinds):
            return False
        if aim.type and aim.type not in c.types:
            return False
        if aim.theater == "this":
            return src is not None and q.theater == src.theater
        return not aim.theater or q.theater == aim.theater

    def step_actions(self, state: AatState, p: Pending, step: Step) -> Iterator[Action]:
        """The actions that carry out ``step``: one per card the text names that the rules
        let it reach (a leader takes no damage from a text, a token only where it may sit…)."""
        if step.do == "incident":
            yield Incident(p.seat)
            return
        if step.on is None:
            return
        for q in list(state.pieces.values()):
            if self._aimed_at(state, step.on, p.seat, p.card, q):
                a = aimed_action(step, p.seat, q.id)
                if not self._primitive_violations(state, a, p, scripted=False):
                    yield a

    def _can_do(self, state: AatState, p: Pending, step: Step) -> bool:
        if step.do == "draw":
            return bool(state.sides[p.seat].deck.cards)
        return next(iter(self.step_actions(state, p, step)), None) is not None

    def _ask_step(self, state: AatState, p: Pending, steps: tuple[Step, ...]) -> Prompt:
        step = steps[p.step]
        title = state.card(p.card).title
        where = f" (step {p.step + 1} of {len(steps)})" if len(steps) > 1 else ""
        expert = f" — {p.expert}" if p.expert else ""
        head = f"{title}: {p.text}{where}{expert}"
        if step.do == "draw":
            if state.sides[p.seat].deck.cards:
                left = step.amount - p.left
                return Prompt.single(p.seat, DrawRequest(f"deck-{p.seat}", f"{head}: draw {left} card{'s' if left != 1 else ''}"))
            return Prompt.single(p.seat, Decision(("skip",), f"{head}: the main deck is empty, nothing to draw (RULINGS A-06)"))
        if not self._can_do(state, p, step):
            return Prompt.single(p.seat, Decision(("skip",), f"{head}: nothing to {step.words()} now"))
        return Prompt.single(p.seat, Decision((_CHOICE[step.do],), f"{head}: {step.words()}"))

    def _script_violations(self, state: AatState, a: Action, p: Pending, steps: tuple[Step, ...]) -> list[Violation]:
        """An action while a text with steps is resolved: it must be the current step, on a
        card the text names, with the text's amount; then the rules' own checks."""
        step = steps[p.step]
        who = state.name(a.seat)
        said = f"{who}, {state.card(p.card).title} says: “{p.text}”"
        if isinstance(a, Skip):
            if self._can_do(state, p, step):
                return [Violation("text-says", R_TEXT, f"{said} — {step.words()} first.")]
            return []
        if step.do == "incident":
            return [] if isinstance(a, Incident) else [Violation("text-says", R_TEXT, f"{said} — this step is to {step.words()}.")]
        target = getattr(a, "target", None)
        q = state.pieces.get(target) if isinstance(target, str) else None
        if step.do == "draw" or q is None or not _same(a, aimed_action(step, a.seat, q.id)):
            return [Violation("text-says", R_TEXT, f"{said} — this step is to {step.words()}.")]
        if step.on is not None and not self._aimed_at(state, step.on, p.seat, p.card, q):
            return [Violation("not-named", R_TEXT, f"{said} — {state.card(q.id).title} is not {step.on.words()}.")]
        return self._primitive_violations(state, a, p, scripted=False)  # type: ignore[attr-defined,no-any-return]

    def _after_step(self, state: AatState, p: Pending, steps: tuple[Step, ...], drew: bool = False) -> None:
        """A step done (or a draw of a draw step): on to the next step, or the text is done.
        ``p`` is found by identity: a unit destroyed by the step may have put its own
        resolution (Backup, Sympathized) in front of it."""
        if not any(x is p for x in state.pending):
            return  # the game ended, or the text was cleared
        if drew:
            p.left += 1
            if p.left < steps[p.step].amount:
                return
        p.step += 1
        p.left = 0
        if p.step >= len(steps):
            state.pending[:] = [x for x in state.pending if x is not p]
            state.note(f"{state.name(p.seat)} has carried out {state.card(p.card).title}'s text as written.", p.seat)

    def _required_violations(self, state: AatState, seat: str, card: str, text: str) -> list[Violation]:
        """An order whose text cannot be carried out ("Spend 2 Funds" with none, "from
        Space" while Planetside) is not offered: its required steps each need a target."""
        found: list[Violation] = []
        probe = Pending("text", seat, card, text=text)
        for step in state.card(card).steps_of(text):
            if step.required and not self._can_do(state, probe, step):
                src = state.pieces.get(card)
                where = f" (it is in {THEATER_NAMES[src.theater]})" if src is not None and step.on and step.on.theater else ""
                found.append(Violation("cannot-carry-out", R_ORDERS, f"{state.name(seat)}, {state.card(card).title}'s order "
                                       f"“{text}” needs to {step.words()}, and that cannot be done now{where}."))
                break
        return found

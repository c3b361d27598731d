"""Which seats have a phone attached (``--phones on``, ``companion/web``), in the table
screen's words: a badge beside each such seat — the ☎ glyph, which the shipped font has
(its mobile-phone emoji is not there), and the words "phone attached" for whoever cannot tell the glyph.
Kivy-free; ``GameScreen`` shows it under the prompt line (who must act) and on the seat
clocks of every game."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Iterable, Mapping

PHONE = "☎"


def _names(seats: Iterable[tuple[str, str]], ids: Iterable[str]) -> list[str]:
    """The names of the seats in ``ids``, in seat order."""
    chosen = set(ids)
    return [name for sid, name in seats if sid in chosen]


def phones_line(seats: Iterable[tuple[str, str]], attached: Iterable[str]) -> str:
    """The prompt panel's badge: the seats (``(id, name)`` in turn order) whose phone is
    attached, by name, or "" when none is.

    >>> seats = [("cops-1", "Ann"), ("criminals-1", "Bob"), ("cops-2", "Cy")]
    >>> phones_line(seats, {"cops-1"})
    "☎ Ann's phone attached"
    >>> phones_line(seats, {"cops-2", "cops-1"})
    '☎ phones attached: Ann, Cy'
    >>> phones_line(seats, set()), phones_line(seats, {"nobody"})
    ('', '')
    """
    names = _names(seats, attached)
    if not names:
        return ""
    if len(names) == 1:
        return f"{PHONE} {names[0]}'s phone attached"
    return f"{PHONE} phones attached: {', '.join(names)}"


def with_phones(prompt: str, line: str) -> str:
    r"""The game's own prompt line (who must act, and what the game waits for) with the
    phones' badge on a line of its own after it: the prompt's panel grows to hold it, where
    the top bar's turn line has no room at large text.

    >>> with_phones("Ann (▲ Cops): roll to move", "☎ Ann's phone attached")
    "Ann (▲ Cops): roll to move\n☎ Ann's phone attached"
    >>> with_phones("Ann (▲ Cops): roll to move", ""), with_phones("", "☎ Ann's phone attached")
    ('Ann (▲ Cops): roll to move', "☎ Ann's phone attached")
    """
    if not line:
        return prompt
    return f"{prompt}\n{line}" if prompt else line


def badge(name: str, has_phone: bool) -> str:
    """A seat's name on its clock face, with the phone badge when its phone is attached
    (the prompt panel says the words).

    >>> badge("▲ Ann", True), badge("● Bob", False)
    ('☎ ▲ Ann', '● Bob')
    """
    return f"{PHONE} {name}" if has_phone else name


# The action panel's intents that open a seat's private page behind the gate.
GATED = ("hand", "physical-draw")
ON_PHONE = "on-phone"  # the intent of a seat's button while its phone holds its secrets


def waiting_line(seats: Iterable[tuple[str, str]], waiting: Iterable[str]) -> str:
    """The seats whose private choice the game waits for on their own phone
    (:func:`waiting_on_phones`), in words, or "".

    >>> seats = [("cops-1", "Ann"), ("criminals-1", "Bob"), ("cops-2", "Cy")]
    >>> waiting_line(seats, {"cops-1"})
    "☎ waiting for Ann's phone"
    >>> waiting_line(seats, {"cops-2", "cops-1"})
    "☎ waiting for Ann's and Cy's phones"
    >>> waiting_line(seats, set())
    ''
    """
    names = _names(seats, waiting)
    if not names:
        return ""
    if len(names) == 1:
        return f"{PHONE} waiting for {names[0]}'s phone"
    return f"{PHONE} waiting for {', '.join(n + chr(39) + 's' for n in names[:-1])} and {names[-1]}'s phones"


def waiting_on_phones(specs: Iterable[Any], attached: Iterable[str], waits: Mapping[str, Any]) -> frozenset[str]:
    """The seats the game waits for whose only way on (on the table screen) is a private
    page: an attached seat awaited by the prompt (``waits``: seat → awaiting, not a roll
    or a draw, which are made at the table), with a button opening its gate and no other
    button of its own. A commit (Outrage!'s weapons) is the plain case.

    >>> from rules.core import CommitRequest, Decision, RollRequest
    >>> from companion.ui.presenters.actions import ButtonSpec
    >>> class Act:
    ...     seat = "a"
    >>> lay = [ButtonSpec("▤ Ann: lay weapons face down", "hand", seat="a")]
    >>> sorted(waiting_on_phones(lay, {"a"}, {"a": CommitRequest("arm")}))
    ['a']
    >>> sorted(waiting_on_phones(lay + [ButtonSpec("Attack", action=Act())], {"a"}, {"a": Decision(("attack",))}))
    []
    >>> sorted(waiting_on_phones(lay, {"a"}, {"a": RollRequest.of(2, 6, "move")})), sorted(waiting_on_phones(lay, set(), {"a": CommitRequest("arm")}))
    ([], [])
    """
    from rules.core import DrawRequest, RollRequest

    on = set(attached)
    gated: set[str] = set()
    other: set[str] = set()
    for spec in specs:
        seat = spec.seat or getattr(spec.action, "seat", "") or ""
        (gated if spec.intent in GATED else other).add(seat)
    return frozenset(s for s, aw in waits.items()
                     if s in on and s in gated and s not in other and not isinstance(aw, (RollRequest, DrawRequest)))


def phone_buttons(specs: list[Any], attached: Iterable[str], waiting: Iterable[str],
                  who: Callable[[str], str]) -> list[Any]:
    """The action panel with each button that would open an attached seat's private page
    behind the gate (its hand, a card it drew, a secret commit) replaced by one button
    saying the seat's phone holds it: "waiting for Ann's phone" when the game waits for
    that seat's private choice (:func:`waiting_on_phones`), else where its hand, or the
    card it drew, is entered. Seats without a phone keep their gate buttons.

    >>> from companion.ui.presenters.actions import ButtonSpec
    >>> specs = [ButtonSpec("▤ Ann: lay weapons face down", "hand", seat="a"),
    ...          ButtonSpec("▤ Bob: lay weapons face down", "hand", seat="b"),
    ...          ButtonSpec("Enter the card Ann drew…", "physical-draw", seat="a"), ButtonSpec("Undo", "undo")]
    >>> [(s.label, s.intent) for s in phone_buttons(specs, {"a"}, {"a"}, {"a": "Ann", "b": "Bob"}.get)]
    [("☎ Waiting for Ann's phone", 'on-phone'), ('▤ Bob: lay weapons face down', 'hand'), ('Undo', 'undo')]
    >>> [s.label for s in phone_buttons(specs[:1], {"a"}, set(), {"a": "Ann"}.get)]
    ["☎ Ann's hand is on Ann's phone"]
    >>> [s.label for s in phone_buttons(specs[2:3], {"a"}, set(), {"a": "Ann"}.get)]
    ["☎ Ann enters the card drawn on Ann's phone"]
    """
    on, now = set(attached), set(waiting)
    out: list[Any] = []
    done: set[str] = set()
    for spec in specs:
        seat = spec.seat
        if spec.intent not in GATED or seat not in on:
            out.append(spec)
            continue
        if seat in done:
            continue
        done.add(seat)
        name = who(seat)
        if seat in now:
            label = f"{PHONE} Waiting for {name}'s phone"
        elif spec.intent == "physical-draw":
            label = f"{PHONE} {name} enters the card drawn on {name}'s phone"
        else:
            label = f"{PHONE} {name}'s hand is on {name}'s phone"
        out.append(replace(spec, label=label, intent=ON_PHONE, action=None, role="quiet"))
    return out

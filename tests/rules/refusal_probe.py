"""What a game's own refusal tests share (issue 31, "Every refusal says why"): the kernel's
generic sentence as the tests know it, and the refusals a seat meets when it tries each
action kind its prompt does not offer."""
from __future__ import annotations

import re
from typing import Any, Callable

from rules.core import Action, Game

GENERIC = re.compile(r"The game is waiting for .*; an? \w+ is not allowed now\.")
"""The kernel's generic sentence (code ``not-awaited``): never the only reason a refusal gives."""


def generic(v: Any) -> bool:
    return v.code == "not-awaited" or bool(GENERIC.fullmatch(v.message))


def refusals(game: Game[Any], state: Any, attempt: Callable[[type[Action], str], Action]) -> list[tuple[str, str, tuple]]:
    """(phase, kind, violations) of every kind not on offer to each seat the prompt names,
    each tried as ``attempt(cls, seat)`` makes it."""
    prompt = game.prompt(state)
    out = []
    for seat in prompt.seats():
        offered = prompt.waits[seat].accepted
        for cls in game.action_types:
            if cls.kind not in offered:
                out.append((state.phase, cls.kind, game.check(state, attempt(cls, seat))))
    return out

"""The pseudo-locale ``en-x-pseudo``: every translated string bracketed, accented and
padded by 40 %, worked out from the msgids on the fly (no catalogue). A screen shown in it
makes two faults visible: a string that skipped translation reads as plain English (no
brackets), and a label that cannot take a longer language's words overflows.

>>> pseudo("{seat} rolls {value} to move.")
'[{seat} ŕôļļš {value} ţô môvé. ~~~~~~~~~~~~]'
>>> PseudoTranslations().ngettext("{n} die", "{n} dice", 2)
'[{n} ðîçé ~~~]'
>>> is_pseudo(pseudo("Start")), is_pseudo("Start")
(True, False)
"""
from __future__ import annotations

import gettext
import re

CODE = "en-x-pseudo"

# Letters with accents a font for French and German must also have (no exotic scripts:
# the pseudo-locale tests translation and width, not fonts).
_ACCENTS = str.maketrans(
    "abcdeghiklnorstuyzABCDEGHIKLNORSTUYZ",
    "àƀçðéĝĥîķļñôŕšţûýžÀßÇÐÉĜĤÎĶĻÑÔŔŠŢÛÝŽ",
)
# A format field ({seat}, {delta:+d}, {{): kept as it is so the sentence still formats.
_FIELD = re.compile(r"(\{\{|\}\}|\{[^{}]*\})")


def pseudo(message: str) -> str:
    """``message`` bracketed, accented outside its format fields, and padded with ``~`` by
    40 % of its length (at least two), as a longer language would make it."""
    if not message:
        return message
    parts = _FIELD.split(message)
    body = "".join(p if i % 2 else p.translate(_ACCENTS) for i, p in enumerate(parts))
    pad = "~" * max(2, round(len(message) * 0.4))
    return f"[{body} {pad}]"


def is_pseudo(text: str) -> bool:
    """Whether ``text`` came through :func:`pseudo` (its brackets and padding)."""
    return text.startswith("[") and text.rstrip().endswith("~]")


class PseudoTranslations(gettext.NullTranslations):
    """A gettext translator that answers every lookup with its pseudo form."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

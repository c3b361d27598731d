"""Outrage!'s words at the table: the colours, what a public choice and a prison are
called, the regions, what each Tower card does (``card_rules.json``), and the day's words
for the setup wizard and the Queen's Birthday card (RULINGS R-05). No Kivy."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from rules import facts
from rules.outrage.cards import RAVEN

FACTIONS = facts.factions("outrage")
# What each Tower card does, in players' words (this screen's data file).
CARD_RULES: dict[str, str] = json.loads((Path(__file__).parent / "card_rules.json").read_text(encoding="utf-8"))["tower"]
RAVEN_DRAWN = "takes a Raven card: "  # the engine's public line for a Raven card drawn
# The rulebook section an engine sentence cites ("… Bob wins. [ATTACK]"): the log keeps
# it; a moment read across the table does without.
SECTION = re.compile(r"\s*\[[A-Z][A-Z' ,]*\]")
BIRTHDAY_TEXTS = frozenset(c.text for c in RAVEN.values() if c.kind == "birthday")
# What a public choice's option reads as on its button (the engine's words for them).
CHOICE_WORDS = {"go": "Go there", "stay": "Stay", "escape": "Pay the ferryman and escape", "none": "No swap",
                "reenter": "Go back into the Tower", "retire": "Retire", "cards": "Surrender Tower cards",
                "coin": "Surrender the coin", "choose": "Serve the turn", "wait": "Serve the turn"}
HELD_NAMES = {"bloody": "Bloody Tower", "bowyer": "Bowyer Tower", "beauchamp": "Beauchamp Tower", "rack": "the Rack"}
REGION_WORDS = {"wall": "Wall Walk", "inner": "Inner Ward", "inmost": "Inmost Ward", "white": "White Tower",
                "prison": "prison", "exterior": "outside the walls"}


def birthday_today(today: Any) -> bool:
    """Whether ``today`` (a date) is the Queen's Birthday, 21 April (RULINGS R-05).

    >>> import datetime
    >>> birthday_today(datetime.date(2027, 4, 21)), birthday_today(datetime.date(2027, 4, 22))
    (True, False)
    """
    return (today.month, today.day) == (4, 21)


def birthday_words(birthday: bool) -> str:
    """What the device's date makes of the Queen's Birthday card, for the table.

    >>> birthday_words(True)
    'Today really is 21 April (the app read the date): everyone takes two Tower cards.'
    """
    return ("Today really is 21 April (the app read the date): everyone takes two Tower cards." if birthday
            else "Today is not 21 April (the app read the date): everyone takes one Tower card.")


def setup_words(birthday: bool, movement: str) -> list[str]:
    """The wizard's words on the day and the board, in players' terms."""
    out = ["Today is 21 April, the Queen's Birthday: her Raven card gives two Tower cards (the app read the date)."
           if birthday else "Today is not 21 April: the Queen's Birthday Raven card gives one Tower card (the app read the date)."]
    if movement == "unchecked":
        out.append("Moves unchecked: after each move the player taps, or searches, the square landed on; "
                   "the app applies that square's rules.")
    else:
        out.append("Moves checked on the app's board, which is RECONSTRUCTED from public sources: if your printed "
                   "board differs, choose unchecked movement.")
    return out


def and_names(names: list[str]) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cat".

    >>> and_names(["Ann", "Bob", "Cat"])
    'Ann, Bob and Cat'
    """
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}" if names else ""


def raven_title(text: str) -> str:
    """A Raven card's heading: its words up to the first full stop, colon or comma (then
    "…"), at most sixty-odd letters.

    >>> raven_title("PECKED BY A RAVEN. Your treatment in Hospital takes one turn.")
    'PECKED BY A RAVEN.'
    >>> raven_title("GO TO THE SHOP if you wish, or stay where you are and forfeit the turn.")
    'GO TO THE SHOP if you wish…'
    """
    m = re.match(r"[^.:!,]{3,}?[.:!,](?=\s|$)", text)
    head = m.group(0) if m else text
    if head.endswith(","):
        head = head[:-1] + "…"
    return head if len(head) <= 64 else head[:61].rstrip() + "…"

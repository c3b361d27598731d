"""The README's "At the table and in the app" says, for every text of the example set,
whether the app carries it out or the table resolves it, as the card files say (a text
with steps or without); its card is named, and the texts quoted as printed."""
from __future__ import annotations

import re
from pathlib import Path

import rules.against_all_tyrants as pkg
from rules.against_all_tyrants import example_set

README = (Path(pkg.__file__).parent / "README.md").read_text(encoding="utf-8")
SECTION = README.split("## At the table and in the app", 1)[1].split("\n## ", 1)[0]
CHECKS, TABLE = SECTION.split("**The table resolves**", 1)


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_every_text_of_the_example_set_is_listed_where_the_card_files_put_it():
    checks, table = _flat(CHECKS), _flat(TABLE)
    for c in example_set().cards.values():
        for text in list(c.orders) + ([c.effect] if c.effect else []):
            here, other = (checks, table) if c.steps_of(text) else (table, checks)
            assert f'"{text}"' in here, (c.name, text)
            assert c.name in here, c.name
            assert f'"{text}"' not in other, (c.name, text)


def test_the_mark_the_cards_carry_is_quoted_as_the_app_says_it():
    from rules.against_all_tyrants.steps import TABLE_RESOLVES

    assert TABLE_RESOLVES in _flat(TABLE)

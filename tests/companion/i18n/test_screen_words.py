"""The app words an engine's sentences in its chosen language where it shows them: the
log lines of a Table (LogLine.words), refusals and the end line, through the presenter
(Kivy-free; the GameScreen calls these)."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from companion import Journal, Table
from companion.i18n import choose, current
from companion.ui.presenters.base import GamePresenter
from rules.core import IllegalAction, Roll, Text

SEATS = [{"id": "cops-1", "faction": "cops", "name": "Ann"}, {"id": "criminals-1", "faction": "criminals", "name": "Bob"}]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    journal = Journal.open(tmp_path / "j.sqlite3")
    t = Table.create(journal, game_id="tyranny", seats=SEATS, seed=5)
    yield t
    t.close()
    journal.close()


@pytest.fixture(autouse=True)
def english_again() -> Iterator[None]:
    before = current().code
    yield
    choose(before)


def test_the_log_reads_in_the_chosen_language_with_players_names(table: Table) -> None:
    table.submit(Roll("cops-1", (3,)))
    p = GamePresenter(table)
    lines = table.log()
    assert all(type(x.words) is Text for x in lines)
    assert p.in_words(lines[-1].words) == "Ann rolls 3 to move."
    choose("de")
    assert p.in_words(lines[0].words) == "Der Einfluss der Gangster beginnt bei 500. Ann beginnt."
    assert p.in_words(lines[-1].words) == "Ann würfelt eine 3 für den Zug."
    choose("fr")
    assert p.in_words(lines[-1].words) == "Ann fait 3 pour se déplacer."


def test_a_refusal_reads_in_the_chosen_language(table: Table) -> None:
    p = GamePresenter(table)
    with pytest.raises(IllegalAction) as e:
        table.submit(Roll("criminals-1", (3,)))
    v = next(v for v in e.value.violations if v.code == "not-your-turn")
    choose("de")
    assert p.in_words(v.text) == "Am Zug ist Ann, nicht Bob."
    # A plain string (a game not yet converted) passes through in player words.
    assert p.in_words("cops-1 waits.") == "Ann waits."

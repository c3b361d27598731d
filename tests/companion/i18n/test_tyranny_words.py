"""Tyranny, the first game whose engine speaks in structure: its log and its refusals read
in French, German and the pseudo-locale, and a journal written before (English log lines in
its snapshots) resumes with a log every language can word."""
from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion import Journal, Table
from companion.i18n import PSEUDO, Language, is_pseudo, render
from rules.core import Roll, Text
from rules.core.playout import choose
from rules.core.rng import Rng
from rules.tyranny import GAME, Capture, MoveTo, OpenTunnel, PayEscape, PlayCard
from tests.rules.tyranny.helpers import FOUR, at, new, place, push

FR, DE, PS = Language("fr"), Language("de"), Language(PSEUDO)
OLD_JOURNAL = Path(__file__).parent / "data" / "tyranny-journal-english-log.sqlite"


def words(text: Any, lang: Language) -> str:
    return render(text, lang, "tyranny")


def test_a_capture_reads_in_each_language() -> None:
    s = new()
    place(s, "cop-1", "o-docks")  # range 1-3
    push(s, Capture("cop-1"), Roll("cop-1", (2,)))
    line = s.log[-1].text
    assert type(line) is Text
    assert str(line) == "cop-1 rolls 2 (needs 1-3): the cops own The Docks."
    assert words(line, FR) == "cop-1 fait 2 (il fallait 1-3) : le Port appartient désormais aux flics."
    assert words(line, DE) == "cop-1 würfelt eine 2 (nötig: 1–3): Das Feld „Hafendocks“ gehört jetzt der Fraktion Cops."


def test_refusals_read_in_each_language() -> None:
    s = new()
    v = next(v for v in GAME.check(s, Capture("cop-1")) if v.code == "cannot-capture")
    assert v.message == "Only a property tile can be captured, and Police Station is not one."
    assert words(v.text, FR) == "Seule une propriété peut être prise, et le Commissariat n'en est pas une."
    assert words(v.text, DE) == "Nur ein Grundstück kann übernommen werden, und das Feld „Polizeiwache“ ist keines."
    turn = next(v for v in GAME.check(s, Roll("crim-1", (3,))) if v.code == "not-your-turn")
    assert words(turn.text, DE) == "Am Zug ist cop-1, nicht crim-1."
    assert words(turn.text, FR) == "C'est à cop-1 de jouer, pas à crim-1."


def test_a_name_that_opens_a_french_sentence_takes_a_capital() -> None:
    s = at(tiles={"cop-1": "o-docks"}, owners={"o-docks": "criminals"})
    push(s, Capture("cop-1"), Roll("cop-1", (3,)))
    assert str(s.log[-1].text) == "cop-1 rolls 3 (needs 1-3): The Docks is neutral now."
    owned = at(tiles={"cop-1": "o-docks"}, owners={"o-docks": "cops"})
    refusal = next(v for v in GAME.check(owned, Capture("cop-1")) if v.code == "cannot-capture")
    assert words(refusal.text, FR) == "Le Port appartient déjà aux flics."
    assert words(refusal.text, DE) == "Das Feld „Hafendocks“ gehört bereits der Fraktion Cops."


def test_numbers_are_written_the_languages_way() -> None:
    s = at(seat="crim-1", tiles={"crim-1": "o-scrapyard"}, owners={"o-docks": "criminals"}, influence=1950)
    push(s, Roll("crim-1", (2,)), MoveTo("crim-1", "o-docks"))
    line = next(e.text for e in reversed(s.log) if "lands on" in str(e.text))
    assert str(line) == "crim-1 lands on The Docks, owned by the criminals: influence +50 → 2000."
    assert words(line, DE).endswith("Einfluss +50 → 2.000.")
    assert words(line, FR).endswith("influence +50 → 2\u202f000.")


SEATS = {seat for seat, _ in FOUR}


def _plain_words(rendered: str, text: Any) -> set[str]:
    """Words of ``rendered`` (a pseudo-locale rendering) that are plain English: none may
    come from the sentence, its terms or its values, except the values that are never
    translated (seat ids, which the screen turns into players' names, and quoted input)."""
    allowed: set[str] = set()

    def values(x: Any) -> Iterator[str]:
        if type(x) is Text:
            for _, v in x.args:
                yield from values(v)
        elif type(x) is str and (x in SEATS or x[:1] in "'\""):
            yield x

    for v in values(text):
        allowed |= set(re.findall(r"[A-Za-z]+", v))
    found = set(re.findall(r"[A-Za-z]{3,}", rendered))
    # A word made only of letters the pseudo-locale leaves alone (f, j, m, p, q, v, w, x)
    # cannot tell; any other letter is accented when translated.
    return {w for w in found - allowed if set(w.lower()) & set("abcdeghiklnorstuyz")}


def _playthrough(seed: int, plies: int) -> Iterator[tuple[Any, Any]]:
    """A random four-seat game: every log line written and every refusal of a few
    wrong actions tried at each step."""
    rng = Rng(seed)
    s = new(FOUR, seed)
    seen = 0
    for _ in range(plies):
        if s.result is not None:
            break
        actor = s.actor
        other = next(x for x in ("cop-1", "crim-1", "cop-2", "crim-2") if x != actor)
        for wrong in (Capture(actor), Roll(other, (3,)), PayEscape(actor), OpenTunnel(actor, "tunnel-a"),
                      MoveTo(actor, "nowhere"), PlayCard(actor, "gamble-03a")):
            for v in GAME.check(s, wrong):
                yield "refusal", v.text
        GAME.push(s, choose(rng, list(GAME.legal_actions(s))))
        for e in s.log[seen:]:
            yield "log", e.text
        seen = len(s.log)


@pytest.mark.parametrize("seed", [3, 8])
def test_every_sentence_goes_through_the_catalogue(seed: int) -> None:
    # The pseudo-locale brackets every sentence and every game word: a plain English word
    # left in the rendering is a string that skipped translation.
    checked = 0
    for where, text in _playthrough(seed, 400):
        assert type(text) is Text, f"{where} written as a plain string: {text!r}"
        if any(k == "awaiting" for k, _ in text.args):
            continue  # the kernel's prompt descriptions are still English (see README)
        rendered = words(text, PS)
        assert is_pseudo(rendered), rendered
        assert not _plain_words(rendered, text), (where, str(text), rendered)
        # ... and each language has a word for every sentence of the game.
        for lang in (FR, DE):
            assert words(text, lang) != str(text) or text.msgid in {"{deck} {number}"}, (lang, str(text))
        checked += 1
    assert checked > 400


def _snapshot_log(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        (state,) = db.execute("SELECT state FROM snapshots ORDER BY ply DESC LIMIT 1").fetchone()
    return [e["text"] for e in json.loads(state)["log"]]


def test_a_journal_written_in_english_resumes_and_reads_in_german(tmp_path: Path) -> None:
    # Made by data/make_english_journal.py with the code before log lines were structure:
    # 23 actions, snapshots every 5 plies holding the log as English strings.
    path = tmp_path / "journal.sqlite3"
    shutil.copy(OLD_JOURNAL, path)
    english = _snapshot_log(path)
    assert english and all(isinstance(x, str) for x in english)
    journal = Journal.open(path)
    try:
        (game,) = journal.games()
        table = Table.resume(journal, game.key)
        assert table.ply == 23 and table.game_id == "tyranny"
        log = table.state.log
        assert all(type(e.text) is Text for e in log)
        # The same game: the first lines, in English, are the snapshot's own words.
        assert [str(e.text) for e in log][: len(english)] == english
        german = [render(e.text, DE, "tyranny") for e in log]
        assert german[0].startswith("Der Einfluss der Gangster beginnt bei 500.")
        assert all(g != str(e.text) for g, e in zip(german, log))
        # It plays on.
        table.submit(choose(Rng(1), list(table.legal_actions())))
        assert table.ply == 24
        table.close()
    finally:
        journal.close()

"""The catalogues of the converted domains hold every sentence the code marks, translated,
with the msgid's own placeholders: a new player-facing sentence that nobody translated fails
here (CI runs this file). Domains are added to CONVERTED as their code is converted."""
from __future__ import annotations

import string

import pytest

from companion.i18n import catalogs

CONVERTED = ("rules", "tyranny")
SHARE = 0.95  # the bar: each language covers at least 95 % of the messages


def _fields(pattern: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(pattern) if name}


@pytest.mark.parametrize("name", CONVERTED)
@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_every_marked_sentence_is_in_the_catalogue(name: str, lang: str) -> None:
    d = catalogs.domain(name)
    marked = {m.id for m in catalogs.extract(d) if m.id}
    cat = catalogs.read(d, lang)
    held = {m.id for m in cat if m.id}  # a Catalog iterates its live messages (obsolete ones aside)
    missing = sorted(map(str, marked - held))
    assert not missing, f"run `python -m companion.i18n.catalogs update {name}` and translate: {missing}"
    untranslated = [m.id for m in cat if m.id in marked and (m.fuzzy or not (all(m.string) if isinstance(m.string, tuple) else m.string))]
    assert len(untranslated) <= (1 - SHARE) * len(marked), untranslated
    # Stricter than the 95 %: these domains are the pattern for the others.
    assert untranslated == []


@pytest.mark.parametrize("name", CONVERTED)
@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_translations_keep_the_placeholders_of_their_msgid(name: str, lang: str) -> None:
    cat = catalogs.read(catalogs.domain(name), lang)
    wrong = []
    for m in cat:
        if not m.id or not m.string:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        want = _fields(ids[0])
        wrong += [(m.id, s) for s in strings if _fields(s) != want]
    assert wrong == []


def test_the_headers_say_the_translations_are_the_projects_own() -> None:
    for name in CONVERTED:
        for lang in catalogs.TRANSLATED:
            text = catalogs.domain(name).po(lang).read_text(encoding="utf-8")
            assert "project's own" in text.split('msgid ""')[0] and "not the publishers'" in text.split('msgid ""')[0]


def test_french_plurals_follow_cldr() -> None:
    # CLDR's French has a third form for multiples of a million ("1 000 000 de cartes"):
    # the catalogue must carry all three, or gettext falls back to English there.
    cat = catalogs.read(catalogs.domain("tyranny"), "fr")
    assert cat.num_plurals == 3
    plural = [m for m in cat if isinstance(m.id, tuple)]
    assert plural and all(len(m.string) == 3 and all(m.string) for m in plural)

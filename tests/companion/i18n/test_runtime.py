"""companion.i18n: catalogues found per domain, compiled when their .mo is missing, the
pseudo-locale, the language chosen from the environment or a phone's Accept-Language, and
the extraction both by the project's command and by Babel's own ``pybabel``."""
from __future__ import annotations

import gettext
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.i18n import Language, accept_language, is_pseudo, render, system_language
from companion.i18n import catalogs
from companion.i18n.build import compile_tree
from rules.core import Term, t, tn

ROOT = Path(__file__).resolve().parents[3]


def _domain(tmp_path: Path, po_text: str) -> catalogs.Domain:
    d = catalogs.Domain("demo", tmp_path / "locale", (tmp_path,))
    d.po("fr").parent.mkdir(parents=True)
    d.po("fr").write_text(po_text, encoding="utf-8")
    return d


PO = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

msgid "{seat} passes."
msgstr "{seat} passe."

msgid "{n} die"
msgid_plural "{n} dice"
msgstr[0] "{n} dé"
msgstr[1] "{n} dés"
'''


def test_a_missing_mo_is_compiled_from_the_po(tmp_path: Path) -> None:
    d = _domain(tmp_path, PO)
    assert not d.mo("fr").exists()
    tr = catalogs.translations(d, "fr")
    assert tr is not None and tr.gettext("{seat} passes.") == "{seat} passe."
    assert tr.ngettext("{n} die", "{n} dice", 0) == "{n} dé"  # French: 0 is singular
    assert not d.mo("fr").exists()  # compiled in memory: nothing written beside the sources


def test_compile_writes_mo_files_gettext_reads(tmp_path: Path) -> None:
    d = _domain(tmp_path, PO)
    assert compile_tree(tmp_path) == [d.mo("fr")]
    with d.mo("fr").open("rb") as f:
        assert gettext.GNUTranslations(f).ngettext("{n} die", "{n} dice", 3) == "{n} dés"
    assert compile_tree(tmp_path) == []  # up to date: not written again


def test_english_needs_no_catalogue_and_old_strings_pass_through() -> None:
    en = Language("en")
    assert render(t("{seat} passes.", seat="Ann"), en, "rules") == "Ann passes."
    assert render(tn("{n} die", "{n} dice", "n", n=2), en, "rules") == "2 dice"
    assert render("cops-1 rolls 2 to move.", Language("de"), "rules") == "cops-1 rolls 2 to move."


def test_the_pseudo_locale_brackets_every_translated_piece() -> None:
    ps = Language("en-x-pseudo")
    out = render(t("{seat} moves to {tile}.", seat="Ann", tile=Term("Night Market")), ps, "rules")
    assert is_pseudo(out) and "Ann" in out and "[Ñîĝĥţ Màŕķéţ ~~~~~]" in out
    assert len(out) >= 1.4 * len("Ann moves to Night Market.")
    # A string that never went through a catalogue is plain: the test of the screens finds it.
    assert not is_pseudo("Ann moves to Night Market.")


def test_numbers_and_dates_follow_the_locale() -> None:
    import datetime as dt

    when = dt.datetime(2026, 3, 5, 14, 7)
    assert Language("de").datetime(when, "short") == "05.03.26, 14:07"
    assert Language("fr").datetime(when, "short") == "05/03/2026 14:07"
    assert render(t("{n} points.", n=1500), Language("de"), "rules") == "1.500 points."


@pytest.mark.parametrize("env, code", [
    ({"TC_LANG": "fr"}, "fr"), ({"TC_LANG": "en-x-pseudo"}, "en-x-pseudo"), ({"LC_ALL": "de_DE.UTF-8"}, "de"),
    ({"LANG": "C.UTF-8"}, "en"), ({"LANG": "fr_BE.UTF-8", "LC_MESSAGES": "de_AT.UTF-8"}, "de"), ({"TC_LANG": "xx"}, "en"),
])
def test_the_language_comes_from_tc_lang_then_the_system_locale(env: dict[str, str], code: str) -> None:
    assert system_language(env).code == code


def test_a_phone_follows_its_accept_language() -> None:
    # RFC 9110's own example header, 12.5.4: "da, en-gb;q=0.8, en;q=0.7" (no Danish catalogue).
    assert accept_language("da, en-gb;q=0.8, en;q=0.7") == "en"
    assert accept_language("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5") == "fr"
    assert accept_language("de;q=0, fr;q=0.1") == "fr"


def test_the_kernel_domain_extracts_what_the_kernel_marks() -> None:
    found = {m.id for m in catalogs.extract(catalogs.domain("rules")) if m.id}
    assert "Game over: {reason}." in found
    # A game's sentences are its own domain's, never the kernel's.
    assert not any("Capture Roll" in str(m) for m in found)


def test_pybabel_finds_the_same_sentences_through_the_entry_points(tmp_path: Path) -> None:
    pybabel = Path(sys.executable).with_name("pybabel")
    if not pybabel.exists():
        pytest.skip("pybabel is not installed beside this Python")
    out = tmp_path / "rules.pot"
    subprocess.run([str(pybabel), "-q", "extract", "-F", str(ROOT / "babel.cfg"), "-k", "t", "-k", "tn:1,2", "-k", "Term",
                    "-o", str(out), str(ROOT / "rules" / "core")], check=True, cwd=ROOT)
    text = out.read_text(encoding="utf-8")
    assert 'msgid "Game over: {reason}."' in text

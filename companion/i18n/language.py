"""The language a screen speaks, and putting an engine's sentences into it.

A :class:`Language` is a code (``en``, ``fr``, ``de``, or the pseudo-locale
``en-x-pseudo``) with the catalogues of every domain it has loaded and Babel's number
and date formats for its locale. :func:`render` words a :class:`~rules.core.text.Text`
(or a plain string, from a game saved before sentences were structure) in it:

>>> from rules.core import Term, t
>>> line = t("{seat} rolls {value} to move.", seat="Ann", value=4)
>>> render(line, Language("en"), "rules")
'Ann rolls 4 to move.'
>>> render(line, Language("en-x-pseudo"), "rules")
'[Ann ŕôļļš 4 ţô môvé. ~~~~~~~~~~~~]'
>>> render("An old English line.", Language("de"), "rules")
'An old English line.'
>>> Language("fr").number(1234567), Language("de").number(1234567), Language("en").number(1234567)
('1\u202f234\u202f567', '1.234.567', '1,234,567')

A game's sentences are looked up in the game's domain first, then in ``rules`` (the
kernel's sentences appear in every game's log), so the game may word a kernel sentence
its own way.
"""
from __future__ import annotations

import datetime as _dt
import gettext
import locale as _locale
import os
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.dates import format_datetime
from babel.numbers import format_decimal

from rules.core.text import Text

from . import catalogs
from .pseudo import CODE as PSEUDO, PseudoTranslations

# The languages offered in Settings, the setup wizard and on the phones: code → own name.
LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français", "de": "Deutsch"}
ENV = "TC_LANG"


class Language:
    """One language: ``code`` is ``en``, ``fr``, ``de`` or :data:`PSEUDO`. Catalogues are
    loaded the first time a domain is asked for and kept."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.pseudo = code == PSEUDO
        self.locale = Locale.parse("en" if self.pseudo else code.replace("-", "_"))
        self._chains: dict[str, gettext.NullTranslations] = {}

    def __repr__(self) -> str:
        return f"Language({self.code!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Language) and other.code == self.code

    def __hash__(self) -> int:
        return hash(self.code)

    def translations(self, domain: str) -> gettext.NullTranslations:
        """The translator for ``domain``: its catalogue, falling back to the kernel's
        (``rules``), then to the English msgids."""
        chain = self._chains.get(domain)
        if chain is None:
            chain = self._chains[domain] = self._build(domain)
        return chain

    def _build(self, domain: str) -> gettext.NullTranslations:
        if self.pseudo:
            return PseudoTranslations()
        found: list[gettext.NullTranslations] = []
        if self.code != "en":
            for name in dict.fromkeys((domain, "rules")):
                tr = catalogs.translations(catalogs.domain(name), self.code)
                if tr is not None:
                    found.append(tr)
        return _Chain(found)

    def gettext(self, domain: str, message: str) -> str:
        return self.translations(domain).gettext(message)

    def number(self, n: int | float) -> str:
        """``n`` as this language writes numbers (Babel, CLDR)."""
        return format_decimal(n, locale=self.locale)

    def datetime(self, when: _dt.datetime, format: str = "medium") -> str:
        """A date and time as this language writes them (Babel, CLDR)."""
        return format_datetime(when, format=format, locale=self.locale)


class _Chain(gettext.NullTranslations):
    """Catalogues asked in turn: the first that translates a message wins. (Not gettext's
    ``add_fallback``, which would change the cached catalogues every Language shares.)"""

    def __init__(self, parts: list[gettext.NullTranslations]) -> None:
        super().__init__()
        self.parts = parts

    def gettext(self, message: str) -> str:
        for tr in self.parts:
            found = tr.gettext(message)
            if found != message:
                return found
        return message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        for tr in self.parts:
            found = tr.ngettext(msgid1, msgid2, n)
            if found not in (msgid1, msgid2):
                return found
        return msgid1 if n == 1 else msgid2


def render(text: "Text | str", language: Language, domain: str) -> str:
    """``text`` in ``language``: a :class:`~rules.core.text.Text` worded through
    ``domain``'s catalogue (numbers in the language's format), a plain string as it is."""
    if type(text) is str:
        return text
    if not isinstance(text, Text):
        return str(text)
    return text.render(language.translations(domain), language.number)


_CURRENT: Language | None = None


def current() -> Language:
    """The language the app's screens speak now: the one :func:`choose` set, else
    ``TC_LANG``'s, else English. (Not yet the system locale: until the app's own words
    are in its catalogue, a French system would get half-French screens; Settings and the
    setup wizard will offer the choice, defaulting to :func:`system_language`.)

    >>> choose("de").code, current().code
    ('de', 'de')
    >>> _ = choose("en")
    """
    global _CURRENT
    if _CURRENT is None:
        _CURRENT = system_language({ENV: os.environ[ENV]}) if os.environ.get(ENV) else Language("en")
    return _CURRENT


def choose(code: str) -> Language:
    """Make ``code`` the app's language (a phone page keeps its own, from its
    Accept-Language or its switch)."""
    global _CURRENT
    _CURRENT = Language(code) if code == PSEUDO else Language(best_match([code]))
    return _CURRENT


def system_language(env: "dict[str, str] | os._Environ[str] | None" = None) -> Language:
    """The language to start in: ``TC_LANG`` when set, else the system's locale when the
    project has catalogues for it, else English.

    >>> system_language({"TC_LANG": "de"})
    Language('de')
    >>> system_language({"LANG": "fr_CA.UTF-8"})
    Language('fr')
    >>> system_language({"LANG": "ja_JP.UTF-8"})
    Language('en')
    """
    env = os.environ if env is None else env
    chosen = env.get(ENV, "").strip()
    if chosen:
        return Language(chosen) if chosen == PSEUDO else Language(best_match([chosen]))
    wanted = [env[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(k)]
    if not wanted and env is os.environ:
        code = _locale.getlocale()[0]
        wanted = [code] if code else []
    return Language(best_match(wanted))


def best_match(wanted: "list[str] | tuple[str, ...]") -> str:
    """The first of ``wanted`` (locale names or Accept-Language tags, best first) the
    project has a catalogue for, by its language; English when none.

    >>> best_match(["de-AT", "en"]), best_match(["pt_BR"]), best_match([])
    ('de', 'en', 'en')
    """
    for w in wanted:
        tag = w.split(".")[0].split("@")[0].strip()
        if not tag or tag in ("C", "POSIX"):
            continue
        try:
            lang = Locale.parse(tag.replace("-", "_")).language
        except (ValueError, UnknownLocaleError):
            continue
        if lang in LANGUAGES:
            return lang
    return "en"


def accept_language(header: str) -> str:
    """The language for a phone page from its ``Accept-Language`` header (RFC 9110
    weights), or English.

    >>> accept_language("en-GB;q=0.5, de-CH, fr;q=0.8")
    'de'
    >>> accept_language("")
    'en'
    """
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if tag and q > 0:
            ranked.append((-q, i, tag))
    return best_match([tag for _q, _i, tag in sorted(ranked)])

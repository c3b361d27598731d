"""Sentences the engines say, kept as structure so any language can word them later.

An engine never writes English into its log or its refusals: it writes a :class:`Text`,
the English sentence with ``{named}`` placeholders (gettext's *msgid*) and the values for
them. The journal and the snapshots store that structure, so a game played in English
reads in German once the screen is switched to German, and a new catalogue applies to old
games too. ``str(text)`` is the English sentence, worked out only when asked for (an
engine writes a log line on nearly every action; building a ``Text`` formats nothing).

Mark a sentence with :func:`t` (or :func:`tn` when a number decides between singular and
plural); Babel's extractor is told these names (``babel.cfg``), so the catalogues list
every marked sentence:

>>> line = t("{seat} rolls {value} to move.", seat="cop-1", value=4)
>>> str(line)
'cop-1 rolls 4 to move.'
>>> line.msgid, dict(line.args)
('{seat} rolls {value} to move.', {'seat': 'cop-1', 'value': 4})
>>> str(tn("{holder} holds {n} card.", "{holder} holds {n} cards.", "n", holder="Ann", n=2))
'Ann holds 2 cards.'

A value is a number, a player's name or a seat id (plain ``str``: never translated), a
:class:`Term` (a word of the game, such as a tile's name, that its catalogue translates),
or another ``Text`` (a reason inside a sentence):

>>> str(t("{seat} moves to {tile}.", seat="Ann", tile=Term("Night Market")))
'Ann moves to Night Market.'
>>> str(t("Game over: {reason}.", reason=t("the cops win")))
'Game over: the cops win.'

:meth:`Text.render` words it through any translator with gettext's ``gettext`` and
``ngettext`` (a :class:`gettext.GNUTranslations`); ``companion.i18n`` picks the catalogue.

>>> class Pirate:
...     def gettext(self, m): return {"{seat} rolls {value} to move.": "{seat} throws {value}, arr!"}.get(m, m)
...     def ngettext(self, s, p, n): return s if n == 1 else p
>>> line.render(Pirate())
'cop-1 throws 4, arr!'

A translation whose placeholders do not match the msgid's (a translator's slip) gives the
English sentence rather than losing the line.

Placeholders are ``str.format`` fields, so a literal brace is written twice (``{{``), and
a number may carry a format (``{delta:+d}``).
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple, Protocol, Union

from .jsondata import serializable


class Translator(Protocol):
    """What :meth:`Text.render` asks of a catalogue: gettext's two lookups."""

    def gettext(self, message: str) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


@serializable("core.Term")
class Term(NamedTuple):
    """A word of the game that a catalogue translates: a tile's, a card's or a faction's
    name. ``msgid`` is the English word, as the game's data or code spells it. A name the
    catalogue does not hold (a table's own board) stays as it is.

    >>> str(Term("The Docks"))
    'The Docks'
    """

    msgid: str

    def __str__(self) -> str:
        return self.msgid


Value = Union[int, str, Term, "Text"]


@serializable("core.Text")
class Text(NamedTuple):
    """One sentence: its English ``msgid`` with ``{named}`` placeholders, and ``args``, the
    ``(name, value)`` pairs for them. A plural sentence has ``plural`` (the English plural
    msgid) and ``count``, the name of the argument whose number picks the form.

    A NamedTuple, so it is cheap to build (a log line is written on nearly every action)
    and compares by value; registered with ``@serializable`` so states and journals store
    it as data, not as English.
    """

    msgid: str
    args: tuple[tuple[str, Any], ...] = ()
    plural: str | None = None
    count: str | None = None

    def __str__(self) -> str:
        return self.render()

    def english(self) -> str:
        """The sentence in English, with no catalogue (what ``str()`` gives)."""
        return self.render()

    def render(self, translator: Translator | None = None, number: Callable[[int], str] | None = None) -> str:
        """The sentence worded by ``translator`` (English when ``None``): its msgid
        translated, each :class:`Term` translated by the same catalogue, each inner
        ``Text`` rendered the same way; ``number`` formats whole numbers for the locale
        (only where the placeholder has no format of its own).

        A sentence that opens with a term gets a capital, since a translation may put an
        article before the name ("la Tour", not "La Tour", inside a sentence)."""
        values = {name: _word(v, translator, number) for name, v in self.args}
        if self.plural is None:
            pattern = self.msgid if translator is None else translator.gettext(self.msgid)
        else:
            n = _count(self)
            if translator is None:
                pattern = self.msgid if n == 1 else self.plural
            else:
                pattern = translator.ngettext(self.msgid, self.plural, n)
        try:
            out = pattern.format_map(values)
        except (KeyError, IndexError, ValueError):
            # A translation whose placeholders do not match its msgid (a translator's
            # slip) must not lose the line: the English one is still right.
            if translator is None:
                raise
            return self.render(None, number)
        if translator is not None and out and pattern.startswith("{") and isinstance(self.args_dict().get(_first_field(pattern)), Term):
            out = out[0].upper() + out[1:]
        return out

    def args_dict(self) -> dict[str, Any]:
        return dict(self.args)


def t(msgid: str, **args: Any) -> Text:
    """A sentence to say: ``msgid`` is its English words with ``{named}`` placeholders.

    >>> t("{seat} passes.", seat="Bob")
    Text(msgid='{seat} passes.', args=(('seat', 'Bob'),), plural=None, count=None)
    """
    return Text(msgid, tuple(args.items())) if args else Text(msgid)


def tn(singular: str, plural: str, count: str, **args: Any) -> Text:
    """A sentence with a singular and a plural form; ``args[count]`` is the number that
    picks one (gettext's plural rules pick it per language).

    >>> str(tn("{n} die", "{n} dice", "n", n=1)), str(tn("{n} die", "{n} dice", "n", n=3))
    ('1 die', '3 dice')
    """
    return Text(singular, tuple(args.items()), plural, count)


def english(text: "Text | str") -> str:
    """The English words of a log line or a message, whether it was stored as a ``Text``
    or (a game saved before sentences were structure) as a plain string.

    >>> english("Ann passes."), english(t("{seat} passes.", seat="Ann"))
    ('Ann passes.', 'Ann passes.')
    """
    return text if type(text) is str else str(text)


def _word(value: Any, translator: Translator | None, number: Callable[[int], str] | None) -> Any:
    cls = type(value)
    if cls is Term:
        return value.msgid if translator is None else translator.gettext(value.msgid)
    if cls is Text:
        return value.render(translator, number)
    if cls is int and number is not None:
        return _Number(value, number)
    return value


class _Number(int):
    """A whole number that formats for the locale under a bare ``{n}`` and as itself under
    a format of its own (``{delta:+d}``)."""

    _fmt: Callable[[int], str]

    def __new__(cls, value: int, fmt: Callable[[int], str]) -> "_Number":
        self = super().__new__(cls, value)
        self._fmt = fmt
        return self

    def __format__(self, spec: str) -> str:
        return self._fmt(int(self)) if not spec else format(int(self), spec)


def _count(text: Text) -> int:
    for name, v in text.args:
        if name == text.count:
            return int(v)
    raise KeyError(f"plural sentence {text.msgid!r} has no argument {text.count!r}")


def _first_field(pattern: str) -> str:
    end = pattern.find("}")
    name = pattern[1:end] if end > 0 else ""
    return name.split(":", 1)[0].split("!", 1)[0]

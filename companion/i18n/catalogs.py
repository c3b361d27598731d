"""Where each domain's catalogues live, and the translator's tools: extract the marked
sentences, update the ``.po`` files, compile the ``.mo`` files.

Domains (one gettext domain per layer and per game):

* ``companion``: the app's own words, catalogue under ``companion/locale/``;
* ``rules``: the kernel's sentences (rules/core, the rules package's shared modules),
  under ``rules/locale/``;
* one per game, named by its id: the sentences of its engine and of its screens, under its
  engine's folder (``<game folder>/locale/``, the folder its plug-in card is found in), so
  a game shipped as a package of its own brings its catalogues along.

A catalogue is ``<locale dir>/<lang>/LC_MESSAGES/<domain>.po``. The ``.mo`` files are
built from them at install time (``python -m companion.i18n.catalogs compile``, run by
``./dev`` and by the package build) and never committed; a missing or stale ``.mo`` is
compiled from its ``.po`` in memory when first needed.

Extraction follows ``babel.cfg`` at the project's root (Python and ``.kv`` sources) plus
a domain's own ``<locale dir>/babel.cfg`` for data files whose words its catalogue must
hold (a game's board names, card texts). The marker names are :data:`KEYWORDS`.

    python -m companion.i18n.catalogs extract [DOMAIN...]   # write <locale dir>/<domain>.pot
    python -m companion.i18n.catalogs update [DOMAIN...]    # merge new sentences into every .po
    python -m companion.i18n.catalogs compile [DOMAIN...]   # build the .mo files
    python -m companion.i18n.catalogs stats [DOMAIN...]     # how much of each is translated
"""
from __future__ import annotations

import argparse
import gettext
import importlib.util
import io
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from babel.util import pathmatch

from ..errors import CompanionError
from . import extractors

# gettext's usual names, plus the engines' markers (rules.core.text): t(msgid, **args),
# tn(singular, plural, count, **args), and Term(msgid) for a word of a game.
KEYWORDS: dict[str, Any] = {**DEFAULT_KEYWORDS, "t": None, "tn": (1, 2), "Term": None}
COMMENT_TAGS = ("TRANSLATORS:",)
# Languages the project ships catalogues for (English is the msgids themselves).
TRANSLATED = ("fr", "de")

_ROOT = Path(__file__).resolve().parents[2]
_METHODS: dict[str, Callable[..., Any] | str] = {
    "python": "python",
    "python_calls": extractors.extract_python_calls,
    "kv": extractors.extract_kv,
    "json_terms": extractors.extract_json_terms,
}
HEADER = """\
Tabletop Companion: the {what}, {language}.
These translations are the Tabletop Companion project's own, made for the app; they are
not the publishers'. A game's official {language} names are used only where a public
source shows them, cited beside the entry; every other name is the project's own.
Distributed under the project's licence (MIT)."""


class CatalogError(CompanionError):
    """A domain that does not exist, or a catalogue that cannot be read."""

    code = "catalog-error"


@dataclass(frozen=True)
class Domain:
    """One gettext domain: its ``name``, the folder of its catalogues, the folders its
    sentences are extracted from, and folders inside those that belong to other domains."""

    name: str
    locale_dir: Path
    sources: tuple[Path, ...]
    skip: tuple[Path, ...] = ()

    def po(self, lang: str) -> Path:
        return self.locale_dir / lang / "LC_MESSAGES" / f"{self.name}.po"

    def mo(self, lang: str) -> Path:
        return self.po(lang).with_suffix(".mo")


def _package_folder(module: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent


def _games() -> list[Any]:
    from rules import registry

    return [g for g in registry.catalog() if g.folder is not None]


def _ui_folder(plugin: Any) -> Path | None:
    return _package_folder(plugin.ui) if plugin.ui else None


def domain(name: str) -> Domain:
    """The domain called ``name``: ``companion``, ``rules`` or a game's id.

    >>> domain("rules").locale_dir.relative_to(_ROOT).as_posix()
    'rules/locale'
    """
    games = _games()
    if name == "companion":
        own = _ROOT / "companion"
        return Domain(name, own / "locale", (own,), tuple(f for g in games if (f := _ui_folder(g)) is not None))
    if name == "rules":
        own = _ROOT / "rules"
        return Domain(name, own / "locale", (own,), tuple(g.folder for g in games))
    for g in games:
        if g.id == name:
            ui = _ui_folder(g)
            return Domain(name, g.folder / "locale", (g.folder,) + ((ui,) if ui is not None else ()))
    raise CatalogError(f"no translation domain {name!r}: it is 'companion', 'rules' or an installed game's id")


def domains() -> list[Domain]:
    """Every domain that has catalogues: the app's, the kernel's, and each installed game
    whose folder holds a ``locale`` folder."""
    out = [domain("companion"), domain("rules")]
    out += [domain(g.id) for g in _games() if (g.folder / "locale").is_dir()]
    return out


# ------------------------------------------------------------------ extraction

def _mapping(path: Path) -> tuple[list[tuple[str, str]], dict[str, dict[str, str]]]:
    if not path.is_file():
        return [], {}
    with path.open(encoding="utf-8") as f:
        return parse_mapping_cfg(f, filename=str(path))


def _files(d: Domain) -> Iterator[tuple[Path, str, dict[str, str]]]:
    """Each file of ``d`` to extract, with its method and options."""
    root_map, root_opts = _mapping(_ROOT / "babel.cfg")
    own_map, own_opts = _mapping(d.locale_dir / "babel.cfg")
    for i, src in enumerate(d.sources):
        maps = [(root_map, root_opts)] + ([(own_map, own_opts)] if i == 0 else [])
        for path in sorted(src.rglob("*")):
            if not path.is_file() or any(s == path or s in path.parents for s in d.skip):
                continue
            if "__pycache__" in path.parts or "locale" in path.relative_to(src).parts[:1]:
                continue
            rel = path.relative_to(src).as_posix()
            for mapping, options in maps:
                hit = next(((p, m) for p, m in mapping if pathmatch(p, rel)), None)
                if hit is not None:
                    if hit[1] != "ignore":
                        yield path, hit[1], options.get(hit[0], {})
                    break


def extract(d: Domain) -> Catalog:
    """Every sentence marked in ``d``'s sources and every word its data files name, as a
    catalogue template (in memory)."""
    cat = Catalog(domain=d.name, project="Tabletop Companion", charset="utf-8")
    for path, method, options in _files(d):
        func = _METHODS.get(method, method)
        for line, msg, comments, _context in extract_from_file(func, str(path), keywords=KEYWORDS,
                                                               comment_tags=COMMENT_TAGS, options=options,
                                                               strip_comment_tags=False):
            cat.add(msg, None, [(path.relative_to(_ROOT).as_posix() if _ROOT in path.parents else path.name, line)],
                    auto_comments=comments)
    return cat


# ------------------------------------------------------------------ catalogues

def read(d: Domain, lang: str) -> Catalog:
    po = d.po(lang)
    try:
        with po.open("rb") as f:
            return read_po(f, locale=lang, domain=d.name)
    except OSError as e:
        raise CatalogError(f"cannot read the {lang} catalogue of {d.name}: {e}") from None


def update(d: Domain, langs: Iterable[str] = TRANSLATED) -> list[Path]:
    """Merge the sentences extracted now into each language's ``.po`` (new ones empty,
    vanished ones kept as obsolete, changed ones fuzzy); create a missing ``.po``."""
    template = extract(d)
    written = []
    for lang in langs:
        po = d.po(lang)
        if po.is_file():
            cat = read(d, lang)
            cat.update(template)
        else:
            cat = Catalog(locale=lang, domain=d.name, project="Tabletop Companion", charset="utf-8")
            cat.update(template)
        cat.header_comment = "\n".join("# " + line for line in HEADER.format(what=_what(d), language=_language_name(lang)).splitlines())
        po.parent.mkdir(parents=True, exist_ok=True)
        with po.open("wb") as f:
            write_po(f, cat, width=100, sort_output=False, include_lineno=False)
        written.append(po)
    return written


def compile_mo(d: Domain, langs: Iterable[str] = TRANSLATED) -> list[Path]:
    """Build ``d``'s ``.mo`` files from its ``.po`` files (fuzzy entries left out)."""
    out = []
    for lang in langs:
        if not d.po(lang).is_file():
            continue
        with d.mo(lang).open("wb") as f:
            write_mo(f, read(d, lang))
        out.append(d.mo(lang))
    return out


_COMPILED: dict[tuple[str, str], gettext.NullTranslations] = {}


def translations(d: Domain, lang: str) -> gettext.NullTranslations | None:
    """``d``'s catalogue for ``lang`` (``None`` if it has none): its ``.mo`` when built and
    newer than its ``.po``, otherwise compiled from the ``.po`` in memory, once."""
    po, mo = d.po(lang), d.mo(lang)
    if not po.is_file() and not mo.is_file():
        return None
    key = (str(po), lang)
    if key in _COMPILED:
        return _COMPILED[key]
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            found: gettext.NullTranslations = gettext.GNUTranslations(f)
    else:
        buf = io.BytesIO()
        write_mo(buf, read(d, lang))
        buf.seek(0)
        found = gettext.GNUTranslations(buf)
    _COMPILED[key] = found
    return found


def stats(d: Domain, lang: str) -> tuple[int, int]:
    """(translated, total) sentences of ``d``'s ``lang`` catalogue (fuzzy ones untranslated)."""
    cat = read(d, lang)
    msgs = [m for m in cat if m.id]
    done = [m for m in msgs if not m.fuzzy and (all(m.string) if isinstance(m.string, tuple) else m.string)]
    return len(done), len(msgs)


def _what(d: Domain) -> str:
    return {"companion": "app's words", "rules": "rule engines' shared sentences"}.get(d.name, f"words of the game '{d.name}'")


def _language_name(lang: str) -> str:
    from babel import Locale

    return Locale.parse(lang).get_display_name("en") or lang


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.i18n.catalogs", description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("extract", "update", "compile", "stats"))
    parser.add_argument("domains", nargs="*", help="companion, rules or a game's id (default: every domain)")
    args = parser.parse_args(argv)
    try:
        chosen = [domain(n) for n in args.domains] if args.domains else domains()
        for d in chosen:
            if args.command == "extract":
                pot = d.locale_dir / f"{d.name}.pot"
                pot.parent.mkdir(parents=True, exist_ok=True)
                with pot.open("wb") as f:
                    write_po(f, extract(d), width=100)
                print(f"{pot}")
            elif args.command == "update":
                for p in update(d):
                    print(p)
            elif args.command == "compile":
                for p in compile_mo(d):
                    print(p)
            else:
                for lang in TRANSLATED:
                    if d.po(lang).is_file():
                        done, total = stats(d, lang)
                        print(f"{d.name} {lang}: {done}/{total}")
    except CompanionError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

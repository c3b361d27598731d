"""Load the ``.kv`` file that sits beside a module, once (Kivy's Builder warns and
duplicates rules when a file is loaded twice), from a cache of Kivy's own parse.

Kivy parses a .kv file and compiles each of its expressions on every start; for the
table screen's files that was ~15 % of the app's own work before its first frame. As
Python keeps a module's bytecode in a ``.pyc``, the app keeps each file's parse — Kivy's
``Parser``, its rules with their compiled expressions — in a cache file, and the next
start hands it to ``Builder.load_string`` in place of parsing the text again. Everything
after the parse (registering the rules, the dynamic classes, applying them to widgets)
is Kivy's as before.

The cache is one file per .kv file, named from the file's path, Kivy's version and the
interpreter's bytecode version; it holds the text's digest, so an edited .kv file is
parsed again (and its cache rewritten). Where: ``TC_KV_CACHE``, else the user's cache
folder (platformdirs), ``kv/`` in it; ``TC_KV_CACHE=off`` parses every time. A cache that
cannot be read or written is ignored: the file is parsed as Kivy always did. The files are
pickles the app wrote itself into the user's own folder (as Python trusts its ``.pyc``);
tests/ui/test_kv_cache.py checks that every shipped .kv file reads back as Kivy's parse.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> kv = Path(folder, "demo_rule.kv")
>>> _ = kv.write_text("<DemoRuleLabel@Label>:\\n    text: 'from ' + 'kv'\\n", encoding="utf-8")
>>> before = os.environ.get(CACHE_ENV)
>>> os.environ[CACHE_ENV] = os.path.join(folder, "cache")
>>> parse_of(str(kv), kv.read_text(encoding="utf-8")) is None   # nothing cached yet
True
>>> load_kv(str(kv), "demo_rule.kv")
>>> from kivy.factory import Factory
>>> Factory.DemoRuleLabel().text
'from kv'
>>> parse_of(str(kv), kv.read_text(encoding="utf-8")).dynamic_classes
{'DemoRuleLabel': 'Label'}
>>> _ = os.environ.pop(CACHE_ENV) if before is None else os.environ.update({CACHE_ENV: before})
"""
from __future__ import annotations

import copyreg
import hashlib
import importlib.util
import logging
import marshal
import os
import pickle
import tempfile
import types
from pathlib import Path
from typing import Any

import kivy
import kivy.lang.builder as kivy_builder
from kivy.lang import Builder
from kivy.lang.parser import Parser

log = logging.getLogger("companion.ui.kvload")

CACHE_ENV = "TC_KV_CACHE"
_FORMAT = 1  # of the cache files: changed when what they hold changes

_LOADED: set[str] = set()


def load_kv(module_file: str, name: str | None = None) -> None:
    """Load ``<module>.kv`` (or ``name``) from the folder of ``module_file``."""
    path = Path(module_file).with_suffix(".kv") if name is None else Path(module_file).parent / name
    key = str(path.resolve())
    if key in _LOADED:
        return
    _LOADED.add(key)
    text = Path(key).read_text(encoding="utf-8")
    parser = parse_of(key, text)
    if parser is not None:
        parser.execute_directives()  # its ``#:import`` names, as a parse would have set them
    else:
        parser = Parser(content=text, filename=key)
        _keep(key, text, parser)
    _load_parsed(key, text, parser)


def _load_parsed(key: str, text: str, parser: Parser) -> None:
    """``Builder.load_string(text)`` (what ``Builder.load_file`` does with the file's text),
    with ``parser`` standing for the parse Kivy would make of it."""
    # load_string makes one Parser of the text; for this call it gets ours. Kivy's Builder
    # is used from one thread (the UI thread, importing the screens), so nothing else
    # parses meanwhile.
    parse = kivy_builder.Parser
    kivy_builder.Parser = lambda **_kw: parser
    try:
        Builder.load_string(text, filename=key)
    finally:
        kivy_builder.Parser = parse


def _cache_file(key: str) -> Path | None:
    folder = os.environ.get(CACHE_ENV, "")
    if folder.lower() == "off":
        return None
    if not folder:
        from platformdirs import user_cache_dir

        folder = os.path.join(user_cache_dir("tabletop-companion", appauthor=False), "kv")
    name = hashlib.sha256("\0".join((key, kivy.__version__, importlib.util.MAGIC_NUMBER.hex(), str(_FORMAT)))
                          .encode("utf-8")).hexdigest()[:32]
    return Path(folder, name + ".pickle")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_of(key: str, text: str) -> Parser | None:
    """The cached parse of the .kv file ``key`` whose text is ``text``, or None (none kept,
    kept for another text, unreadable)."""
    path = _cache_file(key)
    if path is None or not path.is_file():
        return None
    try:
        with path.open("rb") as f:
            digest, parser = pickle.load(f)
    except Exception:  # damaged or from another Kivy: parse the text as Kivy always did
        log.debug("kv cache %s unreadable", path, exc_info=True)
        return None
    return parser if digest == _digest(text) and isinstance(parser, Parser) else None


def _keep(key: str, text: str, parser: Parser) -> None:
    """Write the parse of ``key`` to its cache file (whole or not at all)."""
    path = _cache_file(key)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        pickler = _pickler_of_code()
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                pickler(f).dump((_digest(text), parser))
            os.replace(tmp, path)  # another process starting at once writes the same bytes
        except BaseException:
            os.unlink(tmp)
            raise
    except Exception:  # a read-only or full disk: the next start parses again
        log.debug("kv cache %s not written", path, exc_info=True)


def _pickler_of_code() -> Any:
    """A pickler that writes the compiled expressions (code objects) as ``marshal`` does
    for a ``.pyc``; loading them needs nothing registered."""

    class CodePickler(pickle.Pickler):
        dispatch_table = copyreg.dispatch_table.copy()
        dispatch_table[types.CodeType] = lambda code: (marshal.loads, (marshal.dumps(code),))

    return CodePickler

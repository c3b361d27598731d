"""Babel extractors for the project's own file kinds, registered in ``pyproject.toml``
(``babel.extractors``: ``python_calls``, ``kv``, ``json_terms``) so ``pybabel extract -F
babel.cfg`` finds them too.

``python_calls``: the marked calls of a Python file, read from its syntax tree. Babel's own
Python extractor reads tokens, and takes a subscript of a variable named like a marker
(``t["ply"]``) for a call; a syntax tree cannot. A comment starting ``TRANSLATORS:`` on the
lines just above a call goes to the translator.

>>> import io
>>> src = b'row = {"ply": t["ply"]}\\n# TRANSLATORS: a seat id, then a number\\nline = t("{seat} rolls {n}.", seat=s, n=4)\\n'
>>> list(extract_python_calls(io.BytesIO(src), ["t", "tn"], ["TRANSLATORS:"], {}))
[(3, 't', '{seat} rolls {n}.', ['TRANSLATORS: a seat id, then a number'])]
>>> list(extract_python_calls(io.BytesIO(b'tn("{n} die", "{n} dice", "n", n=k)'), ["tn"], [], {}))
[(1, 'tn', ('{n} die', '{n} dice', 'n'), [])]

Like Babel's, it gives every positional argument (``None`` where it is not a literal);
Babel keeps those the keyword's spec names (``tn:1,2``).

``kv``: a Kivy language file's property values are Python expressions; each is handed to
Babel's Python extractor, so ``text: _("Start")`` in a ``.kv`` file is found like the same
call in a ``.py`` file, at its own line.

>>> import io
>>> kv = b'<Home>:\\n    Button:\\n        text: _("Start a game")\\n        on_press: app.go()\\n'
>>> [(line, msg) for line, _f, msg, _c in extract_kv(io.BytesIO(kv), {"_": None}, [], {})]
[(3, 'Start a game')]

``json_terms``: the words of a game's data file a catalogue must translate (tile names,
card texts), every string value under the keys the mapping names (``keys = name text``).

>>> data = b'{"tiers": {"outer": [{"id": "o-docks", "name": "The Docks"}]}, "name": "Default board"}'
>>> [msg for _l, _f, msg, _c in extract_json_terms(io.BytesIO(data), {}, [], {"keys": "name"})]
['The Docks', 'Default board']
"""
from __future__ import annotations

import ast
import io
import json
import re
from typing import IO, Any, Collection, Iterator, Mapping

from babel.messages.extract import extract_python

Extracted = tuple[int, str | None, Any, list[str]]

# "    text: expression" (a property of a widget rule); the value may continue on indented
# lines, which Python's extractor reads as one expression inside brackets anyway.
_PROPERTY = re.compile(rb"^(\s*)([A-Za-z_][\w.]*)\s*:\s*(\S.*)$")


def extract_python_calls(fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str],
                         options: Mapping[str, Any]) -> Iterator[Extracted]:
    source = fileobj.read()
    lines = source.decode(options.get("encoding", "utf-8")).splitlines()
    tree = ast.parse(source)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in keywords]
    for call in sorted(calls, key=lambda c: (c.lineno, c.col_offset)):
        strings = tuple(a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in call.args)
        if not strings or strings[0] is None:
            continue  # no literal: nothing a catalogue can hold
        yield call.lineno, call.func.id, strings[0] if len(strings) == 1 else strings, _comments_above(lines, call.lineno, comment_tags)


def _comments_above(lines: list[str], lineno: int, tags: Collection[str]) -> list[str]:
    found: list[str] = []
    i = lineno - 2
    while i >= 0 and lines[i].lstrip().startswith("#"):
        found.insert(0, lines[i].lstrip()[1:].strip())
        i -= 1
    for k, text in enumerate(found):
        if any(text.startswith(tag) for tag in tags):
            return [" ".join(found[k:])]
    return []


def extract_kv(fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str],
               options: Mapping[str, Any]) -> Iterator[Extracted]:
    for number, raw in enumerate(fileobj.read().splitlines(), start=1):
        m = _PROPERTY.match(raw)
        if m is None or raw.lstrip().startswith((b"#", b"<", b"[")):
            continue
        for line, funcname, messages, comments in extract_python(io.BytesIO(m.group(3)), keywords, comment_tags, options):
            yield number + line - 1, funcname, messages, comments


def extract_json_terms(fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str],
                       options: Mapping[str, Any]) -> Iterator[Extracted]:
    keys = set(str(options.get("keys", "name")).split())
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k in keys and isinstance(v, str) and v:
                    found.append(v)
                else:
                    walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(json.load(fileobj))
    # JSON keeps no line numbers once read: each word is listed once, at line 1.
    for word in dict.fromkeys(found):
        yield 1, None, word, []

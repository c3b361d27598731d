"""The .kv parse cache (companion/ui/kvload.py): for every .kv file the app ships, the parse
read back from the cache is Kivy's own parse of it (rules, selectors, values, compiled
expressions), an edited or damaged file is parsed again, and a start with a warm cache
builds its widgets without Kivy parsing the text."""
from __future__ import annotations

import doctest
import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

from kivy.lang.parser import Parser

from companion.ui import kvload

ROOT = Path(__file__).resolve().parents[2]
KV_FILES = sorted((ROOT / "companion" / "ui").rglob("*.kv"))


CODE_FIELDS = ("co_code", "co_consts", "co_names", "co_varnames", "co_freevars", "co_cellvars", "co_filename",
               "co_name", "co_qualname", "co_firstlineno", "co_linetable", "co_exceptiontable", "co_flags",
               "co_argcount", "co_posonlyargcount", "co_kwonlyargcount", "co_stacksize")


def plain(obj: Any, depth: int = 0) -> Any:
    """A parse as plain data: every slot of Kivy's parser objects, compiled expressions
    field by field, the parser a rule belongs to by its file name."""
    assert depth < 60
    if obj is None or isinstance(obj, (str, int, float, bool, bytes)):
        return obj
    if isinstance(obj, types.CodeType):  # field by field (marshal's bytes depend on reference counts)
        return ("code", *(plain(getattr(obj, f), depth + 1) for f in CODE_FIELDS))
    if isinstance(obj, Parser):
        return ("parser", obj.filename)
    if isinstance(obj, (list, tuple)):
        return [plain(x, depth + 1) for x in obj]
    if isinstance(obj, dict):
        return {k: plain(v, depth + 1) for k, v in obj.items()}
    slots = [s for cls in type(obj).__mro__ for s in getattr(cls, "__slots__", ())]
    fields = {s: getattr(obj, s) for s in slots if hasattr(obj, s)} if slots else dict(vars(obj))
    return (type(obj).__name__, {k: plain(v, depth + 1) for k, v in fields.items()})


def parser_tree(p: Parser) -> Any:
    return {s: plain(getattr(p, s)) for s in Parser.__slots__}


def test_doctests():
    assert doctest.testmod(kvload).failed == 0


def test_every_kv_file_reads_back_as_kivys_own_parse(tmp_path, monkeypatch):
    monkeypatch.setenv(kvload.CACHE_ENV, str(tmp_path))
    assert len(KV_FILES) >= 20  # the shared widgets, the screens and every game's
    for path in KV_FILES:
        key, text = str(path.resolve()), path.read_text(encoding="utf-8")
        fresh = Parser(content=text, filename=key)
        kvload._keep(key, text, fresh)
        cached = kvload.parse_of(key, text)
        assert cached is not None and cached is not fresh, path
        assert parser_tree(cached) == parser_tree(fresh), path
        assert cached.rules, path  # the comparison saw rules, not two empty parses


def test_an_edited_or_damaged_file_is_parsed_again(tmp_path, monkeypatch):
    monkeypatch.setenv(kvload.CACHE_ENV, str(tmp_path / "cache"))
    path = ROOT / "companion" / "ui" / "widgets" / "banner.kv"
    key, text = str(path.resolve()), path.read_text(encoding="utf-8")
    kvload._keep(key, text, Parser(content=text, filename=key))
    assert kvload.parse_of(key, text) is not None
    assert kvload.parse_of(key, text + "\n# edited\n") is None  # another text: not its parse
    cache_file = kvload._cache_file(key)
    assert cache_file is not None
    cache_file.write_bytes(cache_file.read_bytes()[:100])  # cut short
    assert kvload.parse_of(key, text) is None


def test_off_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv(kvload.CACHE_ENV, "off")
    path = ROOT / "companion" / "ui" / "widgets" / "banner.kv"
    key, text = str(path.resolve()), path.read_text(encoding="utf-8")
    kvload._keep(key, text, Parser(content=text, filename=key))
    assert kvload.parse_of(key, text) is None and kvload._cache_file(key) is None


LOAD = """
import sys
from kivy.lang import parser
if sys.argv[1] == "warm":
    parse = parser.Parser.parse
    def refuse(self, content):  # Kivy's own rules (style.kv, its widgets') are parsed as always
        if str(self.filename).endswith("rule.kv"):
            raise AssertionError("Kivy parsed the text of rule.kv")
        return parse(self, content)
    parser.Parser.parse = refuse
from companion.ui.kvload import load_kv
load_kv(sys.argv[2], "rule.kv")
from kivy.factory import Factory
w = Factory.CachedRuleBox()
print(w.orientation, w.children[0].text, w.children[0].font_size > 0)
"""


def test_a_second_start_builds_from_the_cache_without_parsing(tmp_path):
    (tmp_path / "rule.kv").write_text(
        "#:import dp kivy.metrics.dp\n"
        "<CachedRuleBox@BoxLayout>:\n"
        "    orientation: 'vertical'\n"
        "    Label:\n"
        "        text: 'seat ' + str(2 + 1)\n"
        "        font_size: dp(14)\n", encoding="utf-8")
    env = dict(os.environ, KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_HOME=str(tmp_path / "kivy"),
               PYTHONPATH=str(ROOT), **{kvload.CACHE_ENV: str(tmp_path / "cache")})
    runs = {}
    for phase in ("cold", "warm"):
        out = subprocess.run([sys.executable, "-c", LOAD, phase, str(tmp_path / "x.py")], env=env,
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr[-2000:]
        runs[phase] = out.stdout.strip().splitlines()[-1]
    assert runs == {"cold": "vertical seat 3 True", "warm": "vertical seat 3 True"}
    assert len(list((tmp_path / "cache").iterdir())) == 1


def test_the_cold_start_bench_keeps_the_cache_in_its_run(tmp_path):
    from benchmarks import bench_ui

    assert bench_ui._env(tmp_path / "app", {})[kvload.CACHE_ENV] == str(tmp_path / "kv-cache")

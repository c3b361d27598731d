"""The layers: rules is pure (no app, no bridge, no Kivy, no file I/O helpers), the bridge
knows nothing of the rules or the app, Kivy stays inside companion/ui, and no module of
the project imports another that (through any chain) imports it back.

Imports are read with ``ast``, so an import inside a function or under ``TYPE_CHECKING``
counts like one at the top: a cycle that only works because one side is lazy is still a
cycle."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "companion", "firmware_bridge")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py") if "node_modules" not in p.parts}


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every module named by an import in ``path`` (the project's own resolved to the
    deepest known module; others by their top-level name)."""
    is_pkg = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base if is_pkg else base[:-1]
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            targets = [f"{mod}.{a.name}" for a in node.names] + [mod]
        for t in targets:
            while t and t not in known and "." in t:
                t = t.rsplit(".", 1)[0]
            if t in known:
                out.add(t)
            elif t:
                out.add(t.split(".")[0])
    # A submodule's import of its own package's __init__ is Python's doing, not a dependency.
    out.discard(name)
    return out


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    known = set(mods)
    return {n: _imports(n, p, known) for n, p in mods.items()}


def _top(mod: str) -> str:
    return mod.split(".")[0]


def test_rules_imports_no_app_no_bridge_no_kivy() -> None:
    bad = {n: sorted(d for d in deps if _top(d) in {"companion", "firmware_bridge", "kivy"})
           for n, deps in _graph().items() if _top(n) == "rules"}
    assert {n: d for n, d in bad.items() if d} == {}


def test_bridge_imports_no_rules_no_app() -> None:
    bad = {n: sorted(d for d in deps if _top(d) in {"companion", "rules", "kivy"})
           for n, deps in _graph().items() if _top(n) == "firmware_bridge"}
    assert {n: d for n, d in bad.items() if d} == {}


def test_kivy_only_inside_companion_ui() -> None:
    bad = sorted(n for n, deps in _graph().items() if "kivy" in deps and not n.startswith("companion.ui"))
    assert bad == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's), plus self-loops."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _without_package_reexports(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """A package's ``__init__`` re-exporting its submodules, and those submodules importing
    siblings through the package, is the usual package shape, not a layering cycle: drop the
    edge from a package to its own submodules."""
    return {n: {d for d in deps if not d.startswith(n + ".")} for n, deps in graph.items()}


def test_cycle_finder_finds_a_lazy_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_no_import_cycle() -> None:
    # Function-level and TYPE_CHECKING imports count: routing and table share their result
    # types through companion/results.py, and Tyranny's card effects ask the engine through
    # a Protocol instead of importing it.
    assert _cycles(_without_package_reexports(_graph())) == []


def test_entry_points_and_layers_import_without_kivy() -> None:
    code = (
        "import sys, companion, companion.__main__, rules, firmware_bridge, rules.registry; "
        "[rules.load(g.id) for g in rules.catalog()]; "
        "firmware_bridge; companion.__main__.build_parser(); "
        "print(sorted(m for m in sys.modules if m == 'kivy' or m.startswith('kivy.')))"
    )
    env = {"PYTHONPATH": str(ROOT), "KIVY_NO_ARGS": "1", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


# Writing files and listing folders belong to the app (companion.ui.games.liberation.mapfiles, the journal);
# reading the data shipped inside the package is how the engines learn their games. The
# rules CLI (rules.__main__) is an app of its own and may write its output file.
_FILE_CALLS = {"write_text", "write_bytes", "mkdir", "mkstemp", "fsync", "replace", "unlink", "glob", "iterdir", "listdir", "rename"}


def _file_io(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [f"import {m}" for m in mods if m.split(".")[0] in {"tempfile", "shutil"}]
        elif isinstance(node, ast.Call):
            f = node.func
            called = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            # str.replace is not file I/O: only os.replace / Path.replace with no text args count
            if called == "replace" and not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "os"):
                continue
            if called in _FILE_CALLS or called == "open":
                found.append(f"{called}() line {node.lineno}")
    return found


def test_rules_writes_no_files() -> None:
    bad = {n: io for n, p in _modules().items() if _top(n) == "rules" and n != "rules.__main__" and (io := _file_io(p))}
    assert bad == {}


def test_file_io_finder_sees_the_apps_atomic_write() -> None:
    assert any(c.startswith("import tempfile") for c in _file_io(ROOT / "companion" / "files.py"))
    assert any(c.startswith("replace()") for c in _file_io(ROOT / "companion" / "files.py"))


# ------------------------------------------------------------------ a game is one plug-in
#
# A game lives in its own folders: its engine package (``rules/<game>/``, named by its entry
# point) and its UI package (``companion/ui/games/<game>/``, named by its card's "ui"), plus
# its tests. **Shared code** is everything else the project ships: the kernel
# (``rules/core``), the catalogue and the helpers beside it (``rules/*.py``), the session
# layer and the shared UI (``companion`` outside ``companion/ui/games/<game>/``), the bridge.
# Shared code imports no game's package (statically, in a function, or by a module name in
# a string handed to importlib) and names no game: not in its code, not in its data files.
# Docstrings are prose and may mention a game; their examples are code (see below).
# Benchmarks measure the built-in games and may pick them by name; they import none.

_PYPROJECT = __import__("tomllib").loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
GAME_ENGINES = {g: v.split(":")[0] for g, v in _PYPROJECT["project"]["entry-points"]["tabletop_companion.games"].items()}
GAME_UI = {g: __import__("json").loads((ROOT / m.replace(".", "/") / "plugin.json").read_text(encoding="utf-8")).get("ui", "")
           for g, m in GAME_ENGINES.items()}
# How shared code would name a game: its id, or its title in words.
_GAME_WORDS = re.compile(r"(?i)(?<![\w-])(" + "|".join(
    sorted({re.escape(g) for g in GAME_ENGINES} | {re.escape(g.replace("_", " ")) for g in GAME_ENGINES}, key=len, reverse=True))
    + r")(?![\w-])")
_SHARED_DATA = {".json", ".kv", ".html", ".css", ".js", ".txt"}


def _game_of(module: str) -> str | None:
    """The game whose folders hold ``module`` (a module or a "module:attribute" string)."""
    module = module.split(":")[0]
    for g in GAME_ENGINES:
        for pkg in (GAME_ENGINES[g], GAME_UI[g]):
            if pkg and (module == pkg or module.startswith(pkg + ".")):
                return g
    return None


def _docstrings(tree: ast.AST) -> set[int]:
    """The string constants that are documentation: a module's, class's or function's
    docstring, and any other string standing alone as a statement (an attribute's)."""
    return {id(n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)}


def _code_strings(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    docs = _docstrings(tree)
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def _imported_games(name: str, path: Path, known: set[str]) -> set[str]:
    """Games whose packages ``name`` imports: statements anywhere in it, and module names in
    strings (``importlib.import_module("rules.x")``, ``"rules.x:GAME"``)."""
    targets = set(_imports(name, path, known))
    targets |= {s for _line, s in _code_strings(path) if re.fullmatch(r"[\w.]+(:[\w.]+)?", s)}
    return {g for t in targets if (g := _game_of(t)) is not None}


def _modules_with_benchmarks() -> dict[str, Path]:
    mods = _modules()
    mods.update({_module_name(p): p for p in (ROOT / "benchmarks").rglob("*.py")})
    return mods


def test_only_a_games_own_folders_import_its_packages() -> None:
    mods = _modules_with_benchmarks()
    known = set(mods)
    bad = {n: sorted(games) for n, p in mods.items()
           if (games := _imported_games(n, p, known) - {_game_of(n)})}
    assert bad == {}


def test_the_import_scan_sees_function_level_and_importlib_imports(tmp_path: Path) -> None:
    g = sorted(GAME_ENGINES)[0]
    probe = tmp_path / "probe.py"
    probe.write_text(f"import importlib\n\ndef f():\n    from {GAME_ENGINES[g]} import GAME\n", encoding="utf-8")
    assert _imported_games("companion.probe", probe, set(_modules())) == {g}
    probe.write_text(f"import importlib\nGAME = importlib.import_module({GAME_ENGINES[g]!r})\n", encoding="utf-8")
    assert _imported_games("companion.probe", probe, set(_modules())) == {g}
    probe.write_text(f'"""Imports {GAME_ENGINES[g]} nowhere: prose."""\n', encoding="utf-8")
    assert _imported_games("companion.probe", probe, set(_modules())) == set()


def _is_shared(path: Path) -> bool:
    rel = path.relative_to(ROOT)
    if rel.parts[0] not in ("rules", "companion", "firmware_bridge") or "node_modules" in rel.parts:
        return False
    module = ".".join(rel.with_suffix("").parts)
    return not any(module == pkg or module.startswith(pkg + ".")
                   for g in GAME_ENGINES for pkg in (GAME_ENGINES[g], GAME_UI[g]) if pkg)


def _names_a_game(path: Path) -> list[str]:
    if path.suffix == ".py":
        found = [f"line {line}: {s[:60]!r}" for line, s in _code_strings(path) if _GAME_WORDS.search(s)]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found += [f"line {n.lineno}: {getattr(n, 'id', getattr(n, 'attr', ''))}" for n in ast.walk(tree)
                  if isinstance(n, (ast.Name, ast.Attribute)) and _GAME_WORDS.fullmatch(getattr(n, "id", getattr(n, "attr", "")))]
        return found
    text = path.read_text(encoding="utf-8", errors="replace")
    return [f"line {text.count(chr(10), 0, m.start()) + 1}: {m.group(0)!r}" for m in _GAME_WORDS.finditer(text)]


def test_shared_code_and_data_name_no_game() -> None:
    files = [p for p in ROOT.rglob("*") if p.is_file() and (p.suffix == ".py" or p.suffix in _SHARED_DATA)
             and "__pycache__" not in p.parts and ".venv" not in p.parts and _is_shared(p)]
    bad = {str(p.relative_to(ROOT)): found for p in files if (found := _names_a_game(p))}
    assert bad == {}


# Docstring examples are code: in shared code they run against the test plug-in game under
# tests/ (tests/test_doctests.py installs it), and an example about one game's own rules
# belongs in that game's tests.


def _examples_naming_a_game(path: Path) -> list[str]:
    import doctest

    parser = doctest.DocTestParser()
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [ex.source.strip()[:60] for n in ast.walk(tree)
            if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)
            for ex in parser.get_examples(n.value.value) if _GAME_WORDS.search(ex.source) or _GAME_WORDS.search(ex.want)]


def test_docstring_examples_in_shared_code_name_no_game() -> None:
    files = [p for p in ROOT.rglob("*.py") if "__pycache__" not in p.parts and ".venv" not in p.parts and _is_shared(p)]
    naming = {str(p.relative_to(ROOT)): found for p in files if (found := _examples_naming_a_game(p))}
    assert naming == {}, "use the test game, or move the example to the game's tests"


def test_the_example_scan_sees_a_game_in_an_example_or_its_output(tmp_path: Path) -> None:
    g = sorted(GAME_ENGINES)[0]
    probe = tmp_path / "probe.py"
    probe.write_text(f'def f():\n    """Load one.\n\n    >>> load("{g}").id\n    \'x\'\n    """\n', encoding="utf-8")
    assert _examples_naming_a_game(probe)
    probe.write_text(f'"""Games.\n\n>>> [c.id for c in catalog()][:1]\n[\'{g}\']\n"""\n', encoding="utf-8")
    assert _examples_naming_a_game(probe)
    probe.write_text(f'"""About {g}, in prose.\n\n>>> load("a_new_game").id\n\'a_new_game\'\n"""\n',
                     encoding="utf-8")
    assert _examples_naming_a_game(probe) == []


def test_the_game_name_scan_sees_ids_titles_and_data(tmp_path: Path) -> None:
    g = sorted(GAME_ENGINES)[-1]
    probe = tmp_path / "probe.py"
    probe.write_text(f'GAME = "{g}"\n', encoding="utf-8")
    assert _names_a_game(probe)
    probe.write_text(f'def f():\n    return "a {g.replace("_", " ").title()} game"\n', encoding="utf-8")
    assert _names_a_game(probe)
    probe.write_text(f'"""About {g}: prose."""\nX = "{g}-like"\n', encoding="utf-8")
    assert _names_a_game(probe) == []  # prose, and a word that only contains the id
    data = tmp_path / "probe.json"
    data.write_text(f'{{"games": {{"{g}": 1}}}}', encoding="utf-8")
    assert _names_a_game(data)

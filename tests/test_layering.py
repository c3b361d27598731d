"""The layers: rules is pure (no app, no bridge, no Kivy, no file I/O helpers), the bridge
knows nothing of the rules or the app, Kivy stays inside companion/ui, and no module of
the project imports another that (through any chain) imports it back.

Imports are read with ``ast``, so an import inside a function or under ``TYPE_CHECKING``
counts like one at the top: a cycle that only works because one side is lazy is still a
cycle."""
from __future__ import annotations

import ast
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
        "import sys, companion, companion.__main__, companion.ui.games.liberation.mapfiles, rules, rules.tyranny, rules.liberation, "
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

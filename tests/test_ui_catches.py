"""How companion/ui catches what goes wrong, checked on its source (parsed, not grepped):

* a refusal is caught by its layer's root (``rules.RulesError``, ``CompanionError``,
  ``BridgeError``) or a narrower class, never as ``ValueError``: a ``ValueError`` is just
  as often a programming error, which must reach the crash report, not a banner;
* ``except Exception`` (or ``BaseException``, or a bare ``except``) only where a thread or
  a callback meets code the app does not control, and each such handler logs the
  traceback (``log.exception``, ``exc_info=``), re-raises, or hands the exception on to
  whoever waits for it (``Future.set_exception``);
* the shared screens call their presenter through :class:`GamePresenter`'s contract,
  never probing it with ``getattr``/``hasattr``.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

UI = Path(__file__).resolve().parent.parent / "companion" / "ui"
SOURCES = sorted(UI.rglob("*.py"))
BROAD = {"Exception", "BaseException"}


def _names(node: ast.expr | None) -> list[str]:
    """The class names an ``except`` clause catches (``json.JSONDecodeError`` → its last part)."""
    if node is None:
        return ["BaseException"]  # a bare except
    if isinstance(node, ast.Tuple):
        return [n for e in node.elts for n in _names(e)]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.Name):
        return [node.id]
    return ["?"]


def _handlers() -> list[tuple[str, ast.ExceptHandler]]:
    out = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        rel = str(path.relative_to(UI.parent.parent))
        out += [(f"{rel}:{n.lineno}", n) for n in ast.walk(tree) if isinstance(n, ast.ExceptHandler)]
    return out


HANDLERS = _handlers()


def _logs_or_passes_on(handler: ast.ExceptHandler) -> bool:
    """Whether the handler's body logs the traceback, re-raises, or hands the exception to
    a waiting caller."""
    for node in ast.walk(ast.Module(body=handler.body, type_ignores=[])):
        if isinstance(node, ast.Raise):
            return True
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in ("exception", "set_exception"):
                return True
            if any(k.arg == "exc_info" and not (isinstance(k.value, ast.Constant) and not k.value.value) for k in node.keywords):
                return True
    return False


def test_the_walk_sees_the_ui() -> None:
    assert len(SOURCES) > 50 and len(HANDLERS) > 40
    assert any(p.name == "gamescreen.py" for p in SOURCES)


def test_no_refusal_is_caught_as_valueerror() -> None:
    found = [where for where, h in HANDLERS if "ValueError" in _names(h.type)]
    assert found == []


def test_broad_handlers_log_the_traceback() -> None:
    quiet = [where for where, h in HANDLERS if BROAD & set(_names(h.type)) and not _logs_or_passes_on(h)]
    assert quiet == []


def test_the_checks_can_fail() -> None:
    """The two rules above, on handlers written to break them."""
    bad = ast.parse("try:\n    f()\nexcept (KeyError, ValueError):\n    pass\n"
                    "try:\n    g()\nexcept Exception as e:\n    banner(str(e))\n"
                    "try:\n    h()\nexcept:\n    log.debug('x', exc_info=False)\n")
    hs = [n for n in ast.walk(bad) if isinstance(n, ast.ExceptHandler)]
    assert "ValueError" in _names(hs[0].type)
    assert not _logs_or_passes_on(hs[1]) and not _logs_or_passes_on(hs[2]) and _names(hs[2].type) == ["BaseException"]
    good = ast.parse("try:\n    g()\nexcept Exception:\n    log.warning('x', exc_info=True)\n")
    assert _logs_or_passes_on(next(n for n in ast.walk(good) if isinstance(n, ast.ExceptHandler)))


def _mentions_presenter(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return "presenter" in node.id
    if isinstance(node, ast.Attribute):
        return node.attr == "presenter" or _mentions_presenter(node.value)
    if isinstance(node, ast.Call):  # getattr(screen, "presenter", None)
        return any(isinstance(a, ast.Constant) and a.value == "presenter" for a in node.args)
    return False


@pytest.mark.parametrize("path", [p for p in SOURCES if not p.parent.name == "presenters"],
                         ids=lambda p: str(p.relative_to(UI)))
def test_no_presenter_is_probed(path: Path) -> None:
    """``getattr(presenter, …)``, ``hasattr(self.presenter, …)``, ``getattr(screen, "presenter")``:
    none, anywhere in the UI (the presenters' own modules are the contract itself)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    probes = [n.lineno for n in ast.walk(tree)
              if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("getattr", "hasattr")
              and n.args and (_mentions_presenter(n.args[0]) or (len(n.args) > 1 and _mentions_presenter(n)))]
    assert probes == []

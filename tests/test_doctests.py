"""Run the docstring examples of every module that has them: the rule engines, the
session layer, the bridge, the benchmarks, and the UI's Kivy-free parts (presenters, the
benchmark hook). Widgets and screens are left out: importing them here would bring Kivy
into the test process, and the UI tests exercise them in a real window.

Shared code's examples play the test game, Stepping Stones (tests/plugin_game), installed
for this run the way a game shipped as its own package is found: through an entry point.
Examples about one game's own rules live in that game's tests."""
from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path
from typing import Iterator

import pytest

import benchmarks
import companion
import firmware_bridge
import rules

from .plugin_game.install import installed

KIVY_FREE_UI = ("companion.ui.presenters", "companion.ui.bench_hooks", "companion.ui.collector",
                "companion.ui.registry", "companion.ui.gamefiles", "companion.ui.games.tyranny.layout", "companion.ui.pump",
                "companion.ui.gpio_link", "companion.ui.games.outrage.layout", "companion.ui.games.outrage.presenter",
                *(f"companion.ui.games.outrage.{m}" for m in ("words", "panels", "squares", "buttons", "gate", "moments")),
                "companion.ui.ble_link", "companion.ui.phones_link", "companion.ui.games.liberation.mapfiles",
                "companion.ui.games.against_all_tyrants.cardfiles")
# Entry points are run as scripts, except this one, which is safe to import and has examples.
ENTRY_POINTS = ("companion.__main__",)
# Modules whose examples are their only test of some behaviour: they must keep having some.
MUST_HAVE_EXAMPLES = {"companion.ui.registry", "companion.ui.pump", "companion.ui.gpio_link", "companion.ui.games.tyranny.layout", "companion.__main__"}


def _modules(package: object) -> list[str]:
    out = []
    for m in pkgutil.walk_packages(package.__path__, package.__name__ + "."):  # type: ignore[attr-defined]
        if m.name.endswith("__main__") and m.name not in ENTRY_POINTS:
            continue
        if m.name.startswith("companion.ui.") and not m.name.startswith(KIVY_FREE_UI):
            continue
        out.append(m.name)
    return out


MODULES = ["rules", "companion", "firmware_bridge", "benchmarks"] + sorted(
    name for p in (rules, companion, firmware_bridge, benchmarks) for name in _modules(p)
)


@pytest.fixture(autouse=True, scope="module")
def stepping_stones(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The test game, findable by its entry point while the examples run."""
    yield from installed(tmp_path_factory)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0 or name not in MUST_HAVE_EXAMPLES

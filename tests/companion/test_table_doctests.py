"""Run the docstring examples of the Table's modules (they play the test game, Stepping
Stones, installed here through its entry point as tests/test_doctests.py installs it)."""
from __future__ import annotations

import doctest
import importlib
from pathlib import Path
from typing import Iterator

import pytest

from ..plugin_game.install import installed

MODULES = ["companion.journal", "companion.schema", "companion.table", "companion.undo", "companion.visibility",
           "companion.record", "companion.results", "companion.routing", "companion.secret_desk"]


@pytest.fixture(autouse=True, scope="module")
def stepping_stones(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield from installed(tmp_path_factory)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0

"""The docstring examples of the clock and export modules."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "companion.clocks",
    "companion.clocks.config",
    "companion.clocks.events",
    "companion.clocks.clockset",
    "companion.export",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0

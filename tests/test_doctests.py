"""Run the docstring examples of every module that has them."""
from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import rules

MODULES = ["rules"] + sorted(
    m.name for m in pkgutil.walk_packages(rules.__path__, "rules.") if not m.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0

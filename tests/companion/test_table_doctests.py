"""Run the docstring examples of the Table's modules."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["companion.journal", "companion.schema", "companion.table", "companion.undo", "companion.visibility",
           "companion.record", "companion.results", "companion.routing", "companion.secret_desk"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0

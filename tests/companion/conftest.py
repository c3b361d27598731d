"""The Table tests may load the kernel's mini games (secret duel, 2d6 doubles); they are
in the catalogue only while a module of this package runs."""
from __future__ import annotations

import pytest

from .table_helpers import register_mini_games, unregister


@pytest.fixture(autouse=True, scope="module")
def mini_games():
    added = register_mini_games()
    yield
    unregister(added)

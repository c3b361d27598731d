"""Stepping Stones is installed (install.py) for this folder's tests only: the catalogue the
other tests list never shows it."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from .install import installed


@pytest.fixture(autouse=True, scope="module")
def stepping_stones(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield from installed(tmp_path_factory)

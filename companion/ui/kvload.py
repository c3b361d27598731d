"""Load the ``.kv`` file that sits beside a module, once (Kivy's Builder warns and
duplicates rules when a file is loaded twice)."""
from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder

_LOADED: set[str] = set()


def load_kv(module_file: str, name: str | None = None) -> None:
    """Load ``<module>.kv`` (or ``name``) from the folder of ``module_file``."""
    path = Path(module_file).with_suffix(".kv") if name is None else Path(module_file).parent / name
    key = str(path.resolve())
    if key not in _LOADED:
        _LOADED.add(key)
        Builder.load_file(key)

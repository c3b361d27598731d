"""Languages for the app (no Kivy): which language a screen speaks, the catalogues of
every domain, and :func:`render`, which words an engine's sentence in a language.
See ``companion/i18n/README.md``.

The names below are imported on first use (PEP 562): the package build's hook
(:mod:`companion.i18n.build`) imports this package in a bare build environment.
"""
from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "CatalogError": "catalogs", "Domain": "catalogs", "domain": "catalogs", "domains": "catalogs",
    "LANGUAGES": "language", "Language": "language", "accept_language": "language", "best_match": "language",
    "render": "language", "system_language": "language", "current": "language", "choose": "language",
    "PSEUDO": "pseudo", "is_pseudo": "pseudo", "pseudo": "pseudo",
}
__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), "CODE" if name == "PSEUDO" else name)
    globals()[name] = value
    return value

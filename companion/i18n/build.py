"""Compile the ``.mo`` files at install time: every ``<locale dir>/<lang>/LC_MESSAGES/
<domain>.po`` under a folder gets its ``.mo`` beside it. The ``.mo`` files are built, never
committed (``.gitignore``).

``BuildPy`` is the package build's hook (``pyproject.toml``, ``[tool.setuptools.cmdclass]``):
it compiles the catalogues copied into the build. ``./dev`` runs ``python -m
companion.i18n.build`` on the work tree. Only Babel is imported here, so the hook runs in a
bare build environment.

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> po = root / "pkg" / "locale" / "fr" / "LC_MESSAGES" / "pkg.po"
>>> po.parent.mkdir(parents=True)
>>> _ = po.write_text('msgid ""\\nmsgstr "Content-Type: text/plain; charset=UTF-8\\\\n"\\n\\nmsgid "Start"\\nmsgstr "Commencer"\\n', encoding="utf-8")
>>> [p.relative_to(root).as_posix() for p in compile_tree(root)]
['pkg/locale/fr/LC_MESSAGES/pkg.mo']
>>> import gettext
>>> gettext.GNUTranslations(open(po.with_suffix(".mo"), "rb")).gettext("Start")
'Commencer'
"""
from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools.command.build_py import build_py


def compile_tree(root: Path) -> list[Path]:
    """Write the ``.mo`` of every catalogue under ``root`` whose ``.mo`` is missing or older
    than its ``.po``; returns the files written."""
    written = []
    for po in sorted(root.rglob("locale/*/LC_MESSAGES/*.po")):
        if ".venv" in po.parts or "node_modules" in po.parts:
            continue
        mo = po.with_suffix(".mo")
        if mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parts[-3], domain=po.stem)
        with mo.open("wb") as f:
            write_mo(f, catalog)
        written.append(mo)
    return written


class BuildPy(build_py):
    """setuptools' ``build_py``, then the catalogues it copied are compiled."""

    def run(self) -> None:
        super().run()
        for mo in compile_tree(Path(self.build_lib)):
            self.announce(f"compiled {mo}", level=2)


if __name__ == "__main__":
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]
    for mo in compile_tree(root):
        print(f"compiled {mo.relative_to(root)}")

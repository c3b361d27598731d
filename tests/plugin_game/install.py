"""How the tests install Stepping Stones as a plug-in: the way any game shipped as a package
of its own is found, through an entry point in its distribution's metadata. Rather than
pip-installing a package, :func:`install` writes the metadata a wheel would leave (a
``*.dist-info`` folder with ``METADATA`` and ``entry_points.txt``) into a folder and puts
that folder on ``sys.path`` (and on ``PYTHONPATH``, for the app's scenario processes);
``importlib.metadata`` then finds the entry point like an installed one."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Iterator

GROUP = "tabletop_companion.games"
DIST = "tabletop_companion_stepping_stones-1.0.dist-info"


def write_distribution(folder: Path) -> Path:
    """The distribution's metadata in ``folder``: its name and its one entry point."""
    info = folder / DIST
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tabletop-companion-stepping-stones\nVersion: 1.0\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\nstepping_stones = tests.plugin_game:GAME\n", encoding="utf-8")
    return folder


def install(folder: Path) -> None:
    """Make the game findable in this process and in the processes it starts."""
    write_distribution(folder)
    sys.path.append(str(folder))
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [os.environ.get("PYTHONPATH"), str(folder)]))
    from rules import registry

    registry.refresh()


def uninstall(folder: Path) -> None:
    if str(folder) in sys.path:
        sys.path.remove(str(folder))
    parts = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != str(folder)]
    os.environ["PYTHONPATH"] = os.pathsep.join(parts)
    from rules import registry

    registry.refresh()


def installed(tmp_path_factory: Any) -> Iterator[Path]:
    """The body of a test module's fixture: the game installed in a fresh folder for as
    long as the fixture lives, then taken away (``yield from installed(...)``)."""
    folder = tmp_path_factory.mktemp("site")
    install(folder)
    yield folder
    uninstall(folder)

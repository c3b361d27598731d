"""Helpers shared by the hardware tests (plain functions; fixtures live in conftest)."""
from __future__ import annotations

import random
from pathlib import Path

from firmware_bridge.shared import detector as D
from firmware_bridge.simulated import traces as T

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT / "firmware_bridge" / "shared"
FIRMWARE = ROOT / "hardware" / "firmware"


def shared_sources(*names: str) -> dict[str, str]:
    """The shared modules as the board sees them: top-level files by base name."""
    return {n + ".py": (SHARED / (n + ".py")).read_text() for n in names}


def run_detector(trace: T.Trace, normals: list[tuple[int, int, int]], **cfg: int) -> list[D.RollEvent]:
    return D.run(D.Detector(normals, D.Config(**cfg)), trace.samples)


def results(events: list[D.RollEvent]) -> list[D.RollEvent]:
    """The settled results (rolled / onFace / crooked), boot state included."""
    return [e for e in events if e.state in (D.ROLLED, D.ON_FACE, D.CROOKED)]


def die(seed: int, max_offset_mm: float = 4.0) -> tuple[random.Random, T.Mount]:
    rng = random.Random(seed)
    return rng, T.Mount.random(rng, max_offset_mm)

"""The one-bit-flip trial (issue 31): a journal of several games played through the Table
with real engines, part of it only in the WAL (copied while its writer holds it, as a
power cut leaves the files); then, one trial at a time, one bit flipped at a random offset
of the main file or of the WAL, the journal reopened, and every game read back as the app
reads it (resume, history, JSON export, tracked values).

Each trial is one of:

* ``harmless``: every game reads back exactly as before;
* ``reported``: something was refused or reported in the journal's own typed words (the
  open set the file aside, or a game's read raised a :class:`companion.JournalError`),
  and every game that did read back is exactly as before;
* ``silent``: a game reads back differently, or is missing, and nothing said so;
* ``raw``: an exception that is not the journal's own (``JSONDecodeError``, an engine's
  ``IllegalAction`` from a changed action…): the app would show it raw, or crash.
"""
from __future__ import annotations

import json
import os
import random
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

from rules.core import Rng
from rules.core.jsondata import to_data

from companion import Journal, JournalError, Table

from .table_helpers import new_table, play

NAME = "journal.sqlite3"
SIDE = ("-wal", "-shm")


def build(folder: Path) -> tuple[Path, list[str]]:
    """Three games (Tyranny, Liberation, Tyranny) with undos; the first two checkpointed
    into the main file, then more of the first game and all of the third only in the WAL.
    Returns the folder holding a copy of the files as the writer left them, and the keys."""
    live = folder / "live"
    live.mkdir()
    j = Journal.open(live / NAME, snapshot_every=10)
    a = new_table(j, "tyranny", seed=3)
    play(a, Rng(1), 30, undo_rate=5)
    b = new_table(j, "liberation", seed=4)
    play(b, Rng(2), 30, undo_rate=5)
    a.close()
    b.close()
    j.close()  # the last connection checkpoints: these are in the main file
    j = Journal.open(live / NAME, snapshot_every=10)
    j._db.execute("PRAGMA wal_autocheckpoint=0")  # from here on, the WAL alone holds the changes
    a = Table.resume(j, a.key)
    play(a, Rng(3), 25, undo_rate=5)
    c = new_table(j, "tyranny", seed=5)
    play(c, Rng(4), 30, undo_rate=5)
    keys = [a.key, b.key, c.key]
    template = folder / "template"
    template.mkdir()
    copy_journal(live, template)  # while the writer holds the files: nothing checkpointed
    a.close()
    c.close()
    j.close()
    return template, keys


def copy_journal(src: Path, dst: Path) -> None:
    """The journal's files and folders beside it (the -wal, the -shm, any sidecar folder)."""
    for p in src.iterdir():
        if not p.name.startswith(NAME) or p.name.endswith("-locks"):
            continue
        if p.is_dir():
            shutil.copytree(p, dst / p.name)
        else:
            shutil.copyfile(p, dst / p.name)


def read_back(folder: Path, keys: list[str]) -> tuple[dict[str, Any], str, Any]:
    """Every game as the app reads it, from the journal in ``folder``: ``({key: reading or
    ("reported", code) or ("raw", type name)}, how the open went, the recovery)``."""
    try:
        j = Journal.open(folder / NAME)
    except JournalError as e:
        return {}, f"reported:{e.code}", None
    except Exception as e:  # noqa: BLE001 - the trial counts exactly these
        return {}, f"raw:{type(e).__name__}: {e}", None
    out: dict[str, Any] = {}
    try:
        for key in keys:
            try:
                t = Table.resume(j, key)
                try:
                    out[key] = ("read", json.dumps(to_data(t.state), sort_keys=True), t.export_json(),
                                json.dumps(t.tracked_history(), sort_keys=True), t.ply)
                finally:
                    t.close()
            except JournalError as e:
                out[key] = ("reported", e.code)
            except Exception as e:  # noqa: BLE001
                out[key] = ("raw", f"{type(e).__name__}: {str(e)[:120]}")
    finally:
        j.close()
    return out, "opened", j.recovery


def classify(reference: dict[str, Any], folder: Path, keys: list[str]) -> tuple[str, str]:
    """One trial's class and a line saying why."""
    got, opened, recovery = read_back(folder, keys)
    if opened.startswith("raw:"):
        return "raw", opened
    if opened.startswith("reported:"):
        return "reported", opened
    lost = set(recovery.lost) if recovery is not None else set()
    classes = []
    for key in keys:
        r = got[key]
        if r[0] == "raw":
            classes.append(("raw", f"{key}: {r[1]}"))
        elif r[0] == "reported":
            # Missing from the journal is reported only when the recovery named it lost.
            if r[1] == "unknown-game" and key not in lost:
                classes.append(("silent", f"{key}: missing, not reported"))
            else:
                classes.append(("reported", f"{key}: {r[1]}"))
        elif r != reference[key]:
            classes.append(("silent", f"{key}: reads back differently (ply {r[4]} for {reference[key][4]})"))
        else:
            classes.append(("harmless" if recovery is None else "reported", key))
    for kind in ("raw", "silent", "reported"):
        for c, why in classes:
            if c == kind:
                return kind, why
    return "harmless", ""


def flip(template: Path, trial: Path, rng: random.Random) -> str:
    """Copy the template's files to ``trial`` and flip one bit of the main file or the WAL
    (either with even odds, then a uniform offset); returns where."""
    trial.mkdir()
    copy_journal(template, trial)
    target = trial / (NAME + rng.choice(("", "-wal")))
    raw = bytearray(target.read_bytes())
    offset = rng.randrange(len(raw))
    bit = rng.randrange(8)
    raw[offset] ^= 1 << bit
    target.write_bytes(bytes(raw))
    return f"{target.name}@{offset}.{bit}"


def trial(folder: Path, flips: int, seed: int = 31) -> tuple[Counter[str], list[str]]:
    """Build the journal, then ``flips`` trials; returns the count of each class and the
    lines of the silent and raw ones."""
    template, keys = build(folder)
    assert (template / (NAME + "-wal")).stat().st_size > 0, "the WAL must hold part of the games"
    ref_dir = folder / "reference"
    ref_dir.mkdir()
    copy_journal(template, ref_dir)
    reference, opened, recovery = read_back(ref_dir, keys)
    assert opened == "opened" and recovery is None and all(r[0] == "read" for r in reference.values()), reference
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    bad: list[str] = []
    for i in range(flips):
        where = flip(template, folder / f"t{i}", rng)
        kind, why = classify(reference, folder / f"t{i}", keys)
        counts[kind] += 1
        if kind in ("silent", "raw"):
            bad.append(f"{where}: {kind}: {why}")
        shutil.rmtree(folder / f"t{i}")
    return counts, bad


def flips_wanted(default: int = 200) -> int:
    """``TC_FLIPS`` in the environment asks for a longer trial."""
    return int(os.environ.get("TC_FLIPS", default))

"""Exports of a game: the whole event log as JSON, every tracked value per turn as CSV, and
a BG Stats link for a finished game.

Every function here is pure: it reads only the :class:`~companion.record.GameRecord` it is
given (plus each game's plugin card's BG Stats facts) — no journal, no clock, no
engine state. That is what keeps secrets out: **the Table must build the record from public
data only** (public action data, public tracked values). On top of that, what only a
finished game may show is withheld here while a game is in progress: the seed (with the
action list it would let anyone replay the hidden deck order) is exported only once the
game is over.

Formats:

* JSON: ``{"format": "tabletop-companion/game-log", "version": 1, ...}`` with the game,
  seats, options, times, outcome, every action (undone ones included, flagged
  ``"undone": true``) and the tracked values. ``version`` changes when a field changes
  meaning or disappears; new fields may appear without a version change.
* CSV: one row per turn (the last tracked entry of that turn), columns ``turn``, ``ply``
  and one per tracked value in first-seen order; nested values become ``a.b`` columns.
* BG Stats: ``bgstats://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>``, the
  deep link BG Stats opens to pre-fill a play, with the JSON of REFERENCE §6.
"""
from __future__ import annotations

import csv
import io
import json
import math
from datetime import datetime, timezone, tzinfo
from typing import Any, Iterable, Mapping
from urllib.parse import quote

from .errors import CompanionError

FORMAT = "tabletop-companion/game-log"
VERSION = 1
SOURCE_NAME = "Tabletop Companion"
BGSTATS_PREFIX = "bgstats://app.bgstatsapp.com/createPlay.html?data="


class ExportError(CompanionError, ValueError):
    """A record that cannot be exported in the asked format."""

    code = "export-error"


class GameNotFinished(ExportError):
    """BG Stats records plays, not games in progress."""

    code = "game-not-finished"


# --- JSON ---------------------------------------------------------------------------------
def is_finished(record: Any) -> bool:
    """A game is finished when it has both an end time and an outcome."""
    return record.finished is not None and record.outcome is not None


def export_data(record: Any) -> dict[str, Any]:
    """The event log as plain data (what :func:`export_json` writes)."""
    finished = is_finished(record)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": {"id": record.game_id, "title": game_title(record.game_id), "key": record.key},
        "seats": [dict(s) for s in record.seats],
        "options": _plain(record.options, "options"),
        # The seed plus the actions replays hidden draws: only once nothing is hidden.
        "seed": record.seed if finished else None,
        "seed_withheld": not finished,
        "started": _time(record.started),
        "finished": _time(record.finished),
        "duration_s": duration_s(record),
        "status": "finished" if finished else "in-progress",
        "outcome": _plain(record.outcome, "outcome"),
        # A game joined in progress: the position it started from, public part only (the
        # record should hold no more; dropped here again so no secret can slip through).
        "position": _plain(_public(getattr(record, "position", None)), "position"),
        "actions": [
            {
                "ply": a.ply,
                "seat": a.seat,
                "kind": a.kind,
                "data": _plain(a.data, f"action {a.ply}"),
                "source": a.source,
                "time": _time(a.time),
                "undone": bool(a.undone),
            }
            for a in record.actions
        ],
        "tracked": [
            {"ply": t["ply"], "turn": t["turn"], "values": _plain(t["values"], "tracked values")}
            for t in record.tracked
        ],
    }


def _public(position: Any) -> Any:
    if not isinstance(position, dict):
        return None
    return {k: v for k, v in position.items() if k != "private"}


def export_json(record: Any, *, indent: int | None = 2) -> str:
    """The whole event log as JSON text (UTF-8 safe, keys in a stable order)."""
    return json.dumps(export_data(record), indent=indent, ensure_ascii=False, allow_nan=False)


# --- CSV ----------------------------------------------------------------------------------
def tracked_table(record: Any) -> tuple[list[str], list[list[Any]]]:
    """The CSV's header and rows: one row per turn, in turn order.

    >>> from types import SimpleNamespace as R
    >>> rec = R(tracked=[{"ply": 1, "turn": 1, "values": {"influence": 3}},
    ...                  {"ply": 2, "turn": 1, "values": {"influence": 5}},
    ...                  {"ply": 3, "turn": 2, "values": {"influence": 4, "escalation": 1}}])
    >>> tracked_table(rec)
    (['turn', 'ply', 'influence', 'escalation'], [[1, 2, 5, ''], [2, 3, 4, 1]])
    """
    last: dict[Any, tuple[Any, dict[str, Any]]] = {}
    columns: dict[str, None] = {}
    for entry in record.tracked:
        flat = dict(_flatten(entry["values"]))
        for k in flat:
            columns.setdefault(k)
        turn = entry["turn"]
        last.pop(turn, None)  # re-insert so turns keep the order they last appeared in
        last[turn] = (entry["ply"], flat)
    header = ["turn", "ply", *columns]
    rows = [[turn, ply, *(flat.get(c, "") for c in columns)] for turn, (ply, flat) in last.items()]
    return header, rows


def export_csv(record: Any) -> str:
    """Every tracked value per turn as CSV text (``\\r\\n`` line ends, as the csv module
    writes for spreadsheets)."""
    header, rows = tracked_table(record)
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(header)
    w.writerows(rows)
    return out.getvalue()


# --- BG Stats -----------------------------------------------------------------------------
def bgstats_play(
    record: Any,
    *,
    tz: tzinfo | None = None,
    location: str = "",
    comments: str | None = None,
) -> dict[str, Any]:
    """The play as BG Stats' import JSON (REFERENCE §6). ``tz``: the time zone of
    ``playDate`` (default: this machine's). ``comments`` defaults to the outcome's reason.
    Raises :class:`GameNotFinished` for a game in progress."""
    if not is_finished(record):
        raise GameNotFinished(
            f"game {record.key} is still in progress: BG Stats takes finished plays only"
        )
    facts = game_facts(record.game_id)
    no_points = bool(facts.get("noPoints", False))
    outcome = record.outcome
    winner = outcome.get("winner")
    winning = set(outcome.get("winning_seats") or ())
    scores = outcome.get("scores") or {}
    first = next((a.seat for a in record.actions if not a.undone and a.seat is not None), None)
    players = []
    for seat in record.seats:
        sid, faction = seat["id"], seat.get("faction")
        won = sid in winning or (winner is not None and winner in (sid, faction))
        player: dict[str, Any] = {
            "name": seat.get("name") or sid,
            "winner": won,
            "rank": 1 if won or winner is None else 2,
            "startPlayer": sid == first,
            "role": faction or "",
            "sourcePlayerId": sid,
        }
        if not no_points:
            score = _score(scores, sid, faction)
            if score is not None:
                player["score"] = score
        players.append(player)
    game: dict[str, Any] = {
        "name": game_title(record.game_id),
        "highestWins": bool(facts.get("highestWins", True)),
        "noPoints": no_points,
        "sourceGameId": record.game_id,
    }
    if facts.get("bggId") is not None:
        game["bggId"] = int(facts["bggId"])
    return {
        "game": game,
        "players": players,
        "durationMin": max(1, round(duration_s(record) / 60)),
        "playDate": datetime.fromtimestamp(record.started, tz or _local()).strftime("%Y-%m-%d %H:%M:%S"),
        "location": location,
        "comments": outcome.get("reason", "") if comments is None else comments,
        "sourceName": SOURCE_NAME,
        "sourcePlayId": record.key,
    }


def bgstats_link(record: Any, **kw: Any) -> str:
    """The ``bgstats://`` link that opens BG Stats with this finished play filled in
    (keywords as :func:`bgstats_play`)."""
    text = json.dumps(bgstats_play(record, **kw), ensure_ascii=False, separators=(",", ":"))
    return BGSTATS_PREFIX + quote(text, safe="")


def parse_bgstats_link(link: str) -> dict[str, Any]:
    """The JSON inside a link made by :func:`bgstats_link` (for tests and support)."""
    from urllib.parse import unquote

    if not link.startswith(BGSTATS_PREFIX):
        raise ExportError("not a BG Stats createPlay link")
    return json.loads(unquote(link[len(BGSTATS_PREFIX):]))


# --- helpers ------------------------------------------------------------------------------
def duration_s(record: Any) -> float | None:
    """Seconds from start to finish (``None`` while in progress)."""
    if record.finished is None:
        return None
    return max(0.0, float(record.finished) - float(record.started))


def game_facts(game_id: str) -> dict[str, Any]:
    """What BG Stats needs to know about a game beyond the record: its plugin card's
    ``"bgstats"`` (a game that says nothing, or is no longer installed, is matched by
    name with no BoardGameGeek id: :data:`rules.plugins.DEFAULT_BGSTATS`)."""
    from rules.core.errors import UnknownGame
    from rules.plugins import DEFAULT_BGSTATS
    from rules.registry import plugin

    try:
        return dict(plugin(game_id).bgstats)
    except UnknownGame:
        return dict(DEFAULT_BGSTATS)


def game_title(game_id: str) -> str:
    """The game's display title from the rules catalogue (its id if it is not installed)."""
    from rules.core.errors import UnknownGame
    from rules.registry import load

    try:
        return str(load(game_id).title)
    except UnknownGame:
        return game_id


def _local() -> tzinfo:
    return datetime.now().astimezone().tzinfo or timezone.utc


def _time(t: float | None) -> dict[str, Any] | None:
    if t is None:
        return None
    return {"epoch": t, "utc": datetime.fromtimestamp(t, timezone.utc).isoformat(timespec="milliseconds")}


def _score(scores: Mapping[str, Any], seat: str, faction: str | None) -> Any:
    for key in (seat, faction):
        if key is not None and key in scores:
            s = scores[key]
            return s.get("total") if isinstance(s, Mapping) else s
    return None


def _flatten(values: Mapping[str, Any], prefix: str = "") -> Iterable[tuple[str, Any]]:
    for k, v in values.items():
        name = f"{prefix}{k}"
        if isinstance(v, Mapping):
            yield from _flatten(v, name + ".")
        else:
            yield name, v


def _plain(value: Any, what: str) -> Any:
    """Check that ``value`` is plain JSON data (the record must already hold only that)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ExportError(f"{what}: {value} cannot be written as JSON")
        return value
    if isinstance(value, Mapping):
        return {str(k): _plain(v, what) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, what) for v in value]
    raise ExportError(f"{what}: a {type(value).__name__} is not plain data; the Table records plain data")

"""Home: games to resume, finished games, and stats across sessions, from the journal.

>>> format_duration(3725), format_duration(600), format_duration(59), format_duration(None)
('1 h 02 min', '10 min', 'under 1 min', '—')
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any, Iterable

from rules import RulesError, catalog, facts

from .words import humanise


def format_duration(seconds: float | None) -> str:
    """A game's length for the library and stats (examples in the module's docstring)."""
    if seconds is None:
        return "—"
    m = int(seconds // 60)
    if m == 0:
        return "under 1 min"
    return f"{m // 60} h {m % 60:02d} min" if m >= 60 else f"{m} min"


# An ISO 8601 date, with a time and an offset if any: what fromisoformat reads.
_ISO_TIME = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:\d{2})?)?")


def format_when(when: Any) -> str:
    """A start time (datetime, epoch seconds or ISO text) as 'Mon 23 Nov 14:05'; other
    text as it is.

    >>> format_when("2026-11-23T14:05:00"), format_when("yesterday")
    ('Mon 23 Nov 14:05', 'yesterday')
    """
    if isinstance(when, (int, float)):
        when = dt.datetime.fromtimestamp(when)
    elif isinstance(when, str):
        if not _ISO_TIME.fullmatch(when):
            return when
        when = dt.datetime.fromisoformat(when)
    if isinstance(when, dt.datetime):
        return when.strftime("%a %d %b %H:%M")
    return str(when or "")


def game_title(game_id: str) -> str:
    """The game's title from the catalogue (no engine is imported for it), or one made
    from its id for a game no longer installed.

    >>> game_title("stepping_stones"), game_title("lost_game")
    ('Stepping Stones', 'Lost Game')
    """
    for game in catalog():
        if game.id == game_id:
            return game.title
    return game_id.replace("_", " ").title()


def _names(players: Any) -> str:
    if isinstance(players, dict):
        players = list(players.values())
    out = []
    for p in players or ():
        out.append(p.get("name") or p.get("id") if isinstance(p, dict) else str(p))
    return ", ".join(dict.fromkeys(x for x in out if x))


@dataclass(frozen=True)
class GameRow:
    key: str
    title: str
    players: str
    when: str
    duration: str
    result: str

    @property
    def line(self) -> str:
        bits = [self.title, self.players, self.when]
        if self.result:
            bits.append(self.result)
        return " · ".join(b for b in bits if b)


RESUME_FAILED = ("This game could not be opened: its saved record does not replay. It is kept as it is; "
                 "the other games are not affected.")


def damaged_note(n: int) -> str:
    """What home says about games found damaged since the app started.

    >>> damaged_note(1)
    '1 game could not be read: its saved record is damaged. Restart the app to set it aside (it is kept, never deleted).'
    >>> damaged_note(2).split(":")[0]
    '2 games could not be read'
    """
    if n == 1:
        return ("1 game could not be read: its saved record is damaged. "
                "Restart the app to set it aside (it is kept, never deleted).")
    return (f"{n} games could not be read: their saved records are damaged. "
            "Restart the app to set them aside (they are kept, never deleted).")


def resume_hint(in_progress: int, reopens: bool) -> str:
    """What home says above the games in progress. ``reopens``: this app reopens the game
    played last when it starts (demo mode, after a crash too), so the table must learn
    here where the others are.

    >>> resume_hint(0, True)
    ''
    >>> resume_hint(1, True)
    'On starting, the app reopens the game played last. Tap a game to resume it.'
    >>> resume_hint(3, True)
    'On starting, the app reopens the game played last; the other 2 wait here. Tap a game to resume it.'
    >>> resume_hint(2, False)
    'Tap a game to resume it.'
    """
    if in_progress <= 0:
        return ""
    if not reopens:
        return "Tap a game to resume it."
    if in_progress == 1:
        return "On starting, the app reopens the game played last. Tap a game to resume it."
    others = "the other one waits here" if in_progress == 2 else f"the other {in_progress - 1} wait here"
    return f"On starting, the app reopens the game played last; {others}. Tap a game to resume it."


def more_below(n: int) -> str:
    """Under a list of games cut by the screen's edge: how many are below it.

    >>> more_below(0), more_below(1), more_below(2)
    ('', '▼ 1 more game below: scroll the list', '▼ 2 more games below: scroll the list')
    """
    if n <= 0:
        return ""
    return f"▼ {n} more game{'s' if n != 1 else ''} below: scroll the list"


def faction_name(game_id: str | None, faction: str) -> str:
    """A faction as players read it: the game's own name for it (its data/factions.json),
    or, without the game, the first installed game's that has it; never its id.

    >>> faction_name("lost_game", "red_team"), faction_name(None, "no-such-faction")
    ('Red Team', 'No Such Faction')
    """
    for gid in ([game_id] if game_id else []) + [g.id for g in catalog()]:
        try:
            found = facts.factions(gid).get(faction)
        except RulesError:  # a game no longer installed, or its facts unreadable: the next
            continue
        if found is not None:
            return found.name
    return faction.replace("-", " ").replace("_", " ").title()


def _joined(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def won_by(game_id: str, winner: str, players: Any) -> str:
    """The history's result: the winning players by name, with their faction's name when
    one faction won; the faction's name alone when no player is known.

    >>> won_by("lost_game", "gold", [{"id": "p1", "faction": "gold", "name": "Ann"}, {"id": "p2", "faction": "jet"}])
    'won by Ann (Gold)'
    >>> won_by("lost_game", "gold", []), won_by("lost_game", "p2", [{"id": "p2", "faction": "jet", "name": "Bob"}])
    ('won by the Gold', 'won by Bob')
    """
    seats = _seat_list(players)
    by_seat = [p for p in seats if p.get("id") == winner]
    if by_seat:  # a seat won (not a faction): its player
        return f"won by {_joined([p.get('name') or 'a player' for p in by_seat])}"
    faction = faction_name(game_id, winner)
    team = [p.get("name") or "a player" for p in seats if p.get("faction") == winner]
    if team:
        return f"won by {_joined(team)} ({faction})"
    return f"won by {faction}" if faction.startswith("The ") else f"won by the {faction}"


def rows(summaries: Iterable[Any]) -> list[GameRow]:
    out = []
    for g in summaries:
        winner = getattr(g, "winner", None)
        result = g.result
        if winner:
            result = won_by(g.game_id, winner, g.players)
        elif result is not None and not isinstance(result, str):
            result = getattr(result, "winner", None) or str(result)
            result = won_by(g.game_id, result, g.players)
        elif result:
            # A draw, with the reason the journal keeps ("draw: Bob ran out of time"): seat
            # ids in older records become the players' names.
            result = humanise(result, {p["id"]: p.get("name") or "" for p in _seat_list(g.players)})
        out.append(GameRow(str(g.key), game_title(g.game_id), _names(g.players), format_when(g.started),
                           format_duration(g.duration_s), result or ""))
    return out


def _seat_list(players: Any) -> list[dict[str, Any]]:
    seats = list(players.values()) if isinstance(players, dict) else list(players or ())
    return [p for p in seats if isinstance(p, dict) and p.get("id")]


def stats_lines(stats: Any) -> list[str]:
    """Stats across sessions as short lines for the home screen."""
    if stats is None or not getattr(stats, "plays", 0):
        return ["No finished games yet."]
    plural = "game" if stats.plays == 1 else "games"
    lines = [f"{stats.plays} {plural} played, {format_duration(stats.average_duration_s)} on average."]
    wins = dict(getattr(stats, "wins_by_faction", {}) or {})
    if wins:
        lines.append("Wins by faction: " + ", ".join(f"{faction_name(None, k)} {v}"
                                                     for k, v in sorted(wins.items(), key=lambda kv: -kv[1])))
    players = dict(getattr(stats, "wins_by_player", {}) or {})
    if players:
        top = sorted(players.items(), key=lambda kv: -kv[1])[:4]
        lines.append("Most wins: " + ", ".join(f"{k} {v}" for k, v in top))
    return lines

"""What one seat's phone is sent: built only from the engine's ``view(state, seat)``, the
prompt's awaiting for that seat, and that seat's own legal actions. No Kivy, no aiohttp.

Nothing here reads another seat's secrets: the view is the engine's per-seat view (its log
included, already as this seat may read it), the awaiting is this seat's own, and the
actions offered are this seat's (the harness checks that a seat's own verdicts never depend
on what it may not see). The differential test in ``tests/companion/web`` checks the whole
payload: two states differing only in a card this seat may not see give the same JSON.

>>> from companion import Journal, Table
>>> t = Table.create(Journal.open(":memory:"), game_id="liberation", options={"balance": 0}, seed=3,
...                  seats=[{"id": "dyn", "faction": "dynasty"}, {"id": "lib", "faction": "liberation"}])
>>> p = seat_payload(t, "lib")
>>> p["seat"], p["must"]["now"], p["actions"]
('lib', False, [])
"""
from __future__ import annotations

from typing import Any

from rules.core import CommitRequest
from rules.core.jsondata import to_data

# A seat's own listing is bounded: a phone page is not the place for thousands of buttons
# (a roll is never listed: chance comes from the table's dice or the app's roller).
MAX_ACTIONS = 200


def _card_names(game: Any, state: Any) -> dict[str, str]:
    """Card id → the name players read, where the game names its cards by a map (Liberation)."""
    map_of = getattr(game, "map_of", None)
    if map_of is None:
        return {}
    try:
        cities = map_of(state).cities
    except Exception:  # a game whose map_of needs something this state lacks: ids then
        return {}
    items = cities.values() if isinstance(cities, dict) else cities
    out: dict[str, str] = {}
    for c in items:
        cid, name = getattr(c, "id", None), getattr(c, "name", None)
        if isinstance(cid, str) and isinstance(name, str):
            out[cid] = name
    return out


def _label(kind: str, data: dict[str, Any], names: dict[str, str]) -> str:
    """A button's words: the action's kind and its fields, card ids shown by name."""
    verb = kind.rpartition(".")[2].replace("_", " ").capitalize()
    bits = []
    for k, v in data.items():
        if k in ("$", "seat", "source") or v in ("", None, False, (), []):
            continue
        if isinstance(v, list):
            v = ", ".join(names.get(str(x), str(x)) for x in v)
        elif isinstance(v, str):
            v = names.get(v, v)
        bits.append(f"{k.replace('_', ' ')}: {v}" if k not in ("card", "to", "city") else str(v))
    return verb + (" — " + "; ".join(bits) if bits else "")


def _is_secret(action: Any) -> bool:
    return bool(getattr(action, "secret", False) or getattr(type(action), "hidden_fields", ()))


def seat_payload(table: Any, seat: str) -> dict[str, Any]:
    """Everything ``seat``'s phone shows, as plain JSON data. Raises KeyError for a seat
    the table does not have."""
    with table._lock:  # one consistent moment: the view, the prompt and the listing agree
        view = table.private_view(seat)
        prompt = table.prompt
        awaiting = prompt.of(seat)
        actions: list[dict[str, Any]] = []
        truncated = False
        if awaiting is not None and not prompt.over:
            names = _card_names(table.game, table.state)
            for a in table.legal_actions():
                if a.seat != seat or getattr(a, "chance", False):
                    continue
                if len(actions) >= MAX_ACTIONS:
                    truncated = True
                    break
                data = to_data(a)
                data.pop("source", None)
                actions.append({"label": _label(a.kind, data, names), "kind": a.kind, "secret": _is_secret(a),
                                "action": data})
        else:
            names = _card_names(table.game, table.state)
        ply = table.ply
        over = table.outcome is not None
    hands = view.get("hands") if isinstance(view.get("hands"), dict) else {}
    mine = hands.get(seat, {}) if isinstance(hands, dict) else {}
    cards = mine.get("cards", []) if isinstance(mine, dict) else []
    hand = [{"id": c, "name": names.get(c, c), "text": ""} if isinstance(c, str) else c for c in cards]
    note = ""
    if awaiting is not None:
        note = getattr(awaiting, "note", "") or getattr(awaiting, "purpose", "") or ""
    waiting_for = [table.seat_name(s) for s in sorted(prompt.actors) if s != seat]
    return {
        "seat": seat,
        "name": table.seat_name(seat),
        "faction": next((str(s["faction"]).replace("_", " ").title() for s in table.seats if s["id"] == seat), ""),
        "game": table.game_id,
        "title": table.game.title,
        "ply": ply,
        "over": over,
        "must": {"now": awaiting is not None and not over, "note": note,
                 "commit": isinstance(awaiting, CommitRequest), "waiting_for": waiting_for},
        "hand": hand,
        "actions": actions,
        "truncated": truncated,
        "names": names,  # every card's printed name (the map's cities: public), for the page's words
        "view": view,
    }

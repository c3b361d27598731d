"""What one seat's phone is sent: built only from the engine's ``view(state, seat)``, the
prompt's awaiting for that seat, and that seat's own legal actions. No Kivy, no aiohttp.

Nothing here reads another seat's secrets: the view is the engine's per-seat view (its log
included, already as this seat may read it), the awaiting is this seat's own, and the
actions offered are this seat's (the harness checks that a seat's own verdicts never depend
on what it may not see). The differential test in ``tests/companion/web`` checks the whole
payload: two states differing only in a card this seat may not see give the same JSON.

>>> from companion import Journal, Table
>>> t = Table.create(Journal.open(":memory:"), game_id="stepping_stones", seed=3,
...                  seats=[{"id": "fox-1", "faction": "fox", "name": "Ann"}, {"id": "hare-1", "faction": "hare", "name": "Bob"}])
>>> p = seat_payload(t, "hare-1")
>>> p["seat"], p["must"]["now"], p["must"]["waiting_for"], p["actions"]
('hare-1', False, ['Ann'], [])

A roll is never listed (chance comes from the table's dice or the app's roller); once it
is made, the seat's phone offers that seat's choices, by their labels:

>>> t.roll_for_me().ply
0
>>> [(a["label"], a["action"]["seat"]) for a in seat_payload(t, "fox-1")["actions"]]
[('Leap', 'fox-1'), ('Gather', 'fox-1')]
>>> seat_payload(t, "hare-1")["actions"]
[]
"""
from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Protocol

from rules.core import CommitRequest, DrawRequest, RollRequest
from rules.core.harness import strings_in
from rules.core.jsondata import to_data

# A seat's own listing is bounded: a phone page is not the place for thousands of buttons
# (a roll is never listed: chance comes from the table's dice or the app's roller).
MAX_ACTIONS = 200


def _card_names(game: Any, state: Any) -> dict[str, str]:
    """Id → the name players read: the game's own names of its pieces (``Game.names``: its
    cities, cards, squares…), read from the game's options, which every seat saw at setup."""
    return dict(game.names(dict(state.options)))


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


_NOT_SECRETS = ("viewer", "prompt", "log")


def only_yours(mine: Any, public: Any) -> Any:
    """The parts of a seat's view that the public view does not hold: what only this seat
    sees (its hand, its base, its missions), whatever the game calls them. Both come from
    the engine's ``view``, so this is never more than the seat's own view.

    >>> only_yours({"hands": {"a": {"count": 2, "cards": ["x", "y"]}, "b": {"count": 1}}, "turn": 3},
    ...            {"hands": {"a": {"count": 2}, "b": {"count": 1}}, "turn": 3})
    {'hands': {'a': {'cards': ['x', 'y']}}}
    """
    if isinstance(mine, dict) and isinstance(public, dict):
        out = {}
        for k, v in mine.items():
            if k in _NOT_SECRETS or (k in public and public[k] == v):
                continue
            out[k] = only_yours(v, public[k]) if k in public else v
        return out
    return mine


def _is_secret(action: Any) -> bool:
    return bool(getattr(action, "secret", False) or getattr(type(action), "hidden_fields", ()))


def is_private(action: Any, data: dict[str, Any], awaiting: Any, known: frozenset[str]) -> bool:
    """Whether ``action`` is a choice only its seat can make, so the table screen cannot
    offer it without the privacy gate: a secret (a commit, a card put face down), a kind
    the engine allows because of something only the seat knows (the prompt's
    ``private``), or an action naming something of the seat's view that the public view
    does not hold (``known``: the strings of :func:`only_yours`, e.g. a card in its hand).

    >>> from rules.core import Decision
    >>> class A:  # a stand-in action
    ...     kind, secret = "play", False
    >>> is_private(A(), {"card": "gains-01"}, Decision(("play",)), frozenset({"gains-01"}))
    True
    >>> is_private(A(), {"card": "a-city"}, Decision(("play",)), frozenset({"gains-01"}))
    False
    >>> is_private(A(), {}, Decision(("done",), private=("play",)), frozenset())
    True
    """
    if _is_secret(action) or action.kind in getattr(awaiting, "private", ()):
        return True
    return any(v in known for k, v in data.items() if k not in ("$", "seat", "source") for v in strings_in(v))


Extras = Callable[[str], Iterable[tuple[str, Any]]]
# A seat's private choices in the words its gate page gives them, as (label, action): the
# game screen presenter's ``hand_page`` choices. Only labels: the listing stays the Table's.
Words = Callable[[str], Iterable[tuple[str, Any]]]
# A seat's own cards as (id, name, rule text): the game screen presenter's ``card_texts``.
Texts = Callable[[str], Iterable[tuple[str, str, str]]]



class Voice(Protocol):
    """The seat's page in its game's words: the game screen presenter's phone hooks
    (``companion/ui/presenters/base.py``), so that this module names no game."""

    def next_step(self, seat: str) -> str: ...
    def secret_lines(self, seat: str) -> list[str]: ...
    def hand_title(self, seat: str) -> str: ...
    def phone_line(self, text: str) -> str: ...


# What a phone sends for one of the app's extra choices: the choice's words, never its
# action. A physical draw's action names one copy of a card (the one the deck holds, when
# cards come alike), which would tell the seat what the deck holds; the server finds the
# action again by the words (``offered``), in the Table's thread, when the phone taps it.
OFFER = "phone.offer"


def offered(extras: Extras | None, seat: str, label: str) -> Any | None:
    """The action behind the extra choice ``label`` offered to ``seat`` now, or None."""
    for text, a in (extras(seat) if extras is not None else ()):
        if getattr(a, "seat", None) == seat and _offer_label(text, a) == label:
            return a
    return None


def _offer_label(text: str, a: Any) -> str:
    return f"I drew {text}" if getattr(a, "chance", False) else text


def _key(data: dict[str, Any]) -> Any:
    """An action's data as a hashable key, its source left out (a choice is the same
    choice whoever's screen offers it)."""
    try:
        key = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in data.items() if k != "source"))
        hash(key)
        return key
    except TypeError:  # a nested object: its JSON text
        return json.dumps({k: v for k, v in data.items() if k != "source"}, sort_keys=True)


def seat_payload(table: Any, seat: str, extras: Extras | None = None, texts: Texts | None = None,
                 words: Words | None = None, voice: Voice | None = None) -> dict[str, Any]:
    """Everything ``seat``'s phone shows, as plain JSON data. Raises KeyError for a seat
    the table does not have.

    ``extras(seat)``: more (label, action) choices the app knows how to offer this seat
    without telling it anything it may not know — a physical card drawn, listed as every
    card the seat cannot rule out (the game screen's presenter ``physical_draws``), never
    the engine's exact deck, whose gaps are another seat's hand. Each is sent as its words
    only (an ``OFFER``), never its action.

    ``texts(seat)``: the seat's own cards with their rule text (the game screen
    presenter's ``card_texts``); without it, the hand is the view's ``hands`` with no text.

    ``words(seat)``: (label, action) of the seat's choices as its gate page words them
    (the presenter's ``hand_page``): a listed action the page words is labelled so ("Lay
    Pistols face down (total 3)"); the actions listed are the Table's all the same."""
    with table._lock:  # one consistent moment: the view, the prompt and the listing agree
        view = table.private_view(seat)
        yours = only_yours(view, table.view())
        prompt = table.prompt
        awaiting = prompt.of(seat)
        actions: list[dict[str, Any]] = []
        truncated = False
        names = _card_names(table.game, table.state)
        own = list(texts(seat)) if texts is not None else None
        if awaiting is not None and not prompt.over:
            # Every seat by its player's name (public), the seat's own cards by their names.
            names_of = {**names, **{st["id"]: table.seat_name(st["id"]) for st in table.seats},
                        **{c: name for c, name, _text in own or ()}}
            # (seat ids are keys of many views, and every seat's name is public)
            known = frozenset(strings_in(yours)) - {s["id"] for s in table.seats}
            # The seat's private choices first (the ones only its phone or the gate can
            # offer), so that the cap never leaves one out for a public one the table shows.
            private: list[dict[str, Any]] = []
            public: list[dict[str, Any]] = []
            for a in table.legal_actions():
                if a.seat != seat or getattr(a, "chance", False):
                    continue
                data = to_data(a)
                data.pop("source", None)
                mine = is_private(a, data, awaiting, known)
                (private if mine else public).append(
                    {"label": _label(a.kind, data, names_of), "kind": a.kind, "secret": _is_secret(a),
                     "private": mine, "action": data})
            if words is not None and private:  # the gate page's words, where it words a choice listed
                worded = {_key(to_data(a)): str(label) for label, a in words(seat) if getattr(a, "seat", None) == seat}
                for entry in private + public:
                    entry["label"] = worded.get(_key(entry["action"]), entry["label"])
            labels: set[str] = set()
            for text, a in (extras(seat) if extras is not None else ()):
                label = _offer_label(text, a)
                if getattr(a, "seat", None) != seat or label in labels:
                    continue
                labels.add(label)
                private.append({"label": label, "kind": a.kind, "secret": True, "private": True,
                                "action": {"$": OFFER, "seat": seat, "offer": label}})
            listed = private + public
            if voice is not None:  # the labels in the game's words too
                for entry in listed:
                    entry["label"] = voice.phone_line(entry["label"])
            truncated = len(listed) > MAX_ACTIONS
            actions = listed[:MAX_ACTIONS]
        ply = table.ply
        over = table.outcome is not None
    if own is not None:
        hand = [{"id": c, "name": name, "text": text} for c, name, text in own]
    else:
        hands = view.get("hands") if isinstance(view.get("hands"), dict) else {}
        mine = hands.get(seat, {}) if isinstance(hands, dict) else {}
        cards = mine.get("cards", []) if isinstance(mine, dict) else []
        hand = [{"id": c, "name": names.get(c, c), "text": ""} if isinstance(c, str) else c for c in cards]
    note = ""
    if awaiting is not None:
        note = getattr(awaiting, "note", "") or getattr(awaiting, "purpose", "") or ""
    lines = [str(line.get("text", "")) for line in view.get("log", ()) if isinstance(line, dict)]
    if voice is not None:  # the seat's own view only: the presenter words what the page already holds
        log_lines = [voice.phone_line(line) for line in lines]
        step, secrets, hand_title = voice.next_step(seat), list(voice.secret_lines(seat)), voice.hand_title(seat)
    else:
        log_lines, step, secrets, hand_title = lines, (note if awaiting is not None and not over else ""), [], "Your hand"
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
                 "commit": isinstance(awaiting, CommitRequest), "waiting_for": waiting_for,
                 # a roll or a draw is made at the table (its dice, its deck, or the app's roller)
                 "at_table": "roll" if isinstance(awaiting, RollRequest) else "draw" if isinstance(awaiting, DrawRequest) else ""},
        "next": step,
        "hand_title": hand_title,
        "hand": hand,
        "secrets": secrets,
        "log": log_lines,
        "actions": actions,
        "truncated": truncated,
        "yours": yours,  # what only this seat sees, as its view holds it
        # The printed names of what this page shows (public names: a card named here is one
        # the page holds anyway), for the page's words.
        "names": {k: v for k, v in names.items() if k in strings_in([view, actions, hand])},
        "view": view,
    }

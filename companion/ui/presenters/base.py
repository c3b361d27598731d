"""The presenter contract: what a game's table screen asks of its presenter, once.

A game's presenter (``companion/ui/games/<g>/presenter.py``) turns a Table running that
game into what its screen shows, without Kivy. :class:`GamePresenter` holds what is the
same for every game (the public view, the seats and their names, who acts, whether the
game is over, the turn and prompt lines made from the kernel's
:class:`~rules.core.prompt.Prompt`, buttons made from the prompt's kinds, engine words
made player words, the legal actions) and declares every optional hook the shared
screens call (:class:`~companion.ui.gamescreen.GameScreen`, the end screen, the devices
screen, the phones' seat view) with its default. A game overrides only what is its own.

Hooks that read a seat's secrets (``hand_page``, ``physical_draws``,
``physical_draw_page``, ``card_texts``, ``private_news``, ``drawn_news``) are called
only behind the privacy gate after the hold, or for that seat's own phone; everything
else reads the PUBLIC view only.

>>> from types import SimpleNamespace
>>> import rules
>>> from rules.core import Decision, Prompt
>>> game = rules.catalog()[0].id  # any game: the base names none
>>> table = SimpleNamespace(game_id=game, seats=[{"id": "s1", "name": "Ann"}], options={}, outcome=None,
...                         prompt=Prompt.single("s1", Decision(("move",), note="pick a tile")))
>>> p = GamePresenter(table)
>>> p.who("s1"), p.actors(), p.is_over()  # a seat without a faction: its name alone
('Ann', ['s1'], False)
>>> p.prompt_line()
'Ann: pick a tile'
>>> p.humanise("s1 moves (RULINGS T-03)")
'Ann moves'
"""
from __future__ import annotations

import functools
import re
from typing import Any, ClassVar, Mapping

from rules import PUBLIC, facts
from rules.core import CommitRequest, Decision, Draw, DrawRequest, Roll, RollRequest
from rules.core.prompt import Awaiting

from .actions import ButtonSpec, GateChoice, GateLine, GateSection, Moment
from .words import humanise, option_words

# A rulebook section a line cites for referees: "[THE DICE]" (a rule's name, as a refusal
# carries it) or "(5.2.5.1)" (a numbered section). A player reads the line, not the index.
_SECTION_TAG = re.compile(r"\s*(?:\[[A-Z][A-Z0-9 '’&,./-]*\]|\((?:§\s*)?\d+(?:\.\d+)+\))")


def without_sections(text: str) -> str:
    """``text`` without the rulebook sections it cites.

    >>> without_sections("Bob may not move now [THE DICE]")
    'Bob may not move now'
    >>> without_sections("Both decks are shuffled (5.2.5.1).")
    'Both decks are shuffled.'
    """
    return _SECTION_TAG.sub("", text).replace(" .", ".").strip()


class GamePresenter:
    """What a game's table screen shows, from a Table (``self.table``). Subclass it per
    game; a dataclass subclass keeps ``table`` as its first field."""

    table: Any
    game_id: ClassVar[str] = ""
    """The game this presenter shows (its engine's id): names its factions' glyphs and
    its options' words. Empty: the Table's own ``game_id``."""

    undo_rule: ClassVar[str] = ""
    """The game's undo policy in player words, shown under a refused undo; "" for the
    screen's (the table's: until the next player acts)."""

    _info: tuple[int, str] = (-1, "")  # (ply, words): see :attr:`info`

    def __init__(self, table: Any) -> None:
        self.table = table

    # ------------------------------------------------------------- reading

    _view: tuple[Any, dict[str, Any]] | None = None  # (the Table's version, its public view)

    def view(self) -> dict[str, Any]:
        """The Table's PUBLIC view: everything the shared screen may draw. Made once per
        change of the game (a refresh asks for it, through names and seats, dozens of
        times). Read it, never change it: it is shared until the game changes."""
        version = getattr(self.table, "version", None)
        cached = self._view
        if version is not None and cached is not None and cached[0] == version:
            return cached[1]
        view: dict[str, Any] = self.table.view(PUBLIC)
        self._view = (version, view)
        return view

    def seats(self) -> list[dict[str, str]]:
        """Every seat as ``{"id", "faction", "name"}``, in the Table's order; a seat
        without a name is named by its id."""
        out = []
        for s in self.table.seats:
            if isinstance(s, Mapping):
                out.append({"id": s["id"], "faction": s.get("faction") or "", "name": s.get("name") or s["id"]})
            else:
                out.append({"id": s.id, "faction": s.faction or "", "name": getattr(s, "name", "") or s.id})
        return out

    def seat_names(self) -> dict[str, str]:
        return {s["id"]: s["name"] for s in self.seats()}

    def name(self, seat: str) -> str:
        """The seat's player's name (its id when it has none)."""
        return self.seat_names().get(seat, seat)

    def faction_of(self, seat: str) -> str:
        """The seat's faction id ("" when it has none yet)."""
        return next((s["faction"] for s in self.seats() if s["id"] == seat), "")

    def who(self, seat: str) -> str:
        """The seat named with its faction's glyph and name ("Ann (▲ Cops)"), never the
        colour alone; the name alone while the seat has no faction."""
        f = self.factions().get(self.faction_of(seat))
        return f"{self.name(seat)} ({f.title})" if f is not None else self.name(seat)

    def factions(self) -> Mapping[str, facts.Faction]:
        """The game's factions as players see them (its ``data/factions.json``)."""
        return facts.factions(self.game_id or self.table.game_id)

    def actors(self) -> list[str]:
        """The seats that must act now, sorted."""
        p = self.table.prompt
        return sorted(p.actors) if p is not None else []

    def is_over(self) -> bool:
        return self.table.outcome is not None

    def legal(self) -> list[Any]:
        """The engine's legal actions for the current prompt (none once over)."""
        if self.is_over() or self.table.prompt is None:
            return []
        return list(self.table.legal_actions())

    # ------------------------------------------------------------- words

    def words(self) -> dict[str, str]:
        """Hook: the game's own ids and their names (squares, cities, cards…), for
        :meth:`humanise`. Default: the engine's own ``names(options)`` (rules/README.md
        "Writing a game"), so a game names its pieces once, in its engine."""
        from rules import load

        return dict(load(self.game_id or self.table.game_id).names(dict(self.table.options or {})))

    def option_words(self) -> dict[str, str]:
        """The game's option and choice ids in player words (its engine's options)."""
        from rules import load

        return option_words(load(self.game_id or self.table.game_id).options)

    @functools.cached_property
    def _names(self) -> dict[str, str]:
        # Built once per presenter: a presenter lives as long as its Table is bound, and
        # a game's board, cards and seats do not change while it is played.
        names = self.option_words()
        names.update(self.words())
        names.update(self.seat_names())
        return names

    def humanise(self, text: str) -> str:
        """Engine and Table sentences in player words: seats, options and the game's own
        ids by name, no ruling codes (``presenters/words.py``)."""
        return humanise(text, self._names)

    def in_words(self, text: Any) -> str:
        """An engine's sentence in the app's language and in player words: a
        :class:`~rules.core.text.Text` worded through the game's catalogue
        (:mod:`companion.i18n`), a plain string (a game not yet converted, a line saved
        before) as it is; then :meth:`humanise`."""
        from companion.i18n import current, render

        return self.humanise(render(text, current(), self.game_id or self.table.game_id))

    # ------------------------------------------------------------- the turn and the prompt

    def turn_line(self, view: dict[str, Any] | None = None) -> str:
        """Hook: the turn in words, for the screen's header. Default: "Game over", or
        whose turn it is from the prompt."""
        if self.is_over():
            return "Game over"
        actors = self.actors()
        return f"{', '.join(self.who(s) for s in actors)} to act" if actors else ""

    def turn_words(self, turn: int, seat: str = "") -> str:
        """"Turn 3 · Ann (▲ Cops)": a turn's number and whose turn it is (the number alone
        when nobody's)."""
        return f"Turn {turn} · {self.who(seat)}" if seat else f"Turn {turn}"

    def awaiting_words(self, awaiting: Awaiting) -> str:
        """What a seat awaits, in words, from the kernel's request: a roll's or a draw's
        purpose, a decision's note (or its kinds), a secret choice's purpose."""
        if isinstance(awaiting, (RollRequest, DrawRequest, CommitRequest)) and awaiting.purpose:
            return self.humanise(awaiting.purpose)
        if isinstance(awaiting, Decision):
            return self.humanise(awaiting.note or " or ".join(awaiting.shown))
        return self.humanise(awaiting.describe())

    def end_line(self) -> str:
        """The prompt line once the game is over: the outcome's reason."""
        o = self.table.outcome
        return f"Game over — {self.in_words(getattr(o, 'words', None) or o.reason)}." if o is not None else ""

    def prompt_line(self) -> str:
        """Hook: who must act and what the game waits for, in words. Default: the acting
        seats, then what they all await (nothing more when they await different things)."""
        p = self.table.prompt
        if p is None or self.is_over():
            return self.end_line()
        who = ", ".join(self.who(s) for s in sorted(p.actors))
        awaiting = p.public().awaiting
        note = self.awaiting_words(awaiting) if awaiting is not None else ""
        return f"{who}: {note}" if note else who

    # ------------------------------------------------------------- the action panel

    def action_label(self, action: Any) -> str:
        """Hook: a public action's button words. Default: its kind, in player words."""
        return self.humanise(str(action.kind)).capitalize()

    def buttons(self) -> list[ButtonSpec]:
        """Hook: the action panel for the current prompt. Default, from the prompt's kinds:
        for a seat awaiting a draw, the app's card and the physical card's entry; a button
        per legal action of a kind the PUBLIC prompt shows (never a kind allowed by a
        hidden card); rolls go to the dice tray."""
        p = self.table.prompt
        if p is None or self.is_over():
            return []
        public = p.public()
        out: list[ButtonSpec] = []
        for seat, awaiting in public.awaiting_of_type(DrawRequest):
            out.append(ButtonSpec(f"⚄ App's card for {self.name(seat)}", intent="app-draw", role="primary"))
            out.append(ButtonSpec(f"Enter {self.name(seat)}'s card…", intent="physical-draw", seat=seat))
        for a in self.legal():
            if isinstance(a, (Roll, Draw)):
                continue
            awaiting = public.of(a.seat)
            if awaiting is None or a.kind not in awaiting.shown:
                continue
            out.append(ButtonSpec(self.action_label(a), action=a))
        return out

    def standing_buttons(self) -> list[ButtonSpec]:
        """Hook: buttons offered whatever the turn (each seat's hand, an audit), after the
        turn's own. Default: none (a game whose seats hold hands offers :meth:`hand_buttons`)."""
        return []

    def hands_menu(self) -> list[tuple[str, str]]:
        """The "Hands" page: (seat id, its button's words) per seat, e.g. ("cops-1", "▤ Ann's
        hand"). A game may say more (how many cards each holds, when that is public)."""
        return [(s["id"], f"▤ {s['name']}'s hand") for s in self.seats()]

    def hand_buttons(self) -> list[ButtonSpec]:
        """A quiet button per seat opening its hand behind the gate: any seat may look at
        its own hand at any time."""
        return [ButtonSpec(f"▤ {s['name']}'s hand", "hand", seat=s["id"], role="quiet") for s in self.seats()]

    @property
    def info(self) -> str:
        """What the last tap on the board asked about, for as long as the game has not
        moved on: the next action (any seat's, a die, an undo) takes it down."""
        ply, text = self._info
        return text if ply == self.table.ply else ""

    @info.setter
    def info(self, text: str) -> None:
        self._info = (self.table.ply, text)

    def entity_name(self, kind: str, ident: str) -> str:
        """Hook: a board entity an input mapping names ("tile", "o-docks") in player
        words, for the devices screen. Default: the id."""
        return ident

    # ------------------------------------------------------------- behind the gate

    def hand_purpose(self, seat: str) -> str:
        """Hook: why ``seat`` is asked to the gate, for its hand ("your face-down hand")."""
        return "your hand"

    def hand_page(self, seat: str, news: str = "") -> list[GateSection]:
        """Hook: ``seat``'s page behind the gate: ``news`` (the card it just drew), what it
        holds, and the choices it may make with it now. Default: the news, and that the
        game hides nothing in a hand."""
        return [GateSection(lines=self.news_lines(news) + (GateLine("Nothing hidden to show here."),))]

    def news_lines(self, news: str) -> tuple[GateLine, ...]:
        """The line a gate page opens with when its seat has news (the card it drew)."""
        return (GateLine("◉ " + news, tone="highlight"),) if news else ()

    def physical_draws(self, seat: str) -> list[tuple[str, Any]]:
        """Hook: the cards ``seat`` may say it drew from the table's own deck, each with
        the Draw that enters it (behind the gate, or on its phone): only what the seat
        cannot rule out from what it may know, never the deck's exact contents. Default:
        none."""
        return []

    def physical_draw_page(self, seat: str) -> list[GateSection]:
        """Hook: the gate's page for a card drawn from the table's deck. Default: a button
        per :meth:`physical_draws` choice."""
        choices = tuple(GateChoice(label, action, span="full") for label, action in self.physical_draws(seat))
        return [GateSection(lines=(GateLine("Tap the card you drew:"),), choices=choices)]

    def physical_draw_continues(self, seat: str) -> bool:
        """Hook: after a card entered behind the gate, whether the same seat enters
        another on the same page (a deal). Default: no."""
        return False

    def drawn_news(self, action: Any) -> str:
        """Hook: after ``action`` (a draw), what only its seat may read now; the screen then
        offers that seat a look behind the gate. Default: nothing."""
        return ""

    def card_texts(self, seat: str) -> list[tuple[str, str, str]]:
        """Hook: ``seat``'s own cards as (id, name, rule text), for its phone. Default: none."""
        return []

    def private_news(self, seat: str) -> list[str]:
        """Hook: lines only ``seat`` may read (what it drew, what it stole). Default: none."""
        return []

    # ------------------------------------------------------------- on the seat's phone

    def next_step(self, seat: str) -> str:
        """Hook: what ``seat`` does next, plainly, for its phone ("" when it has nothing to
        do): what the game asks, then how it is done at a physical table (a card drawn
        from the deck is entered on the phone; dice are thrown at the table)."""
        awaiting = self.table.prompt.of(seat)
        if awaiting is None or self.is_over():
            return ""
        why = self.phone_line(self.awaiting_words(awaiting))
        why = why[:1].upper() + why[1:]
        if isinstance(awaiting, DrawRequest):
            how = ("draw a card from the deck, then enter it here" if self.physical_draws(seat)
                   else "a card is drawn at the table")
            return f"{why}: {how}."
        if isinstance(awaiting, RollRequest):
            return f"{why}: throw the dice at the table."
        return why + ("" if why.endswith((".", "!", "?")) else ".")

    def secret_lines(self, seat: str) -> list[str]:
        """Hook: what only ``seat`` may read beyond the cards it holds (its phone shows
        those as cards), in player words. Default: its :meth:`private_news`."""
        return [self.phone_line(line) for line in self.private_news(seat)]

    def hand_title(self, seat: str) -> str:
        """Hook: what a seat's own cards are called on its phone. Default: "Your hand"."""
        return "Your hand"

    def phone_line(self, text: str) -> str:
        """A line of the game (a log line, a prompt) for a phone: player words, without
        the rulebook section tags a referee reads (:func:`without_sections`)."""
        return without_sections(self.humanise(text))

    # ------------------------------------------------------------- moments and the end

    def moment(self, before: dict[str, Any], after: dict[str, Any]) -> Moment | None:
        """Hook: what one action just decided, for the whole table, from two PUBLIC views
        one ply apart (so nothing hidden can show). Default: nothing."""
        return None

    def end_words(self) -> dict[str, str]:
        """Hook: names for the ids the end screen's scores show. Default: none."""
        return {}

    def end_notes(self) -> list[str]:
        """Hook: lines under the end screen's scores (how a tie was broken). Default: none."""
        return []

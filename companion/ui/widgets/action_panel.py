"""The action panel every game screen shows: the buttons for what the game waits for now,
from the presenter's :class:`~companion.ui.presenters.actions.ButtonSpec` values.

:class:`ButtonRow` lays buttons out two to a row when a label fits in half the width and
one to a row otherwise, and grows a button's height as its label wraps, so nothing is cut
at any text size. :class:`ActionPanel` holds a row of them, as tall as they are, and
rebuilds its buttons only when they change (a rebuild redraws the whole panel). It does
not scroll: the screen's side column is the one scroll area around it, the panel first
in it (a scroll area in a scroll area fought over every drag at 800×480). New choices
never scroll that column: nothing moves under a finger.

While a tap's action is being recorded (its commit runs off the UI thread: see
companion/ui/pump.py), :meth:`ActionPanel.hold` marks the tapped button and makes every
button untappable, so nothing is submitted twice; :meth:`ActionPanel.release` when the
Table's answer is in."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.stacklayout import StackLayout

from ..kvload import load_kv
from ..presenters.actions import ButtonSpec
from .base import TCButton

# (label, role, span, callback)
Item = tuple[str, str, str, Callable[[], None]]


class ButtonRow(StackLayout):
    """Buttons two to a row when they fit, full width when they do not; a button grows
    taller as its label wraps.

    New buttons are shown in the buttons already there: each keeps its place and takes
    the new label, role and act, and only a row that grows makes buttons (a button's kv
    rules cost about a millisecond each on a Pi-class core: a hand of 30 cards took 130 ms
    to show). Buttons a row lets go are kept, emptied, for the next row that grows."""

    _spare: list[TCButton] = []  # shared by every row; never on screen, never with words

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._spans: dict[int, str] = {}
        self._rendered: dict[int, tuple[str, float, float]] = {}  # what each label was last rendered for
        self._arrange_soon = Clock.create_trigger(lambda _dt: self._arrange(), -1)
        self.fbind("width", self._arrange_soon)

    def set_buttons(self, items: Sequence[Item]) -> None:
        theme = App.get_running_app().theme
        shown = list(reversed(self.children))
        for b in shown[len(items):]:
            self._let_go(b)
        self._spans = {}
        for i, (label, role, span, callback) in enumerate(items):
            b = shown[i] if i < len(shown) else self._take()
            b.text, b.role, b.act = label, role, callback  # type: ignore[attr-defined]
            b.disabled = False
            # A card's words: the small size, as on the printed card.
            b.font_size = theme.fs_small if span == "tile" else theme.fs_body
            self._spans[id(b)] = span
        self._arrange()

    @classmethod
    def prepare(cls, count: int, per_frame: int = 4, after: float = 0.5) -> None:
        """Make spare buttons ahead, a few a frame from ``after`` seconds on, until
        ``count`` are spare: a page of a whole hand then shows without making any while a
        player waits."""
        def more(_dt: float) -> None:
            for _ in range(min(per_frame, count - len(cls._spare))):
                cls._spare.append(cls._made())
            if len(cls._spare) < count:
                Clock.schedule_once(more, 0)

        Clock.schedule_once(more, after)

    @staticmethod
    def _made() -> TCButton:
        b = TCButton(size_hint=(None, None), height=dp(52))
        b.act = None  # type: ignore[attr-defined]
        b.bind(on_release=lambda btn: btn.act() if btn.act is not None else None)
        return b

    def _take(self) -> TCButton:
        b = self._spare.pop() if self._spare else self._made()
        b.fbind("one_line_width", self._arrange_soon)
        b.fbind("texture_size", self._arrange_soon)
        self.add_widget(b)
        return b

    def _let_go(self, b: TCButton) -> None:
        self.remove_widget(b)
        b.funbind("one_line_width", self._arrange_soon)
        b.funbind("texture_size", self._arrange_soon)
        b.text, b.act = "", None  # type: ignore[attr-defined]  # a card's name never stays in a spare
        self._rendered.pop(id(b), None)
        self._spare.append(b)

    def _arrange(self) -> None:
        inner = max(dp(48), self.width - self.padding[0] - self.padding[2])
        gap = self.spacing[0]
        half = (inner - gap) / 2 - 1  # a px less: two halves and the gap fit one row
        pairable = half >= dp(110)  # a narrow panel: one button to a row
        # Tiles (a card's title and text): as many columns of at least 230 dp as fit.
        cols = max(1, int((inner + gap) // (dp(230) + gap)))
        tile = (inner - gap * (cols - 1)) / cols - 1
        for b in self.children:
            span = self._spans.get(id(b), "auto")
            if span == "tile":
                b.width = tile
                self._render(b)
                b.height = max(dp(88), b.texture_size[1] + dp(14))
                continue
            # "auto": half when the label fits there on one line, or on two (a short
            # phrase wraps; the button grows): more buttons show without scrolling.
            fits = b.one_line_width <= half or (" " in b.text.strip() and b.one_line_width <= 2 * half - dp(36))
            paired = pairable and (span == "half" or (span == "auto" and fits))
            b.width = half if paired else inner
            self._render(b)
            b.height = max(dp(52), b.texture_size[1] + dp(14))

    def _render(self, b: TCButton) -> None:
        """Render the label at its new width now, so the button has its final height in
        this frame (a finger may tap it before the next); a label already rendered for
        its words, width and size is not rendered again."""
        key = (b.text, b.width, b.font_size)
        if self._rendered.get(id(b)) == key:
            return
        self._rendered[id(b)] = key
        b.texture_update()
        b._trigger_texture.cancel()  # rendered: not again on the next frame


class ActionPanel(BoxLayout):
    """A :class:`ButtonRow` of the game's buttons; ``tap(spec)`` is called on a tap."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._shown: tuple[ButtonSpec, ...] | None = None
        self._holding = False  # a tap's action is being recorded: no button is tappable
        self._held: ButtonSpec | None = None  # the tapped button (None: a tap on the board)

    def show(self, specs: Sequence[ButtonSpec], tap: Callable[[ButtonSpec], None]) -> bool:
        """Show ``specs``; returns False (and touches nothing) when they are already shown."""
        specs = tuple(specs)
        row = self.ids.row
        if specs == self._shown and len(row.children) == len(specs):
            return False
        self._shown = specs
        row.set_buttons([(s.label, s.role, s.span, (lambda s=s: tap(s))) for s in specs])
        if self._holding:  # new buttons while a tap is recorded (a die came first): held too
            self._apply_hold()
        return True

    RECORDING = " — recording…"

    def hold(self, spec: ButtonSpec | None) -> None:
        """A tap's action is being recorded: ``spec``'s button (None: the tap was on the
        board) says so, and no button is tappable until :meth:`release`."""
        self._holding, self._held = True, spec
        self._apply_hold()

    def release(self) -> None:
        """The Table answered the tap: the buttons as the presenter gave them."""
        if self._holding:
            self._holding, self._held = False, None
            self._apply_hold()

    @property
    def holding(self) -> bool:
        return self._holding

    def _apply_hold(self) -> None:
        for spec, button in zip(self._shown or (), self.buttons):
            button.disabled = self._holding
            button.text = spec.label + self.RECORDING if self._holding and spec == self._held else spec.label

    def forget(self) -> None:
        """The next :meth:`show` rebuilds (a new game's buttons may equal the last game's)."""
        self._shown = None

    @property
    def buttons(self) -> list[Any]:
        return list(reversed(self.ids.row.children))


load_kv(__file__)

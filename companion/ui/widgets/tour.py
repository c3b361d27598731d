"""The table tour over a game screen: everything dimmed but the part being explained,
outlined, with a card beside it saying what it is for, Next and Skip. It takes every
touch while it shows (nothing is played by accident during the tour). The steps are the
presenter's (``presenters/tour.py``), their words data (each game's ``tour.json`` in its
UI package, else the shared ``data/tour.json``)."""
from __future__ import annotations

from typing import Any, Callable

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.scrollview import ScrollView

from ..kvload import load_kv
from ..presenters.tour import TourModel


class TourOverlay(FloatLayout):
    title = StringProperty("")
    text = StringProperty("")
    counter = StringProperty("")
    is_last = BooleanProperty(False)
    hole = ListProperty([0, 0, 0, 0])  # the outlined part: x, y, width, height (the overlay's parent's coordinates)
    card_side = StringProperty("right")  # where the card sits: away from the outlined part

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.model = TourModel(())
        self._screen: Any = None
        self._on_done: Callable[[], None] | None = None

    def start(self, screen: Any, model: TourModel, on_done: Callable[[], None] | None = None) -> None:
        """Show ``model``'s steps over ``screen`` (its ``ids`` name the parts)."""
        self.model, self._screen, self._on_done = model, screen, on_done
        if self.parent is None:
            screen.add_widget(self)
        self._show()

    def _target(self) -> Any:
        """The current step's widget, skipping steps whose part this screen does not show
        now (no clocks in an untimed game)."""
        while not self.model.done:
            if self._shows(self.model.step.target):
                return self._screen.ids[self.model.step.target]
            self.model.next()
        return None

    def _show(self) -> None:
        target = self._target()
        if target is None:
            self.finish()
            return
        step = self.model.step
        self.title, self.text = step.title, step.text
        shown = [i for i, st in enumerate(self.model.steps) if self._shows(st.target)]
        self.counter = f"{shown.index(self.model.index) + 1} / {len(shown)}"
        self.is_last = shown[-1] == self.model.index
        node = target.parent
        while node is not None and node is not node.parent:
            if isinstance(node, ScrollView):
                node.scroll_to(target, padding=dp(4), animate=False)  # a part scrolled away is brought into view
                break
            node = node.parent
        Clock.schedule_once(lambda _dt: self._outline(target), 0)

    def _shows(self, target: str) -> bool:
        """Whether this screen shows the part a step is about (no clocks in an untimed game)."""
        w = self._screen.ids.get(target)
        return w is not None and w.width > 1 and w.height > 1 and w.opacity > 0

    def _outline(self, target: Any) -> None:
        x, y = self.to_widget(*target.to_window(target.x, target.y))
        self.hole = [x, y, target.width, target.height]
        self.card_side = "right" if x + target.width / 2 < self.center_x else "left"

    def next_step(self) -> None:
        self.model.next()
        self._show()

    def skip(self) -> None:
        self.model.skip()
        self.finish()

    def finish(self) -> None:
        if self.parent is not None:
            self.parent.remove_widget(self)
        done, self._on_done = self._on_done, None
        if done is not None:
            done()

    # The tour takes every touch while it shows; its card's buttons still work.
    def on_touch_down(self, touch: Any) -> bool:
        super().on_touch_down(touch)
        return True

    def on_touch_move(self, touch: Any) -> bool:
        super().on_touch_move(touch)
        return True

    def on_touch_up(self, touch: Any) -> bool:
        super().on_touch_up(touch)
        return True


load_kv(__file__, "tour.kv")

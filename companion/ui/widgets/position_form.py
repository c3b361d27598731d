"""The setup wizard's "game already under way" page: one block per field of the position
form (``presenters/position_form.py``), each with the engine's problems beside it, live.
Secret fields are not here: each holder enters them behind the privacy gate
(:func:`secret_entry`), and the public page only says whether they were entered."""
from __future__ import annotations

from typing import Any, Callable

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.spinner import Spinner, SpinnerOption
from kivy.uix.stacklayout import StackLayout

from ..presenters.position_form import Field, PositionForm
from .base import TCButton, TCLabel, TCToggle

# A choice among more than this many is a drop-down list (a board's forty tiles), not a row of buttons.
SPINNER_FROM = 10


class _Option(SpinnerOption):
    """A drop-down row a finger can hit: at least 48 dp."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.height = max(dp(48), self.height)


class _LazySpinner(Spinner):
    """A drop-down list whose rows are made when it first opens. A position page holds
    many long lists (Outrage!'s 232 squares for every piece, every player for every
    jewel) that are mostly never opened: making all their rows up front cost seconds per
    page build."""

    def __init__(self, names: list[str], **kw: Any) -> None:
        self._names = names
        super().__init__(**kw)

    def _toggle_dropdown(self, *largs: Any) -> None:
        if not self.values and self._names:
            self.values = self._names
        super()._toggle_dropdown(*largs)


def _row() -> StackLayout:
    row = StackLayout(spacing=dp(6), size_hint_y=None)
    row.bind(minimum_height=row.setter("height"))
    return row


def _problem_label() -> TCLabel:
    theme = App.get_running_app().theme
    lbl = TCLabel(text="", font_size=theme.fs_small)
    lbl.color = theme.bad  # after the kv rule, which gives every TCLabel the text colour
    return lbl


class PositionFormView(BoxLayout):
    """The public fields of ``form``; ``changed()`` is called after every edit (the wizard
    re-checks and refreshes the footer); ``rebuild()`` when a change shows or hides fields
    (escape numbers appear with custody)."""

    def __init__(self, form: PositionForm, changed: Callable[[], None], rebuild: Callable[[], None],
                 open_secret: Callable[[str], None], **kw: Any) -> None:
        super().__init__(orientation="vertical", spacing=dp(6), size_hint_y=None, **kw)
        self.bind(minimum_height=self.setter("height"))
        self.form = form
        self._changed = changed
        self._rebuild = rebuild
        self._problems: dict[str, TCLabel] = {}
        self.controls: dict[str, Any] = {}  # field path → its control (tests reach a field by its path)
        theme = App.get_running_app().theme
        intro = TCLabel(text="Set the game as it stands on the table now; everything starts as a fresh game, so "
                             "change only what differs. Problems show in red beside their field.", font_size=theme.fs_small)
        intro.color = theme.muted
        self.add_widget(intro)
        self._general = _problem_label()
        self.add_widget(self._general)
        for f in form.public_fields():
            self.add_widget(TCLabel(text=f.label, font_size=theme.fs_body, bold=True))
            self.controls[f.path] = control = self._control(f)
            self.add_widget(control)
            self._problems[f.path] = lbl = _problem_label()
            self.add_widget(lbl)
        for seat in form.secret_seats():
            self.add_widget(self._secret_row(seat, open_secret))
        self.show_problems()

    # ------------------------------------------------------------- problems
    def problem_text(self, path: str) -> str:
        """What the red line beside a field says now ("secret:<seat>" for a holder's row)."""
        lbl = self._problems.get(path)
        return lbl.text if lbl is not None else ""

    def show_problems(self) -> None:
        probs: dict[str, list[str]] = {}
        for path, msgs in self.form.public_problems().items():
            f = next((x for x in self.form.fields if x.path == path), None)
            # A secret field's problem (never its value) shows under its holder's row.
            probs.setdefault(f"secret:{f.seat}" if f is not None and f.secret else path, []).extend(msgs)
        for path, lbl in self._problems.items():
            msgs = probs.get(path, [])
            lbl.text = "\n".join("✖ " + m for m in msgs)
        general = [m for k, ms in probs.items() if k not in self._problems for m in ms]
        self._general.text = "\n".join("✖ " + m for m in general)

    def _edit(self, fn: Callable[[], None], rebuild: bool = False) -> None:
        fn()
        if rebuild:
            self._rebuild()
            return
        self.show_problems()
        self._changed()

    # ------------------------------------------------------------- controls
    def _control(self, f: Field) -> Any:
        form = self.form
        if f.kind == "number":
            return self._number(f)
        if f.kind in ("seat", "choice"):
            choices = form.choices(f)
            if len(choices) > SPINNER_FROM:
                names = dict(choices)
                by_name = {n: v for v, n in choices}
                sp = _LazySpinner([n for _, n in choices], text=names.get(form.get(f.path), "—"), option_cls=_Option,
                                  size_hint=(None, None), size=(dp(300), dp(50)), font_size=App.get_running_app().theme.fs_body)
                sp.bind(text=lambda _s, name, f=f: self._edit(lambda: form.set(f.path, by_name[name])) if name in by_name else None)
                # As wide as the name picked (a long tile name at 160 % text), within the page.
                sp.bind(texture_size=lambda w, ts: setattr(w, "width", min(max(dp(300), ts[0] + dp(24)),
                                                                           max(dp(300), self.width - dp(8)))))
                return sp
            row = _row()
            for value, name in choices:
                b = TCToggle(text=name, group=f"pos-{f.path}", allow_no_selection=False,
                             state="down" if value == form.get(f.path) else "normal", size_hint=(None, None)).fit(dp(100), dp(50))
                b.bind(on_release=lambda _b, v=value, f=f: self._edit(lambda: form.set(f.path, v)))
                row.add_widget(b)
            return row
        if f.kind == "yesno":
            row = _row()
            deps = any(d.spec.get("when") for d in form.fields)
            for value, name in ((False, "No"), (True, "Yes")):
                b = TCToggle(text=name, group=f"pos-{f.path}", allow_no_selection=False,
                             state="down" if bool(form.get(f.path)) == value else "normal",
                             size_hint=(None, None)).fit(dp(90), dp(50))
                b.bind(on_release=lambda _b, v=value, f=f: self._edit(lambda: form.set(f.path, v), rebuild=deps))
                row.add_widget(b)
            return row
        if f.kind == "many":
            row = _row()
            picked = form.get(f.path, []) or []
            for value, name in form.choices(f):
                order = f"{picked.index(value) + 1}. " if value in picked and f.spec.get("source") != "faces" else ""
                b = TCToggle(text=order + name, state="down" if value in picked else "normal",
                             size_hint=(None, None)).fit(dp(64), dp(50))
                b.bind(on_release=lambda _b, v=value, f=f: self._edit(lambda: form.toggle(f.path, v), rebuild=True))
                row.add_widget(b)
            if not form.choices(f):
                row.add_widget(TCLabel(text="(none to choose from yet)", size_hint=(None, None), size=(dp(260), dp(50))))
            return row
        if f.kind == "owners":
            return self._owners(f)
        if f.kind == "cards":
            return self._cards(f)
        raise ValueError(f"position form: no control for a {f.kind!r} field ({f.path})")

    def _number(self, f: Field) -> Any:
        form = self.form
        row = _row()
        value = TCLabel(text=str(form.get(f.path, 0) or 0), size_hint=(None, None), size=(dp(90), dp(50)),
                        halign="center", wrap=False, font_size=App.get_running_app().theme.fs_large)
        steps = f.steps
        for d in [-s for s in reversed(steps)]:
            b = TCButton(text=f"− {-d}", size_hint=(None, None)).fit(dp(64), dp(50))
            b.bind(on_release=lambda _b, d=d: self._edit(lambda: (form.step(f.path, d), setattr(value, "text", str(form.get(f.path, 0) or 0)))))
            row.add_widget(b)
        row.add_widget(value)
        for d in steps:
            b = TCButton(text=f"+ {d}", size_hint=(None, None)).fit(dp(64), dp(50))
            b.bind(on_release=lambda _b, d=d: self._edit(lambda: (form.step(f.path, d), setattr(value, "text", str(form.get(f.path, 0) or 0)))))
            row.add_widget(b)
        return row

    def _owners(self, f: Field) -> Any:
        form = self.form
        theme = App.get_running_app().theme
        factions = list(form.game_factions())
        box = BoxLayout(orientation="vertical", spacing=dp(4), size_hint_y=None)
        box.bind(minimum_height=box.setter("height"))
        owners = form.get(f.path, {}) or {}
        for tile, name in form.choices(f):
            row = _row()
            lbl = TCLabel(text=name, size_hint=(None, None), size=(dp(170), dp(50)), wrap=False)
            lbl.bind(texture_size=lambda w, ts: setattr(w, "width", max(dp(170), ts[0] + dp(8))))
            row.add_widget(lbl)
            for owner in [None] + factions:
                text = theme.label(owner) if owner else "Nobody"
                b = TCToggle(text=text, group=f"own-{tile}", allow_no_selection=False,
                             state="down" if owners.get(tile) == owner else "normal", size_hint=(None, None)).fit(dp(110), dp(50))
                if owner:
                    b.color = theme.faction_rgba(owner)
                b.bind(on_release=lambda _b, t=tile, o=owner: self._edit(lambda: form.set_owner(f.path, t, o)))
                row.add_widget(b)
            box.add_widget(row)
        return box

    def _cards(self, f: Field) -> Any:
        form = self.form
        box = BoxLayout(orientation="vertical", spacing=dp(4), size_hint_y=None)
        box.bind(minimum_height=box.setter("height"))
        for name, n, copies in form.card_counts(f):
            row = _row()
            lbl = TCLabel(text=name, size_hint=(None, None), size=(dp(120), dp(50)), wrap=False)
            row.add_widget(lbl)
            for k in range(copies + 1):
                b = TCToggle(text=f"×{k}", group=f"cards-{f.path}-{name}", allow_no_selection=False,
                             state="down" if k == n else "normal", size_hint=(None, None)).fit(dp(56), dp(50))
                b.bind(on_release=lambda _b, nm=name, k=k: self._edit(lambda: form.set_card_count(f.path, nm, k)))
                row.add_widget(b)
            box.add_widget(row)
        return box

    def _secret_row(self, seat: str, open_secret: Callable[[str], None]) -> Any:
        theme = App.get_running_app().theme
        form = self.form
        name = form.names[seat]
        what = " and ".join(f.spec.get("says", f.path) for f in form.secret_fields(seat))
        box = BoxLayout(orientation="vertical", spacing=dp(4), size_hint_y=None)
        box.bind(minimum_height=box.setter("height"))
        done = form.entered(seat)
        status = TCLabel(text=f"{name} enters in private: {what}. " + ("✔ Entered." if done else "✖ Not entered yet."),
                         font_size=theme.fs_body)
        status.color = theme.ok if done else theme.warn
        box.add_widget(status)
        b = TCButton(text=f"◉ {name}: enter in private…",
                     size_hint=(None, None)).fit(dp(240), dp(54))
        b.bind(on_release=lambda _b: open_secret(seat))
        row = _row()
        row.add_widget(b)
        box.add_widget(row)
        self._problems[f"secret:{seat}"] = lbl = _problem_label()
        box.add_widget(lbl)
        return box


def secret_entry(form: PositionForm, seat: str) -> Any:
    """What ``seat`` sees behind the gate: its secret fields (a City for the base, the
    cards of its hand) with their problems in full, first, where the holder sees them.
    Built only once the gate is held open; the gate's own "Done — hide" closes it."""
    theme = App.get_running_app().theme
    scroll = ScrollView(do_scroll_x=False)
    box = BoxLayout(orientation="vertical", spacing=dp(6), padding=dp(6), size_hint_y=None)
    box.bind(minimum_height=box.setter("height"))
    scroll.add_widget(box)
    problems = _problem_label()
    box.add_widget(problems)

    def refresh() -> None:
        problems.text = "\n".join("✖ " + m for m in form.secret_problems(seat))

    for f in form.secret_fields(seat):
        box.add_widget(TCLabel(text=f.label, font_size=theme.fs_body, bold=True))
        row = _row()
        many = f.kind == "many"
        current = form.get(f.path)
        picked = list(current or []) if many else [current]
        for value, name in form.choices(f):
            b = TCToggle(text=name, group=None if many else f"secret-{f.path}", state="down" if value in picked else "normal",
                         size_hint=(None, None)).fit(dp(120), dp(50))
            if many:
                # A hand starts as entered (maybe empty) once its holder opens the gate.
                b.bind(on_release=lambda _b, v=value, f=f: (form.toggle(f.path, v), refresh()))
            else:
                b.bind(on_release=lambda _b, v=value, f=f: (form.set_secret(f.path, v), refresh()))
            row.add_widget(b)
        if many and current is None:
            form.set_secret(f.path, [])
        box.add_widget(row)
    refresh()
    return scroll

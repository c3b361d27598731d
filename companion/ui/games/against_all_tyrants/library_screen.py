"""The table's own cards and decks, reached from the setup wizard: a card editor (every
field checked by the rules as it is typed) and a deck builder (a tap adds or removes a
copy; 5.2.4 checked rule by rule, each with its section); saved in the user-data folder
and shared as files (``companion.ui.games.against_all_tyrants.cardfiles``). The logic is :mod:`.library` (no Kivy)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.filechooser import FileChooserListLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.stacklayout import StackLayout
from kivy.uix.textinput import TextInput

from rules.against_all_tyrants.cards import fields_for

from . import cardfiles
from ...kvload import load_kv
from ...widgets.base import TCButton, TCLabel, TCToggle
from .sharing import apply_import, deck_notes_after_import, export_files, plan_import
from .library import (
    FIELD_LABELS, KIND_NAMES, SECTION_TITLES, CardDraft, DeckDraft, LibraryRefused, deck_choices, decks_using, edit_report,
    new_draft, save_card, table_cards,
)
from .library import delete_card as remove_card

NAME = "aat-library"


def user_folder(app: Any) -> Path:
    """The user-data folder (beside the settings file), where cardfiles keeps its folders."""
    return Path(getattr(app, "settings_path", "") or app.user_data_dir).parent


def open_library(mode: str = "card", on_saved: Callable[[], None] | None = None) -> "LibraryScreen":
    app = App.get_running_app()
    if not app.sm.has_screen(NAME):
        app.sm.add_widget(LibraryScreen(name=NAME))
    scr = app.sm.get_screen(NAME)
    scr.start(mode, on_saved)
    app.go(NAME)
    return scr


def _no_files(folder: str, filename: str) -> bool:
    """The export picker's filter: folders only (the files already there are not the point)."""
    return Path(folder, filename).is_dir()


class AatFileListLayout(FileChooserListLayout):
    """Kivy's list layout of a file chooser with rows for fingers (``AatFileEntry``)."""

    _ENTRY_TEMPLATE = "AatFileEntry"


class AatFilePicker(ModalView):
    """Kivy's file chooser in a modal: ``mode`` "import" picks files (the confirm button
    says how many), "export" opens the folder to write into. ``on_done(paths or folder)``."""

    mode = StringProperty("import")
    title = StringProperty("")
    where = StringProperty("")
    start_path = StringProperty("")
    confirm_text = StringProperty("")
    count = NumericProperty(0)
    only_folders = staticmethod(_no_files)

    def __init__(self, mode: str, start: Path, on_done: Callable[[Any], None], **kw: Any) -> None:
        self._on_done = on_done
        super().__init__(mode=mode, start_path=str(start), where=str(start), **kw)
        self.title = ("Import: tap the card-set and deck files to bring in (*.json), then Import."
                      if mode == "import" else "Export: open the folder to write into (a USB stick, a shared folder).")
        self.picked([])

    def picked(self, selection: list[str]) -> None:
        self.count = len(selection)
        chosen = set(selection)
        chooser = self.ids.get("chooser")
        for node in chooser.walk(restrict=True) if chooser is not None else ():
            if hasattr(node, "chosen"):
                node.chosen = getattr(node, "path", None) in chosen
        if self.mode == "import":
            self.confirm_text = f"⇩ Import {self.count} file{'s' if self.count != 1 else ''}" if self.count else "⇩ Import (tap a file)"
        else:
            self.confirm_text = "⇪ Export into this folder"

    def go_up(self) -> None:
        chooser = self.ids.chooser
        parent = Path(chooser.path).parent
        if str(parent) != chooser.path:
            chooser.path = str(parent)

    def confirm(self) -> None:
        chooser = self.ids.chooser
        self.dismiss()
        self._on_done(list(chooser.selection) if self.mode == "import" else chooser.path)


def _row() -> StackLayout:
    row = StackLayout(spacing=dp(6), size_hint_y=None)
    row.bind(minimum_height=row.setter("height"))
    return row


class LibraryScreen(Screen):
    mode = StringProperty("card")
    status = StringProperty("")
    summary = StringProperty("")  # the deck's counts and whether it is legal: kept in sight while tapping

    def start(self, mode: str, on_saved: Callable[[], None] | None = None) -> None:
        self.folder = user_folder(App.get_running_app())
        self._on_saved = on_saved
        self.draft = new_draft(self.folder)
        self._delete_armed: tuple[str, str] | None = None
        self.deck = DeckDraft.blank(self.folder, faction="Free Worlds (example)", subfaction="Freedom Fighters")
        self.section = "main"
        self.status = ""
        self.set_mode(mode)

    def set_mode(self, mode: str) -> None:
        self.mode = mode
        self.summary = ""
        self.build()

    def build(self) -> None:
        box = self.ids.content
        box.clear_widgets()
        (self._card_form if self.mode == "card" else self._deck_form)(box)

    # ------------------------------------------------------------ the card editor

    def _card_form(self, box: Any) -> None:
        theme = App.get_running_app().theme
        d = self.draft
        saved = table_cards(self.folder)
        if saved:
            box.add_widget(TCLabel(text="Our cards — tap one to change it:", color=theme.muted, font_size=theme.fs_small))
            row = _row()
            for lc in saved:
                here = d.editing == lc.card.id and d.set_name == lc.set_name
                b = TCToggle(text="✎ " + lc.card.title, state="down" if here else "normal", size_hint=(None, None),
                             font_size=theme.fs_small).fit(dp(110), dp(48), dp(300))
                b.card_id = lc.card.id
                b.bind(on_release=lambda _b, lc=lc: self.edit_card(lc.card, lc.set_name))
                row.add_widget(b)
            if d.editing:
                new = TCButton(text="+ A new card", size_hint=(None, None), font_size=theme.fs_small).fit(dp(130), dp(48))
                new.bind(on_release=lambda _b: self.new_card())
                row.add_widget(new)
            box.add_widget(row)
        head = (f"Changing {d.texts.get('name', '') or d.editing} (in “{d.set_name}”): saving replaces it; "
                "the decks that hold it keep it." if d.editing else
                "Enter a card as printed: each field is checked as you type.")
        box.add_widget(TCLabel(text=head, color=theme.accent if d.editing else theme.muted, font_size=theme.fs_small))
        kinds = _row()
        for k, label in KIND_NAMES.items():
            b = TCToggle(text=label, group="aat-kind", state="down" if d.kind == k else "normal", allow_no_selection=False,
                         size_hint=(None, None)).fit(dp(110), dp(48))
            b.bind(on_release=lambda _b, k=k: self._set_kind(k))
            kinds.add_widget(b)
        box.add_widget(kinds)
        self._problem_labels: dict[str, TCLabel] = {}
        self._text_notes: dict[str, TCLabel] = {}
        for f in d.fields():
            box.add_widget(TCLabel(text=FIELD_LABELS[f], font_size=theme.fs_small, color=theme.text))
            multi = f in ("orders", "effect")
            ti = TextInput(text=d.texts.get(f, ""), multiline=multi, write_tab=False, font_size=theme.fs_body,
                           size_hint_y=None, height=dp(48) * (2 if multi else 1) * max(1.0, theme.scale * 0.85),
                           padding=[dp(8), dp(10)], input_filter="int" if f in ("escalation", "attack", "health") else None)
            ti.field_name = f
            ti.bind(text=lambda w, text: self._typed(w.field_name, text))
            box.add_widget(ti)
            lbl = TCLabel(text="", color=theme.bad, font_size=theme.fs_small)
            self._problem_labels[f] = lbl
            box.add_widget(lbl)
            if multi:
                # Whether the app carries each text out as written, or the table resolves it.
                note = TCLabel(text="", color=theme.muted, font_size=theme.fs_small)
                self._text_notes[f] = note
                box.add_widget(note)
        toggles = _row()
        if "theaters" in fields_for(d.kind):
            for t, label in (("space", "Space"), ("planetside", "Planetside")):
                b = TCToggle(text=label, state="down" if t in d.theaters else "normal", size_hint=(None, None)).fit(dp(130), dp(48))
                b.bind(on_release=lambda w, t=t: self._theater(t, w.state == "down"))
                toggles.add_widget(b)
        u = TCToggle(text="✦ Unique", state="down" if d.unique else "normal", size_hint=(None, None)).fit(dp(120), dp(48))
        u.bind(on_release=lambda w: setattr(d, "unique", w.state == "down") or self._recheck())
        toggles.add_widget(u)
        box.add_widget(toggles)
        self._all = TCLabel(text="", color=theme.muted, font_size=theme.fs_small)
        box.add_widget(self._all)
        save = TCButton(text="✔ Save the changes" if d.editing else "✔ Save the card", role="primary", size_hint=(None, None)).fit(dp(180), dp(52))
        save.bind(on_release=lambda _b: self.save_card())
        self._save = save
        if d.editing:
            row = _row()
            row.add_widget(save)
            armed = self._delete_armed == (d.set_name, d.editing)
            gone = TCButton(text="✖ Tap again to delete it" if armed else "✖ Delete this card", role="danger",
                            size_hint=(None, None)).fit(dp(180), dp(52))
            gone.bind(on_release=lambda _b: self.delete_card())
            self._delete = gone
            row.add_widget(gone)
            box.add_widget(row)
        else:
            box.add_widget(save)
        self._recheck()

    def _set_kind(self, kind: str) -> None:
        self.draft.kind = kind
        self.build()

    def _theater(self, t: str, on: bool) -> None:
        d = self.draft
        d.theaters = tuple(x for x in ("space", "planetside") if (x in d.theaters and x != t) or (x == t and on))
        self._recheck()

    def _typed(self, field: str, text: str) -> None:
        self.draft.texts[field] = text
        self._recheck()

    def _recheck(self) -> None:
        theme = App.get_running_app().theme
        d = self.draft
        for f, lbl in self._problem_labels.items():
            # A field not yet typed in is not yet wrong: say so only once it has text.
            probs = d.problems(f) if d.texts.get(f, "").strip() else []
            lbl.text = "\n".join("✖ " + p for p in probs)
        for f, note in self._text_notes.items():
            note.text = "\n".join(d.text_notes(f))
        left = d.all_problems()
        self._all.text = "✔ Ready to save." if not left else "Still needed:\n" + "\n".join("• " + p for p in left[:6])
        self._all.color = theme.ok if not left else theme.muted
        self._save.disabled = bool(left)

    def edit_card(self, card: Any, set_name: str) -> None:
        """The editor filled in with a saved card; saving replaces it (same id)."""
        self.draft = CardDraft.of(card, set_name)
        self._delete_armed = None
        self.status = ""
        self.build()
        self.ids.scroll.scroll_y = 1

    def delete_card(self) -> None:
        """Delete the card being changed: a first tap asks, a second deletes it, unless a
        saved deck holds it (then the decks are named and nothing is deleted)."""
        d = self.draft
        if not d.editing:
            return
        if self._delete_armed != (d.set_name, d.editing):
            self._delete_armed = (d.set_name, d.editing)
            self.status = f"Delete {d.texts.get('name', '') or d.editing} from “{d.set_name}”? The ✖ button asks once more: tap it again."
            self.build()
            return
        self._delete_armed = None
        try:
            self.status = remove_card(d.editing, d.set_name, self.folder)
        except LibraryRefused as e:
            self.status = f"✖ {e}"
            self.build()
            return
        self.draft = new_draft(self.folder, d.kind, {k: v for k, v in d.texts.items() if k in ("faction", "subfaction")})
        self.deck = DeckDraft.of(self.deck.deck, self.folder)
        self.build()
        if self._on_saved is not None:
            self._on_saved()

    def new_card(self) -> None:
        d = self.draft
        self.draft = new_draft(self.folder, d.kind, {k: v for k, v in d.texts.items() if k in ("faction", "subfaction")})
        self.status = ""
        self.build()

    def save_card(self) -> None:
        d = self.draft
        if d.all_problems():
            return
        card = d.card()
        saved = save_card(d, self.folder)
        if d.editing:
            self.status = edit_report(card, decks_using(card.id, self.folder))
        else:
            self.status = f"✔ {card.title} saved in “{saved.name}”."
        self.draft = new_draft(self.folder, d.kind, {k: v for k, v in d.texts.items() if k in ("faction", "subfaction")})
        self.deck = DeckDraft.of(self.deck.deck, self.folder)  # the builder sees the new or changed card
        self.build()
        if self._on_saved is not None:
            self._on_saved()

    # ------------------------------------------------------------ the deck builder

    def _deck_form(self, box: Any) -> None:
        theme = App.get_running_app().theme
        dd = self.deck
        box.add_widget(TCLabel(text="Start from a deck (a copy: the example stays as it is), or build from nothing:",
                               font_size=theme.fs_small, color=theme.muted))
        starts = _row()
        for c in deck_choices(self.folder):
            b = TCButton(text="❐ " + c.deck.name, size_hint=(None, None), font_size=theme.fs_small).fit(dp(160), dp(48), dp(420))
            b.bind(on_release=lambda _b, c=c: self._start_from(c.deck))
            starts.add_widget(b)
        box.add_widget(starts)
        box.add_widget(TCLabel(text="Name, faction and subfaction of the deck:", font_size=theme.fs_small, color=theme.muted))
        for attr, value in (("name", dd.deck.name), ("faction", dd.deck.faction), ("subfaction", dd.deck.subfaction)):
            ti = TextInput(text=value, multiline=False, write_tab=False, font_size=theme.fs_body, size_hint_y=None,
                           height=dp(48) * max(1.0, theme.scale * 0.85), padding=[dp(8), dp(10)], hint_text=attr.title())
            ti.attr = attr
            ti.bind(focus=lambda w, f: (not f) and self._rename())
            setattr(self, f"_deck_{attr}", ti)
            box.add_widget(ti)
        box.add_widget(TCLabel(text="  ·  ".join(dd.counts()), font_size=theme.fs_body, color=theme.text))
        v = dd.violations()
        self.summary = "  ·  ".join(dd.counts()) + (f"  ·  ✖ {len(v)} rule{'s' if len(v) != 1 else ''} broken (see above)" if v else "  ·  ✔ legal")
        box.add_widget(TCLabel(text="✔ A legal deck (5.2.4)." if not v else "\n".join(v), font_size=theme.fs_small,
                               color=theme.ok if not v else theme.bad))
        secs = _row()
        for s, title in SECTION_TITLES.items():
            b = TCToggle(text=title, group="aat-section", state="down" if s == self.section else "normal",
                         allow_no_selection=False, size_hint=(None, None)).fit(dp(120), dp(48))
            b.bind(on_release=lambda _b, s=s: self._section(s))
            secs.add_widget(b)
        box.add_widget(secs)
        have = dd.deck.section(self.section)
        for card in dd.candidates(self.section):
            row = BoxLayout(size_hint_y=None, height=dp(52) * max(1.0, theme.scale * 0.8), spacing=dp(6))
            minus = TCButton(text="−", size_hint_x=None, width=dp(52), disabled=not have.get(card.id))
            minus.bind(on_release=lambda _b, c=card.id: self._tap(c, -1))
            plus = TCButton(text="+", size_hint_x=None, width=dp(52))
            plus.bind(on_release=lambda _b, c=card.id: self._tap(c, 1))
            mass = " · Mass" if any(t.name == "Mass" for t in card.traits) else ""
            row.add_widget(minus)
            row.add_widget(TCLabel(text=f"{have.get(card.id, 0)} × {card.title}{mass}", wrap=False, size_hint_y=1,
                                   font_size=theme.fs_small, color=theme.text, halign="left", valign="middle",
                                   shorten=True, shorten_from="right", text_size=(None, None)))
            row.children[0].bind(size=lambda w, s: setattr(w, "text_size", s))
            row.add_widget(plus)
            box.add_widget(row)
        acts = _row()
        for text, call in (("✔ Save the deck", self.save_deck), ("⇪ Export deck and cards…", self.export),
                           ("⇩ Import files…", self.import_files)):
            b = TCButton(text=text, size_hint=(None, None), role="primary" if not v and call == self.save_deck else "normal").fit(dp(160), dp(52))
            b.bind(on_release=lambda _b, call=call: call())
            acts.add_widget(b)
        box.add_widget(acts)

    def _start_from(self, deck: Any) -> None:
        name = deck.name.replace(" (example)", "")
        self.deck = DeckDraft.of(deck, self.folder)
        self.deck.renamed(f"Our {name}" if not name.startswith("Our ") else name, deck.faction, deck.subfaction)
        self.status = f"Copied {deck.name}: change it and save it under its new name."
        self.build()

    def _rename(self) -> None:
        self.deck.renamed(self._deck_name.text, self._deck_faction.text, self._deck_subfaction.text)
        self.build()

    def _section(self, s: str) -> None:
        self.section = s
        self.build()

    def _tap(self, card_id: str, n: int) -> None:
        self.deck.tap(self.section, card_id, n)
        y = self.ids.scroll.scroll_y
        self.build()
        self.ids.scroll.scroll_y = y

    def save_deck(self) -> None:
        path = cardfiles.save_deck(self.deck.deck, self.folder)
        bad = self.deck.violations()
        self.status = f"✔ Deck saved ({path.name})" + (": it cannot be played until the red lines are fixed." if bad else ".")
        if self._on_saved is not None:
            self._on_saved()

    def _start_dir(self) -> Path:
        """Where a picker opens: the folder used last, else the app's exports folder."""
        last = getattr(self, "_last_dir", None)
        if last is not None and Path(last).is_dir():
            return Path(last)
        out = Path(getattr(App.get_running_app(), "data_dir", self.folder)) / "exports"
        try:
            out.mkdir(parents=True, exist_ok=True)
            return out
        except OSError:
            return Path.home()

    def export(self) -> AatFilePicker:
        """Ask where to write, then write the deck and the table's card sets there."""
        picker = AatFilePicker("export", self._start_dir(), self.export_to)
        picker.open()
        return picker

    def export_to(self, folder: str | Path) -> None:
        self._last_dir = Path(folder)
        try:
            paths = export_files(self.deck.deck, self.folder, folder)
        except OSError as e:
            self.status = f"✖ Nothing exported: {folder} cannot be written ({e.strerror or e})."
            return
        self.status = f"✔ Exported to {folder}: " + ", ".join(p.name for p in paths)

    def import_files(self) -> AatFilePicker:
        """Ask which files to bring in, then import them (all, or none: see ``import_paths``)."""
        picker = AatFilePicker("import", self._start_dir(), self.import_paths)
        picker.open()
        return picker

    def import_paths(self, paths: list[str]) -> None:
        """Every picked file checked first; saved only when all are good, else each problem
        is named (file, card, field) and nothing is imported."""
        if not paths:
            return
        self._last_dir = Path(paths[0]).parent
        plan = plan_import(paths, self.folder)
        if plan.problems:
            n = len(plan.problems)
            self.status = (f"✖ Nothing imported: {n} problem{'s' if n != 1 else ''} in the picked files.\n✖ "
                           + "\n✖ ".join(plan.problems[:8]) + (f"\n… and {n - 8} more" if n > 8 else ""))
            return
        done = apply_import(plan, self.folder)
        notes = deck_notes_after_import(plan, self.folder)
        self.deck = DeckDraft.of(self.deck.deck, self.folder)
        self.draft = new_draft(self.folder, self.draft.kind, self.draft.texts) if not self.draft.editing else self.draft
        self.status = "✔ Imported " + ", ".join(done) + "." + ("\n" + "\n".join(notes) if notes else "")
        self.build()
        if self._on_saved is not None:
            self._on_saved()

    def done(self) -> None:
        App.get_running_app().back()


load_kv(__file__, "library_screen.kv")

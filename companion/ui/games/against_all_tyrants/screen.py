"""Against All Tyrants' table screen: the two theaters side by side with every card in
play (bases with their hit points, leaders, units with attack, health, damage and token
badges), the escalation scale, the phase tracker with who still has an action, and the
combat preview before an attack is confirmed. The action panel, the log with undo, the
privacy gate (hands, Special Forces, cards drawn) and the refusal banner are GameScreen's;
the presenter says what they show."""
from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import StringProperty

from ...gamescreen import GameScreen
from ...kvload import load_kv
from ...presenters.actions import ButtonSpec
from ...widgets import escalation  # noqa: F401  (its kv rules)
from ...widgets.base import TCButton
from .presenter import ROLE, AatPresenter, CardChip


class CardTile(TCButton):
    """A card in play: glyph and name, attack and health, tokens as glyph and count."""

    piece = StringProperty("")
    tint_role = StringProperty("")


class AatScreen(GameScreen):
    presenter: AatPresenter  # the game's own (made in on_table_bound, before any draw)
    phase_text = StringProperty("")

    def on_table_bound(self, table: Any) -> None:
        from companion.routing import load_mapping

        self.presenter = AatPresenter(table)
        self._tiles: dict[int, tuple[Any, ...]] = {}  # what each theater shows: the theme, its chips
        self._mapping = load_mapping("against_all_tyrants")

    def show_route(self, event: Any, result: Any) -> None:
        """A hub token slot that deals damage, with several cards it could hit: the card
        chosen on the screen takes it, submitted through the Table as a tap on it would be."""
        act = self.presenter.hub_action(event, result, self._mapping) if self.presenter is not None else None
        if act is not None:
            from dataclasses import replace

            self.submit(replace(act, source=getattr(event, "source", "") or act.source), self.presenter.label(act))
            return
        hint = self.presenter.hub_hint(event, result, self._mapping) if self.presenter is not None else ""
        if hint:
            self.ids.banner.show(hint, "", "ambiguous", kind="warn")
            return
        super().show_route(event, result)

    def draw_table(self) -> None:
        p = self.presenter
        v = p.view()
        self.turn_text = p.turn_line(v)
        self.prompt_text = p.prompt_line()
        steps = p.phase_steps(v)
        marks = {"done": "✔", "current": "▶", "todo": "○"}
        line = p.phase_line(v)
        self.phase_text = "   ".join(f"{marks[s]} {label}" for label, s in steps) + ("\n" + line if line else "")
        levels, current, incidents = p.escalation(v)
        key = (tuple(levels), current, tuple(incidents))
        if getattr(self, "_esc_key", None) != key:
            self.ids.escalation.set_scale(levels, current, incidents)
            self._esc_key = key
        for col, box in zip(p.columns(v), (self.ids.space, self.ids.planetside)):
            self._fill(box, col.chips)

    def _fill(self, box: Any, chips: tuple[CardChip, ...]) -> None:
        """Show ``chips`` in ``box``, in order. A card's tile is kept while the card stays
        in play and is given only what changed (a damage, a token, being chosen); a tile
        is made for a card coming into play and dropped with a card leaving it."""
        theme = App.get_running_app().theme
        key = (theme.name, theme.fs_small, chips)
        if self._tiles.get(box.uid) == key:
            return  # unchanged: leave the widgets alone
        self._tiles[box.uid] = key
        kept = {t.piece: t for t in box.children}
        tiles = []
        for c in chips:
            t = kept.get(c.id)
            if t is None:
                t = CardTile(piece=c.id, font_size=theme.fs_small)
                t.bind(on_release=lambda w: self.tap_piece(w.piece))
            # Kivy dispatches (and a label renders again) only when a value differs.
            t.text = c.text
            t.tint_role = getattr(ROLE.get(c.role), "colour", "neutral")
            t.role = "primary" if c.selected else ("danger" if c.target else "normal")
            tiles.append(t)
        if list(reversed(box.children)) != tiles:  # Kivy keeps children last-added first
            box.clear_widgets()
            for t in tiles:
                box.add_widget(t)

    def tap_piece(self, piece_id: str) -> None:
        what, value = self.presenter.tap_piece(piece_id)
        if what == "attack":
            self.confirm_attack(value, self.presenter.label(value))
        elif what == "select":
            self.info_text = self.presenter.describe(piece_id) + (
                "\n✔ Chosen: a token on the hub's damage slot deals it 1 damage." if self.presenter.chosen == piece_id else "")
            self._refresh_trigger()
        else:
            self.info_text = value

    def confirm_attack(self, attack: Any, what: str) -> None:
        """The damage arithmetic, step by step, before anything happens: Cancel, or attack."""
        preview = self.presenter.attack_preview(attack)
        reason = (self.table.irreversible(attack) if self.table is not None else None) or "an attack's damage is dealt at once"
        self.ask_confirmation(what, reason, lambda: self.submit(attack, what, confirmed=True), detail=preview)

    def on_intent(self, spec: ButtonSpec) -> None:
        p = self.presenter
        if spec.intent == "attack":
            self.confirm_attack(spec.action, spec.label)
            return
        if spec.intent == "select":
            p.selected = spec.action
            self.info_text = p.describe(spec.action)
        elif spec.intent == "deselect":
            p.selected = ""
            self.info_text = ""
        elif spec.intent == "mode":
            p.mode = spec.action or ""
        self._refresh_trigger()

    def after_accept(self, action: Any = None) -> None:
        p = self.presenter
        if p is not None:
            p.mode = ""
            # The chosen card keeps the panel while it may still act (Repeater, a second order).
            if p.selected and not any(getattr(a, "piece", None) == p.selected for a in p.legal()):
                p.selected = ""
        super().after_accept(action)

    def after_refresh(self) -> None:
        if self.presenter.is_over():
            App.get_running_app().cue("win")
            App.get_running_app().show_end()


load_kv(__file__, "against_all_tyrants.kv")

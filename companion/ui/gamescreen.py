"""The base class a game's table screen subclasses (see README.md, "How to add a game screen").

The app calls :meth:`GameScreen.bind_table` with a Table when a game is opened or resumed,
:meth:`unbind_table` when it is left, and :meth:`show_reading` with every physical input
event as it arrives. Everything else comes from the bound Table's subscription, on the UI
thread: changes (:meth:`on_change`), clock alerts, and each routed input's result once
(:meth:`show_route`, from the Table's "routed" change).

GameScreen owns what every game repeats: submit, undo and the refusal banner, the action
panel (``ids.actions``, an ActionPanel filled from the presenter's ButtonSpecs), the
privacy gate (``ids.gate``: a seat's hand, a physical card entered, a private choice
refused behind it), the log (``ids.log``), the seat clocks (``ids.clocks``) and the dice
tray (``ids.dice``: each reading and each routed result), each wired when the screen's
``.kv`` has it, and the phone badge (:meth:`show_phones`: which seats have a phone
attached, under the prompt line and beside each seat's clock). A game's screen supplies its board and panels in its ``.kv``, a presenter
(``self.presenter``, a :class:`~.presenters.base.GamePresenter` made in
:meth:`on_table_bound`, called through that contract only) and :meth:`draw_table`. A
Table call's refusal (``rules.RulesError``, ``CompanionError``) is shown; anything else is
a bug and is left to reach the crash report.

A tap's action is checked at once on the UI thread (a refusal shows at once), then applied
and committed by the Table on the app's input pump thread, the one dice use
(:mod:`companion.ui.pump`), so an SD card's slow commit never freezes the screen. Until
the Table answers, the screen is :attr:`GameScreen.recording`: the tapped button says
so and the panel's buttons and Undo are not tappable; the new state is drawn only when the
Table reports it (its subscription), so nothing shows done before it is committed. Undo,
the app's roller and deck, a crooked die accepted and the choices behind the gate go
the same way; :meth:`GameScreen.submit` takes ``then(accepted)`` for what follows the
Table's answer.
"""
from __future__ import annotations

import threading
from concurrent.futures import Future
from typing import Any, Callable

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.errors import CompanionError
from rules import RulesError
from rules.core.text import Text

from .presenters.actions import ButtonSpec, GateChoice, GateSection, peek_button
from .presenters.base import GamePresenter
from .presenters.phones import ON_PHONE, phone_buttons, phones_line, waiting_line, waiting_on_phones, with_phones
from .widgets import action_panel, banner, cached, clocks, dice_tray, game_log, privacy_gate  # noqa: F401  (their kv rules; CachedView for every screen's .kv)
# (the gate's page, widgets/gate_page.py, and its .kv load when a seat first opens it: open_private)
from .widgets.action_panel import ButtonRow
from .widgets.drawn import set_drawn
from .widgets.long_press import on_long_press

# What a Table call may refuse with: the rules' answer (an illegal action, a bad setup) or
# the session layer's (a closed table, a journal that cannot save, an undo the policy
# forbids). Anything else is a programming error: it is not caught here, so it reaches
# the crash report instead of a banner.
REFUSALS = (RulesError, CompanionError)
QUICK_COMMIT_S = 0.012  # how long a tap waits on the UI thread for its commit before showing it as being recorded
SPARE_BUTTONS = 48  # as many as the longest page behind the gate shows (a deck to enter a card from)


class GameScreen(Screen):
    table = ObjectProperty(None, allownone=True)
    game_id = StringProperty("")
    turn_text = StringProperty("")
    prompt_text = StringProperty("")
    info_text = StringProperty("")  # what a tap on the board asked about (cleared by the next action)
    undo_reason = StringProperty("")
    log_open = BooleanProperty(False)
    shown_ply = NumericProperty(-1)  # the Table's ply this screen last drew (tests wait on it)
    # A tap's action is being committed off the UI thread: the panel is held until the answer.
    recording = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._unsubscribe: Callable[[], None] | None = None
        self._tick_ev: Any = None
        self._clock_alert: Any = None  # the clock alert the banner shows (a ClockAlert)
        self.presenter: GamePresenter | None = None
        self._moment_view: dict[str, Any] | None = None  # the public view of the last moment check
        self.moment_card: Any = None  # the result moment over the board, once one was shown
        # seat → words only that seat may read (the card it drew): kept in memory, shown
        # only behind the gate, forgotten at the next action.
        self.news: dict[str, str] = {}
        self.phones_waiting: frozenset[str] = frozenset()  # seats whose private choice is awaited on their phone
        self._prompt_base = self._prompt_shown = ""  # the game's prompt line, and as shown with the phones' badge
        # Bursts of changes (a die and a move in one frame) refresh once per frame, and in
        # the frame of the tap that made them, just before it is drawn (-1): with 0 the
        # refresh waited for the next frame, after a frame drawn only for the released
        # button, and every answering tap cost a frame more.
        self._refresh_trigger = Clock.create_trigger(lambda dt: self.refresh(), -1)
        self._outstanding = 0  # Table calls put on the input pump and not answered yet
        self._tapped: ButtonSpec | None = None  # the panel button whose tap is being handled

    def on_kv_post(self, base_widget: Any) -> None:
        super().on_kv_post(base_widget)
        if "log" in self.ids:
            set_drawn(self.ids.log, self.log_open)  # the closed log costs nothing per frame

    def bind_table(self, table: Any) -> None:
        self.unbind_table()
        self.table = table
        self._unsubscribe = table.subscribe(self._on_change)
        if getattr(table, "clocks", None) is not None:
            # The Table advances its clocks when asked; warnings and flag falls come back
            # as "clock" changes.
            self._tick_ev = Clock.schedule_interval(lambda dt: self._tick(), 0.25)
        self.news, self.info_text = {}, ""
        self.on_table_bound(table)
        self._wire(table)
        self.refresh()
        # The buttons of a whole hand or deck behind the gate, made while nobody waits.
        ButtonRow.prepare(SPARE_BUTTONS)

    def _wire(self, table: Any) -> None:
        """Connect the shared widgets the screen's .kv has to this Table and screen."""
        ids = self.ids
        if "gate" in ids:
            ids.gate.close()
        if "actions" in ids:
            ids.actions.forget()  # a new game's first buttons may equal the last game's
        if "log" in ids:
            ids.log.undo = self.undo
        for button in self._undo_buttons():
            on_long_press(button, self.explain_undo)  # why (not): also on a disabled button
        if "banner" in ids:
            # Every message and rule the banner shows (refusals, routed inputs, clock
            # alerts) passes through the presenter's words: names, never ids or codes.
            ids.banner.words = self.humanise
        if "clocks" in ids:
            clocks = getattr(table, "clocks", None)
            if clocks is not None:
                # The Table's pause and resume: journaled, so a restart keeps them.
                ids.clocks.pause, ids.clocks.resume = table.pause, table.resume_clocks
            seats = [(s["id"], s["name"], s["faction"]) for s in self.presenter.seats()] if clocks is not None else []
            ids.clocks.set_seats(clocks, seats)
        if "dice" in ids:
            tray = ids.dice
            tray.submit, tray.roll_for_me, tray.accept_crooked = self.submit, self.roll_for_me, self.accept_crooked
            tray.humanise = self.humanise
            tray.who_of = self.presenter.who  # whose throw it is, and who throws next
            link = getattr(App.get_running_app(), "demo_link", None)
            tray.throw = (lambda: link.throw(0)) if link is not None else None

    def _tick(self) -> None:
        if self.table is not None:
            try:
                self.table.tick(wait=False)  # never wait out another thread's commit
            except CompanionError:  # a closed table
                pass

    def unbind_table(self) -> None:
        if "gate" in self.ids:
            self.ids.gate.close()  # a seat's secrets never outlive its game on screen
        if self._tick_ev is not None:
            self._tick_ev.cancel()
            self._tick_ev = None
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._moment_view = None
        if self.moment_card is not None:
            self.moment_card.hide()
        self.table = None

    def _on_change(self, change: Any) -> None:
        # Table callbacks may come from the input pump's, a clock's or a bridge's thread:
        # marshal to the UI thread (its next frame). One made on the UI thread is shown in
        # this frame.
        on_ui = threading.current_thread() is threading.main_thread()
        Clock.schedule_once(lambda dt: self._dispatch_change(change), -1 if on_ui else 0)

    def _dispatch_change(self, change: Any) -> None:
        kind = getattr(change, "kind", "")
        if kind == "clock":
            self.announce_clock(change.detail or ())
        elif kind == "routed":  # the one way an input event's result reaches the screen
            self.show_route(change.detail.event, change.detail.result)
            return
        self.on_change(change)

    def announce_clock(self, events: Any) -> None:
        """Low time, a flag fall, a penalty minute…: the most serious of a tick's events
        goes to the banner (every one stays in the Table's clock events), with a cue. Time
        given back to that seat by an admin takes its banner down."""
        from .presenters.clock_alerts import RULE, alerts_for, gives_time_back

        table = self.table
        names = {s["id"]: s.get("name") or s["id"] for s in (table.seats if table is not None else ())}
        events = list(events)
        alerts = alerts_for(events, names)
        banner = self.ids.get("banner")
        if banner is None:
            return
        shown = self._clock_alert
        if shown is not None and banner.shown > 0 and banner.message == shown.message and gives_time_back(events, shown):
            banner.hide()
            self._clock_alert = None
        if not alerts:
            return
        worst = max(alerts, key=lambda a: a.kind == "bad")
        self._clock_alert = worst
        banner.show(worst.message, RULE, worst.code, kind=worst.kind)
        app = App.get_running_app()
        if app is not None and hasattr(app, "cue"):
            app.cue(worst.cue)

    # ---------------------------------------------------------------- hooks

    def on_table_bound(self, table: Any) -> None:
        """Build anything that depends on the game's seats or board."""

    def on_change(self, change: Any) -> None:
        """A Table change (action, undo, clock…); by default refresh on the next frame."""
        self._refresh_trigger()

    def draw_table(self) -> None:
        """Redraw the game's board and panels from the presenter (the public view)."""

    def after_refresh(self) -> None:
        """After a refresh: a game's moments (a reveal, the end of the game)."""

    def on_intent(self, spec: ButtonSpec) -> None:
        """A tap on an action-panel button whose intent is the game's own."""

    def refresh(self) -> None:
        """Redraw from the Table's public view: the game's board and panels, then the
        action panel, the log and undo (called on the next frame after every change)."""
        if self.table is None:
            return
        if self.recording:
            # A tap is being committed: reading the Table now would wait out that commit on
            # the UI thread. Its answer refreshes (GameScreen._answered).
            return
        self.draw_table()
        self.show_actions()  # first: it finds the seats whose phone the game waits for
        self.show_phones()
        self.show_log()
        self._show_moment()
        self.shown_ply = self.table.ply
        self.after_refresh()

    def _show_moment(self) -> None:
        """When one action has just decided something (the presenter's ``moment(before,
        after)`` over two public views, one ply apart), show it over the board. Never on
        an undo, a resume or a jump of several plies."""
        p = self.presenter
        if p is None or self.table is None or "board" not in self.ids:
            return
        if "gate" in self.ids and self.ids.gate.active:
            self._moment_view = None  # a seat is reading its secrets: not over them
            return
        before = self._moment_view
        if before is not None and before.get("ply") == self.table.ply:
            return  # a refresh without an action (a clock's tick): no second public view
        view = p.view()  # the presenter's, made once per change of the game
        self._moment_view = view
        if before is None or view.get("ply") != before.get("ply", -2) + 1:
            return
        moment = p.moment(before, view)
        if moment is None:
            return
        from .widgets.moment import MomentCard

        card = self.moment_card
        if card is None:
            card = self.moment_card = MomentCard()
        card.title, card.text = self.humanise(moment.title), self.humanise(moment.text)
        card.kind, card.faction = moment.kind, moment.faction
        card.show_over(self, self.ids.board)
        self._cue("reveal")

    def show_reading(self, event: Any) -> None:
        """A physical input event as the device reports it, before the Table has checked it
        (a die's motion, its reading, a device gone offline): the dice tray shows it."""
        if "dice" in self.ids:
            self.ids.dice.show_reading(event)

    def humanise(self, text: str) -> str:
        """Player words for an engine message (seat ids → names, no option ids or ruling
        codes): the presenter's."""
        return self.presenter.humanise(text) if self.presenter is not None else text

    def in_words(self, text: Any) -> str:
        """An engine's sentence (a Text or a plain string) in the app's language and in
        player words: the presenter's."""
        if self.presenter is not None:
            return self.presenter.in_words(text)
        from rules.core.text import english

        return english(text)

    def _line_words(self, line: Any) -> str:
        # A log line the engine wrote as structure is worded anew; others as they are.
        return self.in_words(line.words) if getattr(line, "words", None) is not None else self.humanise(line.text)

    def after_accept(self, action: Any = None) -> None:
        """An action (or a routed input) was accepted: hide the banner, forget what a tap
        asked about and the last draw's news, keep the news of this one (a card drawn face
        down: its seat may look behind the gate), and refresh."""
        self.info_text = ""
        p = self.presenter
        news = p.drawn_news(action) if p is not None and action is not None else ""
        self.news = {action.seat: news} if news else {}
        self.ids.banner.hide()
        self._refresh_trigger()

    def after_undo(self) -> None:
        """An undo was done: by default as after an accepted action."""
        self.after_accept(None)

    undo_rule = ("Undo: your own last moves, until the next player acts; never a throw everyone saw, "
                 "a card drawn or a secret revealed")

    # ------------------------------------------------------ the action panel

    def action_specs(self) -> list[ButtonSpec]:
        """The buttons of the action panel: the presenter's for the turn, a button for a
        seat that drew a card face down (in place of that seat's plain hand button), and
        the presenter's standing buttons (a seat's hand, the audit)."""
        p = self.presenter
        if p is None:
            return []
        specs = list(p.buttons())
        for seat in self.news:
            specs.append(peek_button(p.who(seat), seat))
        standing = p.standing_buttons()
        on_panel = {(b.intent, b.seat) for b in specs}
        specs += [b for b in standing if (b.intent, b.seat) not in on_panel]
        return self.phone_specs(specs)

    def phone_specs(self, specs: list[ButtonSpec]) -> list[ButtonSpec]:
        """A seat whose phone is attached makes its private choices there (every one of
        them: ``companion/web/seatview.py``): its buttons that would open the gate become
        one "waiting for Ann's phone" (or "Ann's hand is on Ann's phone") button."""
        attached = self.phones_attached()
        if not attached or self.table is None or self.presenter is None:
            self.phones_waiting = frozenset()
            return specs
        prompt = self.table.prompt
        waits = prompt.waits if prompt is not None and not prompt.over else {}
        self.phones_waiting = waiting_on_phones(specs, attached, waits)
        names = {s["id"]: s["name"] for s in self.presenter.seats()}
        return phone_buttons(specs, attached, self.phones_waiting, lambda seat: names.get(seat, seat))

    def show_actions(self) -> None:
        if "actions" in self.ids and self.presenter is not None:
            self.ids.actions.show(self.action_specs(), self.tap_button)

    def show_hands_menu(self) -> None:
        """"Hands": any seat may look at its own hand at any time, behind the gate. A page
        of its own over the table, a button per seat (or the phone that holds its hand),
        where the player looks: buttons added to a side column could land out of view."""
        from .widgets.hands_popup import HandsPopup

        if self.presenter is None:
            return
        specs = [ButtonSpec(label, "hand", seat=seat) for seat, label in self.presenter.hands_menu()]
        self.hands_page = HandsPopup(self.phone_specs(specs), self.tap_button)
        self.hands_page.open()

    def tap_button(self, spec: ButtonSpec) -> None:
        if self.recording:
            return  # the last tap is still being recorded: its answer redraws the panel
        intent = spec.intent
        self._tapped = spec  # the button a submit from here marks as being recorded
        try:
            if intent == "submit":
                self.submit(spec.action, spec.label)
            elif intent == "app-draw":
                self.app_draw(spec.count)
            elif intent == "physical-draw":
                self.open_physical_draw(spec.seat)
            elif intent == "hand":
                self.open_hand(spec.seat)
            elif intent == ON_PHONE:
                self.open_hand(spec.seat)  # says the choice is on the seat's phone
            elif intent == "hands":
                self.show_hands_menu()
            else:
                self.on_intent(spec)
        finally:
            self._tapped = None

    # ------------------------------------------------------ the log

    def on_log_open(self, _screen: Any, is_open: bool) -> None:
        if "log" in self.ids:
            set_drawn(self.ids.log, is_open)
        if is_open and self.table is not None:
            self._refresh_trigger()

    def show_log(self) -> None:
        """The log (in player words; filled only while it is shown) and whether undo is
        possible, with the reason when it is not; the Undo buttons disabled while it is not
        (a screen without a log too)."""
        if self.table is None:
            return
        reason = self.table.undo_reason()
        self.undo_reason = self.humanise(reason) if reason else ""
        for button in self._undo_buttons():
            button.disabled = reason is not None or self.recording
        if "log" not in self.ids:
            return
        from types import SimpleNamespace

        log = self.ids.log
        if self.log_open:
            log.set_lines([SimpleNamespace(ply=x.ply, text=self._line_words(x), undone=x.undone) for x in self.table.log()])
        log.set_undo(reason is None, self.undo_reason or None)

    def _undo_buttons(self) -> list[Any]:
        """The screen's Undo buttons: the top bar's (``undo`` in the .kv) and the log's."""
        ids = self.ids
        found = [ids.undo] if "undo" in ids else []
        if "log" in ids and "undo_button" in ids.log.ids:
            found.append(ids.log.ids.undo_button)
        return found

    def explain_undo(self) -> None:
        """A long press on Undo: what it would take back, or why nothing can be undone
        now (the policy's reason, in the players' words)."""
        if self.table is None or "banner" not in self.ids:
            return
        reason = self.table.undo_reason()
        # The message alone (no policy line under it): it must fit the Pi's small screen.
        if reason is not None:
            self.ids.banner.show(f"Nothing to undo now: {self.humanise(reason)}.", "", "undo-refused", kind="warn")
        else:
            ply = self.table.ply - 1
            said = [self._line_words(x) for x in self.table.log() if x.ply == ply and not x.undone]
            what = " ".join(said) or "the last action."
            self.ids.banner.show(f"Undo takes back: {what}", "", "undo-possible", kind="ok")

    # ------------------------------------------------------ the app's roller and deck

    def _table_does(self, call: Callable[[Any], Any], then: Callable[[Any], None]) -> bool:
        """``call(table)`` (the app's roller, a crooked die accepted…), committed on the
        input pump's thread; then, on the UI thread, ``then(result)``, or a refusal in
        the banner and ``then(None)``. False without a table."""
        if self.table is None:
            return False

        def done(result: Any, error: BaseException | None) -> None:
            if error is not None:
                self.show_rejection(getattr(error, "code", "refused"), str(error))
            then(result if error is None else None)

        self._commit(call, done)
        return True

    def roll_for_me(self, then: Callable[[bool], None] | None = None) -> bool:
        """The app's own roller / deck for the current roll or draw; ``then(accepted)``
        once the Table answered. False without a table."""
        return self.app_draw(1, then)

    def app_draw(self, count: int = 1, then: Callable[[bool], None] | None = None) -> bool:
        """The app's deck deals ``count`` cards (face down: a card is seen only behind the
        gate), or its roller rolls: one call on the pump, which stops at the first refusal
        (shown; the cards dealt before it stand). ``then(accepted)``: whether all were."""

        def deal(table: Any) -> tuple[list[Any], BaseException | None]:
            accepted: list[Any] = []
            for _ in range(max(1, count)):
                try:
                    accepted.append(table.roll_for_me())
                except REFUSALS as e:
                    return accepted, e
            return accepted, None

        def dealt(result: tuple[list[Any], BaseException | None] | None) -> None:
            accepted, refusal = result if result is not None else ([], None)
            for acc in accepted:
                action = getattr(acc, "action", None)
                if action is not None and getattr(action, "values", None) and "dice" in self.ids:
                    self.ids.dice.note(tuple(action.values), "the app rolled")
                self.after_accept(action)
            if refusal is not None:
                self.show_rejection(getattr(refusal, "code", "refused"), str(refusal))
            if then is not None:
                then(result is not None and refusal is None)

        return self._table_does(deal, dealt)

    def accept_crooked(self, then: Callable[[bool], None] | None = None) -> bool:
        """The table accepts a die that landed crooked as it reads (the dice tray asks);
        ``then(accepted)`` once the Table answered."""
        def answered(acc: Any) -> None:
            if acc is not None:
                self.after_accept(acc.action)
            if then is not None:
                then(acc is not None)

        return self._table_does(lambda t: t.accept_crooked(), answered)

    # ------------------------------------------------------ committing off the UI thread

    def _commit(self, call: Callable[[Any], Any], done: Callable[[Any, BaseException | None], None]) -> None:
        """Run ``call(table)`` on the app's input pump thread, in order with the dice, and
        ``done(result, error)`` on the UI thread after it (``error``: a refusal; a bug is
        raised there instead, for the crash report). Meanwhile the screen is
        :attr:`recording`: the tapped button marked, the panel and Undo not tappable.
        Without the app's pump (a screen outside the app) the call is made at once."""
        from .pump import outcome

        table = self.table
        self._outstanding += 1
        pump = getattr(App.get_running_app(), "input_pump", None)
        if pump is None:
            self._answered(table, done, outcome(lambda: call(table)))
            return
        arrived = threading.Event()
        answer: list[Any] = []  # the Future, once the pump has it; then whether it was taken

        def answered(future: "Future[Any]") -> None:  # on the pump's thread
            answer.append(future)
            arrived.set()
            Clock.schedule_once(lambda dt: take(), 0)

        def take() -> None:  # on the UI thread, once: here or from the clock
            if len(answer) == 1:
                answer.append(True)
                self._answered(table, done, answer[0])

        try:
            pump.call(lambda: call(table), answered)
        except REFUSALS as e:  # the app is closing (PumpClosed): nothing was applied
            refused: Future[Any] = Future()
            refused.set_exception(e)
            self._answered(table, done, refused)
            return
        # A commit usually takes about a millisecond: its answer is drawn in the tap's own
        # frame. One that does not come by then (an SD card's) leaves the screen drawing,
        # the tap marked as being recorded.
        # Taken from the clock either way (just before this frame is drawn), so an answer
        # that holds a bug reaches Kivy's exception manager as a later one does.
        if arrived.wait(QUICK_COMMIT_S):
            Clock.schedule_once(lambda dt: take(), -1)
            return
        if self._outstanding and not self.recording:
            self.recording = True
            if "actions" in self.ids:
                self.ids.actions.hold(self._tapped)
            for button in self._undo_buttons():
                button.disabled = True

    def _answered(self, table: Any, done: Callable[[Any, BaseException | None], None], future: "Future[Any]") -> None:
        """The Table's answer to a call put on the pump (a done Future), on the UI thread."""
        self._outstanding -= 1
        if self._outstanding == 0:
            self.recording = False
            if "actions" in self.ids:
                self.ids.actions.release()
            self._refresh_trigger()  # the panel and Undo as the Table now stands
        error = future.exception()
        if error is not None and not isinstance(error, REFUSALS):
            raise error  # a bug, not a refusal: Kivy's exception manager, the crash report
        if table is not self.table:
            return  # the game was left while its call waited: nothing here to show
        done(None if error is not None else future.result(), error)

    # ------------------------------------------------------ behind the privacy gate

    def open_private(self, seat: str, page: Callable[[], list[GateSection]], purpose: str,
                     more: Callable[[], bool] | None = None) -> None:
        """Ask for ``seat`` at the gate; ``page()`` (which may read the seat's secrets) is
        called only after the hold, and its widgets are destroyed when the gate hides.
        ``more()``, asked after each accepted choice: whether the same seat has more to
        enter on this page (a deal of several cards), so the gate stays open and the page
        is built again instead of closing."""
        from .widgets.gate_page import GatePage

        def build() -> Any:
            view: Any = None

            def again() -> list[GateSection] | None:
                return page() if more is not None and more() else None

            def choose(choice: GateChoice) -> None:
                self.submit_private(choice.action, view, again if more is not None else None)

            view = GatePage(on_choose=choose)
            return view.show(page())

        if self.moment_card is not None:
            self.moment_card.hide()  # a result moment still up would lie over the seat's page
        who = self.presenter.who(seat) if self.presenter is not None else seat
        self.ids.gate.open_for(seat, who, build, purpose=purpose)

    def phones_attached(self) -> frozenset[str]:
        """The seats whose own phone is attached now (``--phones on``, companion/web)."""
        link = getattr(App.get_running_app(), "phones_link", None)
        return frozenset(link.attached()) if link is not None else frozenset()

    def phone_holds(self, seat: str) -> bool:
        """Whether ``seat``'s own phone is attached (``--phones on``, companion/web): its
        hand and secret choices are on the phone, so the gate need not show them."""
        return seat in self.phones_attached()

    def show_phones(self) -> None:
        """The phone badge of every game (``presenters/phones.py``): under the game's own
        prompt line, the seats whose phone is attached, in words; on the seat clocks, ☎
        beside each such seat's name. Called after ``draw_table`` and when a phone
        attaches or leaves (``phones_changed``)."""
        if self.presenter is None:
            return
        attached = self.phones_attached()
        seats = [(s["id"], s["name"]) for s in self.presenter.seats()]
        line = phones_line(seats, attached)
        line = with_phones(line, waiting_line(seats, self.phones_waiting & attached))
        # The game sets prompt_text in draw_table; when it did not since the last badge,
        # the badge is put after the game's own words again, not after itself.
        base = self._prompt_base if self.prompt_text == self._prompt_shown else self.prompt_text
        self._prompt_base = base
        self.prompt_text = self._prompt_shown = with_phones(base, line)
        if "clocks" in self.ids:
            self.ids.clocks.set_phones(attached)

    def phones_changed(self) -> None:
        """A phone attached or left (``phones_link.start_phones``): redraw on the next frame."""
        if self.table is not None:
            self._refresh_trigger()

    def open_hand(self, seat: str) -> None:
        """``seat``'s hand and what it may do with it now (the presenter's ``hand_page``);
        on ``seat``'s phone instead when one is attached (the gate stays for the others)."""
        p = self.presenter
        if p is None:
            return
        if self.phone_holds(seat):
            self.ids.banner.show(f"{p.who(seat)}: your hand and your secret choices are on your phone.", "",
                                 "on-phone", kind="ok")
            return
        news = self.news.get(seat, "")
        self.open_private(seat, lambda: p.hand_page(seat, news), p.hand_purpose(seat))

    def open_physical_draw(self, seat: str) -> None:
        """``seat`` enters the card it drew from the table's own deck."""
        p = self.presenter
        if p is None:
            return
        # A game may let one seat enter several cards in a row behind one gate (a deal).
        self.open_private(seat, lambda: p.physical_draw_page(seat), "enter the card you drew",
                          more=lambda: p.physical_draw_continues(seat))

    def submit_private(self, action: Any, page: Any,
                       again: Callable[[], list[GateSection] | None] | None = None) -> bool:
        """Submit a choice made behind the gate. A refusal is shown there, on ``page``
        (its message may name the seat's cards or base), never on the public banner;
        an accepted choice closes the gate, unless ``again()`` returns the page's next
        sections (the same seat enters another card): then the page shows them.

        The choice is checked at once; while the Table commits it (on the input pump's
        thread) the page says so and takes no second choice. Returns True when it went to
        be recorded. The page closes or advances only when the Table accepted it, so a
        choice refused at commit time is never shown as accepted."""
        if self.table is None:
            return False
        try:
            if not self._outstanding:  # with a call still out, the state here is not the one it meets
                self.table.check(action, wait=False)
        except REFUSALS as e:
            self._refuse_private(page, e)
            return False
        page.ids.refusal.text = "Recording your choice…"
        page.disabled = True

        def done(_acc: Any, error: BaseException | None) -> None:
            page.disabled = False
            shown = page.parent is not None and self.ids.gate.active  # the seat may have closed the gate
            if error is not None:
                if shown:
                    self._refuse_private(page, error)
                else:  # its words may name the seat's secrets: not on the shared banner
                    who = self.presenter.who(action.seat) if self.presenter is not None else ""
                    self.show_rejection("refused", f"{who}: your secret choice was refused and not recorded; "
                                                   "open the gate to choose again.")
                return
            sections = again() if again is not None and shown else None
            if sections:
                page.ids.refusal.text = ""  # an earlier refusal no longer applies
                page.show(sections)
                page.scroll_y = 1
            else:
                if shown:
                    self.ids.gate.close()
            self.after_accept(action)

        self._commit(lambda t: t.submit(action, source=getattr(action, "source", "touch") or "touch"), done)
        return True

    def _refuse_private(self, page: Any, error: BaseException) -> None:
        from rules.core import IllegalAction

        if isinstance(error, IllegalAction):
            page.refuse(" ".join(f"{self.in_words(v.text)} (Rule: {self.humanise(v.rule)})" for v in error.violations))
        else:  # a journal that cannot save: nothing was applied
            page.refuse(self.humanise(str(error)))
        self._cue("rejected")

    # ------------------------------------------------ what every game screen does

    def submit(self, action: Any, what: str = "", confirmed: bool = False,
               then: Callable[[bool], None] | None = None) -> bool:
        """Give an action to the Table; a refusal shows every violation in player words
        and changes nothing. A journal that cannot save (a full disk) is shown the same
        way: nothing was applied.

        The action is checked at once (a refusal shows at once and returns False), then
        committed on the input pump's thread: True means it went to be recorded, and
        ``then(accepted)`` is called on the UI thread with the Table's answer (a refusal
        at commit time, when a die was routed first, is shown as any refusal).

        A tap that could never be undone (the engine's undo barrier: an Attack, a card
        revealed) asks first, in a confirmation naming it (``what``: the button's or the
        tap's words); rolls and draws have their own moment (the dice tray's hold, the
        drawn card), and secret choices are made behind the gate. Returns False while the
        question is open; the confirmed action is submitted then."""
        if self.table is None:
            return False
        from rules.core import Draw, Roll

        if not confirmed and not isinstance(action, (Roll, Draw)) and not getattr(action, "secret", False):
            try:
                reason = self.table.irreversible(action)
            except REFUSALS:  # a closed table: submit says so below
                reason = None
            if reason:
                tapped = self._tapped

                def confirmed_tap() -> None:
                    self._tapped = tapped  # the button tapped before the question is the one marked
                    try:
                        self.submit(action, what, confirmed=True, then=then)
                    finally:
                        self._tapped = None

                self.ask_confirmation(what or "Do this", reason, confirmed_tap)
                return False

        try:
            if not self._outstanding:  # with a call still out, the state here is not the one it meets
                self.table.check(action, wait=False)
        except REFUSALS as e:
            self._show_refusal(e)
            if then is not None:
                then(False)
            return False

        def done(_acc: Any, error: BaseException | None) -> None:
            if error is not None:
                self._show_refusal(error)
            else:
                self.after_accept(action)
            if then is not None:
                then(error is None)

        self._commit(lambda t: t.submit(action, source=getattr(action, "source", "touch") or "touch"), done)
        return True

    def _show_refusal(self, error: BaseException) -> None:
        """A refused action on the banner: every violation in player words, with its rule."""
        from rules.core import IllegalAction

        if isinstance(error, IllegalAction):
            vs = error.violations
            self.ids.banner.show(" ".join(self.in_words(v.text) for v in vs),
                                 " · ".join(dict.fromkeys(v.rule for v in vs)), vs[0].code if vs else "illegal")
            self._cue("rejected")
        else:
            self.show_rejection(getattr(error, "code", "refused"), str(error))

    def undo(self) -> bool:
        """Take back the last action: checked at once against the undo policy (a refusal
        shows at once), committed on the input pump's thread. True when it went to be
        recorded."""
        if self.table is None:
            return False
        try:
            if not self._outstanding:
                self.table.check_undo(wait=False)
        except REFUSALS as e:
            self._refuse_undo(e)
            return False

        def done(_acc: Any, error: BaseException | None) -> None:
            if error is not None:
                self._refuse_undo(error)
            else:
                self.after_undo()

        self._commit(lambda t: t.undo(), done)
        return True

    def _refuse_undo(self, error: BaseException) -> None:
        reason = getattr(error, "reason", None) or str(error)
        rule = (self.presenter.undo_rule if self.presenter is not None else "") or self.undo_rule  # a game's own policy, if it has one
        self.ids.banner.show(f"Undo refused: {self.humanise(reason)}.", rule, "undo-refused", kind="warn")

    def show_route(self, event: Any, result: Any) -> None:
        """A physical input event was routed by the Table (once, on the UI thread): a
        refusal goes to the banner in player words; an accepted input as a tap would. The
        dice tray shows a die's result in its own words first."""
        if "dice" in self.ids:
            self.ids.dice.show_result(event, result)
        rejected = getattr(result, "rejected", None)
        if rejected is not None:
            if rejected.code != "crooked-die":  # the dice tray shows that one
                # The message says what was refused in player words ("The end-turn
                # button…"); the device's address ("button:gpio/end-turn") is not for players.
                self.ids.banner.show(self.humanise(rejected.message), getattr(rejected, "rule", ""), rejected.code)
        elif getattr(result, "accepted", None) is not None:
            self.after_accept(result.accepted.action)

    def ask_confirmation(self, what: str, reason: str, then: Callable[[], Any], detail: str = "") -> None:
        """Ask before an irreversible tap: "<what>?", what it will do when the game can
        work it out beforehand (``detail``: an attack's damage, step by step), why it
        cannot be undone, Cancel and the action's own words on the button."""
        from .widgets.confirm import ConfirmView

        what = self.humanise(what).strip()
        view = ConfirmView(then, question=what.rstrip("?.…") + "?", reason=self.humanise(reason),
                           detail=self.humanise(detail), confirm_text=what if len(what) <= 40 else "Confirm")
        self._confirm = view
        view.open()

    def show_rejection(self, code: str, message: Text | str) -> None:
        """Show a refused action with the rule it broke (``message``: a sentence the engine
        made, worded in the app's language, or a plain string)."""
        self.ids.banner.show(self.in_words(message), "", code)
        self._cue("rejected")

    def _cue(self, name: str) -> None:
        app = App.get_running_app()
        if app is not None and hasattr(app, "cue"):
            app.cue(name)

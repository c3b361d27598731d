"""A refusal and a programming error reach the table screen differently (issue 29): a
layer's refusal (its root exception: ``RulesError``, ``CompanionError``) is shown in the
banner and changes nothing; anything else (a ``TypeError`` from a presenter, the engine, the
Table) is not caught as a refusal: it leaves the screen's callback for Kivy's exception
manager, whose handlers let it end the app with its traceback (the crash report).

A tap is checked at once on the UI thread and committed on the input pump's thread: a bug
in the check leaves the tap's own call; a bug in the commit (or in what the screen does
with the answer) is raised again on the UI thread when the answer arrives, in a Clock
callback, and reaches Kivy's exception manager (here a handler records the planted bugs
and lets them pass, so the scenario goes on)."""
from __future__ import annotations

from typing import Any, Iterator

from tests.ui.scenarios import SEATS, _screen, _wait_for, settle


def programming_error_is_no_banner(d: Any) -> Iterator[float]:
    from kivy.base import ExceptionHandler, ExceptionManager

    from companion.table import TableClosed

    app = d.app
    app.new_game("tyranny", SEATS, {}, seed=11)
    yield from settle(d)
    scr = _screen(d)
    banner, table = scr.ids.banner, app.table
    action = next(iter(table.legal_actions()))  # the first roll: a tap of the dice tray would submit it
    before = table.ply
    planted: list[BaseException] = []
    reached: list[str] = []  # planted bugs that reached Kivy's exception manager

    class Recorder(ExceptionHandler):
        def handle_exception(self, inst: BaseException) -> Any:
            if any(inst is bug for bug in planted):
                reached.append(type(inst).__name__)
                return ExceptionManager.PASS
            return ExceptionManager.RAISE

    recorder = Recorder()
    ExceptionManager.add_handler(recorder)

    def closed(*_a: Any, **_k: Any) -> Any:
        raise TableClosed("the table of this game is closed")

    banner.hide()
    caught: list[str] = []
    calls = (("submit", lambda: scr.submit(action, confirmed=True)), ("undo", scr.undo), ("roll for me", scr.roll_for_me))
    # A TypeError, and a plain ValueError (an unpacking gone wrong), are bugs: neither is a
    # layer's refusal, so neither may be caught as one (the ValueError once was).
    for bug in (TypeError("an argument of the wrong type"), ValueError("too many values to unpack")):
        planted.append(bug)

        def boom(*_a: Any, _bug: Exception = bug, **_k: Any) -> Any:
            raise _bug

        # In the check made at once, on the UI thread: it leaves the tap's call.
        for name, call in calls[:2]:
            table.check = table.check_undo = boom  # type: ignore[method-assign]
            try:
                call()
            except type(bug):
                caught.append(f"{type(bug).__name__} from {name}")
            del table.check, table.check_undo
        # In the commit, on the pump's thread: raised again on the UI thread with the answer.
        for name, call in calls:
            table.submit = table.undo = table.roll_for_me = boom  # type: ignore[method-assign]
            table.check_undo = lambda *_a, **_k: True  # type: ignore[method-assign]  (nothing to undo yet)
            n = len(reached)
            call()
            yield from _wait_for(lambda: len(reached) > n and not scr.recording, 5)
            del table.submit, table.undo, table.roll_for_me, table.check_undo
            if len(reached) > n:
                caught.append(f"{type(bug).__name__} from {name}'s commit")
    yield 0.2
    d.check(len(caught) == 10, f"each bug left the screen's callbacks: {caught}")
    d.check(banner.shown == 0, f"no banner for a programming error: {banner.message!r}")
    d.check(table.ply == before and not scr.recording, "nothing was applied, and the panel is free again")
    # Kivy's exception manager, with the app's handlers, lets a TypeError end the app.
    ExceptionManager.remove_handler(recorder)
    d.check(ExceptionManager.handle_exception(TypeError("a bug")) == ExceptionManager.RAISE,
            "the app's exception handlers let a TypeError through to the crash report")
    ExceptionManager.add_handler(recorder)
    d.note("programming error: raised, no banner")

    # A refusal of the session layer, by contrast: the banner says it, nothing changes.
    table.submit = closed  # type: ignore[method-assign]
    answers: list[bool] = []
    scr.submit(action, confirmed=True, then=answers.append)
    yield from _wait_for(lambda: bool(answers), 5)
    del table.submit
    yield 0.2
    d.check(answers == [False] and banner.shown > 0 and "closed" in banner.message,
            f"a CompanionError is a refusal on the banner: {answers} {banner.message!r}")
    d.check(table.ply == before, "nothing was applied")
    d.note("refusal: " + banner.message)
    d.shot("refusal-banner")

    # A presenter's bug after an accepted action (its drawn_news) leaves the callback too.
    banner.hide()
    yield from _wait_for(lambda: banner.shown == 0, 3)
    bug = IndexError("list index out of range")
    planted.append(bug)

    def drawn_news(_action: Any) -> str:
        raise bug

    scr.presenter.drawn_news = drawn_news
    n = len(reached)
    scr.submit(action, confirmed=True)
    yield from _wait_for(lambda: len(reached) > n, 5)
    del scr.presenter.drawn_news
    yield 0.2
    ExceptionManager.remove_handler(recorder)
    d.check(reached[n:] == ["IndexError"], f"the presenter's IndexError reached the exception manager: {reached}")
    d.check(table.ply == before + 1, f"the roll was applied: ply {table.ply}, was {before}")
    d.check(banner.shown == 0, f"the bug is no banner: {banner.shown} {banner.message!r}")
    d.note("presenter bug: raised, no banner")

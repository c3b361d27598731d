"""A refusal and a programming error reach the table screen differently (issue 29): a
layer's refusal (its root exception: ``RulesError``, ``CompanionError``) is shown in the
banner and changes nothing; anything else (a ``TypeError`` from a presenter, the engine, the
Table) is not caught as a refusal: it leaves the screen's callback for Kivy's exception
manager, whose handlers let it end the app with its traceback (the crash report)."""
from __future__ import annotations

from typing import Any, Iterator

from tests.ui.scenarios import SEATS, _screen, _wait_for, settle


def programming_error_is_no_banner(d: Any) -> Iterator[float]:
    from kivy.base import ExceptionManager

    from companion.table import TableClosed

    app = d.app
    app.new_game("tyranny", SEATS, {}, seed=11)
    yield from settle(d)
    scr = _screen(d)
    banner, table = scr.ids.banner, app.table
    action = next(iter(table.legal_actions()))  # the first roll: a tap of the dice tray would submit it
    before = table.ply
    real_submit, real_undo = table.submit, table.undo

    def closed(*_a: Any, **_k: Any) -> Any:
        raise TableClosed("the table of this game is closed")

    banner.hide()
    caught: list[str] = []
    # A TypeError, and a plain ValueError (an unpacking gone wrong), are bugs: neither is a
    # layer's refusal, so neither may be caught as one (the ValueError once was).
    for bug in (TypeError("an argument of the wrong type"), ValueError("too many values to unpack")):
        def boom(*_a: Any, _bug: Exception = bug, **_k: Any) -> Any:
            raise _bug

        for name, call in (("submit", lambda: scr.submit(action, confirmed=True)), ("undo", scr.undo),
                           ("roll for me", scr.roll_for_me)):
            table.submit = table.undo = table.roll_for_me = boom  # type: ignore[method-assign]
            try:
                call()
            except type(bug):
                caught.append(f"{type(bug).__name__} from {name}")
        table.submit, table.undo = real_submit, real_undo  # type: ignore[method-assign]
        del table.roll_for_me
    yield 0.2
    d.check(len(caught) == 6, f"each bug left the screen's callbacks: {caught}")
    d.check(banner.shown == 0, f"no banner for a programming error: {banner.message!r}")
    d.check(table.ply == before, "nothing was applied")
    # Kivy's exception manager, with the app's handlers, lets a TypeError end the app.
    d.check(ExceptionManager.handle_exception(TypeError("a bug")) == ExceptionManager.RAISE,
            "the app's exception handlers let a TypeError through to the crash report")
    d.note("programming error: raised, no banner")

    # A refusal of the session layer, by contrast: the banner says it, nothing changes.
    table.submit = closed  # type: ignore[method-assign]
    refused = scr.submit(action, confirmed=True)
    table.submit = real_submit  # type: ignore[method-assign]
    yield 0.2
    d.check(refused is False and banner.shown > 0 and "closed" in banner.message,
            f"a CompanionError is a refusal on the banner: {banner.message!r}")
    d.check(table.ply == before, "nothing was applied")
    d.note("refusal: " + banner.message)
    d.shot("refusal-banner")

    # A presenter's bug after an accepted action (its drawn_news) leaves the callback too.
    banner.hide()
    yield from _wait_for(lambda: banner.shown == 0, 3)
    scr.presenter.drawn_news = lambda _action: [][1]  # an IndexError: a bug, not a refusal
    try:
        scr.submit(action, confirmed=True)
        d.check(False, "the presenter's IndexError was swallowed")
    except IndexError:
        pass
    del scr.presenter.drawn_news
    yield 0.2
    d.check(table.ply == before + 1, f"the roll was applied: ply {table.ply}, was {before}")
    d.check(banner.shown == 0, f"the bug is no banner: {banner.shown} {banner.message!r}")
    d.note("presenter bug: raised, no banner")

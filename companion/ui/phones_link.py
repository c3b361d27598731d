"""Players' phones as a device of the app: the phones' server (:mod:`companion.web`) for
the game on the table, each seat's QR code, and which seats have a phone attached. No
Kivy here: the app gives ``call`` (run a function on the UI thread, the Table's one
caller) and ``on_change`` (told when a phone attaches or leaves).

On or off: ``--phones on|off`` on the command line, else ``TC_PHONES``, else off (a
server on the network is something a table asks for). The address it listens on:
``--phones-host``, else ``TC_PHONES_HOST``, else this computer's address on the local
network (the interface its default route uses), else loopback. It listens only while a
game is on the table: :meth:`PhonesLink.follow` starts a server for a new table and stops
the old one; ``follow(None)`` (no game) stops listening.

Discovery by mDNS (zeroconf): ``--phones-mdns on|off``, else ``TC_PHONES_MDNS``, else off.
While the server listens, it is advertised on its interface (``companion/web/discovery.py``);
the advertisement is withdrawn when the server stops. One that cannot be made (no
``zeroconf``, no multicast) leaves the server as it is and says why in
:attr:`PhonesLink.mdns_error`.

A server that cannot start (the extra is not installed, an address in use) is never an
exception out of :meth:`PhonesLink.follow`: it becomes :attr:`PhonesLink.error`, a
sentence the devices panel shows.

>>> resolve_mode(None, {}), resolve_mode("on", {}), resolve_mode(None, {"TC_PHONES": "on"})
('off', 'on', 'on')
>>> resolve_host("10.0.0.5", {}), resolve_host(None, {"TC_PHONES_HOST": "127.0.0.1"})
('10.0.0.5', '127.0.0.1')
>>> resolve_mdns(None, {}), resolve_mdns("on", {}), resolve_mdns(None, {"TC_PHONES_MDNS": "on"})
('off', 'on', 'on')
"""
from __future__ import annotations

import concurrent.futures
import io
import logging
import os
import socket
import threading
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from ..errors import CompanionError
from .presenters.base import GamePresenter

if TYPE_CHECKING:
    from .gamescreen import GameScreen

log = logging.getLogger("companion.ui.phones")

PHONES_DEVICE = "phones"
PHONES_MODES = ("on", "off")
WILDCARDS = ("0.0.0.0", "::", "")

Call = Callable[[Callable[[], Any]], "concurrent.futures.Future[Any]"]


class PhonesModeError(CompanionError, ValueError):
    """A ``--phones`` value that is not one of :data:`PHONES_MODES`."""


def resolve_mode(mode: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """``mode`` (the command line), else ``TC_PHONES``, else ``"off"``."""
    env = os.environ if env is None else env
    chosen = (mode or env.get("TC_PHONES") or "off").strip().lower()
    if chosen not in PHONES_MODES:
        raise PhonesModeError(f"--phones takes {', '.join(PHONES_MODES)}, not {chosen!r}")
    return chosen


def resolve_mdns(mode: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """``mode`` (``--phones-mdns``), else ``TC_PHONES_MDNS``, else ``"off"``."""
    env = os.environ if env is None else env
    chosen = (mode or env.get("TC_PHONES_MDNS") or "off").strip().lower()
    if chosen not in PHONES_MODES:
        raise PhonesModeError(f"--phones-mdns takes {', '.join(PHONES_MODES)}, not {chosen!r}")
    return chosen


def lan_address() -> str:
    """This computer's address on the local network (the interface of its default route;
    nothing is sent), or loopback when it has none."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: a route is looked up, no packet leaves
        return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def resolve_host(host: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """The address to listen on: ``host``, else ``TC_PHONES_HOST``, else :func:`lan_address`."""
    env = os.environ if env is None else env
    return (host or env.get("TC_PHONES_HOST") or lan_address()).strip()


def direct_call(fn: Callable[[], Any]) -> "concurrent.futures.Future[Any]":
    """Run ``fn`` at once on the calling thread (tests; the app marshals to its UI thread)."""
    fut: concurrent.futures.Future[Any] = concurrent.futures.Future()
    try:
        fut.set_result(fn())
    except BaseException as e:
        fut.set_exception(e)
    return fut


class PhonesLink:
    """The phones' server of whatever game is on the table."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, call: Call | None = None,
                 on_change: Callable[[], None] | None = None,
                 extras: Callable[[str], Iterable[tuple[str, Any]]] | None = None,
                 texts: Callable[[str], Iterable[tuple[str, str, str]]] | None = None,
                 words: Callable[[str], Iterable[tuple[str, Any]]] | None = None, mdns: bool = False,
                 voice: Any = None) -> None:
        self.host = host
        self.port = port
        self.call = call
        self.on_change = on_change
        self.extras = extras  # more choices per seat (a physical card drawn): see start_phones
        self.texts = texts  # each seat's own cards with their rule text: see start_phones
        self.words = words  # each seat's private choices in its gate page's words: see start_phones
        self.voice = voice  # the pages in the game's words (the presenter's phone hooks): see start_phones
        self.server: Any = None
        self.error: str | None = None
        self.mdns = mdns  # advertise the server by zeroconf/mDNS while it listens
        self.advert: Any = None  # the advertisement (companion.web.discovery.Advert) while there is one
        self.mdns_error: str | None = None
        self._lock = threading.Lock()

    @property
    def listening(self) -> bool:
        return self.server is not None and self.server.listening

    def follow(self, table: Any) -> None:
        """Serve ``table``'s seats (stop serving the previous one); None: stop listening."""
        with self._lock:
            if self.server is not None and table is not None and self.server.table is table:
                return
            self._stop()
            if table is None:
                return
            if self.host in WILDCARDS:
                # The QR code must name an address a phone can reach, and the Host check
                # needs one: every interface at once is not one.
                self.error = (f"--phones-host {self.host} means every interface: give this computer's address on "
                              "the table's network instead (or leave it out to use the default one).")
                return
            try:
                from companion.web.server import PhoneServer
            except ImportError as e:
                self.error = f"Phones need the 'phones' extra (aiohttp, segno): {e}"
                return
            from companion.web.discovery import Advert, DiscoveryError, new_tag, host_name

            tag = new_tag()
            server = PhoneServer(table, host=self.host, port=self.port, call=self.call,
                                 on_attach=lambda _seats: self._changed(), extras=self.extras, texts=self.texts,
                                 words=self.words, voice=self.voice, names=[host_name(tag)] if self.mdns else [])
            try:
                server.start()
            except OSError as e:
                self.error = str(e)
                return
            self.error = None
            self.server = server
            if self.mdns:
                advert = Advert(self.host, server.port, table.game.title, tag=tag, game=table.game_id)
                try:
                    advert.start()
                except DiscoveryError as e:
                    self.mdns_error = str(e)
                else:
                    self.mdns_error = None
                    self.advert = advert
        self._changed()

    def _stop(self) -> None:
        advert, self.advert = self.advert, None
        if advert is not None:
            advert.stop()  # withdrawn first: nobody is sent to a server that is going
        server, self.server = self.server, None
        if server is not None:
            server.stop()

    def url(self, seat: str) -> str | None:
        """``seat``'s page (its first token is issued on first asking), or None when not serving."""
        server = self.server
        return None if server is None else server.url_for(seat)

    def reissue(self, seat: str) -> str | None:
        """A new code for ``seat``: the old link (and the page open with it) stops working."""
        server = self.server
        if server is None:
            return None
        url = server.issue(seat)
        self._changed()
        return url

    def qr_png(self, seat: str, scale: int = 6) -> bytes | None:
        """``seat``'s QR code as a PNG (segno), or None when not serving."""
        url = self.url(seat)
        if url is None:
            return None
        import segno

        out = io.BytesIO()
        segno.make(url, error="m").save(out, kind="png", scale=scale, border=2)
        return out.getvalue()

    def attached(self) -> frozenset[str]:
        """The seats with a phone connected now."""
        server = self.server
        return frozenset() if server is None else server.attached()

    def _changed(self) -> None:
        if self.on_change is not None:
            try:
                self.on_change()
            except Exception:
                log.exception("phones: on_change failed")

    def close(self) -> None:
        with self._lock:
            self._stop()


def draws_of(presenter: GamePresenter, table: Any, seat: str) -> Iterable[tuple[str, Any]]:
    """The physical draws ``presenter`` offers ``seat`` behind the gate (its
    ``physical_draws(seat)``), if it presents ``table``; else none."""
    return presenter.physical_draws(seat) if presenter.table is table else ()


def texts_of(presenter: GamePresenter, table: Any, seat: str) -> Iterable[tuple[str, str, str]]:
    """``seat``'s own cards with their rule text, as ``presenter`` shows them behind the
    gate (its ``card_texts(seat)``), if it presents ``table``; else none."""
    return presenter.card_texts(seat) if presenter.table is table else ()


def choices_of(presenter: GamePresenter, table: Any, seat: str) -> Iterable[tuple[str, Any]]:
    """``seat``'s choices as its gate page words them (the presenter's ``hand_page``):
    (label, action), if ``presenter`` presents ``table``; else none. Labels only: what a
    phone may do is the Table's listing, whatever the page offers."""
    if presenter.table is not table:
        return ()
    try:
        sections = presenter.hand_page(seat)
    except Exception:  # the server's thread: the words are a nicety, the plain labels stay
        log.exception("phones: no gate words for a seat")
        return ()
    return [(c.label, c.action) for sec in sections for c in (sec.choices or ()) if c.action is not None]


class PresenterVoice:
    """The phone hooks (``next_step``, ``secret_lines``, ``hand_title``, ``phone_line``) of
    the presenter showing the game now (``current()`` gives the table and its screen's
    presenter), else of the base presenter for that table: a page speaks its game's words
    even before its screen is built."""

    def __init__(self, current: Callable[[], tuple[Any, GamePresenter | None]]) -> None:
        self.current = current

    def _presenter(self) -> GamePresenter:
        table, p = self.current()
        return p if p is not None and p.table is table else GamePresenter(table)

    def next_step(self, seat: str) -> str:
        return self._presenter().next_step(seat)

    def secret_lines(self, seat: str) -> list[str]:
        return self._presenter().secret_lines(seat)

    def hand_title(self, seat: str) -> str:
        return self._presenter().hand_title(seat)

    def phone_line(self, text: str) -> str:
        return self._presenter().phone_line(text)


def start_phones(app: Any, host: str | None = None, mdns: str | None = None) -> PhonesLink:
    """Serve the phones of whatever game ``app`` has on its table (``app.table``), calling
    the Table on the UI thread; the link is closed with the app (``app.phones_link``)."""
    from kivy.clock import Clock

    def on_ui(fn: Callable[[], Any]) -> "concurrent.futures.Future[Any]":
        fut: concurrent.futures.Future[Any] = concurrent.futures.Future()

        def run(_dt: float) -> None:
            if fut.set_running_or_notify_cancel():
                try:
                    fut.set_result(fn())
                except BaseException as e:
                    fut.set_exception(e)

        Clock.schedule_once(run, 0)
        return fut

    def changed() -> None:
        devices = getattr(app, "devices", None)
        if devices is not None:
            Clock.schedule_once(lambda _dt: devices.changed(), 0)
        Clock.schedule_once(lambda _dt: table_screen_changed(), 0)

    def table_screen_changed() -> None:
        # The table screen's phone badge (GameScreen.show_phones), whatever the game.
        table, sm = app.table, getattr(app, "sm", None)
        if table is not None and sm is not None and sm.has_screen(f"game:{table.game_id}"):
            sm.get_screen(f"game:{table.game_id}").phones_changed()

    def presenter() -> tuple[Any, GamePresenter | None]:
        table, sm = app.table, getattr(app, "sm", None)
        if table is None or sm is None or not sm.has_screen(f"game:{table.game_id}"):
            return table, None
        screen: GameScreen = sm.get_screen(f"game:{table.game_id}")
        return table, screen.presenter

    def physical_draws(seat: str) -> Iterable[tuple[str, Any]]:
        # The table screen's presenter knows which cards a seat may say it drew without
        # learning anything (never the engine's exact deck); games without one: none.
        table, p = presenter()
        return draws_of(p, table, seat) if p is not None else ()

    def card_texts(seat: str) -> Iterable[tuple[str, str, str]]:
        table, p = presenter()
        return texts_of(p, table, seat) if p is not None else ()

    def gate_words(seat: str) -> Iterable[tuple[str, Any]]:
        table, p = presenter()
        return choices_of(p, table, seat) if p is not None else ()

    link = PhonesLink(resolve_host(host), call=on_ui, on_change=changed, extras=physical_draws, texts=card_texts,
                      words=gate_words, mdns=resolve_mdns(mdns) == "on", voice=PresenterVoice(presenter))
    app.phones_link = link
    app.add_closer(link.close)
    app.bind(table=lambda _app, table: link.follow(table))
    link.follow(app.table)
    return link

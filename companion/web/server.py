"""The phones' server: each seat's private page, live over a WebSocket, on the local network.

One :class:`PhoneServer` serves one Table (one game) and listens only while that game
uses it (:meth:`start` / :meth:`stop`). It runs its own asyncio loop on a thread of its
own; every call into the Table goes through ``call`` (by default a single worker thread;
the app passes a function that runs it on the UI thread), so the Table keeps the one
caller it was written for.

Routes (``{token}`` is the seat's token; everything else is 404):

* ``GET /p/{token}/``          the page (HTML; ``/p/{token}`` redirects there)
* ``GET /p/{token}/phone.js``, ``/phone.css``  its assets
* ``GET /p/{token}/state``     the seat's payload as JSON (:func:`~companion.web.seatview.seat_payload`)
* ``GET /p/{token}/ws``        the WebSocket: the server sends ``{"type": "state", "payload": …}`` on
  connect and after every change; the phone sends ``{"type": "act", "id", "ply", "action"}``
  (one of the payload's actions), ``{"type": "sync"}`` or ``{"type": "ping"}``.

Security (see README.md): every request and message is checked against the token (a
token opens one seat of one game; a wrong or revoked one is 403, and a re-issued seat's
old sockets are closed); the ``Host`` must be the address the phone connected to (or a
name the app gave), and an ``Origin``, required on the WebSocket, must match it (no DNS
rebinding, no other site's page driving a seat); bodies and messages are size-capped;
requests and messages are rate-limited per token and refusals per address; a malformed
message is answered with an error and the socket stays open.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import threading
from importlib import resources
from typing import Any, Callable, Iterable

from aiohttp import WSMsgType, web

from rules.core import IllegalAction
from rules.core.actions import parse_action

from .limits import Buckets
from .seatview import OFFER, Extras, Texts, Voice, Words, offered, seat_payload
from .tokens import Grant, TokenBook

log = logging.getLogger("companion.web")

MAX_BODY = 8 * 1024          # no route takes a body: anything bigger is refused outright
MAX_MESSAGE = 4 * 1024       # an action is a few hundred bytes
MAX_FRAME = 64 * 1024        # above this aiohttp closes the socket (1009); below, we answer an error
MAX_SOCKETS_PER_SEAT = 4     # a phone and a couple of stale tabs
MAX_DEPTH = 16               # an act message is 3 levels deep (message, action, a list of ids)
CLOSE_WAIT = 2.0             # seconds a closing socket waits for the phone's close reply
ASSETS = {"phone.js": "application/javascript", "nudge.js": "application/javascript", "phone.css": "text/css"}
SOURCE = "phone"             # the journal's source for an action taken on a phone

Call = Callable[[Callable[[], Any]], "concurrent.futures.Future[Any]"]

_SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
}


def _depth(value: Any) -> int:
    """How deeply ``value`` (parsed JSON) nests lists and objects, counted without
    recursion (a scalar is 0).

    >>> _depth(1), _depth({"type": "act", "action": {"cards": ["a"]}}), _depth([[[]]])
    (0, 3, 3)
    """
    deepest, todo = 0, [(value, 1)]
    while todo:
        v, d = todo.pop()
        if isinstance(v, dict):
            v = list(v.values())
        if isinstance(v, list):
            deepest = max(deepest, d)
            todo.extend((x, d + 1) for x in v)
    return deepest


def _asset(name: str) -> bytes:
    return resources.files(__package__).joinpath("static", name).read_bytes()


class PhoneServer:
    """Serve ``table``'s seats to their phones.

    >>> from companion import Journal, Table
    >>> t = Table.create(Journal.open(":memory:"), game_id="stepping_stones", seed=3,
    ...                  seats=[{"id": "fox-1", "faction": "fox"}, {"id": "hare-1", "faction": "hare"}])
    >>> s = PhoneServer(t); s.start()
    >>> s.url_for("hare-1").startswith("http://127.0.0.1:")
    True
    >>> s.stop(); s.listening
    False
    """

    def __init__(self, table: Any, *, host: str = "127.0.0.1", port: int = 0, call: Call | None = None,
                 names: Iterable[str] = (), per_token: Buckets | None = None, refusals: Buckets | None = None,
                 on_attach: Callable[[frozenset[str]], None] | None = None, extras: Extras | None = None,
                 texts: Texts | None = None, words: Words | None = None, voice: Voice | None = None) -> None:
        self.table = table
        self.host = host
        self.port = port
        self.names = frozenset(names)  # extra Host names allowed (an mDNS name), besides the address
        self.book = TokenBook(table.key, [s["id"] for s in table.seats])
        self._tokens: dict[str, str] = {}  # the live token of each seat (the QR code shows it)
        self._worker: concurrent.futures.ThreadPoolExecutor | None = None
        self._call = call
        self.per_token = per_token or Buckets(capacity=60, per_second=20)
        self.refusals = refusals or Buckets(capacity=30, per_second=5)
        self.on_attach = on_attach
        self.extras = extras  # more choices per seat from the app (seatview.seat_payload)
        self.texts = texts  # each seat's own cards with their rule text (seatview.seat_payload)
        self.words = words  # each seat's private choices in its gate page's words (seatview.seat_payload)
        self.voice = voice  # the page in its game's words: the presenter's phone hooks (seatview.seat_payload)
        self._sockets: dict[str, set[web.WebSocketResponse]] = {}
        self._tokens_of: dict[web.WebSocketResponse, str] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._dirty: asyncio.Event | None = None
        self._pusher: asyncio.Task[None] | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None

    # ------------------------------------------------------------------ tokens
    def issue(self, seat: str) -> str:
        """A new token for ``seat`` (the old one, and its open pages, stop working);
        returns the page's URL, for the QR code."""
        self._tokens[seat] = self.book.issue(seat)
        self._close_seat_sockets(seat)
        return self.url_for(seat)

    def revoke(self, seat: str) -> None:
        self.book.revoke(seat)
        self._tokens.pop(seat, None)
        self._close_seat_sockets(seat)

    def url_for(self, seat: str) -> str:
        """``seat``'s page URL, issuing its first token if it has none yet."""
        if seat not in self._tokens:
            return self.issue(seat)
        return f"{self.base_url}/p/{self._tokens[seat]}"

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def attached(self) -> frozenset[str]:
        """The seats with a page connected now."""
        return frozenset(s for s, socks in list(self._sockets.items()) if socks)

    def payload(self, seat: str) -> dict[str, Any]:
        """What ``seat``'s page is sent now (call it where the Table is called from)."""
        return seat_payload(self.table, seat, self.extras, self.texts, self.words, self.voice)

    # ------------------------------------------------------------------ the app
    def make_app(self) -> web.Application:
        """The aiohttp application (the test client serves it directly)."""
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        app.router.add_get("/p/{token}", self._to_page)
        app.router.add_get("/p/{token}/", self._page)
        app.router.add_get("/p/{token}/state", self._state)
        app.router.add_get("/p/{token}/ws", self._ws)
        app.router.add_get("/p/{token}/{asset}", self._asset)
        app.on_startup.append(self._on_startup)
        app.on_shutdown.append(self._on_shutdown)
        return app

    async def _on_startup(self, app: web.Application) -> None:
        self._loop = asyncio.get_running_loop()
        self._dirty = asyncio.Event()
        self._pusher = asyncio.create_task(self._push_loop())
        self._unsubscribe = self.table.subscribe(self._table_changed)

    async def _on_shutdown(self, app: web.Application) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        await asyncio.gather(*(ws.close(code=1001, message=b"table closed") for ws in list(self._tokens_of)),
                             return_exceptions=True)
        if self._pusher is not None:
            self._pusher.cancel()
            try:
                await self._pusher
            except asyncio.CancelledError:
                pass
            self._pusher = None
        if self._worker is not None:
            self._worker.shutdown(wait=False)
            self._worker = None

    # ------------------------------------------------------------------ listening
    @property
    def listening(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """Listen on ``host``:``port`` (port 0: any free one, then :attr:`port` says which)."""
        if self.listening:
            return
        ready = threading.Event()
        failed: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            runner = web.AppRunner(self.make_app(), access_log=None, shutdown_timeout=1.0)
            try:
                loop.run_until_complete(runner.setup())
                site = web.TCPSite(runner, self.host, self.port)
                loop.run_until_complete(site.start())
                self.port = runner.addresses[0][1]
                self._runner = runner
            except BaseException as e:  # a bad address, a port in use: said by start()
                failed.append(e)
                loop.run_until_complete(runner.cleanup())  # unsubscribes from the Table
                ready.set()
                loop.close()
                return
            ready.set()
            loop.run_forever()
            loop.run_until_complete(runner.cleanup())
            loop.close()

        self._thread = threading.Thread(target=run, name="phones-server", daemon=True)
        self._thread.start()
        ready.wait()
        if failed:
            self._thread.join()
            self._thread = None
            raise OSError(f"the phones' server cannot listen on {self.host}:{self.port}: {failed[0]}")

    def stop(self) -> None:
        """Stop listening; every page is disconnected (its token stays valid for a restart)."""
        thread, loop = self._thread, self._loop
        if thread is None:
            return
        if loop is not None and loop.is_running():
            loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        self._thread = None

    # ------------------------------------------------------------------ guards
    def _allowed_host(self, request: web.Request) -> bool:
        host = request.headers.get("Host", "")
        sock = request.transport.get_extra_info("sockname") if request.transport is not None else None
        here = set(self.names)
        if sock:
            addr, port = sock[0], sock[1]
            here.add(f"{addr}:{port}" if ":" not in addr else f"[{addr}]:{port}")
            here.update(f"{n}:{port}" for n in self.names)
        return host in here

    def _allowed_origin(self, request: web.Request, required: bool) -> bool:
        origin = request.headers.get("Origin")
        if origin is None:
            return not required
        return origin == f"http://{request.headers.get('Host', '')}"

    @web.middleware
    async def _guard(self, request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
        peer = request.remote or "?"
        if not self._allowed_host(request) or not self._allowed_origin(request, required=False):
            return self._refuse(peer, 403, "This page belongs to another address.")
        if request.content_length and request.content_length > MAX_BODY:
            return self._refuse(peer, 413, "Too large.")
        try:
            resp = await handler(request)
        except web.HTTPNotFound:
            if not self.refusals.take(peer):  # walking the paths is refused like guessing tokens
                return web.Response(status=429, text="Too many requests: wait a moment.", headers=_SECURITY_HEADERS)
            raise
        if isinstance(resp, web.Response):
            resp.headers.update(_SECURITY_HEADERS)
        return resp

    def _refuse(self, peer: str, status: int, text: str) -> web.Response:
        if not self.refusals.take(peer):
            status, text = 429, "Too many requests: wait a moment."
        return web.Response(status=status, text=text, headers=_SECURITY_HEADERS)

    def _grant(self, request: web.Request) -> Grant:
        """The seat the request's token opens; raises 403 (or 429) otherwise."""
        grant = self.book.grant(request.match_info.get("token", ""))
        peer = request.remote or "?"
        if grant is None or grant.game != self.table.key:
            if not self.refusals.take(peer):
                raise web.HTTPTooManyRequests(text="Too many requests: wait a moment.", headers=_SECURITY_HEADERS)
            raise web.HTTPForbidden(text="This link is not (or no longer) valid: scan the seat's code again.",
                                    headers=_SECURITY_HEADERS)
        if not self.per_token.take(request.match_info["token"]):
            raise web.HTTPTooManyRequests(text="Too many requests: wait a moment.", headers=_SECURITY_HEADERS)
        return grant

    # ------------------------------------------------------------------ table calls
    async def _in_table(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` where the Table is called from (never on this loop: it may block)."""
        if self._call is not None:
            return await asyncio.wrap_future(self._call(fn))
        if self._worker is None:
            self._worker = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="phones-table")
        return await asyncio.get_running_loop().run_in_executor(self._worker, fn)

    def _table_changed(self, change: Any) -> None:
        loop, dirty = self._loop, self._dirty
        if loop is not None and dirty is not None and not loop.is_closed():
            loop.call_soon_threadsafe(dirty.set)

    async def _push_loop(self) -> None:
        assert self._dirty is not None
        while True:
            await self._dirty.wait()
            self._dirty.clear()
            seats = [s for s, socks in self._sockets.items() if socks]
            for seat in seats:
                try:
                    payload = await self._in_table(lambda seat=seat: self.payload(seat))
                except Exception:  # a closed table: nothing more to push
                    log.exception("phones: no payload for a seat")
                    continue
                text = json.dumps({"type": "state", "payload": payload})
                for ws in list(self._sockets.get(seat, ())):
                    if not ws.closed:
                        try:
                            await ws.send_str(text)
                        except (ConnectionError, RuntimeError):
                            pass

    # ------------------------------------------------------------------ handlers
    async def _to_page(self, request: web.Request) -> web.Response:
        # The page lives at /p/{token}/ so that its assets resolve beside it.
        self._grant(request)
        raise web.HTTPFound(f"/p/{request.match_info['token']}/", headers=_SECURITY_HEADERS)

    async def _page(self, request: web.Request) -> web.Response:
        self._grant(request)
        return web.Response(body=_asset("phone.html"), content_type="text/html", charset="utf-8")

    async def _asset(self, request: web.Request) -> web.Response:
        self._grant(request)
        name = request.match_info["asset"]
        if name not in ASSETS:
            raise web.HTTPNotFound()
        return web.Response(body=_asset(name), content_type=ASSETS[name], charset="utf-8")

    async def _state(self, request: web.Request) -> web.Response:
        grant = self._grant(request)
        payload = await self._in_table(lambda: self.payload(grant.seat))
        return web.json_response(payload)

    async def _ws(self, request: web.Request) -> web.WebSocketResponse:
        grant = self._grant(request)
        if not self._allowed_origin(request, required=True):
            raise web.HTTPForbidden(text="Wrong origin.", headers=_SECURITY_HEADERS)
        token = request.match_info["token"]
        socks = self._sockets.setdefault(grant.seat, set())
        if len([w for w in socks if not w.closed]) >= MAX_SOCKETS_PER_SEAT:
            raise web.HTTPTooManyRequests(text="Too many pages open for this seat.", headers=_SECURITY_HEADERS)
        # timeout: how long a close waits for the phone's reply (a phone gone to sleep must
        # not hold up stopping the server).
        ws = web.WebSocketResponse(max_msg_size=MAX_FRAME, heartbeat=20, timeout=CLOSE_WAIT)
        await ws.prepare(request)
        before = self.attached()
        socks.add(ws)
        self._tokens_of[ws] = token
        self._attach_changed(before)
        try:
            await self._send_state(ws, grant.seat)
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    await self._error(ws, None, "bad-message", "Send text messages (JSON).")
                    continue
                # Checked again on every message: a re-issued token stops at once.
                if not self.book.holds(token, grant.seat):
                    await ws.close(code=4403, message=b"revoked")
                    break
                if not self.per_token.take(token):
                    await self._error(ws, None, "too-fast", "Too many messages: wait a moment.")
                    continue
                await self._message(ws, grant.seat, msg.data)
        finally:
            before = self.attached()
            socks.discard(ws)
            self._tokens_of.pop(ws, None)
            self._attach_changed(before)
        return ws

    def _attach_changed(self, before: frozenset[str]) -> None:
        now = self.attached()
        if now != before and self.on_attach is not None:
            try:
                self.on_attach(now)
            except Exception:
                log.exception("phones: on_attach failed")

    async def _send_state(self, ws: web.WebSocketResponse, seat: str) -> None:
        payload = await self._in_table(lambda: self.payload(seat))
        await ws.send_str(json.dumps({"type": "state", "payload": payload}))

    async def _error(self, ws: web.WebSocketResponse, mid: Any, code: str, message: str) -> None:
        await ws.send_str(json.dumps({"type": "error", "id": mid, "code": code, "message": message}))

    async def _message(self, ws: web.WebSocketResponse, seat: str, text: str) -> None:
        # The cap counts bytes as they travelled (UTF-8), not characters: 4,070 'é' are
        # 8,140 bytes however few characters they make.
        if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
            await self._error(ws, None, "too-large", f"Messages are at most {MAX_MESSAGE} bytes.")
            return
        try:
            msg = json.loads(text)
        except RecursionError:  # 2,000 nested brackets fit in 4 KiB; json meets them with this, not a ValueError
            await self._error(ws, None, "bad-message", f"A message is nested at most {MAX_DEPTH} levels deep.")
            return
        except ValueError:
            await self._error(ws, None, "bad-message", "That was not JSON.")
            return
        if _depth(msg) > MAX_DEPTH:  # nothing past this point need ever recurse deeply
            await self._error(ws, None, "bad-message", f"A message is nested at most {MAX_DEPTH} levels deep.")
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            await self._error(ws, None, "bad-message", "A message is a JSON object with a \"type\".")
            return
        mid = msg.get("id") if isinstance(msg.get("id"), (int, str)) and len(str(msg.get("id"))) <= 32 else None
        kind = msg["type"]
        if kind == "ping":
            await ws.send_str(json.dumps({"type": "pong", "id": mid}))
        elif kind == "sync":
            await self._send_state(ws, seat)
        elif kind == "act":
            result = await self._in_table(lambda: self._act(seat, msg))
            if result is None:
                await ws.send_str(json.dumps({"type": "ok", "id": mid}))
            else:
                await self._error(ws, mid, result[0], result[1])
                await self._send_state(ws, seat)  # whatever the phone thought, here is the truth
        else:
            await self._error(ws, mid, "bad-message", f"Unknown message type {kind[:40]!r}.")

    def _act(self, seat: str, msg: dict[str, Any]) -> tuple[str, str] | None:
        """Submit ``seat``'s action through the Table's checks and journal (in the Table's
        thread); returns None when accepted, else (code, message) for this seat only."""
        data, ply = msg.get("action"), msg.get("ply")
        if not isinstance(data, dict) or type(ply) is not int:
            return "bad-message", "An action message needs \"action\" (an object) and \"ply\" (a whole number)."
        if data.get("seat") != seat:
            return "not-your-seat", "This phone acts only for its own seat."
        data = {k: v for k, v in data.items() if k != "source"}
        table = self.table
        if data.get("$") == OFFER:  # one of the app's extra choices, named by its words
            label = data.get("offer")
            if not isinstance(label, str) or set(data) != {"$", "seat", "offer"}:
                return "bad-action", "An offer names its choice's words and nothing else."
            with table._lock:
                if ply != table.ply:
                    return "stale", "The game moved on before that arrived: here is where it stands now."
                found = offered(self.extras, seat, label)
                if found is None:
                    return "illegal", "That choice is not offered now."
                return self._submit(seat, found)
        try:
            action = parse_action(data)
        except (ValueError, TypeError, KeyError) as e:
            return "bad-action", f"That action could not be read: {str(e)[:200]}"
        if action.seat != seat:
            return "not-your-seat", "This phone acts only for its own seat."
        with table._lock:  # the ply checked is the ply the action lands on
            if ply != table.ply:
                return "stale", "The game moved on before that arrived: here is where it stands now."
            return self._submit(seat, action)

    def _submit(self, seat: str, action: Any) -> tuple[str, str] | None:
        """Through the Table's checks and journal, as the phone's; the caller holds the lock."""
        table = self.table
        try:
            if seat in table.secrets.pending and action.secret:
                table.secrets.commit(seat, action, source=SOURCE)
            else:
                table.submit(action, source=SOURCE)
        except IllegalAction as e:
            return "illegal", " ".join(f"{v.message} ({v.rule})" for v in e.violations) or "Not allowed now."
        except ValueError as e:  # not your secret, a journal that cannot save, a closed table
            return getattr(e, "code", "refused"), str(e)
        return None

    def _close_seat_sockets(self, seat: str) -> None:
        loop = self._loop
        socks = list(self._sockets.get(seat, ()))
        if loop is None or not socks or loop.is_closed():
            return

        async def close() -> None:
            for ws in socks:
                await ws.close(code=4403, message=b"revoked")

        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            loop.create_task(close())
        else:
            asyncio.run_coroutine_threadsafe(close(), loop)

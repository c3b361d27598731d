"""One dice hub on a serial port, read on its own thread, as a stream of typed events.

    hub = HubConnection("/dev/ttyACM0", on_event=handle)   # or a queue.Queue, or neither
    hub.connect()          # open + HELLO -> IDENT now; raises PortOpenError, HandshakeTimeout,
                           # ProtocolVersionError ... (or hub.start(): keep trying quietly)
    hub.counters()         # Counters(frames_good=..., frames_bad=..., ...)
    hub.close()            # stops and joins the reader thread

The reader thread owns the port. Per connection it does what REFERENCE §1 asks: open the
port (exclusively where the port type can), flush what was waiting, HELLO until an IDENT
answers (3 tries at 200 ms), check the protocol major, REQUEST_STATE, then read frames.
The link is down when the port fails (unplugged: pyserial raises, a pty vanishes) or when
nothing valid arrived for ``silence_s`` (3 s: the hub sends a HEARTBEAT each second); a
``DeviceOffline`` says which, and the thread tries again after a back-off (0.5 s,
doubling to 8 s while attempts fail; reset once a handshake works). While it waits it
watches the port's device node (every ``replug_poll_s``): a port that was missing and is
back (the cable replugged) is tried at once, so a hub reconnects within a fraction of a
second of its replug however long it was away; a port that is there but fails (busy, no
handshake) waits out the whole back-off. Everything about frames — sequence
gaps, reboots, resyncs, de-duplication — is ``HubSession``'s.

Events go to ``on_event`` on the reader thread, in order: keep it short (Kivy: hand them
to ``Clock.schedule_once``); an exception in it is logged and counted, never fatal. Give a
``queue.Queue`` (anything with ``put``) instead, or nothing and read ``hub.queue``.

A connection is for one board: the first hub that answers pins its uid (or pass
``uid``), and another board answering on the same path later (a different hub plugged
in, a recycled pty number) is refused with ``WrongHubError`` while the connection keeps
trying for its own; ``pin_uid=False`` accepts whichever hub is there.

``url`` is anything ``serial.serial_for_url`` opens (a device path, ``loop://``,
``socket://``, a pty), or a function returning one, called before every attempt — that is
how a hub found by serial number is found again after it comes back on another path
(``HubConnection.for_serial_number``).
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from typing import Any, Callable, Protocol

import serial

from firmware_bridge import events as E
from firmware_bridge.serial import messages as M
from firmware_bridge.serial.backoff import Backoff
from firmware_bridge.serial.counters import Counters, Tally
from firmware_bridge.serial.errors import (CommandTimeout, ConnectionClosedError,
                                           HandshakeTimeout, LinkLostError, PortBusyError,
                                           PortOpenError, ProtocolVersionError,
                                           SerialBridgeError, WrongHubError)
from firmware_bridge.serial.session import HubSession
from firmware_bridge.shared import codec

__all__ = ["HubConnection", "SILENCE_S", "BAUDRATE"]

log = logging.getLogger("firmware_bridge.serial")

SILENCE_S = 3.0  # link down after this long without a valid frame (REFERENCE §1)
BAUDRATE = 115200  # ignored by USB CDC ports, honoured by USB-UART bridges (ESP32)
HANDSHAKE_TRIES = 3  # HELLO this many times ...
HANDSHAKE_WAIT_S = 0.2  # ... waiting this long for IDENT each time
POLL_S = 0.05  # a read returns at least this often, to check the watchdog and close()
REPLUG_POLL_S = 0.1  # during a back-off, look for a replugged port this often
READ_MAX = 4096


class _Sink(Protocol):
    def put(self, item: Any) -> None: ...


OnEvent = Callable[[E.Event], Any] | _Sink | None


class _LinkDown(Exception):
    """Inside the reader: the link went down for ``reason``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class HubConnection:
    """A dice hub on a serial port (see the module doc).

    ``device`` names the hub in events (``die:hub1/0``). ``on_frame``, if given, sees
    every valid frame once the session has handled it (on the reader thread; tools such
    as ``monitor --record`` read TELEMETRY with it). ``clock`` (monotonic seconds)
    stamps events and runs the watchdog; ``sleep`` waits out the back-off (default: a
    wait that ``close()`` cuts short). ``open_port(url, **settings)`` defaults to
    ``serial.serial_for_url``; tests hand in their own.
    """

    def __init__(self, url: str | Callable[[], str], on_event: OnEvent = None, *,
                 device: str = "hub1", baudrate: int = BAUDRATE,
                 silence_s: float = SILENCE_S, backoff: Backoff | None = None,
                 handshake_tries: int = HANDSHAKE_TRIES,
                 handshake_wait_s: float = HANDSHAKE_WAIT_S, poll_s: float = POLL_S,
                 replug_poll_s: float = REPLUG_POLL_S, exclusive: bool = True, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] | None = None,
                 open_port: Callable[..., Any] | None = None,
                 uid: bytes | str | None = None, pin_uid: bool = True,
                 on_frame: Callable[[codec.Frame], Any] | None = None) -> None:
        if (silence_s <= 0 or handshake_tries < 1 or handshake_wait_s <= 0 or poll_s <= 0
                or replug_poll_s <= 0):
            raise ValueError("silence_s, handshake_wait_s, poll_s and replug_poll_s must be > 0 "
                             "and handshake_tries >= 1")
        if not isinstance(device, str) or not device or "/" in device:
            raise ValueError("device is a non-empty name without '/' (it goes into event "
                             "sources such as die:hub1/0), got %r" % (device,))
        self.url = url
        self.device = device
        self.queue: _Sink | None = None
        self._callback: Callable[[E.Event], Any] | None = None
        if on_event is None:
            self.queue = queue.Queue()
        elif hasattr(on_event, "put"):
            self.queue = on_event  # type: ignore[assignment]
        else:
            self._callback = on_event  # type: ignore[assignment]
        self.baudrate = baudrate
        self.silence_s = silence_s
        self.backoff = backoff if backoff is not None else Backoff()
        self.handshake_tries = handshake_tries
        self.handshake_wait_s = handshake_wait_s
        self.poll_s = poll_s
        self.replug_poll_s = replug_poll_s
        self.exclusive = exclusive
        self._clock = clock
        self._sleep = sleep
        # The board this connection is for: given, or (pin_uid) the first that answers.
        self.uid: bytes | None = bytes.fromhex(uid) if isinstance(uid, str) else uid
        self.pin_uid = pin_uid
        self.on_frame = on_frame
        self._open_port = open_port if open_port is not None else serial.serial_for_url

        self._tally = Tally()
        self._session = HubSession(device, on_ack=self._got_ack, tally=self._tally)
        self._decoder = codec.Decoder()
        self._bad_seen = 0  # decoder errors already added to the tally
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._cond = threading.Condition()  # guards the fields below and the ACK table
        self._online = False
        self._attempts = 0  # connection attempts finished (either way)
        self._handshakes = 0
        self._last_error: BaseException | None = None
        self._fatal = False
        self._acks: dict[tuple[int, int], M.Ack | None] = {}
        self._write_lock = threading.Lock()
        self._port: Any = None
        self._seq = 0
        self._connect_times: list[float] = []
        # True while connect() waits for the first attempt's outcome: a failed attempt
        # then holds the reader until connect() has decided (see _attempt_done).
        self._deciding = False

    @classmethod
    def for_serial_number(cls, serial_number: str, on_event: OnEvent = None,
                          **kw: Any) -> "HubConnection":
        """A connection to the hub with this USB serial number, looked up again before
        every attempt (it may come back on another device path)."""
        from firmware_bridge.serial.discovery import find_hub

        return cls(lambda: find_hub(serial_number).device, on_event, **kw)

    # -- life ----------------------------------------------------------------------------

    def start(self) -> "HubConnection":
        """Start the reader thread, which connects (and reconnects) on its own; failures
        show in ``last_error`` and the log. Returns self."""
        if self._thread is not None:
            return self
        self._stop.clear()
        with self._cond:
            self._attempts = 0
            self._fatal = False
        self._thread = threading.Thread(target=self._run, name="hub-reader:%s" % self.device,
                                        daemon=True)
        self._thread.start()
        return self

    def connect(self, timeout: float = 5.0) -> "HubConnection":
        """Start and wait for the first attempt's outcome: return once the hub answered,
        or close and raise what went wrong (``PortOpenError``/``PortBusyError``,
        ``HandshakeTimeout``, ``ProtocolVersionError``). After that the thread reconnects
        by itself."""
        with self._cond:
            self._deciding = True
        self.start()
        end = time.monotonic() + timeout
        with self._cond:
            try:
                while not self._online and self._attempts == 0:
                    left = end - time.monotonic()
                    if left <= 0:
                        break
                    self._cond.wait(left)
                if self._online:
                    return self
                err = self._last_error
                # Decided under the lock: the reader, held since its failed attempt,
                # sees the stop before it could try again.
                self._stop.set()
            finally:
                self._deciding = False
                self._cond.notify_all()
        self.close()
        if isinstance(err, SerialBridgeError):
            raise err
        raise HandshakeTimeout("no answer from the hub on %s within %.1f s"
                               % (self._url_text(), timeout))

    def close(self, timeout: float = 2.0) -> None:
        """Stop the reader thread and wait for it; the port is closed and, if the hub was
        online, a ``DeviceOffline(reason="closed")`` is the last event."""
        self._stop.set()
        t = self._thread
        if t is not None and t is not threading.current_thread():
            t.join(timeout)
            if t.is_alive():
                log.warning("%s: the reader thread did not stop within %.1f s", self.device, timeout)
        self._thread = None

    def __enter__(self) -> "HubConnection":
        return self.connect()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading the state ---------------------------------------------------------------

    @property
    def is_online(self) -> bool:
        return self._online

    @property
    def is_running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def ident(self) -> M.Ident | None:
        """The hub's latest IDENT (kept across reconnects)."""
        return self._session.ident

    @property
    def last_error(self) -> BaseException | None:
        """Why the latest connection attempt failed or the link went down (None when the
        last attempt worked)."""
        return self._last_error

    def counters(self) -> Counters:
        """The link's counters now (any thread)."""
        return self._tally.value()

    def drop_reasons(self) -> dict[str, int]:
        """The decoder's dropped runs by reason (``codec.DROP_REASONS``: text, cobs,
        short, crc, version, oversize), since the connection was made."""
        counts = dict(self._decoder.counts)  # values only change: a copy is consistent enough
        counts.pop("frames", None)
        return counts

    def hub_counters(self) -> M.Heartbeat | None:
        """The hub's own counters from its latest HEARTBEAT."""
        return self._session.heartbeat

    def tokens(self) -> int | None:
        """The hub's token bank as bits (bit i = slot i occupied), None until it said."""
        return self._session.tokens

    def buttons(self) -> int | None:
        return self._session.buttons

    def connect_times(self) -> list[float]:
        """Monotonic seconds (by ``clock``) at which each handshake succeeded."""
        with self._cond:
            return list(self._connect_times)

    def reader_cpu_s(self) -> float | None:
        """CPU seconds the reader thread has used (None where the platform cannot say,
        or when it is not running): for the monitor and the benchmark."""
        t = self._thread
        if t is None or t.ident is None or not hasattr(time, "pthread_getcpuclockid"):
            return None
        try:
            return time.clock_gettime(time.pthread_getcpuclockid(t.ident))
        except OSError:  # the thread just ended
            return None

    def wait_online(self, timeout: float) -> bool:
        """Block until the hub is online (True) or ``timeout`` seconds pass (False)."""
        end = time.monotonic() + timeout
        with self._cond:
            while not self._online:
                left = end - time.monotonic()
                if left <= 0 or self._fatal:
                    return False
                self._cond.wait(left)
            return True

    # -- commands ------------------------------------------------------------------------

    def command(self, kind: int, src: int = codec.SRC_HUB, payload: bytes = b"", *,
                tries: int = 3, wait_s: float = 0.2) -> M.Ack:
        """Send a command and return its ``Ack`` (check ``.ok``/``.status``), retrying
        ``tries`` times ``wait_s`` apart (REFERENCE §1). Raises ``CommandTimeout`` when
        none came, ``ConnectionClosedError`` when the hub is not connected."""
        for _ in range(tries):
            seq = self._send(kind, src, payload, track_ack=True)
            key = (kind, seq)
            end = time.monotonic() + wait_s
            with self._cond:
                try:
                    while self._acks.get(key) is None:
                        left = end - time.monotonic()
                        if left <= 0:
                            break
                        self._cond.wait(left)
                    ack = self._acks.get(key)
                finally:
                    self._acks.pop(key, None)
            if ack is not None:
                return ack
        raise CommandTimeout("%s: no ACK to %s after %d tries"
                             % (self.device, codec.TYPE_NAMES.get(kind, hex(kind)), tries))

    def ping(self) -> M.Ack:
        return self.command(codec.PING)

    def request_state(self) -> None:
        """Ask for a SNAPSHOT now (it comes back as events, like any resync)."""
        self._session.wants_resync = True

    def _send(self, kind: int, src: int, payload: bytes = b"", track_ack: bool = False) -> int:
        with self._write_lock:
            port = self._port
            if port is None:
                raise ConnectionClosedError("%s is not connected" % self.device)
            seq = self._seq
            self._seq = (seq + 1) & 0xFF
            if track_ack:
                with self._cond:
                    self._acks[(kind, seq)] = None
            try:
                port.write(codec.encode_frame(kind, seq, src, payload))
            except (serial.SerialException, OSError) as e:
                with self._cond:
                    self._acks.pop((kind, seq), None)
                raise ConnectionClosedError("%s: write failed: %s" % (self.device, e)) from e
            return seq

    def _got_ack(self, ack: M.Ack) -> None:
        with self._cond:
            key = (ack.kind, ack.seq)
            if key in self._acks:
                self._acks[key] = ack
                self._cond.notify_all()

    # -- the reader thread ---------------------------------------------------------------

    def _url_text(self) -> str:
        return self.url if isinstance(self.url, str) else getattr(self.url, "__name__", "hub")

    def _run(self) -> None:
        first_try = True
        present: bool | None = None  # the port's node when the last attempt ended
        while not self._stop.is_set():
            if not first_try:
                self._pause(present)
                if self._stop.is_set():
                    break
            first_try = False
            try:
                port = self._open()
            except SerialBridgeError as e:
                self._attempt_done(e)
                present = self._port_present()
                continue
            reason = "closed"
            shaken = False
            try:
                backlog = self._handshake(port)
                shaken = True
                self._attempt_done(None)
                self._serve(port, backlog)
            except _LinkDown as e:
                reason = e.reason
            except ProtocolVersionError as e:
                self._attempt_done(e, fatal=not self._handshakes)
            except (HandshakeTimeout, WrongHubError) as e:
                self._attempt_done(e)
            except (serial.SerialException, OSError, ConnectionClosedError) as e:
                # The port failed under us: unplugged (pyserial raises, a pty vanishes).
                reason = "unplugged"
                if not shaken:
                    self._attempt_done(PortOpenError(self._url_text(), str(e)))
            except Exception as e:  # a bug must not kill the reader: log, drop the link, retry
                log.exception("%s: reader failed", self.device)
                reason = "error: %s" % type(e).__name__
                if not shaken:
                    self._attempt_done(e)
            finally:
                with self._write_lock:
                    self._port = None
                try:
                    port.close()
                except Exception:  # a vanished device may fail to close; it is gone anyway
                    pass
                # Looked at before DeviceOffline goes out, not when the back-off starts:
                # whoever hears of the outage may replug at once (a test, a user quick
                # with the cable), and a port already back by the time a slow reader
                # thread reached _pause looked as if it had never gone, so the replug
                # waited out the whole back-off instead of being tried at once.
                present = None if self._stop.is_set() else self._port_present()
                self._went_offline(reason)
            if self._fatal:
                break

    def _attempt_done(self, error: BaseException | None, fatal: bool = False) -> None:
        with self._cond:
            self._attempts += 1
            self._last_error = error
            self._fatal = self._fatal or fatal
            self._cond.notify_all()
            # connect() reports the first attempt's outcome and closes: until it has
            # woken up and decided, do not try again. (Without this a loaded machine let
            # the reader, after a back-off of a few ms, open the port and HELLO once
            # more before connect() got round to close(): a fourth HELLO after a
            # HandshakeTimeout that says three, and a port reopened for nothing.)
            while error is not None and self._deciding and not self._stop.is_set():
                self._cond.wait()
        if error is not None:
            log.info("%s: %s", self.device, error)

    def _went_offline(self, reason: str) -> None:
        with self._cond:
            was = self._online
            self._online = False
            if was and reason != "closed":
                self._last_error = LinkLostError(self.device, reason)
            self._cond.notify_all()
        if was:
            self._tally.add("offline")
            self._emit([E.DeviceOffline(device=self.device, reason=reason, t=self._clock())])

    def _pause(self, present: bool | None) -> None:
        """The back-off after an attempt or a link that ended; ``present``: whether the
        port's node was there when it ended."""
        delay = self.backoff.next_delay()
        if self._sleep is not None:
            self._sleep(delay)
            return
        # Wait out the back-off, but try at once when a missing port comes back: the
        # back-off spares a port that is there and failing, not one that was unplugged.
        deadline = time.monotonic() + delay
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or self._stop.wait(min(left, self.replug_poll_s)):
                return
            now_present = self._port_present()
            if now_present and present is False:
                log.info("%s: the port is back; trying now", self.device)
                return
            present = now_present

    def _port_present(self) -> bool | None:
        """Whether the port's device node exists now; None when that cannot be told (a
        URL such as ``loop://`` or ``socket://``). A lookup that fails: not present."""
        try:
            url = self.url if isinstance(self.url, str) else self.url()
        except Exception:
            return False
        if not isinstance(url, str) or "://" in url:
            return None
        return os.path.exists(url)

    def _open(self) -> Any:
        # A lookup by serial number raises HubNotFoundError here: a failed attempt too.
        try:
            url = self.url if isinstance(self.url, str) else self.url()
        except SerialBridgeError:
            raise
        except Exception as e:  # the caller's lookup failed: an attempt that failed
            raise PortOpenError(self._url_text(), "looking the port up failed: %r" % e) from e
        settings: dict[str, Any] = {"baudrate": self.baudrate, "timeout": self.poll_s,
                                    "write_timeout": 1.0}
        if self.exclusive:
            settings["exclusive"] = True
        try:
            try:
                return self._open_port(url, **settings)
            except TypeError:  # a port type without the exclusive setting
                settings.pop("exclusive", None)
                return self._open_port(url, **settings)
        except serial.SerialException as e:
            text = str(e)
            if "exclusively lock" in text or "Resource temporarily unavailable" in text:
                raise PortBusyError(url, "another program holds it (%s)" % text) from e
            raise PortOpenError(url, text) from e
        except (OSError, ValueError) as e:
            raise PortOpenError(url, str(e)) from e

    def _read(self, port: Any) -> bytes:
        """What has arrived, waiting up to ``poll_s`` for the first byte. A frame's first
        byte wakes the blocking read; the rest of it is usually there by then, so it is
        taken in the same pass rather than decoded a byte at a time."""
        waiting = port.in_waiting
        if waiting:
            return port.read(min(READ_MAX, waiting))
        data = port.read(1)
        if data:
            waiting = port.in_waiting
            if waiting:
                data += port.read(min(READ_MAX, waiting))
        return data

    def _feed(self, data: bytes) -> list[codec.Frame]:
        frames = self._decoder.feed(data)
        bad = self._decoder.errors()
        if bad != self._bad_seen:
            self._tally.add("frames_bad", bad - self._bad_seen)
            self._bad_seen = bad
        if frames:
            self._tally.add("frames_good", len(frames))
        return frames

    def _handshake(self, port: Any) -> list[codec.Frame]:
        """Flush, HELLO until IDENT, check the major; then mark online (the DeviceOnline
        comes from the session) and leave the REQUEST_STATE to ``_serve``. Returns the
        frames read after the IDENT in the same chunk, for ``_serve``."""
        try:
            port.reset_input_buffer()
        except (AttributeError, NotImplementedError):
            pass
        self._decoder.reset()
        self._session.connected()
        with self._write_lock:
            self._port = port
        version_drops = self._decoder.counts[codec.DROP_VERSION]
        for _ in range(self.handshake_tries):
            self._send(codec.HELLO, codec.SRC_HUB)
            end = time.monotonic() + self.handshake_wait_s
            while time.monotonic() < end and not self._stop.is_set():
                data = self._read(port)
                if not data:
                    continue
                now = self._clock()
                frames = self._feed(data)
                for i, frame in enumerate(frames):
                    if frame.type != codec.IDENT:
                        continue  # from before the hub heard us; the resync covers it
                    self._check_uid(frame)
                    self._go_online(self._session.push(frame, now))
                    return frames[i + 1:]  # what came with it is the live stream
            if self._stop.is_set():
                raise _LinkDown("closed")
        if self._decoder.counts[codec.DROP_VERSION] > version_drops:
            raise ProtocolVersionError(self._decoder.other_major, codec.PROTOCOL_MAJOR)
        raise HandshakeTimeout("no IDENT from %s after %d HELLOs"
                               % (self._url_text(), self.handshake_tries))

    def _check_uid(self, frame: codec.Frame) -> None:
        try:
            found = M.parse_ident(frame.payload).uid
        except ValueError:
            return  # the session judges a malformed IDENT (and its protocol major)
        if self.uid is None:
            if self.pin_uid:
                self.uid = found
        elif found != self.uid:
            raise WrongHubError(self._url_text(), found, self.uid)

    def _go_online(self, events: list[E.Event]) -> None:
        with self._cond:
            if self._handshakes:
                self._tally.add("reconnects")
            self._handshakes += 1
            self._online = True
            self._connect_times.append(self._clock())
            self._cond.notify_all()
        self.backoff.reset()
        self._emit(events)

    def _serve(self, port: Any, backlog: list[codec.Frame]) -> None:
        """Read frames until the link goes down (raises ``_LinkDown``) or ``close()``;
        ``backlog``: frames already read."""
        session = self._session
        last_rx = self._clock()
        while not self._stop.is_set():
            if session.wants_resync:
                session.resync_sent()
                self._send(codec.REQUEST_STATE, codec.SRC_HUB)
                self._tally.add("resyncs")
            if backlog:
                frames, backlog, now = backlog, [], self._clock()
            else:
                data = self._read(port)
                now = self._clock()
                frames = self._feed(data) if data else []
            if frames:
                last_rx = now
                out: list[E.Event] = []
                for frame in frames:
                    try:
                        out += session.push(frame, now)
                    except ProtocolVersionError as e:
                        self._emit(out)
                        self._last_error = e
                        raise _LinkDown("error: %s" % e) from e
                    if self.on_frame is not None:
                        try:
                            self.on_frame(frame)
                        except Exception:
                            self._tally.add("callback_errors")
                            log.exception("%s: on_frame raised on %s", self.device, frame.name())
                self._emit(out)
            if now - last_rx > self.silence_s:
                raise _LinkDown("silent")
        raise _LinkDown("closed")

    def _emit(self, events: list[E.Event]) -> None:
        for e in events:
            if self.queue is not None:
                self.queue.put(e)
                continue
            try:
                self._callback(e)  # type: ignore[misc]
            except Exception:
                self._tally.add("callback_errors")
                log.exception("%s: on_event raised on %s", self.device, type(e).__name__)

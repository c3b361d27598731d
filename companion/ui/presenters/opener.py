"""Open a link with whatever the device has for it, and say whether that worked (no Kivy).

``webbrowser.open`` said nothing useful here: on a Linux kiosk without a browser it
started ``xdg-open``, which failed, and never reaped it (a defunct process stayed behind)
while the end screen said "Opening BG Stats…" forever. :func:`open_link` runs the
platform's opener to its end (with a time limit), so the child is always reaped and the
caller learns the result.

>>> import sys
>>> r = open_link("https://example.org", command=[sys.executable, "-c", "raise SystemExit(3)"])
>>> r.opened, r.detail
(False, 'the app that opens links gave up')
"""
from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass

log = logging.getLogger("companion.ui.opener")

TIMEOUT_S = 20.0  # xdg-open hands the link over and returns; a hung one is given up on


@dataclass(frozen=True)
class OpenResult:
    opened: bool
    detail: str = ""


def opener_command(url: str) -> list[str] | None:
    """The platform's command that opens ``url``, or None when there is none."""
    if sys.platform == "darwin":
        return ["open", url]
    if sys.platform.startswith("linux") and "ANDROID_ARGUMENT" not in os.environ:
        exe = shutil.which("xdg-open")
        return [exe, url] if exe else None
    return None


def open_link(url: str, command: list[str] | None = None, timeout: float = TIMEOUT_S) -> OpenResult:
    """Open ``url`` and wait for the opener to finish (call it off the UI thread)."""
    cmd = command if command is not None else opener_command(url)
    if cmd is None:
        if sys.platform.startswith("win") or "ANDROID_ARGUMENT" in os.environ:
            import webbrowser  # Android and Windows open links in-process: nothing to reap

            ok = webbrowser.open(url)
            return OpenResult(ok, "" if ok else "no app here opens links")
        return OpenResult(False, "no app here opens links")
    try:
        done = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:  # run() kills and reaps on a timeout
        log.info("link opener %s failed: %r", cmd[0], e)
        return OpenResult(False, "the app that opens links could not start" if isinstance(e, OSError)
                          else "the app that opens links did not answer")
    if done.returncode != 0:
        # The opener's exit status means nothing to players (it is in the log): what failed.
        log.info("link opener %s stopped with status %s", cmd[0], done.returncode)
        return OpenResult(False, "the app that opens links gave up")
    return OpenResult(True)

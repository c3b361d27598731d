"""A user's files: written so a crash or power cut never leaves half of one, and read
as JSON with one named refusal (:class:`NotJson`) for every way a file can fail to be.

>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "sub" / "note.json"
>>> write_atomic(p, '{"a": 1}').read_text(encoding="utf-8")
'{"a": 1}'
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from .errors import CompanionError


class NotJson(CompanionError, ValueError):
    """Text that is not JSON; the message is json's own reason (a damaged file, a number
    longer than Python reads, nesting deeper than it recurses)."""

    code = "not-json"


def parse_json(text: str) -> Any:
    """``text`` as JSON, or :class:`NotJson` saying why.

    >>> parse_json('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> parse_json('{"a": ')
    Traceback (most recent call last):
    ...
    companion.files.NotJson: Expecting value: line 1 column 7 (char 6)
    >>> parse_json("1" * 5000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.files.NotJson: Exceeds the limit (4300 digits) for integer string conversion...
    """
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:  # json's answers: JSONDecodeError, too many digits, too deep
        raise NotJson(str(e)) from None


def write_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` to ``path`` atomically: a temporary file beside it, fsync'd, then
    ``os.replace``, so a power cut leaves the old file or the new one, never half of one.
    The folder is made when missing; returns the path written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path

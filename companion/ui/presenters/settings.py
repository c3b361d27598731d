"""The app's settings: palette, text size, sound cues, keep-awake. Stored as JSON in the
user config folder, written atomically (temp file + ``os.replace``) so a power cut never
leaves half a file.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "settings.json")
>>> s = Settings.load(path); s.text_scale
1.0
>>> s = s.with_changes(text_scale=1.25, sound=False); s.save(path)
>>> Settings.load(path).text_scale, Settings.load(path).sound
(1.25, False)
>>> s.with_changes(text_scale=9)
Traceback (most recent call last):
...
companion.ui.presenters.settings.SettingsError: text size must be between 0.8 and 1.6, not 9
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from companion.files import NotJson, parse_json, write_atomic

from ...errors import CompanionError
from .palette import default_palette, palette_names

TEXT_SCALES = (0.8, 1.0, 1.25, 1.6)


class SettingsError(CompanionError, ValueError):
    """A setting value out of its range."""


@dataclass(frozen=True)
class Settings:
    palette: str = ""
    text_scale: float = 1.0
    sound: bool = True
    keep_awake: bool = True
    tour_seen: bool = False  # the table tour was shown (or skipped) once: not again unless asked

    def __post_init__(self) -> None:
        if not self.palette:
            object.__setattr__(self, "palette", default_palette())
        if self.palette not in dict(palette_names()):
            raise SettingsError(f"unknown palette {self.palette!r}")
        if not TEXT_SCALES[0] <= self.text_scale <= TEXT_SCALES[-1]:
            raise SettingsError(f"text size must be between {TEXT_SCALES[0]} and {TEXT_SCALES[-1]}, not {self.text_scale}")

    def with_changes(self, **changes: Any) -> "Settings":
        return replace(self, **changes)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "Settings":
        """The saved settings, or the defaults when the file is missing or damaged."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return cls()
        try:
            raw = parse_json(text)
        except NotJson:  # a damaged file: the defaults
            return cls()
        if not isinstance(raw, dict):
            return cls()
        known = {k: raw[k] for k in asdict(cls()) if k in raw}
        try:
            return cls(**known)
        except (SettingsError, TypeError):  # a value out of range, or of the wrong kind
            return cls()

    def save(self, path: str | os.PathLike[str]) -> None:
        write_atomic(path, json.dumps(asdict(self), indent=1))

"""Sound cues: short tones made once with the stdlib ``wave`` module into the user cache
(no sound files to ship), played with Kivy's SoundLoader when sounds are on. A machine
without an audio device simply stays silent."""
from __future__ import annotations

import logging
import math
import struct
import tempfile
import wave
from pathlib import Path
from typing import Any

log = logging.getLogger("companion.ui.sound")

# cue → (frequency Hz, duration s), 0 Hz a pause: a rising pair for "your turn", a low buzz
# for a refusal.
CUES: dict[str, tuple[tuple[float, float], ...]] = {
    "turn": ((660, 0.08), (880, 0.10)),
    "roll": ((520, 0.06),),
    "rejected": ((180, 0.22),),
    "win": ((523, 0.12), (659, 0.12), (784, 0.22)),
    "reveal": ((880, 0.05),),
    "clock": ((1000, 0.07), (0, 0.05), (1000, 0.07)),  # low time / flag fall: two short beeps
}
_SOUNDS: dict[str, Any] = {}


def tone_file(name: str, folder: Path | None = None) -> Path:
    folder = folder or Path(tempfile.gettempdir()) / "tabletop-companion-cues"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.wav"
    if not path.exists():
        rate = 22050
        frames = bytearray()
        for freq, dur in CUES[name]:
            n = int(rate * dur)
            for i in range(n):
                env = min(1.0, i / 200, (n - i) / 400)  # no clicks at the ends
                frames += struct.pack("<h", int(9000 * env * math.sin(2 * math.pi * freq * i / rate)))
        with wave.open(str(path), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(rate)
            w.writeframes(bytes(frames))
    return path


def play_cue(name: str) -> None:
    if name not in CUES:
        return
    try:
        snd = _SOUNDS.get(name)
        if snd is None:
            from kivy.core.audio import SoundLoader

            snd = _SOUNDS[name] = SoundLoader.load(str(tone_file(name)))
        if snd is not None:
            snd.stop()
            snd.play()
    except Exception:  # no audio device, no provider: cues are a nicety
        log.debug("sound cue %s not played", name, exc_info=True)

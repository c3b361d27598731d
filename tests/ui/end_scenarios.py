"""The end screen's final board in a real window (issue 32, item 12), run by
``tests/ui/test_end_ui.py`` as ``end_scenarios:<name>``: the picture of the table as the
game ended shows no live-looking controls. Screenshots: artifacts/ui/end/."""
from __future__ import annotations

from typing import Any, Iterator

from tests.ui.scenarios import SEATS, _screen, _wait_for, settle


def _region(pixels: bytes, size: tuple[int, int], rect: tuple[int, int, int, int]) -> set[tuple[int, ...]]:
    """The colours (RGB, to 1/16) in ``rect`` (window x, y from the bottom, w, h) of the
    final board's picture, whose pixels come top row first (it was flipped to show the
    right way up: the saved PNG beside the screenshots shows it)."""
    x0, y0, w, h = rect
    width, height = size
    out = set()
    for y in range(y0 + 2, y0 + h - 2):
        row = (height - 1 - y) * width * 4
        for x in range(x0 + 2, x0 + w - 2):
            i = row + x * 4
            out.add((pixels[i] >> 4, pixels[i + 1] >> 4, pixels[i + 2] >> 4))
    return out


def final_board_read_only(d: Any) -> Iterator[float]:
    """Tyranny ends on a flag-fall; the final board's picture has no Home, Hands, Undo or
    Log button where the table screen has them (each such place is one plain colour: a
    picture cannot be tapped), while the turn's words beside them are in the picture."""
    from kivy.core.image import Image as CoreImage

    from companion.clocks import ClockConfig, ClockMode, OvertimePolicy

    table = d.app.new_game("tyranny", SEATS, {}, seed=3,
                           clocks=ClockConfig(ClockMode.SUDDEN_DEATH, main=2, overtime=OvertimePolicy.LOSS))
    yield from settle(d)
    game = _screen(d)
    yield from _wait_for(lambda: table.is_over() and d.app.sm.current == "end", 8)
    d.check(d.app.sm.current == "end", f"the end screen follows the flag-fall (at {d.app.sm.current})")
    end = d.app.sm.get_screen("end")
    d.check(end.has_final_board, "a final board was taken")
    yield 1.0  # the screens' transition
    d.tap(end.ids.final_board)
    yield from _wait_for(lambda: end.board_view is not None, 3)
    yield 0.3
    view = end.board_view
    texture = view.texture
    d.check(tuple(texture.size) == tuple(int(v) for v in game.size), f"the picture is the table screen: {texture.size}")
    path = d.out / "final-board-picture-800x480.png"
    d.out.mkdir(parents=True, exist_ok=True)
    CoreImage(texture).save(str(path))
    pixels, size = texture.pixels, tuple(texture.size)

    def rect(w: Any) -> tuple[int, int, int, int]:
        x, y = w.to_window(w.x, w.y)
        return int(x), int(y), int(w.width), int(w.height)

    live = {name: _region(pixels, size, rect(game.ids[name])) for name in ("hands", "undo", "log_toggle", "home")}
    words = _region(pixels, size, rect(game.ids.turn if "turn" in game.ids else game.ids.topbar))
    d.check(len(words) > 2, f"the picture holds the table's words (the turn line): {len(words)} colours")
    d.check(all(len(c) == 1 for c in live.values()), "no control drawn in the picture: "
            + ", ".join(f"{k} {len(v)} colours" for k, v in live.items()))
    d.check(all(game.ids[n].opacity == 1 for n in ("hands", "undo", "log_toggle")), "the table screen's own buttons stay as they were")
    d.shot("end-final-board-read-only")
    d.note("final board: no live-looking controls")

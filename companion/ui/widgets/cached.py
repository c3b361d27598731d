"""A container drawn through an offscreen buffer, so a frame redraws only what changed.

Kivy draws every instruction of the window for every frame. In software GL (the demo under
Xvfb, a Pi without its GPU driver) that made every frame cost the whole screen, even one
that only shows a die's value in the tray. A :class:`CachedView` renders its children into
an Fbo, which Kivy renders again only when an instruction inside it changes; every other
frame the region costs one textured rectangle.

The buffer is cleared to the screen's background colour (``app.theme.bg``), so put a
CachedView only where the plain background is behind it (its picture is opaque).
Children fill the view (size hints apply as in a FloatLayout; without a ``pos_hint`` a
child is placed at the view's origin)."""
from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.graphics import Callback, ClearBuffers, ClearColor, Color, Fbo, PopMatrix, PushMatrix, Rectangle, Translate
from kivy.graphics.opengl import GL_BLEND, glDisable, glEnable
from kivy.uix.floatlayout import FloatLayout


def sharp(texture: Any) -> None:
    """A buffer's picture is drawn pixel for pixel: nearest sampling gives the same
    pixels as linear there, and software GL samples it faster."""
    texture.mag_filter = "nearest"
    texture.min_filter = "nearest"


def add_picture(canvas: Any, fbo: Fbo) -> Rectangle:
    """Draw ``fbo``'s texture on ``canvas`` without blending: the buffer is cleared to an
    opaque colour, so blending would give the same pixels at the cost of reading the
    screen's (a large share of a software-GL frame)."""
    sharp(fbo.texture)
    with canvas:
        Callback(lambda _i: glDisable(GL_BLEND))
        Color(1, 1, 1, 1)
        picture = Rectangle(texture=fbo.texture)
        Callback(lambda _i: glEnable(GL_BLEND))  # Kivy draws everything else blended
    return picture


class IntoBuffer:
    """Mixin: children added to the widget draw into its ``_fbo`` (once it exists)
    rather than on its own canvas."""

    _fbo: Fbo | None

    def add_widget(self, widget: Any, *args: Any, **kw: Any) -> None:
        self._in_buffer(super().add_widget, widget, *args, **kw)  # type: ignore[misc]

    def remove_widget(self, widget: Any, *args: Any, **kw: Any) -> None:
        self._in_buffer(super().remove_widget, widget, *args, **kw)  # type: ignore[misc]

    def _in_buffer(self, call: Any, *args: Any, **kw: Any) -> None:
        if self._fbo is None:
            call(*args, **kw)
            return
        canvas = self.canvas  # type: ignore[has-type]
        self.canvas = self._fbo  # Kivy adds and removes a child's canvas on self.canvas
        try:
            call(*args, **kw)
        finally:
            self.canvas = canvas


class CachedView(IntoBuffer, FloatLayout):
    def __init__(self, **kw: Any) -> None:
        # The buffer must exist before kv rules add children (during __init__).
        fbo = Fbo(size=(1, 1), with_stencilbuffer=True)  # a ScrollView inside needs a stencil
        with fbo.before:
            self._clear_colour = ClearColor(0, 0, 0, 0)
            ClearBuffers()
            PushMatrix()
            # Children keep their window-relative positions: shift them into the buffer.
            self._shift = Translate(0, 0)
        with fbo.after:
            PopMatrix()
        self._fbo = fbo
        super().__init__(**kw)
        self.canvas.add(fbo)  # rendered again (only when changed) before its picture
        self._picture = add_picture(self.canvas, fbo)
        app = App.get_running_app()
        theme = getattr(app, "theme", None)
        if theme is not None:
            self._clear_colour.rgba = theme.bg
            theme.bind(bg=lambda _t, v: setattr(self._clear_colour, "rgba", v))
        self.bind(pos=self._place_picture, size=self._place_picture)

    def do_layout(self, *args: Any, **kw: Any) -> None:
        super().do_layout(*args, **kw)
        for child in self.children:
            if not child.pos_hint:
                child.pos = self.pos

    def _place_picture(self, *_: Any) -> None:
        size = (max(1, int(self.width)), max(1, int(self.height)))
        if tuple(self._fbo.size) != size:
            self._fbo.size = size  # a new texture
            sharp(self._fbo.texture)
        self._shift.xy = (-self.x, -self.y)
        self._picture.texture = self._fbo.texture
        self._picture.pos = self.pos
        self._picture.size = size

"""A container drawn through an offscreen buffer, so a frame redraws only what changed.

Kivy draws every instruction of the window for every frame. In software GL (the demo under
Xvfb, a Pi without its GPU driver) that made every frame cost the whole screen, even one
that only shows a die's value in the tray. A :class:`CachedView` renders its children into
an Fbo, which Kivy renders again only when an instruction inside it changes; every other
frame the region costs one textured rectangle.

The buffer is cleared to the screen's background colour (``app.theme.bg``; ``background``
names another theme colour, e.g. ``"surface"`` inside a panel), so put a CachedView only
where that plain colour is behind it (its picture is opaque).
Children fill the view (size hints apply as in a FloatLayout; without a ``pos_hint`` a
child is placed at the view's origin)."""
from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.graphics import Callback, ClearBuffers, ClearColor, Color, Fbo, PopMatrix, PushMatrix, Rectangle, Translate
from kivy.graphics.opengl import GL_BLEND, GL_TEXTURE0, GL_TEXTURE_2D, glActiveTexture, glCopyTexSubImage2D, glDisable, glEnable
from kivy.graphics.texture import Texture
from kivy.properties import StringProperty
from kivy.uix.floatlayout import FloatLayout


def sharp(texture: Any) -> None:
    """A buffer's picture is drawn pixel for pixel: nearest sampling gives the same
    pixels as linear there, and software GL samples it faster."""
    texture.mag_filter = "nearest"
    texture.min_filter = "nearest"


class Picture:
    """What a frame draws for a buffer: a plain texture holding a copy of the Fbo's
    pixels, drawn without blending (the buffer is cleared to an opaque colour, so blending
    would give the same pixels at the cost of reading the screen's).

    The copy is made on the GPU side (``glCopyTexSubImage2D``) at the end of each render
    of the buffer, i.e. only when its content changed. Sampling the Fbo's own texture
    cost every frame more in Mesa's llvmpipe (software GL: the demo under Xvfb, a Pi
    without its GPU driver): measured on the table at 800×480, a frame that changes only
    the dice tray took 12.3–14.0 ms median, 20.9–21.2 ms p99 with the four buffers'
    own textures, 11.0–11.8 ms and 16.7–17.5 ms with plain copies."""

    def __init__(self, canvas: Any, fbo: Fbo) -> None:
        self._fbo = fbo
        self.texture: Any = None
        with canvas:
            Callback(lambda _i: glDisable(GL_BLEND))
            Color(1, 1, 1, 1)
            self.rect = Rectangle()
            Callback(lambda _i: glEnable(GL_BLEND))  # Kivy draws everything else blended
        fbo.after.add(Callback(self._copy))  # runs only when the buffer renders
        self.resize()

    def resize(self) -> None:
        """Call after setting the Fbo's size: a texture of the same size (its content
        arrives with the buffer's next render, before the picture is drawn)."""
        size = tuple(int(v) for v in self._fbo.size)
        if self.texture is None or tuple(self.texture.size) != size:
            self.texture = Texture.create(size=size, colorfmt="rgba")
            sharp(self.texture)
            self.rect.texture = self.texture
        self.rect.size = size

    def _copy(self, _instr: Any) -> None:
        # The buffer's framebuffer is bound here (the Fbo is applying its instructions).
        w, h = (min(a, int(b)) for a, b in zip(self.texture.size, self._fbo.size))
        glActiveTexture(GL_TEXTURE0)
        self.texture.bind()
        glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 0, 0, w, h)


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
    background = StringProperty("bg")  # the theme colour behind the view: "bg" or "surface"

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
        self._picture = Picture(self.canvas, fbo)
        app = App.get_running_app()
        theme = getattr(app, "theme", None)
        if theme is not None:
            # ``background`` of a view inside another rule is set after __init__.
            def clear_colour(*_: Any) -> None:
                self._clear_colour.rgba = getattr(theme, self.background)

            clear_colour()
            self.bind(background=clear_colour)
            theme.bind(bg=clear_colour, surface=clear_colour)
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
        self._shift.xy = (-self.x, -self.y)
        self._picture.resize()
        self._picture.rect.pos = self.pos

"""A machine check of a screen's layout: walk the widget tree under a root widget and
report what a person would see as broken.

    from tests.ui.layout_check import check_layout
    for p in check_layout(app.sm.current_screen):
        print(p)            # text-overflow  HomeScreen > BoxLayout > TopBar > Label('⚄ Tabletop Companion'): …

Kinds of problem (``Problem.kind``):

- ``text-overflow``: a label's rendered text (``texture_size``) is larger than its box;
- ``text-shortened``: a label with ``shorten`` whose text is cut with "…" to fit;
- ``overlap``: two shown siblings in a box/grid/stack layout cover each other;
- ``outside-parent``: a shown widget reaches outside its parent's box (a ScrollView's
  content, and what a FloatLayout places on purpose, are exempt: see ``_may_leave``);
- ``small-target``: an enabled button (or anything with ``on_press``) under 48 dp;
- ``collapsed``: a button squeezed to no width or height that still draws (its outline
  shows as a sliver: "hidden" by a zero size instead of being left out).

Only what is shown counts: a widget with opacity 0 somewhere above it, no size, not
drawn (``widgets/drawn.py``), or scrolled wholly out of its ScrollView is skipped with
everything under it. It needs a window (it measures rendered text), nothing else of the
app: point it at any root, e.g. a game screen, and filter the kinds you want.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator

TOLERANCE = 1.0  # px: rounding in Kivy's layouts


@dataclass(frozen=True)
class Problem:
    kind: str
    path: str  # readable: class names, ids and texts from the root down
    detail: str

    def __str__(self) -> str:
        return f"{self.kind:15} {self.path}: {self.detail}"


def check_layout(root: Any, min_target_dp: float = 48.0, kinds: Iterable[str] | None = None) -> list[Problem]:
    """Every layout problem under ``root`` (see the module's doc); ``kinds`` keeps only those."""
    from kivy.metrics import dp

    keep = set(kinds) if kinds is not None else None
    out: list[Problem] = []
    for w, path in _shown(root, _name(root, None)):
        out += _text(w, path)
        out += _target(w, path, dp(min_target_dp))
        out += _overlaps(w, path)
        out += _collapsed(w, path)
        for child in _shown_children(w):
            if not _may_leave(w, child) and not _inside(_rect(child), _rect(w)):
                out.append(Problem("outside-parent", f"{path} > {_name(child, w)}",
                                   f"{_fmt(_rect(child))} outside {_fmt(_rect(w))}"))
    return [p for p in out if keep is None or p.kind in keep]


# ------------------------------------------------------------------ walking

def _shown(root: Any, path: str) -> Iterator[tuple[Any, str]]:
    if not _is_shown(root):
        return
    yield root, path
    for child in _shown_children(root):
        yield from _shown(child, f"{path} > {_name(child, root)}")


def _shown_children(w: Any) -> list[Any]:
    return [c for c in reversed(w.children) if _is_shown(c)]  # children[0] is the last added


def _is_shown(w: Any) -> bool:
    if getattr(w, "opacity", 1) <= 0 or w.width <= 1 or w.height <= 1:
        return False
    parent = w.parent
    if parent is not None and parent is not w and hasattr(parent, "canvas") and w.canvas is not None:
        if not _draws(parent, w):
            return False  # taken out of its parent's canvas (drawn.set_drawn)
    return _in_view(w)


def _draws(parent: Any, w: Any) -> bool:
    """Whether ``w``'s canvas is in its parent's: directly, in a ScrollView's viewport
    canvas, or in a CachedView's buffer (widgets/cached.py)."""
    from kivy.graphics import InstructionGroup

    places = [parent.canvas] + ([parent._fbo] if getattr(parent, "_fbo", None) is not None else [])
    for _depth in range(3):
        if any(c.indexof(w.canvas) != -1 for c in places):
            return True
        places = [i for c in places for i in c.children if isinstance(i, InstructionGroup)]
    return False


def _in_view(w: Any) -> bool:
    """False when the ScrollViews around ``w`` show none of it."""
    from kivy.uix.scrollview import ScrollView

    x0, y0, x1, y1 = _rect(w)
    node = w.parent
    while node is not None and node is not node.parent and hasattr(node, "to_window"):
        if isinstance(node, ScrollView):
            sx0, sy0, sx1, sy1 = _rect(node)
            if min(x1, sx1) - max(x0, sx0) < 2 or min(y1, sy1) - max(y0, sy0) < 2:
                return False
        node = node.parent
    return True


def _rect(w: Any) -> tuple[float, float, float, float]:
    x, y = w.to_window(w.x, w.y)
    return x, y, x + w.width, y + w.height


def _inside(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    t = TOLERANCE
    return a[0] >= b[0] - t and a[1] >= b[1] - t and a[2] <= b[2] + t and a[3] <= b[3] + t


def _fmt(r: tuple[float, ...]) -> str:
    return "(" + ", ".join(f"{v:.0f}" for v in r) + ")"


def _name(w: Any, parent: Any) -> str:
    name = type(w).__name__
    wid = _id_of(w)
    if wid:
        name += f"#{wid}"
    text = getattr(w, "text", None)
    if isinstance(text, str) and text.strip():
        t = " ".join(text.split())
        name += f"({t[:30] + '…' if len(t) > 30 else t!r})" if len(t) > 30 else f"({t!r})"
    elif parent is not None:
        same = [c for c in reversed(parent.children) if type(c) is type(w)]
        if len(same) > 1:
            name += f"[{same.index(w)}]"
    return name


def _id_of(w: Any) -> str:
    node = w.parent
    for _ in range(8):  # a kv id lives in the ids of the rule's root, a few levels up
        if node is None or node is getattr(node, "parent", None):
            return ""
        for k, v in getattr(node, "ids", {}).items():
            if v is w or getattr(v, "__self__", None) is w:
                return str(k)
        node = node.parent
    return ""


# ------------------------------------------------------------------ checks

def _text(w: Any, path: str) -> list[Problem]:
    from kivy.uix.label import Label

    if not isinstance(w, Label) or not w.text.strip():
        return []
    w.texture_update()
    tw, th = w.texture_size
    out = []
    if tw > w.width + TOLERANCE or th > w.height + TOLERANCE:
        out.append(Problem("text-overflow", path, f"text {tw:.0f}×{th:.0f} in a box {w.width:.0f}×{w.height:.0f}"))
    elif not w.shorten and w.text_size[0] and w.text_size[1]:
        # A text_size fixed in both directions clips the texture to it: render the text
        # at that width with no height limit to see what was clipped away.
        full = _height_at(w, w.text_size[0])
        if full > w.text_size[1] + TOLERANCE:
            out.append(Problem("text-overflow", path, f"text {full:.0f} px high clipped to {w.text_size[1]:.0f}"))
    if w.shorten and _cut(w):
        out.append(Problem("text-shortened", path, f"shown cut to fit {w.width:.0f} px"))
    return out


def _height_at(w: Any, width: float) -> float:
    from kivy.core.text import Label as CoreLabel
    from kivy.core.text.markup import MarkupLabel

    core = (MarkupLabel if w.markup else CoreLabel)(
        text=w.text, font_size=w.font_size, font_name=w.font_name, bold=w.bold, italic=w.italic,
        text_size=(width, None), padding=w.padding, halign=w.halign, line_height=w.line_height,
        max_lines=w.max_lines)
    core.refresh()
    return float(core.texture.size[1]) if core.texture is not None else 0.0


def _cut(w: Any) -> bool:
    """Whether a ``shorten`` label's text is wider than the room it has (so "…" shows)."""
    from kivy.core.text import Label as CoreLabel

    lines = w.text.split("\n")
    core = CoreLabel(font_size=w.font_size, font_name=w.font_name, bold=w.bold, markup=False)
    room = (w.text_size[0] if w.text_size and w.text_size[0] else w.width) - 2 * w.padding_x
    return any(core.get_extents(line)[0] > room + TOLERANCE for line in lines)


def _target(w: Any, path: str, minimum: float) -> list[Problem]:
    from kivy.uix.button import ButtonBehavior

    tappable = isinstance(w, ButtonBehavior) or (hasattr(w, "is_event_type") and w.is_event_type("on_press"))
    if not tappable or w.disabled:
        return []
    if w.width < minimum - 0.5 or w.height < minimum - 0.5:
        return [Problem("small-target", path, f"{w.width:.0f}×{w.height:.0f} px, under {minimum:.0f}")]
    return []


def _collapsed(parent: Any, path: str) -> list[Problem]:
    from kivy.uix.button import ButtonBehavior

    out = []
    for c in parent.children:
        if (isinstance(c, ButtonBehavior) and getattr(c, "opacity", 1) > 0 and (c.width <= 1 or c.height <= 1)
                and _draws(parent, c) and len(c.canvas.children) > 0):
            out.append(Problem("collapsed", f"{path} > {_name(c, parent)}", f"{c.width:.0f}×{c.height:.0f} px, still drawn"))
    return out


def _overlaps(parent: Any, path: str) -> list[Problem]:
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.gridlayout import GridLayout
    from kivy.uix.stacklayout import StackLayout

    if not isinstance(parent, (BoxLayout, GridLayout, StackLayout)):
        return []  # a FloatLayout (an overlay, a gate, a board) places things over each other on purpose
    kids = _shown_children(parent)
    out = []
    for i, a in enumerate(kids):
        ra = _rect(a)
        for b in kids[i + 1:]:
            rb = _rect(b)
            wx = min(ra[2], rb[2]) - max(ra[0], rb[0])
            hy = min(ra[3], rb[3]) - max(ra[1], rb[1])
            if wx > TOLERANCE and hy > TOLERANCE:
                out.append(Problem("overlap", f"{path} > {_name(a, parent)} ∩ {_name(b, parent)}",
                                   f"{_fmt(ra)} and {_fmt(rb)} share {wx:.0f}×{hy:.0f} px"))
    return out


def _may_leave(parent: Any, child: Any) -> bool:
    """A child that may reach outside its parent: a ScrollView's content (it scrolls), and
    a child of a Window/ModalView-level float placed on purpose (a banner sliding in)."""
    from kivy.uix.scrollview import ScrollView

    return isinstance(parent, ScrollView) or not hasattr(parent, "to_window") or parent is parent.parent

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
  shows as a sliver: "hidden" by a zero size instead of being left out);
- ``nested-scroll``: a shown ScrollView inside another (two scroll areas on one path from
  the root to a leaf fight over a drag, and each costs a stencil per frame);
- ``broken-word``: a label whose wrapped lines break inside a word (Kivy cuts a word too
  long for the width into pieces: "Crimi" / "nals)"): each rendered line's words are
  compared with the text's words; a word wider than the window (a folder's path) is
  exempt, since no layout could keep it whole;
- ``not-visible`` (from :func:`check_visible`, not :func:`check_layout`): an element a
  player needs to act (whose turn, what is asked, the choices, the dice) is missing, not
  shown, or cut by the window or a ScrollView around it.

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
        out += _nested_scroll(w, path)
        out += _broken_words(w, path)
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
    elif w.max_lines and w.text_size[0]:
        # A line limit drops the lines past it (which ones depends on valign: a banner
        # centred on its text lost its first line).
        full = _height_at(w, w.text_size[0], max_lines=0)
        if full > th + TOLERANCE:
            out.append(Problem("text-overflow", path, f"text {full:.0f} px high cut to {w.max_lines} lines ({th:.0f} px)"))
    if w.shorten and _cut(w):
        out.append(Problem("text-shortened", path, f"shown cut to fit {w.width:.0f} px"))
    return out


def _height_at(w: Any, width: float, max_lines: int | None = None) -> float:
    from kivy.core.text import Label as CoreLabel
    from kivy.core.text.markup import MarkupLabel

    core = (MarkupLabel if w.markup else CoreLabel)(
        text=w.text, font_size=w.font_size, font_name=w.font_name, bold=w.bold, italic=w.italic,
        text_size=(width, None), padding=w.padding, halign=w.halign, line_height=w.line_height,
        max_lines=w.max_lines if max_lines is None else max_lines)
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


def _nested_scroll(w: Any, path: str) -> list[Problem]:
    from kivy.uix.scrollview import ScrollView

    if not isinstance(w, ScrollView):
        return []
    node = w.parent
    while node is not None and node is not node.parent:
        if isinstance(node, ScrollView):
            return [Problem("nested-scroll", path, f"a ScrollView inside {_name(node, None)}")]
        node = node.parent
    return []


def _words(text: str, markup: bool) -> list[str]:
    import re

    if markup:
        text = re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", text).replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&")
    return text.split()


def _broken_words(w: Any, path: str) -> list[Problem]:
    """Words of the rendered lines that are not words of the text: pieces of a word Kivy
    cut because it did not fit the width (it never hyphenates)."""
    from kivy.uix.label import Label

    if not isinstance(w, Label) or not w.text.strip() or w.shorten or not (w.text_size and w.text_size[0]):
        return []
    w.texture_update()
    # The lines as Kivy laid them out (its core label's layout, kept after rendering): a
    # line holds a chunk per style run (markup), not per word, so a line's words are
    # those of its chunks joined.
    lines = getattr(w._label, "_cached_lines", None) or []
    whole = set(_words(w.text, w.markup))
    pieces = [t for line in lines for t in "".join(word.text for word in line.words).split()]
    broken = [t for t in pieces if t not in whole]
    if broken:
        # A word wider than the window itself (a folder's path) cannot be kept whole by
        # any layout: cutting it is the only way to show it. A word cut because its column
        # was squeezed ("Crimi" / "nals)") would fit a wider one, and is reported.
        from kivy.core.window import Window

        room = max(w.text_size[0], 0.9 * Window.width)
        too_wide = [word for word in whole if w._label.get_extents(word)[0] > room]
        broken = [t for t in broken if not any(t in word for word in too_wide)]
    if not broken:
        return []
    return [Problem("broken-word", path, "wrapped inside a word: " + ", ".join(repr(t) for t in broken[:6]))]


def check_visible(root: Any, elements: dict[str, Any]) -> list[Problem]:
    """``elements`` (a name → a widget, or None when the screen has none) each wholly on
    the window, shown, and not cut by a ScrollView around it: what a player needs to act
    is seen without scrolling. A name whose widget is None is reported missing."""
    from kivy.core.window import Window
    from kivy.uix.scrollview import ScrollView

    out = []
    screen = (0.0, 0.0, float(Window.width), float(Window.height))
    for name, w in elements.items():
        label = f"{_name(root, None)} … {name}"
        if w is None:
            out.append(Problem("not-visible", label, "missing"))
            continue
        label += f" {_name(w, w.parent)}"
        hidden = _hidden_by(w, root)
        if hidden:
            out.append(Problem("not-visible", label, hidden))
            continue
        r = _rect(w)
        if not _inside(r, screen):
            out.append(Problem("not-visible", label, f"{_fmt(r)} outside the window {_fmt(screen)}"))
        node = w.parent
        while node is not None and node is not node.parent and node is not root.parent:
            if isinstance(node, ScrollView) and not _inside(r, _rect(node)):
                out.append(Problem("not-visible", label, f"{_fmt(r)} cut by {_name(node, None)} {_fmt(_rect(node))}: scrolled to see"))
                break
            node = node.parent
    return out


def _hidden_by(w: Any, root: Any) -> str:
    node = w
    while node is not None and node is not root.parent and node is not node.parent:
        if getattr(node, "opacity", 1) <= 0 or node.width <= 1 or node.height <= 1:
            return f"not shown ({_name(node, node.parent)} has opacity {node.opacity:g}, size {node.width:.0f}×{node.height:.0f})"
        parent = node.parent
        if parent is not None and parent is not node and hasattr(parent, "canvas") and not _draws(parent, node):
            return f"not drawn ({_name(node, parent)})"
        node = parent
    return ""


def act_elements(screen: Any) -> dict[str, Any]:
    """What a player needs to act on a game screen, by name, from the ids every game's
    .kv gives them (companion/ui/README.md): ``turn`` (the top bar's line), ``prompt``
    (what is asked, when anything is), ``choices`` (the first of the action panel's
    buttons, when it has any) and ``dice`` (the tray, while a throw is awaited)."""
    ids = screen.ids
    out: dict[str, Any] = {"turn": ids.get("turn")}
    prompt = ids.get("prompt")
    if prompt is None or prompt.text.strip():
        out["prompt"] = prompt
    actions = ids.get("actions")
    if actions is not None and actions.buttons:
        out["choices"] = actions.buttons[0]
    dice = ids.get("dice")
    if dice is not None and dice.is_awaiting:
        out["dice"] = dice
    return out

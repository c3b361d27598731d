"""The Outrage! board: squares, regions, marks, warders' posts and jewel cases, on the
kernel's :class:`~rules.core.graph.Graph`.

The rulebook describes the board's regions and rules but not its squares, so
``data/board.json`` is **RECONSTRUCTED** (README.md, "The board"): the Wall Walk's 78
squares and their landmarks, the warders' posts and the jewels' order follow an online
fan adaptation; the Inner Ward's shape and the places of stairs and buildings are this
app's guesses. A table whose printed board differs plays with movement unchecked (the
``movement`` option). :func:`parse_board` is the validator: a bad file raises
:class:`BoardError` naming the file and each field.

Arcs carry a kind, so one graph answers every movement question: on a first circuit only
``wall`` arcs are in bounds; accredited players add the others.

>>> b = default_board()
>>> b.places["start"], b.places["queens_house"], len(b.region_squares("wall"))
('w00', 'w77', 78)
>>> b.square("w56").do["coin"], b.facing["orb"], b.jewel_value["st-edwards-crown"]
(True, 't14', 5)
>>> sorted(b.graph.neighbours("w23", edges={"passage"}))
['chapel-royal']
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from rules.core.graph import Graph
from rules.datafile import DataFileError, Problems, at, read_json, short

DATA = Path(__file__).parent / "data"

REGIONS = ("wall", "inner", "inmost", "white", "prison", "exterior")
ARC_KINDS = ("wall", "wall-back", "ward", "stairs", "passage", "gate", "arrow", "rope", "exit", "cradle")
FIRST_CIRCUIT = frozenset({"wall"})
"""The arcs in bounds on the first circuit: anticlockwise along the Wall Walk only."""
ACCREDITED = frozenset({"wall", "wall-back", "ward", "stairs", "passage", "gate", "arrow", "cradle"})
"""The arcs an accredited player moves along (ropes and prison exits need a card or a release)."""
PLACES = (
    "start", "queens_house", "mint", "shop", "hospital", "chapel_royal", "bloody_tower", "bowyer_tower",
    "beauchamp_tower", "bell_tower", "broad_arrow_tower", "rack", "cradle", "white_tower",
)
"""The places the rules send players to; a board file must name each one."""
POSTS = ("scaffold", "chapel", "waterloo", "lanthorn")
DO_KEYS = {
    "tower_card": int, "coin": bool, "miss": int, "go": str, "back": str, "extra_turn": bool,
    "change_card": int, "swap_card": bool, "surrender_weapons": bool, "prison": str,
}
PRISONS = ("bowyer", "beauchamp", "bloody", "rack")


class BoardError(DataFileError):
    """A board file that does not describe a playable Outrage! board: ``problems`` holds
    each ``"path: reason"`` (``squares[3].region: …``), ``source`` the file."""


@dataclass(frozen=True)
class Square:
    id: str
    name: str
    region: str
    marked: bool = False  # circled, a building or a tower: no Raven card
    tower: bool = False
    building: bool = False
    post: str = ""
    faces: str = ""  # the jewel whose case this square faces
    rope_ladder: bool = False
    bench_exit: str = ""
    do: Mapping[str, Any] = field(default_factory=dict)

    @property
    def draws_raven(self) -> bool:
        """An unmarked Inner Ward square (a warder's post included) draws a Raven card."""
        return self.region == "inner" and not self.marked


@dataclass(frozen=True, eq=False)
class Board:
    name: str
    status: str
    squares: dict[str, Square]
    graph: Graph
    places: dict[str, str]
    posts: dict[str, tuple[str, ...]]  # post → its squares (the Scaffold is two wide)
    post_names: dict[str, str]
    jewels: tuple[str, ...]
    jewel_name: dict[str, str]
    jewel_value: dict[str, int]
    facing: dict[str, str]  # jewel → the square facing its case
    data: dict[str, Any] = field(default_factory=dict, repr=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> "Board":
        return self

    def square(self, sid: str) -> Square:
        return self.squares[sid]

    def name_of(self, sid: str) -> str:
        sq = self.squares.get(sid)
        return sq.name if sq is not None else sid

    def region(self, sid: str) -> str:
        return self.squares[sid].region

    def region_squares(self, region: str) -> list[str]:
        return [s for s, sq in self.squares.items() if sq.region == region]

    def post_of(self, sid: str) -> str:
        sq = self.squares.get(sid)
        return sq.post if sq is not None else ""

    def search(self, text: str) -> list[str]:
        """Squares whose id, name or region contains ``text`` (any case): how a table with
        a different board finds the square it landed on.

        >>> default_board().search("mint")
        ['w56']
        """
        t = text.casefold()
        return [s for s, sq in self.squares.items() if t in s.casefold() or t in sq.name.casefold() or t == sq.region]


def parse_board(data: Any, source: str = "board data") -> Board:
    """Build a :class:`Board` from board-file data, or raise :class:`BoardError` naming
    ``source`` and every problem with its place in the file.

    >>> parse_board(["w00"], "ours.json")
    Traceback (most recent call last):
    ...
    rules.outrage.board.BoardError: ours.json: (top): a board file is a JSON object, not a list
    """
    p = Problems(source)
    data = p.top(data, BoardError, "a board file is a JSON object")
    name = p.text(data.get("name", "board"), "name", empty=True) or "board"
    status = p.text(data.get("status", ""), "status", empty=True) or ""
    squares: dict[str, Square] = {}
    raw = p.listing(data.get("squares"), "squares", "a list of squares")
    if raw is not None and not raw:
        p.add("squares", "a board needs squares, not an empty list")
    for i, row in enumerate(raw or ()):
        sq = _square(p, row, at("squares", i), squares)
        if sq is not None:
            squares[sq.id] = sq
    arcs: list[tuple[str, str, str]] = []
    for key in ("arcs", "lines"):
        for i, row in enumerate(p.listing(data.get(key, []), key, "a list of [from, to, kind]") or ()):
            where = at(key, i)
            if not (isinstance(row, list) and len(row) == 3 and all(isinstance(x, str) for x in row)):
                p.add(where, f"must be [from, to, kind] (three texts), not {short(row)}")
                continue
            a, b, kind = row
            for end, label in ((a, "from"), (b, "to")):
                if end not in squares and raw:
                    p.add(where, f"the {label} square {short(end)} is not a square of this board")
            if kind not in ARC_KINDS:
                p.add(at(where, 2), f"arc kind {short(kind)} is not one of {', '.join(ARC_KINDS)}")
            if a == b:
                p.add(where, f"an arc joins two different squares, not {short(a)} to itself")
            arcs.append((a, b, kind))
            if key == "lines":
                arcs.append((b, a, kind))
    places: dict[str, str] = {}
    raw_places = p.mapping(data.get("places"), "places", "an object naming the rules' places")
    if raw_places is not None:
        for k in PLACES:
            v = raw_places.get(k)
            if not isinstance(v, str) or v not in squares:
                p.add(at("places", k), f"must name a square of this board, not {short(v)}")
            else:
                places[k] = v
        for k, v in raw_places.items():
            if k not in PLACES and (not isinstance(v, str) or v not in squares):
                p.add(at("places", k), f"must name a square of this board, not {short(v)}")
            elif k not in PLACES:
                places[k] = v
    post_names: dict[str, str] = {}
    raw_posts = p.mapping(data.get("posts", {}), "posts", "an object of the four warders' posts")
    if raw_posts is not None:
        for k in POSTS:
            post_names[k] = p.text(raw_posts.get(k), at("posts", k)) or k
        for k in raw_posts:
            if k not in POSTS:
                p.add(at("posts", k), f"the posts are {', '.join(POSTS)}, not {short(k)}")
    posts: dict[str, tuple[str, ...]] = {k: tuple(s for s, sq in squares.items() if sq.post == k) for k in POSTS}
    for k, sqs in posts.items():
        if squares and not sqs:
            p.add("squares", f"no square is the {k} post (a square with \"post\": {k!r})")
    jewels: list[str] = []
    jname: dict[str, str] = {}
    jvalue: dict[str, int] = {}
    rawj = p.listing(data.get("jewels"), "jewels", "a list of the five jewels")
    for i, row in enumerate(rawj or ()):
        where = at("jewels", i)
        if p.mapping(row, where, "a jewel (id, name, value)") is None:
            continue
        jid = p.text(row.get("id"), at(where, "id"))
        jn = p.text(row.get("name"), at(where, "name"))
        jv = p.whole(row.get("value"), at(where, "value"), 1, 5)
        if jid is not None and jid in jname:
            p.add(at(where, "id"), f"the jewel {short(jid)} is listed twice")
        elif jid is not None and jn is not None and jv is not None:
            jewels.append(jid)
            jname[jid] = jn
            jvalue[jid] = jv
    if rawj is not None and len(rawj) != 5:
        p.add("jewels", f"Outrage! has five Crown Jewels, not {len(rawj)}")
    facing: dict[str, str] = {}
    for s, sq in squares.items():
        if sq.faces:
            if sq.faces not in jname and jname:
                p.add(sq.faces and f"squares[{sq.id}].faces", f"{short(sq.faces)} is not a jewel of this board")
            elif sq.faces in facing:
                p.add(f"squares[{sq.id}].faces", f"the {sq.faces} case is faced by two squares ({facing[sq.faces]} too)")
            else:
                facing[sq.faces] = s
    for j in jewels:
        if j not in facing:
            p.add("squares", f"no square faces the {j} case (a square with \"faces\": {j!r})")
    for s, sq in squares.items():
        go = sq.do.get("go")
        if go is not None and go not in squares and go not in places:
            p.add(f"squares[{s}].do.go", f"{short(go)} is neither a square nor a place of this board")
        prison = sq.do.get("prison")
        if prison is not None and prison not in PRISONS:
            p.add(f"squares[{s}].do.prison", f"{short(prison)} is not one of {', '.join(PRISONS)}")
        if sq.bench_exit and sq.bench_exit not in squares:
            p.add(f"squares[{s}].bench_exit", f"{short(sq.bench_exit)} is not a square of this board")
    p.raise_if_any(BoardError)
    graph = Graph(list(squares), arcs=arcs)
    start, qh = places["start"], places["queens_house"]
    if graph.distance(start, qh, edges=FIRST_CIRCUIT) is None:
        p.fail(BoardError, "arcs", f"the first circuit (\"wall\" arcs) must lead from Start ({start}) to Queen's House ({qh})")
    return Board(name, status, squares, graph, places, posts, post_names, tuple(jewels), jname, jvalue, facing, data)


def _square(p: Problems, row: Any, where: str, squares: dict[str, Square]) -> Square | None:
    if p.mapping(row, where, "a square (an object with id, name and region)") is None:
        return None
    sid = p.text(row.get("id"), at(where, "id"))
    if sid is None:
        return None
    if sid in squares:
        p.add(at(where, "id"), f"the square id {short(sid)} is used twice")
        return None
    name = p.text(row.get("name", sid), at(where, "name")) or sid
    region = row.get("region")
    if region not in REGIONS:
        p.add(at(where, "region"), f"square {sid}: region {short(region)} is not one of {', '.join(REGIONS)}")
        region = "inner"
    flags = {}
    for k in ("marked", "tower", "building", "rope_ladder"):
        v = p.flag(row.get(k, False), at(where, k))
        flags[k] = bool(v)
    texts = {}
    for k in ("post", "faces", "bench_exit"):
        v = row.get(k, "")
        texts[k] = p.text(v, at(where, k)) if v != "" else ""
        texts[k] = texts[k] or ""
    if texts["post"] and texts["post"] not in POSTS:
        p.add(at(where, "post"), f"square {sid}: post {short(texts['post'])} is not one of {', '.join(POSTS)}")
    do: dict[str, Any] = {}
    raw_do = p.mapping(row.get("do", {}), at(where, "do"), "an object of instructions")
    for k, v in (raw_do or {}).items():
        want = DO_KEYS.get(k)
        if want is None:
            p.add(at(at(where, "do"), k), f"square {sid}: {short(k)} is not an instruction ({', '.join(DO_KEYS)})")
        elif type(v) is not want or (want is int and not 1 <= v <= 3):
            p.add(at(at(where, "do"), k), f"square {sid}: must be {'a whole number from 1 to 3' if want is int else want.__name__}, not {short(v)}")
        else:
            do[k] = v
    return Square(sid, name, region, flags["marked"], flags["tower"], flags["building"], texts["post"], texts["faces"],
                  flags["rope_ladder"], texts["bench_exit"], do)


def load_board(path: str | Path) -> Board:
    """Read and validate a board file."""
    return parse_board(read_json(path, BoardError, "board file"), str(path))


@lru_cache(maxsize=None)
def default_board() -> Board:
    """The shipped, RECONSTRUCTED board."""
    return load_board(DATA / "board.json")

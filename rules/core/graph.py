"""Boards and maps as one immutable value: nodes, one-way arcs with a kind, and the
movement questions games ask of them.

A node is a string (a tile, a square, a city id). An arc goes one way, ``a → b``, and has
a ``kind`` (``""`` unless given); a *line* is the two arcs ``a → b`` and ``b → a`` of one
kind. Every question takes the same keywords, so a game switches parts of its board on or
off per question instead of building another graph:

* ``edges``: the arc kinds that may be used (``None``: all). Tyranny passes its open
  tunnels; Outrage! leaves the stairs and the secret passage out on a first circuit.
* ``free``: the arc kinds that cost no step (Tyranny: "move freely through" an open
  tunnel). Every other arc is one step; Outrage!'s secret passage "counts as one move",
  an ordinary arc.
* ``blocked``: nodes that may not be entered nor passed (Outrage!'s Yeoman Warders at
  their posts, or the squares already visited this turn). The start is never blocked.

Four squares one way round, ``a → b → c → d → a``, and a two-way passage between ``a``
and ``c``:

>>> g = Graph("abcd", arcs=[("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")], lines=[("a", "c", "passage")])
>>> g.paths("a", 2)                         # exactly two steps, no node twice
(('a', 'b', 'c'), ('a', 'c', 'd'))
>>> g.paths("a", 2, edges={""})             # the passage out of bounds
(('a', 'b', 'c'),)
>>> dict(g.ends("a", 1))                    # where one step ends, and by which way
{'b': ('a', 'b'), 'c': ('a', 'c')}
>>> dict(g.ends("a", 1, free={"passage"}))  # through a passage that costs no step
{'b': ('a', 'b'), 'd': ('a', 'c', 'd')}
>>> g.distance("b", "a"), g.distance("b", "a", edges={"passage"})
(2, None)
>>> sorted(g.within("a", 1, blocked={"c"}))
['a', 'b']
>>> sorted(g.neighbours("c")), g.adjacent("b", "a")
(['a', 'd'], False)
>>> g.neighbours("z")
Traceback (most recent call last):
...
rules.core.graph.UnknownNode: no node 'z' in this graph

Paths never visit a node twice, so a piece that would have to lap a loop shorter than its
throw has no path (``()``); a game that allows laps says so in its rules and asks
:meth:`Graph.ends` for fewer steps.

The answers are computed once per question and kept inside the value (a private memo,
excluded from equality, hashing, ``repr`` and copies): a board is built once per game file
and asked the same few questions on every move.
"""
from __future__ import annotations

from collections import deque
from types import MappingProxyType
from typing import Any, Callable, Collection, Iterable, Iterator, Mapping, NamedTuple

from .errors import RulesError

__all__ = ["EMPTY", "Edge", "Graph", "GraphError", "UnknownNode"]

MEMO_SIZE = 1 << 15
"""Answers a graph keeps before it forgets them all. Tyranny's default board, played at
length, asks about 10,000 distinct questions (each tile, throw, range and set of open
tunnels, at the levels routes → ends → paths); the bound matters when a game asks with
ever-new ``blocked`` sets (Outrage!'s visited squares)."""


class GraphError(RulesError):
    """A graph that cannot be built: an arc naming a node that is not in it, a node listed
    twice, or an arc from a node to itself.

    >>> Graph("ab", arcs=[("a", "x")])
    Traceback (most recent call last):
    ...
    rules.core.graph.GraphError: arcs[0]: the arc a → x names a node that is not in the graph
    """


class UnknownNode(GraphError, KeyError):
    """A question about a node the graph does not have (a ``KeyError`` too, as a missing
    key of the adjacency tables it replaces would be)."""

    def __init__(self, node: object) -> None:
        self.node = node
        super().__init__(f"no node {node!r} in this graph")

    def __str__(self) -> str:  # KeyError's would quote the message again
        return str(self.args[0])


class Edge(NamedTuple):
    """One arc: from ``a`` to ``b``, of ``kind``."""

    a: str
    b: str
    kind: str = ""


Kinds = Collection[str] | None
Length = int | range
_Key = tuple[Any, ...]
EMPTY: frozenset[str] = frozenset()


class Graph:
    """An immutable directed graph with kinded arcs. ``nodes`` keeps the order given (a
    tier's forward order, a map's city order); ``arcs`` then ``lines`` (each two arcs) keep
    theirs, and paths are listed in that order: a node's earlier arcs are tried first.

    Two graphs are equal when they have the same nodes and arcs in the same order.

    >>> Graph(["x", "y"], lines=[("x", "y")]).arcs
    (Edge(a='x', b='y', kind=''), Edge(a='y', b='x', kind=''))
    >>> Graph("xy", lines=[("x", "y")]) == Graph("xy", arcs=[("x", "y"), ("y", "x")])
    True
    """

    __slots__ = ("_nodes", "_index", "_arcs", "_kinds", "_out", "_near", "_hash", "_memo")

    def __init__(
        self,
        nodes: Iterable[str],
        arcs: Iterable[tuple[str, str] | tuple[str, str, str]] = (),
        lines: Iterable[tuple[str, str] | tuple[str, str, str]] = (),
    ) -> None:
        self._nodes: tuple[str, ...] = tuple(nodes)
        self._index: dict[str, int] = {}
        problems: list[str] = []
        for i, n in enumerate(self._nodes):
            if not isinstance(n, str):
                problems.append(f"nodes[{i}]: a node is a string, not {n!r}")
            elif n in self._index:
                problems.append(f"nodes[{i}]: the node {n!r} is listed twice")
            else:
                self._index[n] = i
        seen: dict[Edge, None] = {}  # an ordered set: the same arc given twice is one arc
        for where, a, b, kind, both in _rows(arcs, lines):
            if not (isinstance(a, str) and isinstance(b, str) and isinstance(kind, str)):
                problems.append(f"{where}: an arc is (a, b) or (a, b, kind) of strings, not {(a, b, kind)!r}")
            elif a not in self._index or b not in self._index:
                problems.append(f"{where}: the arc {a} → {b} names a node that is not in the graph")
            elif a == b:
                problems.append(f"{where}: an arc joins two different nodes, not {a} to itself")
            else:
                seen.setdefault(Edge(a, b, kind))
                if both:
                    seen.setdefault(Edge(b, a, kind))
        if problems:
            raise GraphError("; ".join(problems))
        self._arcs: tuple[Edge, ...] = tuple(seen)
        self._kinds = frozenset(e.kind for e in self._arcs)
        out: dict[str, list[Edge]] = {n: [] for n in self._nodes}
        for e in self._arcs:
            out[e.a].append(e)
        self._out: dict[str, tuple[Edge, ...]] = {n: tuple(v) for n, v in out.items()}
        # Every arc's neighbours, built at once: adjacency is the question rules ask most.
        self._near: dict[str, frozenset[str]] = {n: frozenset(e.b for e in v) for n, v in out.items()}
        self._hash = hash((self._nodes, self._arcs))
        self._memo: dict[_Key, Any] = {}

    # ------------------------------------------------------------- the value

    @property
    def nodes(self) -> tuple[str, ...]:
        return self._nodes

    @property
    def arcs(self) -> tuple[Edge, ...]:
        return self._arcs

    @property
    def kinds(self) -> frozenset[str]:
        """The kinds of arc the graph has."""
        return self._kinds

    @property
    def lines(self) -> tuple[tuple[str, str], ...]:
        """The pairs joined both ways by arcs of one kind, each once, as first given.

        >>> Graph("abc", arcs=[("a", "b")], lines=[("c", "b")]).lines
        (('c', 'b'),)
        """
        arcs = set(self._arcs)
        out: dict[tuple[str, str], None] = {}
        for a, b, kind in self._arcs:
            if Edge(b, a, kind) in arcs and (b, a) not in out:
                out.setdefault((a, b))
        return tuple(out)

    def index(self, node: str) -> int:
        """The node's place in :attr:`nodes`."""
        try:
            return self._index[node]
        except (KeyError, TypeError):
            raise UnknownNode(node) from None

    def __contains__(self, node: object) -> bool:
        try:
            return node in self._index
        except TypeError:  # unhashable: not a node
            return False

    def __len__(self) -> int:
        return len(self._nodes)

    def __iter__(self) -> Iterator[str]:
        return iter(self._nodes)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Graph):
            return NotImplemented
        return self is other or (self._hash == other._hash and self._nodes == other._nodes and self._arcs == other._arcs)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Graph(nodes={self._nodes!r}, arcs={tuple(tuple(e) for e in self._arcs)!r})"

    def __reduce__(self) -> tuple[Any, ...]:  # pickled without its memo
        return (Graph, (self._nodes, tuple(self._arcs)))

    def __copy__(self) -> "Graph":
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> "Graph":
        return self  # immutable: copies of a game state share their board

    # --------------------------------------------------------- the questions

    def neighbours(self, node: str, *, edges: Kinds = None) -> frozenset[str]:
        """The nodes one arc away from ``node`` (arcs out of it, of a kind in ``edges``)."""
        if edges is None:
            near = self._near.get(node) if node in self else None
            if near is None:
                raise UnknownNode(node)
            return near
        return self._ask(Graph._neighbours, node, edges=edges)  # type: ignore[no-any-return]

    def adjacent(self, a: str, b: str, *, edges: Kinds = None) -> bool:
        """Whether an arc goes from ``a`` to ``b``; ``False`` for a node the graph lacks."""
        if a not in self:
            return False
        near = self._near[a] if edges is None else self.neighbours(a, edges=edges)
        try:
            return b in near
        except TypeError:  # unhashable: not a node
            return False

    def paths(
        self, start: str, length: Length, *, edges: Kinds = None, free: Kinds = EMPTY, blocked: Iterable[str] = EMPTY
    ) -> tuple[tuple[str, ...], ...]:
        """Every path of exactly ``length`` steps from ``start``, as the tuple of its nodes
        (``start`` first). No path visits a node twice; a path may go on through ``free``
        arcs after its last step. Listed depth first, a node's arcs in their order. A
        ``range`` of lengths lists the paths of each length in turn.

        >>> line = Graph("abcd", lines=[("a", "b"), ("b", "c"), ("c", "d")])
        >>> line.paths("b", 2)
        (('b', 'c', 'd'),)
        >>> line.paths("b", 2, blocked={"d"}), line.paths("b", 0)
        ((), (('b',),))
        >>> line.paths("b", range(1, 3))
        (('b', 'a'), ('b', 'c'), ('b', 'c', 'd'))
        """
        try:  # the answer known: one look-up (the hot path of a game's move)
            return self._memo[(Graph._paths, start, length, edges, free, blocked)]  # type: ignore[no-any-return]
        except (KeyError, TypeError):
            return self._ask(Graph._paths, start, length, edges, free, blocked)  # type: ignore[no-any-return]

    def ends(
        self, start: str, length: Length, *, edges: Kinds = None, free: Kinds = EMPTY, blocked: Iterable[str] = EMPTY
    ) -> Mapping[str, tuple[str, ...]]:
        """Where the :meth:`paths` of ``length`` steps end, in the order first reached,
        each with its most direct path: the fewest arcs (so the fewest free ones), the
        first listed among equals. With a ``range``, an end keeps its path of the first
        length that reaches it. A read-only mapping.

        >>> ring = Graph("abcd", arcs=[("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")], lines=[("a", "c", "t")])
        >>> dict(ring.ends("a", 1, free={"t"}))
        {'b': ('a', 'b'), 'd': ('a', 'c', 'd')}
        >>> dict(ring.ends("a", 1, edges={""}))
        {'b': ('a', 'b')}
        """
        try:  # the answer known: one look-up (the hot path of a game's move)
            return self._memo[(Graph._ends, start, length, edges, free, blocked)]  # type: ignore[no-any-return]
        except (KeyError, TypeError):
            return self._ask(Graph._ends, start, length, edges, free, blocked)  # type: ignore[no-any-return]

    def routes(
        self, start: str, length: Length, *, edges: Kinds = None, free: Kinds = EMPTY, blocked: Iterable[str] = EMPTY
    ) -> Mapping[str, tuple[str, ...]]:
        """:meth:`ends`, each with the nodes passed on the way (``start`` and the end left
        out): what a move lands on, and what it passes over. A read-only mapping.

        >>> dict(Graph("abcd", arcs=[("a", "b"), ("b", "c"), ("c", "d")]).routes("a", range(2, 4)))
        {'c': ('b',), 'd': ('b', 'c')}
        """
        try:  # the answer known: one look-up (the hot path of a game's move)
            return self._memo[(Graph._routes, start, length, edges, free, blocked)]  # type: ignore[no-any-return]
        except (KeyError, TypeError):
            return self._ask(Graph._routes, start, length, edges, free, blocked)  # type: ignore[no-any-return]

    def guarded(
        self, start: str, length: Length, guards: Iterable[str], *, edges: Kinds = None, free: Kinds = EMPTY,
        blocked: Iterable[str] = EMPTY,
    ) -> Mapping[str, tuple[tuple[str, ...], bool]]:
        """Where the :meth:`paths` of ``length`` steps end, each with the first path listed
        that enters no node of ``guards`` and ``False``; or, when every path to it does
        (``start`` is not entered), the first path and ``True``. Outrage!'s moves: a square
        reached past a warder at his post needs a Disguise, unless another way avoids him.
        A read-only mapping.

        >>> line = Graph("abcde", lines=[("a", "b"), ("b", "c"), ("a", "d"), ("d", "c"), ("c", "e")])
        >>> dict(line.guarded("a", 2, {"b"}))
        {'c': (('a', 'd', 'c'), False)}
        >>> dict(line.guarded("a", 3, {"b", "d"}))["e"]
        (('a', 'b', 'c', 'e'), True)
        """
        key = (Graph._guarded, start, length, edges, free, blocked, guards)
        try:  # the answer known: one look-up (the hot path of a game's move)
            return self._memo[key]  # type: ignore[no-any-return]
        except (KeyError, TypeError):
            pass
        norm = (Graph._guarded, start, length, _kinds(edges, "edges"), _kinds(free, "free") or EMPTY,
                _kinds(blocked, "blocked") or EMPTY, _kinds(guards, "guards") or EMPTY)
        got = self._memo.get(norm)
        if got is None:
            guards = norm[6]
            out: dict[str, tuple[tuple[str, ...], bool]] = {}
            for p in self.paths(start, length, edges=norm[3], free=norm[4], blocked=norm[5]):
                passes = bool(guards) and not guards.isdisjoint(p[1:])
                known = out.get(p[-1])
                if known is None or (known[1] and not passes):
                    out[p[-1]] = (p, passes)
            got = self._remember(norm, MappingProxyType(out))
        try:
            if key != norm:
                self._remember(key, got)
        except TypeError:  # sets or lists: kept under the normalised key only
            pass
        return got  # type: ignore[no-any-return]

    def distances(
        self, start: str, *, edges: Kinds = None, free: Kinds = EMPTY, blocked: Iterable[str] = EMPTY
    ) -> Mapping[str, int]:
        """The fewest steps from ``start`` to every node it can reach (itself at 0), nearest
        first. A read-only mapping.

        >>> dict(Graph("abc", arcs=[("a", "b"), ("b", "c")]).distances("a"))
        {'a': 0, 'b': 1, 'c': 2}
        """
        return self._ask(Graph._dist, start, None, edges, free, blocked)  # type: ignore[no-any-return]

    def distance(
        self, a: str, b: str, *, edges: Kinds = None, free: Kinds = EMPTY, blocked: Iterable[str] = EMPTY
    ) -> int | None:
        """The fewest steps from ``a`` to ``b``; ``None`` if ``b`` cannot be reached."""
        self._check(b)
        return self.distances(a, edges=edges, free=free, blocked=blocked).get(b)

    def within(
        self, start: str, steps: int, *, edges: Kinds = None, free: Kinds = EMPTY, blocked: Iterable[str] = EMPTY
    ) -> frozenset[str]:
        """The nodes at most ``steps`` steps from ``start``, ``start`` included."""
        return self._ask(Graph._within, start, steps, edges, free, blocked)  # type: ignore[no-any-return]

    # ------------------------------------------------------------- internals

    def _ask(
        self, question: Callable[..., Any], start: str, length: Any = None, edges: Kinds = None, free: Kinds = EMPTY,
        blocked: Iterable[str] = EMPTY,
    ) -> Any:
        """The memoised answer of ``question`` (one of the private methods below). Asked
        with hashable arguments (tuples, frozensets), the answer is one dictionary look-up
        away; sets or lists are first made frozensets, and the answer is kept under both
        keys."""
        key = (question, start, length, edges, free, blocked)
        try:
            got = self._memo.get(key)
        except TypeError:  # a set or a list: not hashable as given
            got, key = None, None
        if got is not None:
            return got
        norm = (question, start, length, _kinds(edges, "edges"), _kinds(free, "free") or EMPTY, _kinds(blocked, "blocked") or EMPTY)
        got = self._memo.get(norm)
        if got is None:
            got = self._remember(norm, question(self, *norm[1:]))
        if key is not None and key != norm:
            self._remember(key, got)
        return got

    def _neighbours(self, node: str, _: None, edges: frozenset[str] | None, free: frozenset[str], blocked: frozenset[str]) -> frozenset[str]:
        self._check(node)
        return frozenset(e.b for e in self._out[node] if edges is None or e.kind in edges)

    def _paths(self, start: str, length: Length, edges: frozenset[str] | None, free: frozenset[str], blocked: frozenset[str]) -> tuple[tuple[str, ...], ...]:
        if isinstance(length, range):
            return tuple(dict.fromkeys(p for n in length for p in self.paths(start, n, edges=edges, free=free, blocked=blocked)))
        return tuple(dict.fromkeys(self._walk(start, length, edges, free, blocked)))

    def _ends(self, start: str, length: Length, edges: frozenset[str] | None, free: frozenset[str], blocked: frozenset[str]) -> Mapping[str, tuple[str, ...]]:
        best: dict[str, tuple[str, ...]] = {}
        for n in length if isinstance(length, range) else (length,):
            these: dict[str, tuple[str, ...]] = {}
            for path in self.paths(start, n, edges=edges, free=free, blocked=blocked):
                known = these.get(path[-1])
                if known is None or len(path) < len(known):
                    these[path[-1]] = path
            for end, path in these.items():
                best.setdefault(end, path)
        return MappingProxyType(best)

    def _routes(self, start: str, length: Length, edges: frozenset[str] | None, free: frozenset[str], blocked: frozenset[str]) -> Mapping[str, tuple[str, ...]]:
        ends = self.ends(start, length, edges=edges, free=free, blocked=blocked)
        return MappingProxyType({end: path[1:-1] for end, path in ends.items()})

    def _dist(self, start: str, _: None, edges: frozenset[str] | None, free: frozenset[str], blocked: frozenset[str]) -> Mapping[str, int]:
        self._check(start)
        steps = self._steps(edges, free)
        dist = {start: 0}
        todo = deque([start])
        while todo:  # breadth first; a free arc's end goes to the front (0-1 search)
            node = todo.popleft()
            d = dist[node]
            for nxt, cost in steps[node]:
                if nxt in blocked or (nxt in dist and dist[nxt] <= d + cost):
                    continue
                dist[nxt] = d + cost
                if cost:
                    todo.append(nxt)
                else:
                    todo.appendleft(nxt)
        return MappingProxyType(dict(sorted(dist.items(), key=lambda kv: kv[1])))

    def _guarded(self) -> None:  # names the question in the memo's keys (see guarded)
        raise NotImplementedError

    def _within(self, start: str, steps: int, edges: frozenset[str] | None, free: frozenset[str], blocked: frozenset[str]) -> frozenset[str]:
        dist = self.distances(start, edges=edges, free=free, blocked=blocked)
        return frozenset(n for n, d in dist.items() if d <= steps)

    def _check(self, node: object) -> None:
        if node not in self:
            raise UnknownNode(node)

    def _remember(self, key: _Key, value: Any) -> Any:
        if len(self._memo) >= MEMO_SIZE:
            self._memo.clear()  # cheaper than an LRU, and a board's working set refills fast
        self._memo[key] = value
        return value

    def _steps(self, edges: frozenset[str] | None, free: frozenset[str]) -> dict[str, tuple[tuple[str, int], ...]]:
        """Each node's usable arcs as (next node, steps it costs), in arc order."""
        key = ("steps", edges, free)
        got = self._memo.get(key)
        if got is None:
            got = self._remember(key, {
                n: tuple(dict.fromkeys((e.b, 0 if e.kind in free else 1) for e in out if edges is None or e.kind in edges))
                for n, out in self._out.items()
            })
        return got  # type: ignore[no-any-return]

    def _walk(
        self, start: str, length: int, edges: frozenset[str] | None, free: frozenset[str], blocked: frozenset[str]
    ) -> Iterator[tuple[str, ...]]:
        self._check(start)
        if type(length) is not int or length < 0:
            raise GraphError(f"a path's length is a whole number of steps (0 or more), or a range of them, not {length!r}")
        steps = self._steps(edges, free)
        path = [start]
        on_path = {start}
        left = [length]
        todo = [iter(steps[start])]
        if length == 0:
            yield (start,)
        while todo:  # depth first, without recursion: a long chain of free arcs cannot overflow the stack
            for nxt, cost in todo[-1]:
                rest = left[-1] - cost
                if rest < 0 or nxt in on_path or nxt in blocked:
                    continue
                path.append(nxt)
                on_path.add(nxt)
                left.append(rest)
                todo.append(iter(steps[nxt]))
                if rest == 0:
                    yield tuple(path)
                break
            else:
                todo.pop()
                left.pop()
                on_path.discard(path.pop())


def _kinds(kinds: Iterable[str] | None, name: str) -> frozenset[str] | None:
    if kinds is None or type(kinds) is frozenset:
        return kinds  # type: ignore[return-value]
    if isinstance(kinds, str):  # frozenset("stairs") would be its letters
        raise GraphError(f"{name} is a collection of names, not the string {kinds!r}")
    return frozenset(kinds)


def _rows(
    arcs: Iterable[tuple[str, ...]], lines: Iterable[tuple[str, ...]]
) -> Iterator[tuple[str, Any, Any, Any, bool]]:
    """Each arc or line given, as (its place, a, b, kind, both ways)."""
    for name, rows, both in (("arcs", arcs, False), ("lines", lines, True)):
        for i, row in enumerate(rows):
            if isinstance(row, tuple | list) and len(row) in (2, 3):
                yield f"{name}[{i}]", row[0], row[1], row[2] if len(row) == 3 else "", both
            else:
                yield f"{name}[{i}]", row, None, None, both

"""The kernel's Graph: exact-length simple paths, one-way arcs, kinds switched per question,
free arcs, blocked nodes, distances; errors; value semantics. Properties are checked against
brute force on random small graphs (hypothesis)."""
from __future__ import annotations

import copy
import pickle
from collections import deque
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from rules.core import Edge, Graph, GraphError, RulesError, UnknownNode

KINDS = ("", "stairs", "passage")


@st.composite
def graphs(draw: st.DrawFn, max_nodes: int = 7) -> Graph:
    n = draw(st.integers(1, max_nodes))
    nodes = [f"n{i}" for i in range(n)]
    pairs = [(a, b) for a in nodes for b in nodes if a != b]
    arcs = draw(st.lists(st.tuples(st.sampled_from(pairs), st.sampled_from(KINDS)), max_size=18)) if pairs else []
    lines = draw(st.lists(st.tuples(st.sampled_from(pairs), st.sampled_from(KINDS)), max_size=4)) if pairs else []
    return Graph(nodes, arcs=[(a, b, k) for (a, b), k in arcs], lines=[(a, b, k) for (a, b), k in lines])


@st.composite
def questions(draw: st.DrawFn) -> tuple[Graph, str, int, frozenset[str] | None, frozenset[str], frozenset[str]]:
    g = draw(graphs())
    start = draw(st.sampled_from(g.nodes))
    length = draw(st.integers(0, 5))
    edges = draw(st.none() | st.frozensets(st.sampled_from(KINDS)))
    free = draw(st.frozensets(st.sampled_from(KINDS[1:]), max_size=1))
    blocked = draw(st.frozensets(st.sampled_from(g.nodes), max_size=2))
    return g, start, length, edges, free, blocked


def usable(g: Graph, edges: frozenset[str] | None) -> list[Edge]:
    return [e for e in g.arcs if edges is None or e.kind in edges]


def brute_paths(g, start, length, edges, free, blocked):
    """Every simple node sequence from ``start`` whose hops can each go by a usable arc,
    with some choice of those arcs costing exactly ``length`` steps."""
    arcs = usable(g, edges)
    costs: dict[tuple[str, str], set[int]] = {}
    for e in arcs:
        costs.setdefault((e.a, e.b), set()).add(0 if e.kind in free else 1)
    out = set()
    todo = [(start,)]
    while todo:
        path = todo.pop()
        for combo in product(*(costs[(a, b)] for a, b in zip(path, path[1:]))):
            if sum(combo) == length:
                out.add(path)
        for e in arcs:
            if e.a == path[-1] and e.b not in path and e.b not in blocked:
                todo.append(path + (e.b,))
    return out


def bfs(g, a, edges, blocked=frozenset()):
    dist = {a: 0}
    todo = deque([a])
    while todo:
        x = todo.popleft()
        for e in usable(g, edges):
            if e.a == x and e.b not in dist and e.b not in blocked:
                dist[e.b] = dist[x] + 1
                todo.append(e.b)
    return dist


# ------------------------------------------------------------------ properties


@given(questions())
def test_every_path_has_the_length_asked_visits_no_node_twice_and_follows_usable_arcs(q):
    g, start, length, edges, free, blocked = q
    arcs = {(e.a, e.b): e for e in usable(g, edges)}
    for path in g.paths(start, length, edges=edges, free=free, blocked=blocked):
        assert path[0] == start
        assert len(set(path)) == len(path)
        assert not set(path[1:]) & blocked
        hops = list(zip(path, path[1:]))
        assert all(h in arcs for h in hops)
        cheapest = sum(min(0 if e.kind in free else 1 for e in usable(g, edges) if (e.a, e.b) == h) for h in hops)
        dearest = sum(max(0 if e.kind in free else 1 for e in usable(g, edges) if (e.a, e.b) == h) for h in hops)
        assert cheapest <= length <= dearest


@given(questions())
def test_paths_are_all_the_simple_paths_of_that_length_each_once(q):
    g, start, length, edges, free, blocked = q
    got = g.paths(start, length, edges=edges, free=free, blocked=blocked)
    assert len(got) == len(set(got))
    assert set(got) == brute_paths(g, start, length, edges, free, blocked)


@given(questions())
def test_without_free_arcs_a_path_has_exactly_length_arcs(q):
    g, start, length, edges, _, blocked = q
    for path in g.paths(start, length, edges=edges, blocked=blocked):
        assert len(path) == length + 1


@given(questions())
def test_ends_are_the_ends_of_the_paths_each_by_a_shortest_one(q):
    g, start, length, edges, free, blocked = q
    paths = g.paths(start, length, edges=edges, free=free, blocked=blocked)
    ends = g.ends(start, length, edges=edges, free=free, blocked=blocked)
    assert list(ends) == list(dict.fromkeys(p[-1] for p in paths))
    for end, path in ends.items():
        assert path in paths and path[-1] == end
        assert len(path) == min(len(p) for p in paths if p[-1] == end)


@given(graphs(), st.data())
def test_distance_agrees_with_breadth_first_search(g, data):
    a, b = data.draw(st.sampled_from(g.nodes)), data.draw(st.sampled_from(g.nodes))
    edges = data.draw(st.none() | st.frozensets(st.sampled_from(KINDS)))
    blocked = data.draw(st.frozensets(st.sampled_from(g.nodes), max_size=2)) - {a}
    assert g.distance(a, b, edges=edges, blocked=blocked) == bfs(g, a, edges, blocked).get(b)
    assert dict(g.distances(a, edges=edges, blocked=blocked)) == bfs(g, a, edges, blocked)


@given(graphs(), st.data())
def test_within_is_every_node_at_most_n_steps_away(g, data):
    a = data.draw(st.sampled_from(g.nodes))
    n = data.draw(st.integers(0, 4))
    assert g.within(a, n) == {x for x, d in bfs(g, a, None).items() if d <= n}


@given(graphs())
def test_one_way_arcs_are_respected(g):
    for e in g.arcs:
        assert g.adjacent(e.a, e.b) and e.b in g.neighbours(e.a)
    pairs = {(e.a, e.b) for e in g.arcs}
    for a in g.nodes:
        for b in g.nodes:
            assert g.adjacent(a, b) == ((a, b) in pairs)
            assert ((a, b) in {p[:2] for p in g.paths(a, 1)}) == ((a, b) in pairs)


@given(questions())
def test_answers_do_not_depend_on_the_memo(q):
    g, start, length, edges, free, blocked = q
    fresh = Graph(g.nodes, arcs=g.arcs)
    first = g.paths(start, length, edges=edges, free=free, blocked=blocked)
    assert g.paths(start, length, edges=edges, free=free, blocked=blocked) is first
    assert fresh.paths(start, length, edges=set(edges) if edges is not None else None, free=list(free), blocked=list(blocked)) == first
    assert fresh == g and hash(fresh) == hash(g)


# ------------------------------------------------------------------ examples


def outrage_corner() -> Graph:
    """A corner of the Tower: a wall walk one way round on a first circuit (either way
    after), stairs down to a ward square, a one-way arrow into the White Tower, and a
    secret passage."""
    walk = ["w1", "w2", "w3", "w4"]
    return Graph(
        [*walk, "ward", "tower", "cellar"],
        arcs=[("w1", "w2", "ccw"), ("w2", "w3", "ccw"), ("w3", "w4", "ccw"),
              ("w2", "w1", "cw"), ("w3", "w2", "cw"), ("w4", "w3", "cw"),
              ("ward", "tower", "arrow")],
        lines=[("w3", "ward", "stairs"), ("w1", "cellar", "passage"), ("cellar", "ward", "")],
    )


def test_a_first_circuit_keeps_to_the_wall_walk_one_way():
    g = outrage_corner()
    first = {"ccw"}
    assert g.paths("w1", 3, edges=first) == (("w1", "w2", "w3", "w4"),)
    assert g.paths("w4", 1, edges=first) == ()
    later = {"ccw", "cw", "stairs", "arrow", "passage", ""}
    assert set(g.ends("w2", 2, edges=later)) == {"w4", "ward", "cellar"}
    assert set(g.ends("w2", 2, edges=later - {"passage", "stairs"})) == {"w4"}


def test_the_secret_passage_counts_as_one_move_and_warders_block_it():
    g = outrage_corner()
    assert ("w1", "cellar", "ward") in g.paths("w1", 2)
    assert g.distance("w1", "ward") == 2
    assert ("w1", "cellar", "ward") not in g.paths("w1", 2, blocked={"cellar"})
    assert g.distance("w1", "ward", blocked={"cellar"}) == 3


def test_arrows_into_the_white_tower_go_one_way():
    g = outrage_corner()
    assert g.adjacent("ward", "tower") and not g.adjacent("tower", "ward")
    assert g.distance("tower", "ward") is None
    assert g.neighbours("tower") == frozenset()


def test_a_turn_of_several_throws_never_lands_twice_on_a_square():
    g = outrage_corner()
    visited = {"w1", "w2"}
    first = g.paths("w1", 1, edges={"ccw"})
    assert first == (("w1", "w2"),)
    assert all(not set(p[1:]) & visited for p in g.paths("w2", 2, blocked=visited))
    assert {p[-1] for p in g.paths("w2", 2, blocked=visited)} == {"w4", "ward"}


def test_free_arcs_cost_no_step_and_may_end_a_move():
    ring = Graph("abcdef", arcs=[(x, y, "f") for x, y in zip("abcdef", "bcdefa")], lines=[("b", "e", "t")])
    assert dict(ring.ends("a", 1, free={"t"})) == {"b": ("a", "b"), "e": ("a", "b", "e")}
    assert ring.distance("a", "f", free={"t"}) == 2
    assert ring.within("a", 1, free={"t"}) == {"a", "b", "e"}
    assert dict(ring.ends("a", 1, edges={"f"}, free={"t"})) == {"b": ("a", "b")}


def test_paths_never_lap_a_loop():
    loop = Graph("abc", arcs=[("a", "b"), ("b", "c"), ("c", "a")])
    assert loop.paths("a", 2) == (("a", "b", "c"),)
    assert loop.paths("a", 3) == ()


def test_lines_come_back_as_given_once():
    g = Graph("abcd", arcs=[("a", "b")], lines=[("c", "a"), ("d", "b", "x")])
    assert g.lines == (("c", "a"), ("d", "b"))
    assert g.kinds == {"", "x"}


def test_bad_graphs_are_graph_errors_naming_every_problem():
    with pytest.raises(GraphError) as e:
        Graph(["a", "a", 3], arcs=[("a", "z"), ("a", "a"), "ab", ("a", "b", None)])  # type: ignore[list-item]
    text = str(e.value)
    for part in ("nodes[1]", "nodes[2]", "arcs[0]", "arcs[1]", "arcs[2]", "arcs[3]"):
        assert part in text
    assert isinstance(e.value, RulesError) and isinstance(e.value, ValueError)


def test_questions_about_unknown_nodes_are_unknown_node_errors():
    g = Graph("ab", lines=[("a", "b")])
    for ask in (lambda: g.neighbours("z"), lambda: g.paths("z", 1), lambda: g.distance("a", "z"),
                lambda: g.within("z", 1), lambda: g.index("z"), lambda: g.neighbours([]), lambda: g.ends("z", 0)):
        with pytest.raises(UnknownNode, match="no node"):
            ask()
    assert not g.adjacent("z", "a") and not g.adjacent("a", "z") and [] not in g
    with pytest.raises(KeyError):
        g.neighbours("z")
    with pytest.raises(GraphError, match="length"):
        g.paths("a", -1)


def test_a_graph_is_an_immutable_value():
    g = Graph("abc", arcs=[("a", "b"), ("b", "c")])
    g.paths("a", 2)
    assert copy.deepcopy(g) is g and copy.copy(g) is g
    back = pickle.loads(pickle.dumps(g))
    assert back == g and back.paths("a", 2) == (("a", "b", "c"),)
    assert eval(repr(g), {"Graph": Graph}) == g
    assert g != Graph("abc", arcs=[("b", "c"), ("a", "b")])  # arc order is part of the value
    assert {g: 1}[Graph("abc", arcs=[("a", "b"), ("b", "c")])] == 1
    with pytest.raises(AttributeError):
        g.nodes = ()  # type: ignore[misc]
    ends = g.ends("a", 1)
    with pytest.raises(TypeError):
        ends["z"] = ("z",)  # type: ignore[index]


def test_the_memo_stays_bounded(monkeypatch):
    monkeypatch.setattr("rules.core.graph.MEMO_SIZE", 10)
    g = Graph("abcd", lines=[("a", "b"), ("b", "c"), ("c", "d")])
    for blocked in ("a", "b", "c", "d") * 5:
        g.paths("a", 1, blocked={blocked} - {"a"})
        assert len(g._memo) <= 10


def test_graph_is_in_the_kernel_and_rules_namespaces():
    assert rules.Graph is Graph and rules.core.GraphError is GraphError


@given(questions(), st.integers(0, 4))
def test_a_range_of_lengths_is_each_length_in_turn(q, extra):
    g, start, length, edges, free, blocked = q
    lengths = range(length, length + extra)
    kw = {"edges": edges, "free": free, "blocked": blocked}
    each = [p for n in lengths for p in g.paths(start, n, **kw)]
    assert g.paths(start, lengths, **kw) == tuple(dict.fromkeys(each))
    ends = g.ends(start, lengths, **kw)
    for end, path in ends.items():
        first = next(n for n in lengths if end in g.ends(start, n, **kw))
        assert path == g.ends(start, first, **kw)[end]
    assert dict(g.routes(start, lengths, **kw)) == {end: path[1:-1] for end, path in ends.items()}


@given(questions())
def test_the_same_question_asked_with_a_tuple_a_list_or_a_set_has_one_answer(q):
    g, start, length, edges, free, blocked = q
    as_tuples = g.ends(start, length, edges=tuple(sorted(edges)) if edges is not None else None,
                       free=tuple(free), blocked=tuple(blocked))
    as_lists = g.ends(start, length, edges=list(edges) if edges is not None else None, free=list(free), blocked=list(blocked))
    as_sets = g.ends(start, length, edges=set(edges) if edges is not None else None, free=set(free), blocked=set(blocked))
    assert list(as_tuples.items()) == list(as_lists.items()) == list(as_sets.items())


def test_kinds_given_as_one_string_are_refused():
    g = Graph("ab", lines=[("a", "b", "stairs")])
    with pytest.raises(GraphError, match="not the string 'stairs'"):
        g.paths("a", 1, edges="stairs")  # type: ignore[arg-type]


def test_guarded_prefers_a_way_past_no_guard_and_flags_the_rest():
    from rules.core.graph import Graph

    # a-b-c and a-d-c reach c; only a-b-c-e... reaches e through b.
    g = Graph("abcde", lines=[("a", "b"), ("b", "c"), ("a", "d"), ("d", "c"), ("c", "e")])
    assert dict(g.guarded("a", 2, {"b"})) == {"c": (("a", "d", "c"), False)}
    assert dict(g.guarded("a", 2, frozenset())) == {"c": (("a", "b", "c"), False)}
    both = g.guarded("a", 2, {"b", "d"})
    assert dict(both) == {"c": (("a", "b", "c"), True)}
    # the same answer asked with sets, lists or frozensets, and it is remembered
    assert g.guarded("a", 2, ["b", "d"], blocked={"e"}) == g.guarded("a", 2, frozenset("bd"), blocked=frozenset("e"))
    assert g.guarded("a", 2, frozenset("bd")) is both
    # each answer is a guard-free way when there is one, as paths() lists them
    for n in range(0, 4):
        for guards in ({"b"}, {"d"}, {"c"}, set()):
            got = g.guarded("a", n, guards)
            ends = {p[-1] for p in g.paths("a", n)}
            assert set(got) == ends
            for end, (path, passes) in got.items():
                free = [p for p in g.paths("a", n) if p[-1] == end and not set(p[1:]) & guards]
                assert (path, passes) == ((free[0], False) if free else
                                          (next(p for p in g.paths("a", n) if p[-1] == end), True))

"""The RECONSTRUCTED board file and its validator."""
from __future__ import annotations

import copy
import json

import pytest

from rules.datafile import DataFileError
from rules.outrage.board import ACCREDITED, DATA, FIRST_CIRCUIT, BoardError, default_board, load_board, parse_board


def raw() -> dict:
    return json.loads((DATA / "board.json").read_text(encoding="utf-8"))


def test_the_shipped_board_says_it_is_reconstructed():
    b = default_board()
    assert "RECONSTRUCTED" in b.name and "RECONSTRUCTED" in b.status


def test_regions_have_the_counts_reference_gives():
    b = default_board()
    assert len(b.region_squares("wall")) == 78
    assert len(b.region_squares("inmost")) + len(b.region_squares("white")) - 1 == 24  # the Rack is a basement room
    assert 115 <= len([s for s in b.region_squares("inner") if not b.square(s).building]) <= 125


def test_wall_walk_landmarks_in_order():
    b = default_board()
    assert b.name_of("w00") == "Start" and b.name_of("w77") == "Queen's House"
    assert b.square("w56").do == {"coin": True, "tower_card": 1}
    assert b.square("w47").do == {"prison": "bowyer"} and b.square("w62").do == {"prison": "beauchamp"}
    assert b.square("w29").do == {"surrender_weapons": True}
    assert b.square("w16").do == {"go": "w77"}


def test_first_circuit_is_one_way_and_stairs_are_out_of_bounds():
    g = default_board().graph
    assert g.paths("w00", 3, edges=FIRST_CIRCUIT) == (("w00", "w01", "w02", "w03"),)
    assert g.neighbours("w32", edges=FIRST_CIRCUIT) == frozenset({"w33"})
    assert "i10-18" in g.neighbours("w32", edges=ACCREDITED)
    assert "chapel-royal" in g.neighbours("w23", edges=ACCREDITED)
    assert g.distance("w10", "w09", edges=FIRST_CIRCUIT) is None


def test_white_tower_follows_its_arrows():
    g = default_board().graph
    assert g.neighbours("t05", edges=ACCREDITED) == frozenset({"t06"})
    assert g.distance("t10", "t09", edges={"arrow"}) is None and g.distance("t10", "t11", edges={"arrow"}) == 1


def test_posts_and_jewel_cases():
    b = default_board()
    assert set(b.posts) == {"scaffold", "chapel", "waterloo", "lanthorn"}
    assert len(b.posts["scaffold"]) == 2
    assert [b.facing[j] for j in ("sword", "sceptre", "orb", "prince-of-wales-crown", "st-edwards-crown")] == sorted(b.facing.values())
    assert b.jewel_value == {"st-edwards-crown": 5, "prince-of-wales-crown": 4, "sceptre": 3, "orb": 2, "sword": 1}


def test_squares_search_by_name_and_kind():
    b = default_board()
    assert b.search("Queen")[-1] == "w77" and "w16" in b.search("queen")
    assert "t14" in b.search("jewel")


@pytest.mark.parametrize("edit, path", [
    (lambda d: d["squares"][3].update(region="moat"), "squares[3].region"),
    (lambda d: d["squares"][3].update(id="w00"), "squares[3].id"),
    (lambda d: d["arcs"].append(["w00", "nowhere", "wall"]), "arcs["),
    (lambda d: d["lines"].append(["w00", "w05", "zipline"]), "lines["),
    (lambda d: d["places"].pop("mint"), "places.mint"),
    (lambda d: d["squares"][4]["do"].update(go="atlantis"), "squares[w04].do.go"),
    (lambda d: d["squares"][4]["do"].update(teleport=1), "squares[4].do.teleport"),
    (lambda d: d["squares"][9]["do"].update(tower_card=9), "squares[9].do.tower_card"),
    (lambda d: d["jewels"].pop(), "jewels"),
    (lambda d: d["jewels"][0].update(value=7), "jewels[0].value"),
    (lambda d: [s.pop("post", None) for s in d["squares"]], "no square is the scaffold post"),
    (lambda d: [s.pop("faces", None) for s in d["squares"] if s.get("faces") == "orb"], "no square faces the orb case"),
    (lambda d: d["squares"][100].update(marked="yes"), "squares[100].marked"),
])
def test_validator_names_field_and_file(edit, path):
    d = raw()
    edit(d)
    with pytest.raises(BoardError) as e:
        parse_board(d, "table.json")
    assert isinstance(e.value, DataFileError)
    assert str(e.value).startswith("table.json: ")
    assert any(path in p for p in e.value.problems), e.value.problems


def test_validator_needs_a_first_circuit():
    d = raw()
    d["arcs"] = [a for a in d["arcs"] if a != ["w40", "w41", "wall"]]
    with pytest.raises(BoardError, match="first circuit"):
        parse_board(d, "t.json")


@pytest.mark.parametrize("junk", [None, 3, "x", [], {"squares": "many"}, {"squares": [None, 4]}])
def test_validator_never_crashes_on_junk(junk):
    with pytest.raises(BoardError):
        parse_board(copy.deepcopy(junk), "junk.json")


def test_load_board_names_an_unreadable_file(tmp_path):
    f = tmp_path / "b.json"
    f.write_text("{not json", encoding="utf-8")
    with pytest.raises(BoardError, match="b.json"):
        load_board(f)

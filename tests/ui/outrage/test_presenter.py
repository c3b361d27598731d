"""The Outrage! presenter against the real Table, without a window: the seat strips, the
split seven's two steps, the square search, the attack's face-down choices behind the
gate only, the reveal moment, and player words everywhere."""
from __future__ import annotations

import re
from typing import Any

import pytest

from rules import PUBLIC
from rules.core import Roll
from rules.outrage.actions import Arm, Attack, MoveTo, Split

from companion.ui.games.outrage.layout import grid_layout
from companion.ui.games.outrage.presenter import FACTIONS, OutragePresenter
from tests.ui.outrage.positions import SEATS, SIX, heist

IDS = re.compile(r"\b(p[1-6]|[wt]\d\d|i\d+-\d\d|[a-z]+-\d)\b")


@pytest.fixture
def table(tmp_path: Any) -> Any:
    from companion import Journal, Table

    journal = Journal.open(tmp_path / "journal.sqlite3")
    made: list[Any] = []

    def make(movement: str = "checked", **pieces: dict[str, Any]) -> Any:
        options, position = heist(movement)
        for seat, changes in pieces.items():
            position["pieces"][seat].update(changes)
            if "cards" in changes:  # a new count: the seat's cards are dealt at random
                position["private"]["hands"].pop(seat, None)
        t = Table.create(journal, game_id="outrage", seats=SEATS, options=options, seed=3, position=position)
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()
    journal.close()


def _public_words(p: OutragePresenter) -> list[str]:
    v = p.view()
    return ([p.prompt_line(), p.turn_line(v), p.mode_line(v), p.dice_line(v), p.warder_line(v)] + p.jewel_lines(v)
            + [s.status + s.square for s in p.strips(v)] + [b.label for b in p.buttons()])


def test_strips_show_prison_turns_burglary_targets_and_what_each_carries(table):
    p = OutragePresenter(table())
    ann, bob, cat, dan, eve, _fay = p.strips()
    assert ann.acting and "⛓ Bloody Tower, turn 3 of 3" in ann.status and "✔ accredited" in ann.status
    assert "◉ coin" in bob.status and "2 Tower cards" in bob.status
    assert "carries Orb" in cat.status
    assert "burgling the Sword of State: needs 5+, attempt 2" in dan.status
    assert "not accredited" in eve.status
    assert "Orb (2): carried by Cat" in " ".join(p.jewel_lines())
    assert "called out from Waterloo" in p.warder_line()


def test_the_board_places_every_square_once_and_shows_warders_jewels_and_pieces(table):
    p = OutragePresenter(table())
    assert len(set(grid_layout(p.board).cells.values())) == len(p.board.squares)
    cells = {c.id: c for c in p.cells()}
    assert cells["i2-05"].warder and not cells["i0-12"].warder  # Waterloo's warder is out
    assert cells["t08"].jewel == "sword" and ("p4", "yellow") in cells["t08"].pieces
    assert "take a Tower card" in p.describe_square("w09")
    assert not any(IDS.search(p.describe_square(s)) for s in p.board.squares)


def test_split_seven_is_two_steps_with_whom_then_how(table):
    t = table(p1={"square": "w10", "held": None})
    p = OutragePresenter(t)
    t.submit(Roll("p1", (3, 4)))
    assert any(b.intent == "split" for b in p.buttons())
    p.split_with = "?"
    step1 = p.buttons()
    assert "step 1 of 2" in step1[0].label and any(b.intent == "split-with" and b.seat == "p5" for b in step1)
    p.split_with = "p5"
    step2 = p.buttons()
    assert "step 2 of 2" in step2[0].label
    six = next(b for b in step2 if b.label == "Ann moves 6 · Eve moves 1")
    assert six.action == Split("p1", other="p5", steps=6)
    t.submit(six.action)
    p.split_with = ""  # as the screen does after an accepted action
    assert t.view(PUBLIC)["phase"] == "move"


def test_unchecked_movement_finds_the_square_by_name_or_kind(table):
    t = table("unchecked")
    p = OutragePresenter(t)
    t.submit(Roll("p1", (3, 3)))  # a double: out of the Bloody Tower, six to move
    assert "Your own board" in p.mode_line() and not any(c.reachable for c in p.cells())
    assert p.unchecked_move()
    assert [b.intent for b in p.buttons()][0] == "search"
    p.search = "bell"
    labels = [b.label for b in p.buttons()]
    assert labels[0] == "→ Bell Tower"
    assert p.search_results("tower")[:1] and all(p.board.squares[s].tower or "ower" in p.board.squares[s].name
                                                  or p.board.squares[s].region == "white"
                                                  for s in p.search_results("tower"))
    # By kind as well as by name, every word counting: a jewel by its name, a post by its
    # name, the Mint, "Raven" for a plain Inner Ward square, a row and column.
    found = {q: [p.square_name(s) for s in p.search_results(q)] for q in
             ("sword", "post scaffold", "mint", "raven row 5 column 7", "CIRCLED", "prison", "ferry", "queen")}
    assert found["sword"] == ["White Tower 9 (facing a jewel case)"]
    assert found["post scaffold"] == ["Yeoman Warder's post (Scaffold)"]  # two squares of one name: one button
    assert found["mint"] == ["Devereux Tower (the Mint)"] and found["ferry"] == ["Cradle Tower (the ferry)"]
    assert found["raven row 5 column 7"][0] == "Inner Ward row 5 column 7"
    assert all(n.endswith("(circled)") for n in found["CIRCLED"]) and len(found["CIRCLED"]) > 5
    assert {"Bloody Tower", "Bowyer Tower", "Beauchamp Tower"} <= set(found["prison"])
    assert found["queen"][0] == "Queen's House"  # the name that starts with the words first
    p.search = "sword"
    assert [b.label for b in p.buttons()][0] == "→ White Tower 9 (facing the case of the Sword of State)"
    p.search = "tower"
    head = p.buttons()[0]
    assert head.intent == "noop" and head.label.startswith("12 of ") and "squares shown" in head.label
    p.search, p.picked = "Miss a turn", "w28"  # a tap on the second of two namesakes
    assert p.buttons()[0].action.square == "w28"
    p.search, p.picked = "bell", ""
    t.submit(p.buttons()[0].action)
    assert t.view(PUBLIC)["pieces"]["p1"]["square_name"] == "Bell Tower"
    assert "guide only" in p.legend()  # the drawn board is the app's, the table's decides


def test_the_attack_is_chosen_behind_the_gate_and_revealed_as_a_moment(table):
    t = table(p1={"square": "w10", "held": None})
    p = OutragePresenter(t)
    t.submit(Roll("p1", (1, 2)))
    t.submit(next(a for a in p.legal() if isinstance(a, MoveTo)))
    while "p2" not in t.prompt.actors:  # Ann's landing (a card, an offer): the app's answers
        t.submit(next(iter(p.legal())))
    attack = next(b for b in p.buttons() if isinstance(b.action, Attack) and b.action.target == "p3")
    assert attack.label.startswith("⚔ Attack Cat")
    t.submit(attack.action)
    public = " ".join(_public_words(p))
    assert "Dagger" not in public and "Mace" not in public and "Sword," not in public
    assert not [h for h in t.hidden(PUBLIC) if len(h) > 2 and h in public]
    hands = [b for b in p.buttons() if b.intent == "hand"]
    assert {b.seat for b in hands} == {"p2", "p3"} and all("face down" in b.label for b in hands)
    page = p.hand_page("p2")
    labels = [c.label for s in page for c in s.choices]
    assert "Lay Sword, Dagger face down (total 8)" in labels
    before = t.view(PUBLIC)
    t.submit(Arm("p2", ("sword-1", "dagger-1")))
    assert {b.seat for b in p.buttons() if b.intent == "hand"} == {"p3"}
    mid = t.view(PUBLIC)
    t.submit(Arm("p3", ("mace-2",)))
    after = t.view(PUBLIC)
    assert p.moment(before, mid) is None
    m = p.moment(mid, after)
    assert m is not None and "Bob 8 against Cat 2" in m.title and "[" not in m.title + m.text


def test_public_words_name_players_never_ids(table):
    t = table()
    p = OutragePresenter(t)
    words = _public_words(p)
    t.submit(Roll("p1", (3, 3)))
    words += _public_words(p)
    bad = [w for w in words if IDS.search(w)]
    assert not bad


def test_an_escape_ends_the_game_and_the_end_screen_names_scores_and_tie_breaks(table):
    from companion.ui.presenters.end import EndModel
    from rules.outrage.actions import Escape

    from companion import Journal, Table

    options, position = heist()
    position["pieces"]["p1"].update(square="cradle", held=None, coin=True)
    position["jewels"]["orb"] = "p1"
    position["mint"] = 4
    t = Table.create(Journal.open(":memory:"), game_id="outrage", seats=SEATS, options=options, seed=3, position=position)
    p = OutragePresenter(t)
    escape = next(b for b in p.buttons() if isinstance(b.action, Escape))
    assert "ferryman" in escape.label
    before = t.view(PUBLIC)
    t.submit(escape.action)
    assert p.is_over() and p.buttons() == []
    m = p.moment(before, t.view(PUBLIC))
    assert m is not None and "Ann escapes" in m.title and "Orb" in m.text
    names = {s["id"]: s["name"] for s in SEATS}
    factions = {s["id"]: s["faction"] for s in SEATS}
    end = EndModel("outrage", t.outcome, names, t.view(), p.end_words(), factions)
    lines = end.score_lines() + p.end_notes()
    # The headline names the player, with the piece's glyph, not the piece's colour.
    ann = FACTIONS[factions["p1"]]
    assert end.headline == f"{ann.glyph} Ann wins" and end.winners == f"Ann ({ann.title})"
    assert "Ann: 2 (Orb 2)" in lines
    assert any(line.startswith("Tie-breaks: the highest score; then the fewer jewels") for line in lines)
    assert not [x for x in lines if IDS.search(x)]


def test_a_raven_card_drawn_is_there_to_read_aloud_in_player_words(table):
    t = table()
    p = OutragePresenter(t)
    t.submit(Roll("p1", (3, 3)))
    t.submit(MoveTo("p1", "i14-01"))  # an unmarked Inner Ward square: a Raven card
    assert "take a Raven card" in p.prompt_line() and p.raven_text() == ""
    assert [b.intent for b in p.buttons()][:2] == ["app-draw", "raven-entry"]  # in the open: Raven cards are read out
    draw = next(a for a in p.legal())
    t.submit(draw)
    text = p.raven_text()
    assert text and "[" not in text and not IDS.search(text)


def test_every_tower_card_in_a_hand_shows_what_it_does(table):
    from rules.outrage.cards import TOWER

    t = table()
    p = OutragePresenter(t)
    assert all(p.card_rule(c) for c in TOWER)
    page = p.hand_page("p5")  # Eve: a Tower Pass, a Rope, the Key
    words = [line.text for s in page for line in s.lines]
    assert "• Tower Pass" in words and any("Instant accreditation at Queen's House" in w for w in words)
    assert any("cannot be combined" in w for w in words)


def test_a_random_game_keeps_the_public_panels_in_player_words(tmp_path):
    """Two hundred random legal actions from the six-seat position: every panel the
    screen draws is made without error, in player words, and shows no hidden card."""
    import random

    from companion import Journal, Table
    from rules.core import Draw

    options, position = heist()
    t = Table.create(Journal.open(tmp_path / "j.sqlite3"), game_id="outrage", seats=SEATS, options=options,
                     seed=5, position=position)
    p = OutragePresenter(t)
    rng = random.Random(5)
    for _ in range(200):
        if p.is_over():
            break
        v = p.view()
        words = _public_words(p) + [p.raven_text(v)] + [p.describe_square(c.id) for c in p.cells(v) if c.pieces]
        assert not [w for w in words if IDS.search(w)], words
        hidden = {h for h in t.hidden(PUBLIC) if len(h) > 2}
        assert not [w for w in words for h in hidden if h in w]
        legal = p.legal()
        draws = [a for a in legal if isinstance(a, Draw)]
        t.submit(draws[0] if draws else rng.choice(legal))


def test_the_hand_button_does_not_tell_whether_a_playable_card_is_held(table):
    """In the Bloody Tower only a double helps, and Ann holds a Mace: her hand's button
    is offered all the same, as it would be if she held a card she could play; with no
    cards at all there is nothing to open."""
    p = OutragePresenter(table())
    assert not [a for a in p.legal() if p._private(a)]
    assert [b.label for b in p.buttons() if b.intent == "hand"] == ["▤ Ann's hand — play a card"]
    empty = OutragePresenter(table(p1={"cards": 0}))
    assert not [b for b in empty.buttons() if b.intent == "hand"]


def test_the_wizard_offers_outrage_for_six_seats_with_their_own_pieces_and_unchecked_moves(tmp_path):
    from companion import Journal, Table
    from companion.ui.games.outrage.presenter import setup_words
    from companion.ui.presenters.setup import SetupModel

    assert "outrage" in dict(SetupModel.games())
    m = SetupModel.for_game("outrage")
    m.set_option("own_pieces", True)  # the box equips four (RULINGS S-04)
    m.set_seat_count(6)
    m.set_option("movement", "unchecked")
    assert m.check() == []
    t = Table.create(Journal.open(tmp_path / "j.sqlite3"), game_id="outrage", seats=m.named_seats(), options=m.options, seed=1)
    assert OutragePresenter(t).mode_line().startswith("⚲ Your own board · moves unchecked")
    assert "taps, or searches, the square landed on" in " ".join(setup_words(False, "unchecked"))


def test_the_wizard_seats_two_to_four_and_offers_own_pieces_beside_the_count():
    """RULINGS S-04: the box equips four players; 5 and 6 are offered once the table says
    it brings its own pieces and coins, and the reason is given once in players' words."""
    from companion.ui.presenters.setup import SetupModel

    m = SetupModel.for_game("outrage")
    assert m.seat_counts() == [2, 3, 4]
    (note,) = m.seat_count_notes()  # said once for 5 and 6, without the ruling's code
    assert note.startswith("The box holds pieces and coins for 4 players") and "S-04" not in note
    assert [o.name for o in m.seat_count_options()] == ["own_pieces"]
    assert m.seat_count_options()[0].help == "We bring our own pieces and coins for a 5th and 6th player."
    m.set_seat_count(5)
    assert m.check() == [note]  # Start stays off, in the same words
    m.set_option("own_pieces", True)
    assert m.seat_counts() == [2, 3, 4, 5, 6] and m.seat_count_notes() == [] and m.check() == []
    m.set_seat_count(6)
    m.set_option("own_pieces", False)  # the own pieces taken back: the largest table the box equips
    assert len(m.seats) == 4 and m.check() == []


def test_the_deal_is_one_tap_from_the_apps_pack_or_card_by_card_behind_the_gate(tmp_path):
    from companion import Journal, Table

    t = Table.create(Journal.open(tmp_path / "j.sqlite3"), game_id="outrage", seats=SEATS, options=SIX, seed=1)
    p = OutragePresenter(t)
    deal = p.buttons()[0]
    assert (deal.intent, deal.count) == ("app-draw", 18) and "Deal all 18" in deal.label
    assert p.physical_draw_continues("p1") and not p.physical_draw_continues("p2")
    page = p.physical_draw_page("p1")
    t.submit(page[0].choices[0].action)
    assert p.buttons()[0].count == 17


def test_a_burglary_is_declared_behind_the_gate_with_its_target(tmp_path):
    """Dan reaches the square facing the Sword of State; his tools are chosen behind the
    gate, each choice with its target (12 minus the tools: the book's examples)."""
    from companion import Journal, Table
    from rules.outrage.actions import Burgle

    options, position = heist()
    position["seat"] = "p4"
    position["pieces"]["p4"].update(square="t05", burglary=None, cards=2)
    position["private"]["hands"]["p4"] = ["file-1", "dynamite-1"]
    t = Table.create(Journal.open(tmp_path / "j.sqlite3"), game_id="outrage", seats=SEATS, options=options,
                     seed=1, position=position)
    p = OutragePresenter(t)
    t.submit(Roll("p4", (1, 2)))
    t.submit(p.move_to("t08"))
    assert [b.label for b in p.buttons()] == ["No burglary", "▤ Dan's hand — declare a burglary"]
    choices = {c.label: c.action for s in p.hand_page("p4") for c in s.choices}
    assert set(choices) == {"Burgle with File: needs 10+", "Burgle with Dynamite: needs 7+",
                            "Burgle with File, Dynamite: needs 5+"}
    t.submit(choices["Burgle with File, Dynamite: needs 5+"])
    assert isinstance(choices["Burgle with File: needs 10+"], Burgle)
    dan = p.strips()[3]
    assert "burgling the Sword of State: needs 5+, attempt 1" in dan.status


def test_the_wizard_offers_outrage_s_join_form():
    from companion.ui.presenters.setup import SetupModel

    # Its form is in its UI package's position_form.json (tests/ui/test_position_form.py checks it); a game
    # without one is not offered (test_a_game_with_positions_but_no_form_is_not_offered_to_join).
    assert SetupModel.for_game("tyranny").can_join()
    assert SetupModel.for_game("outrage").can_join()


def test_a_tower_card_drawn_is_offered_from_what_the_seat_cannot_rule_out(tmp_path):
    """``physical_draws(seat)``, for the gate and the phone alike: one choice per Tower
    kind, never narrowed by cards other seats hold face down, only by the seat's own."""
    from companion import Journal, Table
    from rules.outrage.cards import TOWER

    t = Table.create(Journal.open(tmp_path / "j.sqlite3"), game_id="outrage", seats=SEATS, options=SIX, seed=1)
    p = OutragePresenter(t)
    before = [label for label, _a in p.physical_draws("p1")]
    assert p.physical_draws("p2") == []  # not p2's draw
    assert [c.label for c in p.physical_draw_page("p1")[0].choices] == before
    state = t._state
    swords = [c for c in state.decks["tower"].cards if TOWER[c].kind == "sword"]
    assert swords and any("Sword" in label for label in before)

    def move(to: str) -> list[str]:
        with t._lock:
            for c in swords:
                state.decks["tower"].cards.remove(c)
                state.hands[to].cards.append(c)
            state.changed()
        return [label for label, _a in p.physical_draws("p1")]

    assert move("p2") == before  # p2's face-down swords rule out nothing for p1
    with t._lock:
        for c in swords:
            state.hands["p2"].cards.remove(c)
            state.decks["tower"].cards.append(c)
    after = move("p1")  # p1 holds every sword: it cannot have drawn one
    assert not any("Sword" in label for label in after) and len(after) == len(before) - 1
    # Its phone shows those cards with what they do; nobody else's shows them.
    assert p.card_texts("p1") == [(c, p.card_line(c), p.card_rule(c)) for c in swords] and p.card_rule(swords[0])
    assert p.card_texts("p2") == []


def test_a_raven_card_from_the_tables_pack_is_entered_in_the_open_from_a_searchable_list(table):
    """Raven cards are read out, never secret: the card the table drew is picked on the
    shared screen from every Raven card, narrowed by words from it; a Tower card drawn is
    still entered behind the gate."""
    from rules.core import Draw

    t = table()
    p = OutragePresenter(t)
    t.submit(Roll("p1", (3, 3)))  # a double: out of the Bloody Tower, six to move
    raven_square = next(a for a in p.legal() if isinstance(a, MoveTo) and p.board.squares[a.square].draws_raven)
    t.submit(raven_square)
    assert t.view(PUBLIC)["phase"] == "draw-raven"
    entry = next(b for b in p.buttons() if b.intent == "raven-entry")
    assert not entry.seat and "table's pack" in entry.label  # no gate: anyone may tap it
    assert not any(b.intent == "physical-draw" for b in p.buttons())
    p.raven_entry = ""
    listed = [b for b in p.buttons() if b.action is not None]
    assert len(listed) == len(p.raven_cards("p1")) == 43  # every card's words once
    p.raven_entry = "warder CHAPEL"
    found = [b for b in p.buttons() if b.action is not None]
    assert [b.label for b in found] == ["YEOMAN WARDER CALLED OUT to the Chapel post."]
    p.raven_entry = "no such words"
    assert [b.label for b in p.buttons()][0] == "No Raven card has those words"
    assert not any(b.action for b in p.buttons())
    t.submit(found[0].action)
    assert isinstance(found[0].action, Draw) and found[0].action.source == "card"
    assert "CALLED OUT to the Chapel post" in p.raven_text()
    p.raven_entry = None  # as the screen does after an accepted action


def test_a_tower_card_drawn_is_still_entered_behind_the_gate(table):
    t = table(p1={"square": "w07", "held": None, "accredited": False})
    p = OutragePresenter(t)
    tower = next(s for s, sq in p.board.squares.items() if sq.region == "wall" and sq.tower and s > "w08")
    steps = int(tower[1:]) - 7
    assert 2 <= steps <= 12, tower
    t.submit(Roll("p1", (1, steps - 1) if steps <= 7 else (steps - 6, 6)))
    t.submit(p.move_to(tower))
    assert t.view(PUBLIC)["phase"] == "draw-tower"
    assert [b.intent for b in p.buttons()][:2] == ["app-draw", "physical-draw"]
    assert next(b for b in p.buttons() if b.intent == "physical-draw").seat == "p1"


def test_teams_show_on_every_strip_in_words_and_the_end_names_the_winning_team(tmp_path):
    """Teams (RULINGS S-02): each strip names its team by glyph and colour name, with the
    team-mates; the end screen's notes give each team's players and score, then the
    winning team, above the book's tie-breaks."""
    from companion import Journal, Table
    from companion.ui.presenters.end import EndModel

    seats = [dict(s, faction=("red", "blue")[i % 2]) for i, s in enumerate(SEATS)]
    options, position = heist()
    options["teams"] = True
    position["pieces"]["p1"].update(square="cradle", held=None, coin=True)
    position["jewels"]["orb"] = "p1"
    position["mint"] = 4
    t = Table.create(Journal.open(tmp_path / "j.sqlite3"), game_id="outrage", seats=seats, options=options,
                     seed=1, position=position)
    p = OutragePresenter(t)
    ann, bob = p.strips()[:2]
    assert ann.status.startswith("team ♜ Red, with Cat and Eve · ")
    assert bob.status.startswith("team ♛ Blue, with Dan and Fay · ")
    escape = next(b.action for b in p.buttons() if b.label.startswith("➜ Pay the ferryman"))
    t.submit(escape)
    assert t.outcome is not None and t.outcome.winner == "red"
    notes = p.end_notes()
    assert notes[:3] == ["Team ♜ Red (Ann, Cat and Eve): 2 — escaped with Orb",
                         "Team ♛ Blue (Bob, Dan and Fay): 0 — no jewel escaped",
                         "Team ♜ Red wins together."]
    assert any(n.startswith("Tie-breaks") for n in notes)
    end = EndModel("outrage", t.outcome, {s["id"]: s["name"] for s in seats}, words=p.end_words(),
                   factions={s["id"]: s["faction"] for s in seats})
    assert end.headline == "♜ Ann, Cat and Eve win"
    # Without teams there are no team words anywhere.
    solo = OutragePresenter(Table.create(Journal.open(tmp_path / "k.sqlite3"), game_id="outrage", seats=SEATS,
                                         options=heist()[0], seed=1, position=heist()[1]))
    assert not any("team" in s.status for s in solo.strips()) and solo.team_notes() == []


def test_a_swap_is_done_at_the_table_each_giver_saying_behind_the_gate_which_card_was_taken(table):
    """RULINGS R-10: Ann lands on "Swap a Tower card" and names Bob; each takes a card face
    down from the other's hand; each says, behind their own gate, which of their own
    cards was taken (or the app picks blind); the shared screen never names them."""
    from rules.outrage.actions import Give

    t = table(p1={"square": "w72", "held": None, "cards": 2}, p2={"cards": 2})
    p = OutragePresenter(t)
    ann, bob = (list(t.private_view(s)["hands"][s]["cards"]) for s in ("p1", "p2"))
    t.submit(Roll("p1", (1, 2)))
    t.submit(p.move_to("w75"))
    t.submit(next(b.action for b in p.buttons() if b.action is not None and getattr(b.action, "option", "") == "p2"))
    assert t.view(PUBLIC)["phase"] == "swap"
    assert "Ann and Bob each take a Tower card face down" in p.prompt_line()
    labels = [b.label for b in p.buttons()]
    assert labels == ["▤ Ann: which of your cards did Bob take?", "⚄ The app picks the card Bob takes from Ann (blind)",
                      "▤ Bob: which of your cards did Ann take?", "⚄ The app picks the card Ann takes from Bob (blind)"]
    assert not any(p.card_name(c) in " ".join(labels + [p.prompt_line()]) for c in ann + bob)
    # Bob's page offers Bob's own cards only, in words.
    choices = [c for sec in p.hand_page("p2") for c in sec.choices]
    assert {c.action for c in choices} <= {Give("p2", c) for c in bob} and choices
    assert all(c.label.startswith("Ann took my ") for c in choices)
    t.submit(choices[0].action)
    given = choices[0].action.card
    assert given in t.private_view("p1")["hands"]["p1"]["cards"]
    assert any(f"You took Bob's {p.card_name(given)}" in line.text for sec in p.hand_page("p1") for line in sec.lines)
    # Ann's side by the app's blind pick; then the turn goes on.
    app_pick = next(b.action for b in p.buttons() if b.label.startswith("⚄ The app picks"))
    assert app_pick == Give("p1")
    t.submit(app_pick)
    assert t.view(PUBLIC)["phase"] != "swap"
    assert len(t.private_view("p2")["hands"]["p2"]["cards"]) == 2
    public_log = " ".join(x["text"] for x in t.view(PUBLIC)["log"])
    assert "has taken a Tower card from Bob's hand" in public_log and p.card_name(given) not in public_log


def test_the_dice_tray_counts_the_doubles_of_the_turn(table):
    t = table(p1={"square": "w10", "held": None})
    p = OutragePresenter(t)
    t.submit(Roll("p1", (2, 2)))
    assert "Last throw 2 + 2 = 4 · doubles this turn: 1 of 3 (the third goes to the Bloody Tower)" in p.dice_line()


def test_the_queens_birthday_card_says_what_the_devices_date_makes_of_it(tmp_path):
    """RULINGS R-05: the app reads the date at setup (the wizard says so) and the card,
    shown large to be read aloud, says whether it is 21 April."""
    from companion import Journal, Table
    from companion.ui.games.outrage.presenter import setup_words
    from rules import Draw
    from rules.outrage.cards import RAVEN

    card = next(c.id for c in RAVEN.values() if c.kind == "birthday")
    for today, words in ((True, "everyone takes two Tower cards"), (False, "everyone takes one Tower card")):
        options, position = heist()
        options["birthday_today"] = today
        position["pieces"]["p1"].update(square="i0-05", held=None)
        journal = Journal.open(tmp_path / f"{today}.sqlite3")
        t = Table.create(journal, game_id="outrage", seats=SEATS, options=options, seed=3, position=position)
        p = OutragePresenter(t)
        t.submit(Roll("p1", (1, 2)))
        t.submit(MoveTo("p1", "i0-08"))
        t.submit(Draw("p1", "raven", card))
        assert "BIRTHDAY" in p.raven_text() and words in p.raven_text() and "21 April" in p.raven_text()
        t.close()
        journal.close()
    assert setup_words(True, "checked")[0].startswith("Today is 21 April")
    assert setup_words(False, "checked")[0].startswith("Today is not 21 April")


def test_a_strip_shows_the_jewels_a_seat_has_escaped_with(tmp_path):
    from companion import Journal, Table

    options, position = heist()
    position["pieces"]["p2"]["escaped"] = ["sceptre"]
    position["jewels"]["sceptre"] = "escaped"
    journal = Journal.open(tmp_path / "j.sqlite3")
    t = Table.create(journal, game_id="outrage", seats=SEATS, options=options, seed=3, position=position)
    bob = OutragePresenter(t).strips()[1]
    assert "escaped with Sceptre" in bob.status, bob.status
    t.close()
    journal.close()

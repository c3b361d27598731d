"""Issue 32 item 14, in a real browser (Debian's Chromium, Playwright) at a phone's size:
every seed game's phone pages speak the game, not its ids. At a moment a seat must draw a
card from the table's deck, each seat's page is read as its player reads it: no seat,
faction or card id, no raw tree of the seat's view ("missions › yours › cards"), no
rulebook section tag ("[THE DICE]", "(5.2.5.1)") and no ruling code; the cards the seat
holds read as the game's components do (their names, their text on a tap); and the
drawing seat is told plainly what to do ("draw …, then enter it here")."""
from __future__ import annotations

import os
import re

import pytest

from companion.ui.phones_link import choices_of
from companion.web.seatview import seat_payload

from .test_browser import ARGS, CHROMIUM, PHONE, WAIT_MS, _browser, _shot
from .test_phone_draws import GAMES, at_a_draw, own_cards

# What a player never reads: a referee's citations and the shape of the engine's data.
SECTION_TAG = re.compile(r"\[[A-Z][A-Z0-9 '’&,./-]*\]|\(\d+(?:\.\d+)+\)|RULINGS|\b[A-Z]{1,3}-\d{1,3}\b")
PLIES = int(os.environ.get("TC_PHONE_PLIES", "40"))  # longer runs: TC_PHONE_PLIES=400
RAW_TREE_WORDS = ("yours", "cards", "hands", "missions", "sides", "special forces", "count")


def _ids(t, seat: str) -> set[str]:
    """The ids a page could leak: every seat's and faction's, and the game's own ids for its
    pieces that are written as ids (a hyphen, an underscore or a digit in them:
    "crossbow-3", "money-laundry", "gains-01"), the seat's own cards above all."""
    names = t.game.names(dict(t.state.options))
    pieces = {i for i in names if re.search(r"[-_\d]", i) and names[i] != i}
    return ({s["id"] for s in t.seats} | {s["faction"] for s in t.seats if s.get("faction")}
            | pieces | set(own_cards(t, seat)))


def _leaks(text: str, ids: set[str]) -> list[str]:
    return sorted(i for i in ids if re.search(r"(?<![\w-])" + re.escape(i) + r"(?![\w-])", text))


@pytest.mark.parametrize("game_id", GAMES)
def test_every_games_phone_page_speaks_the_game_not_its_ids(game_id: str) -> None:
    sync_api = _browser()
    from companion.web.server import PhoneServer

    t, p, drawing = at_a_draw(game_id)
    server = PhoneServer(t, extras=p.physical_draws, texts=p.card_texts,
                         words=lambda s: choices_of(p, t, s), voice=p)
    server.start()
    try:
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            try:
                for seat in (s["id"] for s in t.seats):
                    ctx = browser.new_context(**PHONE)
                    page = ctx.new_page()
                    page.goto(server.url_for(seat))
                    page.locator("#link.up").wait_for(timeout=WAIT_MS)
                    page.locator("#hand li").first.wait_for(timeout=WAIT_MS)  # the first state is shown
                    page.locator("#log li").first.wait_for(timeout=WAIT_MS)
                    page.screenshot(path=str(_shot(f"words-{game_id}-{seat}.png")), full_page=True)
                    text = page.locator("main").inner_text()
                    where = f"{game_id}, {seat}'s phone:\n{text}"
                    assert not _leaks(text, _ids(t, seat)), f"ids {_leaks(text, _ids(t, seat))} on {where}"
                    assert not SECTION_TAG.search(text), f"{SECTION_TAG.search(text).group(0)!r} on {where}"
                    # No raw tree: no line of the page is one of the view's keys.
                    raw = [ln for ln in text.splitlines() if ln.strip().lower() in RAW_TREE_WORDS]
                    assert not raw and page.locator("main dl").count() == 0, f"a raw tree ({raw}) on {where}"
                    # The seat's cards as its components read, each one's text on a tap.
                    mine = {c: (name, rule) for c, name, rule in p.card_texts(seat)}
                    assert len(mine) == len(own_cards(t, seat))
                    hand = page.locator("#hand li")
                    for name, rule in mine.values():
                        card = hand.filter(has_text=name).first
                        assert card.is_visible(), f"{name} is not in the hand on {where}"
                    if mine:
                        name, rule = next(iter(mine.values()))
                        card = hand.filter(has_text=name).first
                        assert not card.locator(".text").is_visible()
                        card.locator("summary").tap()
                        card.locator(".text").wait_for(timeout=WAIT_MS)
                        assert rule.split("\n")[0][:40] in card.inner_text()
                    # What to do next, plainly: the drawing seat draws and enters the card.
                    now = page.locator("#must").inner_text()
                    if seat == drawing:
                        assert re.search(r"^Draw .+ from the .*deck, then enter (it|them) here\.$|: draw a card from the deck, "
                                         r"then enter it here\.$", now), now
                        assert "Nothing to do now" not in page.locator("#actions").inner_text()
                    else:
                        assert now.startswith("Waiting for ") or now == "Nothing to do now.", now
                    ctx.close()
            finally:
                browser.close()
    finally:
        server.stop()


def test_the_payload_words_the_log_and_the_next_step_from_the_presenter() -> None:
    """Without the browser: the log lines a page gets are the presenter's words (no section
    tag), and without a presenter the page still gets the engine's lines (nothing lost)."""
    t, p, seat = at_a_draw("against_all_tyrants")
    plain = seat_payload(t, seat, p.physical_draws, p.card_texts)
    spoken = seat_payload(t, seat, p.physical_draws, p.card_texts, voice=p)
    assert len(plain["log"]) == len(spoken["log"]) > 0
    assert any(SECTION_TAG.search(line) for line in plain["log"])       # the engine cites sections
    assert not any(SECTION_TAG.search(line) for line in spoken["log"])  # the phone does not
    assert spoken["next"].endswith("then enter it here.") and spoken["hand_title"] == "Your hand"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_words_a_phone_gets_in_a_game_name_no_id(game_id: str) -> None:
    """Over the first PLIES plies of a random game (the app's dice and deck for chance), every
    seat's page words — what to do next, its secrets, its cards, its buttons, whom it waits
    for, its last log lines — name no seat, faction or card id and cite no section."""
    import random

    from rules.core import DrawRequest, RollRequest

    from companion import Journal, Table

    from ..table_helpers import seats_for
    from .phone_games import presenter_for

    t = Table.create(Journal.open(":memory:"), game_id=game_id, seats=seats_for(game_id), seed=4)
    p, pick = presenter_for(t), random.Random(4)
    for _ in range(PLIES):
        if t.is_over():
            break
        for seat in (s["id"] for s in t.seats):
            pl = seat_payload(t, seat, p.physical_draws, p.card_texts, lambda s: choices_of(p, t, s), voice=p)
            words = [pl["next"], pl["hand_title"], *pl["secrets"], *pl["log"][-3:], *pl["must"]["waiting_for"],
                     *(c["name"] for c in pl["hand"]), *(a["label"] for a in pl["actions"])]
            text = "\n".join(words)
            assert not _leaks(text, _ids(t, seat)), f"{game_id} ply {t.ply}, {seat}: ids {_leaks(text, _ids(t, seat))} in {words}"
            assert not SECTION_TAG.search(text), f"{game_id} ply {t.ply}, {seat}: {SECTION_TAG.search(text).group(0)!r}"
            assert bool(pl["next"]) == (pl["must"]["now"]), f"{game_id} ply {t.ply}, {seat}: next step {pl['next']!r}"
        if any(isinstance(w, (RollRequest, DrawRequest)) for w in t.prompt.waits.values()):
            t.roll_for_me()
        else:
            acts = [a for a in t.legal_actions() if not a.chance]
            t.submit(pick.choice(acts)) if acts else t.roll_for_me()

"""Building Against All Tyrants positions for rule tests: a game past setup, cards put into
play from their owner's own zones (so cards stay conserved), a turn's phase entered."""
from __future__ import annotations

from rules.core import Seat
from rules.against_all_tyrants import GAME, Mulligan, Piece

SEATS = [Seat("att", "attacker", "Ann"), Seat("def", "defender", "Bob")]
ATT, DEF = "att", "def"


def fresh(options=None, seed=1):
    """A game at turn 1 (the Defender's draw), setup done with the app's deck, no mulligans."""
    s = GAME.new(SEATS, options or {}, seed)
    while s.phase in ("deal", "mulligan", "redraw", "infiltrate"):
        if s.phase == "mulligan":
            GAME.push(s, Mulligan(s.active, ()))
        elif s.phase == "infiltrate":
            GAME.push(s, next(iter(GAME.legal_actions(s))))
        else:
            GAME.push(s, GAME.sample(s))
    return s


def take(s, seat, card):
    """An instance of ``card`` from ``seat``'s deck, hand or Special Forces (removed there)."""
    side = s.sides[seat]
    for zone in (side.deck.cards, side.hand.cards, side.special_forces, side.objectives):
        for c in zone:
            if c.partition(":")[2].rpartition("#")[0] == card:
                zone.remove(c)
                return c
    raise LookupError(f"no {card} left for {seat}")


def put(s, seat, card, theater=None, **tokens):
    """Put a copy of ``card`` into play for ``seat`` (its only theater unless given)."""
    inst = take(s, seat, card)
    c = s.card(inst)
    if theater is None:
        theater = c.theaters[0] if c.theaters else s.base(seat).theater
    s.pieces[inst] = Piece(inst, c.id, seat, theater, {k: v for k, v in tokens.items() if v})
    s.changed()
    return inst


def to_hand(s, seat, card):
    inst = take(s, seat, card)
    s.sides[seat].hand.add(inst)
    s.changed()
    return inst


def clear_board(s):
    """Remove every piece but the bases (to the owners' discard piles)."""
    for p in list(s.pieces.values()):
        if s.card(p.id).kind != "base":
            del s.pieces[p.id]
            s.sides[p.owner].discard.append(p.id)
    s.changed()


def combat(s, seat):
    """Enter ``seat``'s phase 2: every unit and the base in play may act."""
    s.active = seat
    s.phase = "combat"
    s.pending.clear()
    s.repeat.clear()
    s.command.clear()
    s.instructed.clear()
    s.ready[:] = [p.id for p in s.pieces.values() if p.owner == seat and s.card(p.id).kind in ("unit", "objective", "base")]
    s.changed()


def deploy(s, seat):
    s.active = seat
    s.phase = "deploy"
    s.plays = 0
    s.pending.clear()
    s.changed()


def codes(s, action):
    return [v.code for v in GAME.check(s, action)]


def cloned_deck(subfaction, prefix, faction="Cloned (test)", extra=(), swap=None, steps=True):
    """Options for a Defender/Attacker deck cloned from the Freedom Fighters example with
    another subfaction (cards re-labelled, ids prefixed), plus ``extra`` cards (data)
    replacing as many Rebel Cells in the main deck. ``steps=False``: the cards as a table
    types them in the editor, with no steps (the table resolves every text). Returns
    (cards data, deck data)."""
    from rules.against_all_tyrants import example_decks, example_set

    ff = example_decks()["freedom-fighters"]
    cards = []
    for cid, c in example_set().cards.items():
        if c.subfaction == "Freedom Fighters":
            d = c.to_data()
            d.update(id=prefix + cid[3:], faction=faction, subfaction=subfaction)
            if not steps:
                d.pop("steps", None)
            cards.append(d)
    for d in extra:
        cards.append(dict(d, faction=faction, subfaction=subfaction))
    deck = ff.to_data()
    deck.update(name=f"{subfaction} (test)", faction=faction, subfaction=subfaction)
    for sec in ("bases", "special_forces", "main", "objectives"):
        deck[sec] = {prefix + k[3:]: v for k, v in deck[sec].items()}
    main = deck["main"]
    for d in extra:
        main[prefix + "rebel-cell"] -= 1
        main[d["id"]] = main.get(d["id"], 0) + 1
    if swap:
        swap(deck)
    return {"format": "against-all-tyrants/cards@1", "name": f"{subfaction} test cards", "cards": cards}, deck


TABLE_TEXT = "A text the table resolves (no steps: the app does not check it)."


def table_text(s, seat, card=None):
    """Start resolving, for ``seat``, a text the app does not carry out itself (no steps:
    RULINGS A-12's generic primitives), on ``card`` (default: the seat's base) — as an
    order of a table's own card typed without steps would be."""
    from rules.against_all_tyrants import Pending

    s.pending.insert(0, Pending("text", seat, card or s.base(seat).id, text=TABLE_TEXT))
    s.changed()


def table_typed_options():
    """Options where the Defender plays the Freedom Fighters' cards as a table typed them in
    the editor: the same names and texts, no steps (so the table resolves every text)."""
    cards, deck = cloned_deck("Freedom Fighters", "tb-", faction="Free Worlds (typed by the table)", steps=False)
    return {"cards": cards, "defender_deck": deck}

"""Dicetopia's setup (§3): the seats and options checked, the first player, the state laid
out, the factions dealt, the city rolled, three missions dealt and two kept."""
from __future__ import annotations

from typing import Any, Iterable, Iterator

from rules.core import (
    POOL, Deck, Die, DrawRequest, Hand, Prompt, Rng, Roll, RollRequest, Seat, Violation, CommitRequest, step,
)

from . import position as positions
from .actions import Keep
from .sections import R_SETUP
from .state import AGENT, BOARD_SLOTS, FACTION_CARDS, MISSIONS, UNUSED, DicetopiaState, seats_playing
from .tables import tables


def _dealt_next(state: DicetopiaState) -> str:
    """The seat dealt the next mission: the first in play order with fewer than three."""
    hands = state.hands
    for s in state.order:
        if len(hands[s].cards) < 3:
            return s
    raise StopIteration  # as next() of an empty search: never, since the deal ends at three each


# What each player who keeps is asked (one request for all: requests are values).
_KEEP = CommitRequest("keep", "keep two missions, discard one")


def _deal_key(state: DicetopiaState) -> tuple[str, tuple[str, ...]]:
    """What the deal's prompt depends on: the seat dealt next and who has kept already."""
    return _dealt_next(state), tuple(state.keeps)


class Setup:
    """Setup (§3): a part of :class:`~rules.dicetopia.game.Dicetopia`."""

    def check_setup(self, seats: list[Seat], options: dict[str, Any]) -> Iterator[Violation]:
        t = tables()
        ids = [s.id for s in seats]
        if options["first"] and options["first"] not in ids:
            yield Violation("bad-option", R_SETUP, f"The first player must be one of the seats ({', '.join(ids)}), not {options['first']!r}.")
        hoods = {h.id for h in t.hoods}
        for s in seats:
            if s.id in hoods:
                yield Violation("reserved-seat-id", R_SETUP, f"A seat may not be named like a neighbourhood ({s.id!r}).")
        if not options["deal_factions"]:
            chosen = [s.faction for s in seats]
            for f in sorted({f for f in chosen if chosen.count(f) > 1}):
                yield Violation("faction-taken", R_SETUP, f"Each player has their own faction: {t.factions[f].name} is chosen twice.")

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng, seed: int) -> DicetopiaState:
        t = tables()
        ids = [s.id for s in seats]
        first = options["first"] or ids[rng.below(len(ids))]
        k = ids.index(first)
        order = ids[k:] + ids[:k]
        n = len(ids)
        deck = Deck(MISSIONS, cards=list(t.missions), auto_reshuffle=False)
        deck.shuffle(rng)
        dealt = options["deal_factions"]
        fdeck = Deck(FACTION_CARDS, cards=list(t.factions) if dealt else [], auto_reshuffle=False)
        fdeck.shuffle(rng)
        # Dealt factions: no seat plays one until its card is dealt (the seats' own are ignored).
        faction = {s.id: "" if dealt else s.faction for s in seats}
        state = DicetopiaState(
            seats=seats_playing(seats, faction), options=options, seed=seed, rng=rng, order=order, faction=faction,
            city={h.id: [UNUSED] * len(h.spaces) for h in t.hoods},
            boards={s: [AGENT] * BOARD_SLOTS for s in ids}, deck=deck, hands={s: Hand(s) for s in ids},
            faction_deck=fdeck, flipped={s: False for s in ids},
        )
        state.phase = "deal-factions" if dealt else "roll"
        state.note(f"{state.seat_name(first)} is the first player; {n} players use {sum(t.space_counts(n))} spaces of the city "
                   f"and {3 * t.dice_per_colour(n)} dice. No Scenario card: the rulebook does not give their texts (RULINGS.md D-04).")
        return state

    def random_setup(self, rng: Rng) -> tuple[list[Seat], dict[str, Any]]:
        n = 2 + rng.below(3)
        factions = list(self.factions)
        rng.shuffle(factions)
        seats = [Seat(f"p{i + 1}", factions[i], f"Player {i + 1}") for i in range(n)]
        options = {"advanced": rng.below(3) == 0, "deal_factions": rng.below(4) == 0,
                   "relative_ties": rng.choice(("all", "none"))}
        return seats, options

    def default_seats(self) -> list[Seat]:
        return [Seat("p1", "banxa", "Player 1"), Seat("p2", "hollows", "Player 2")]

    def deck(self, state: DicetopiaState, name: str) -> Deck:
        return state.faction_deck if name == FACTION_CARDS else state.deck

    def position(self, state: DicetopiaState) -> dict[str, Any]:
        return positions.write(self, state)

    def from_position(self, seats: list[Seat], options: dict[str, Any], pos: dict[str, Any], rng: Rng, seed: int) -> DicetopiaState:
        return positions.read(self, seats, options, pos, rng, seed)

    @step("deal-factions", timed=False, rule=R_SETUP)
    def ask_deal_factions(self, state: DicetopiaState) -> Prompt:
        seat = next(s for s in state.order if not state.faction[s])
        return Prompt.single(seat, DrawRequest(FACTION_CARDS, f"setup: deal {state.seat_name(seat)} a faction card"))

    @step("roll", timed=False, rule=R_SETUP)
    def ask_roll(self, state: DicetopiaState) -> Prompt:
        n = len(state.t.spaces(len(state.order)))
        return Prompt.single(state.order[0], RollRequest((Die(6, POOL),) * n,
                             "setup: roll every die onto the city, space by space (each die's colour in ids)"))

    @step("deal", timed=False, rule=R_SETUP, depends=_deal_key)
    def ask_deal(self, state: DicetopiaState) -> Prompt:
        # §3 step 3: "deal 3 to each Player. They each get to keep two and discard one". A
        # player keeps as soon as its own three are dealt (behind the same gate as the deal),
        # or later: the next player is dealt meanwhile, and a journal whose keeping comes
        # after every deal (the older shape) replays as it was played (D-34).
        seat = _dealt_next(state)
        draw = DrawRequest(MISSIONS, f"setup: deal {state.seat_name(seat)} three missions")
        keeping = self._keeping(state, state.order[:state.order.index(seat)])
        return Prompt({seat: draw, **keeping}) if keeping else Prompt.single(seat, draw)

    @step("keep", timed=False, rule=R_SETUP)
    def ask_keep(self, state: DicetopiaState) -> Prompt:
        return Prompt(self._keeping(state, state.order))

    def _keeping(self, state: DicetopiaState, dealt: list[str]) -> dict[str, CommitRequest]:
        """The keep asked of each of the ``dealt`` seats that has not kept yet (the Centauri
        Bureau keeps all three: D-12)."""
        keeps, faction = state.keeps, state.faction
        return {s: _KEEP for s in dealt if s not in keeps and faction[s] != "centauri"}

    def _v_roll(self, state: DicetopiaState, action: Roll) -> Iterable[Violation]:
        return self._roll_violations(state, action) if state.phase == "roll" else ()

    def _v_keep(self, state: DicetopiaState, action: Keep) -> Iterable[Violation]:
        if action.discard in state.hands[action.seat].cards:
            return ()
        return (Violation("not-your-mission", R_SETUP, f"{state.seat_name(action.seat)}, discard one of the three missions you were dealt."),)

    def _roll_violations(self, state: DicetopiaState, action: Roll) -> Iterable[Violation]:
        # The common case first: as many ids as values, each colour as often as it should
        # be (so no other id either).
        t, ids = state.t, action.ids
        want = t.dice_per_colour(len(state.order))
        if len(ids) == len(action.values) == want * len(t.colours) and all(ids.count(c.id) == want for c in t.colours):
            return ()
        return tuple(self._roll_problems(state, action))

    def _roll_problems(self, state: DicetopiaState, action: Roll) -> Iterator[Violation]:
        t = state.t
        letters = {c.id for c in t.colours}
        who = state.seat_name(action.seat)
        if len(action.ids) != len(action.values) or any(i not in letters for i in action.ids):
            yield Violation("colours-missing", R_SETUP, f"{who}, give each die's colour (purple, teal or white), space by space.")
            return
        want = t.dice_per_colour(len(state.order))
        for c in t.colours:
            n = action.ids.count(c.id)
            if n != want:
                yield Violation("wrong-colour-count", R_SETUP, f"{who}, with {len(state.order)} players the city holds {want} {c.id} dice, not {n}.")

    def _keep(self, state: DicetopiaState, action: Keep) -> None:
        # The discard stays with its player, face down, until everyone has kept: "Shuffle
        # all leftover Mission Cards with the rest of the deck" comes after the keeping, so
        # a player dealt later is never dealt an earlier player's discard.
        state.keeps[action.seat] = action.discard
        state.note(f"{state.seat_name(action.seat)} has kept two missions.", action.seat)
        if state.phase == "keep":
            self._end_keeping(state)

    def _end_keeping(self, state: DicetopiaState) -> None:
        """Once every player is dealt: when everyone who keeps has kept (only keepers are
        asked, so a count says it), the leftover missions go back and the first turn starts."""
        if len(state.keeps) == len(self._keepers(state)):
            for s, card in state.keeps.items():
                state.hands[s].cards.remove(card)  # the cards' own lists, as draws do
                state.deck.cards.append(card)
            state.keeps = {}
            state.deck.shuffle(state.rng)
            state.note("The discarded missions are shuffled back into the deck.")
            self._start_turn(state, state.order[0])

    def _keepers(self, state: DicetopiaState) -> list[str]:
        return [s for s in state.order if state.faction[s] != "centauri"]

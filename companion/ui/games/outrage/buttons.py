"""Outrage!'s buttons on the shared screen, from what the engine waits for: a throw, a card
(the app's, or the table's entered), a move, a public choice, an attack, a hand's button
for every seat that may play a card (whichever it holds), and the three small dialogs
that replace them: the split seven's two steps, the square search (unchecked movement)
and the Raven card drawn from the table's own pack. A mixin of
:class:`~companion.ui.games.outrage.presenter.OutragePresenter`."""
from __future__ import annotations

from typing import Any

from rules import Draw, Roll
from rules.core import CommitRequest, DrawRequest
from rules.outrage.actions import Abandon, Attack, Challenge, Choose, Decline, Escape, Give, MoveTo, Split

from ...presenters.actions import ButtonSpec
from .words import CHOICE_WORDS, raven_title

# Phases where a card from the hand may be played (or tools laid, cards changed): the
# hand's button is offered in them to every seat holding cards (see buttons()).
HAND_PHASES = ("start", "prison", "accredit", "rack", "tea", "offer", "burgle-offer", "change-offer", "move", "surrender")


class Buttons:
    """What the table can tap now."""

    def buttons(self) -> list[ButtonSpec]:
        if self.is_over():
            return []
        p = self.table.prompt
        if p is None:
            return []
        v = self.view()
        legal = self.legal()
        if self.split_with:
            return self.split_buttons(legal)
        if self.search is not None:
            return self.search_buttons(legal)
        if self.raven_entry is not None:
            return self.raven_entry_buttons(legal)
        out: list[ButtonSpec] = []
        actor = sorted(p.actors)[0] if p.actors else ""
        moves = [a for a in legal if isinstance(a, MoveTo) and not a.disguise]
        unchecked = v["board"].get("movement") == "unchecked"
        if v["phase"] == "move" and unchecked:
            out.append(ButtonSpec("⚲ Find the square landed on…", intent="search", role="primary"))
        elif len(moves) <= 8:
            out += [ButtonSpec(f"→ {self.square_name(a.square)}", action=a, role="primary") for a in moves]
        if any(isinstance(a, Split) for a in legal):
            out.append(ButtonSpec("⚂ Split the seven with another player…", intent="split"))
        for a in legal:
            if isinstance(a, (Roll, Draw, MoveTo, Split)) or self._private(a):
                continue
            if isinstance(a, Attack):
                out.append(ButtonSpec(f"⚔ Attack {self.name(a.target)} (no throw this turn)", action=a))
            elif isinstance(a, Escape):
                out.append(ButtonSpec("➜ Pay the ferryman and escape", action=a, role="primary"))
            elif isinstance(a, Abandon):
                out.append(ButtonSpec("Abandon the burglary", action=a, role="quiet"))
            elif isinstance(a, Challenge):
                note = self.humanise(getattr(p.awaiting, "note", "") or "challenge")
                out.append(ButtonSpec(f"{note[:1].upper()}{note[1:]}: weapons kept back?", action=a))
            elif isinstance(a, Choose):
                label = CHOICE_WORDS.get(a.option) or self.humanise(a.option)
                out.append(ButtonSpec(label, action=a, role="primary" if a.option not in ("stay", "none") else "normal"))
            elif isinstance(a, Decline):
                out.append(ButtonSpec(self._decline_label(v["phase"]), action=a, role="quiet"))
        if isinstance(p.awaiting, DrawRequest):
            deck = "Raven" if p.awaiting.deck == "raven" else "Tower"
            out.insert(0, ButtonSpec(f"⚄ App's {deck} card", intent="app-draw", role="primary"))
            # A Raven card is read out: the table enters it here, in the open; a Tower
            # card is hidden: its drawer enters it behind the gate.
            out.insert(1, ButtonSpec("⚲ Enter the Raven card drawn from the table's pack…", intent="raven-entry")
                       if p.awaiting.deck == "raven" else
                       ButtonSpec(f"Enter the {deck} card drawn…", intent="physical-draw", seat=actor))
            if v["phase"] == "deal":
                left = 3 * len(v["order"]) - sum(int(x.get("cards", 0)) for x in v["pieces"].values())
                if left > 1:
                    out.insert(0, ButtonSpec(f"⚄ Deal all {left} cards from the app's pack", intent="app-draw",
                                             count=left, role="primary", span="full"))
        if v["phase"] == "swap":
            # Each giver says which of their own cards was taken (behind their gate); the
            # app's blind pick is the fallback (RULINGS R-10).
            a, b = v["swap"]["seats"]
            for seat in v["swap"]["waiting"]:
                taker = self.name(b if seat == a else a)
                out.append(ButtonSpec(f"▤ {self.name(seat)}: which of your cards did {taker} take?", intent="hand",
                                      seat=seat, role="primary"))
                out.append(ButtonSpec(f"⚄ The app picks the card {taker} takes from {self.name(seat)} (blind)",
                                      action=Give(seat)))
            return out
        for seat in sorted(p.actors):
            if isinstance(p.awaiting, CommitRequest):
                if seat not in (v.get("attack") or {}).get("committed", []):
                    out.append(ButtonSpec(f"▤ {self.name(seat)}: lay weapons face down", intent="hand", seat=seat, role="primary"))
                continue
            # Offered whenever a card could be played here and the seat holds any card,
            # whichever it holds: a button only for a seat holding a Tower Pass would tell
            # the table it holds one. Behind the gate, the hand shows what can be done.
            mine = [a for a in legal if self._private(a) and a.seat == seat]
            holds = int(v["pieces"][seat].get("cards", 0)) > 0
            if (v["phase"] in HAND_PHASES and holds) or getattr(p.awaiting, "private", ()) or mine:
                out.append(ButtonSpec(f"▤ {self.name(seat)}'s hand — {self._hand_offer(v, p.awaiting)}", intent="hand", seat=seat))
        return out

    def _hand_offer(self, v: dict[str, Any], awaiting: Any) -> str:
        """What the hand may do in this phase (from the phase, never from the hand)."""
        phase = v["phase"]
        if phase == "start":
            return "play a card, or change cards instead of a turn"
        if phase == "burgle-offer":
            return "declare a burglary"
        if phase == "change-offer":
            return "change cards"
        if phase == "surrender":
            return "surrender your weapons (shown to all)"
        if phase == "offer":
            return self.humanise(getattr(awaiting, "note", "") or "play a card")
        return "play a card"

    def _decline_label(self, phase: str) -> str:
        return {"burgle-offer": "No burglary", "offer": "Don't play a card", "change-offer": "Don't change",
                "challenge": "No challenge"}.get(phase, "No")

    # ---------------------------------------------- the split seven, two steps

    def split_partners(self, legal: list[Any] | None = None) -> list[str]:
        seen: list[str] = []
        for a in legal if legal is not None else self.legal():
            if isinstance(a, Split) and a.other not in seen:
                seen.append(a.other)
        return seen

    def split_buttons(self, legal: list[Any]) -> list[ButtonSpec]:
        """Step 1: with whom. Step 2: how the seven is shared."""
        splits = [a for a in legal if isinstance(a, Split)]
        if not splits:
            self.split_with = ""
            return self.buttons()
        thrower = splits[0].seat
        if self.split_with == "?":
            out = [ButtonSpec("Split the seven — step 1 of 2: with whom?", intent="noop", role="quiet", span="full")]
            out += [ButtonSpec(f"{self.who(o)}", intent="split-with", seat=o, role="primary") for o in self.split_partners(legal)]
        else:
            other = self.split_with
            out = [ButtonSpec(f"Split the seven — step 2 of 2: {self.name(thrower)} and {self.name(other)}", intent="noop", role="quiet", span="full")]
            # ``steps`` is the thrower's share; the other player moves the rest of the seven.
            for a in sorted((a for a in splits if a.other == other), key=lambda a: -a.steps):
                out.append(ButtonSpec(f"{self.name(thrower)} moves {a.steps} · {self.name(other)} moves {7 - a.steps}", action=a, role="primary"))
        out.append(ButtonSpec("← Back", intent="split-back", role="quiet"))
        return out

    def search_buttons(self, legal: list[Any]) -> list[ButtonSpec]:
        moves = {a.square: a for a in legal if isinstance(a, MoveTo) and not a.disguise}
        if not moves:
            self.search = None
            return self.buttons()
        out = []
        text = self.search or ""
        for sid in self.search_results(text):
            a = moves.get(sid)
            if a is not None:
                out.append(ButtonSpec(self.search_label(sid), action=a, role="primary"))
        n = self.search_count(text)
        if not out:
            out.append(ButtonSpec("Type part of a square's name or kind above (tower, post, Mint, Raven…)" if not text
                                  else "No square matches", intent="noop", role="quiet", span="full"))
        elif n > len(out):
            out.insert(0, ButtonSpec(f"{len(out)} of {n} squares shown: add a word (row 5, circled…)",
                                     intent="noop", role="quiet", span="full"))
        out.append(ButtonSpec("← Back", intent="search-back", role="quiet"))
        return out

    # ------------------------- a Raven card from the table's pack, in the open

    def raven_cards(self, seat: str) -> list[tuple[str, str, Draw]]:
        """Every Raven card's words once (copies alike), as (title, words, the Draw that
        enters it): the table's physical pack has them all, face down and unseen."""
        return [(raven_title(text), text, action) for text, action in self.physical_draws(seat)]

    def raven_matches(self, text: str, seat: str) -> list[tuple[str, str, Draw]]:
        """The Raven cards whose words hold every word of ``text`` (any order, any case)."""
        words = text.casefold().split()
        return [c for c in self.raven_cards(seat) if all(w in c[1].casefold() for w in words)]

    def raven_entry_buttons(self, legal: list[Any]) -> list[ButtonSpec]:
        """The Raven card the table drew: a list of every card, narrowed by the search."""
        draws = [a for a in legal if isinstance(a, Draw) and a.deck == "raven"]
        if not draws:
            self.raven_entry = None
            return self.buttons()
        seat = draws[0].seat
        found = self.raven_matches(self.raven_entry or "", seat)
        total = len(self.raven_cards(seat))
        head = (f"{self.name(seat)}'s Raven card: tap the card drawn" if len(found) == total else
                f"{len(found)} of {total} Raven cards match" if found else "No Raven card has those words")
        out = [ButtonSpec(head, intent="noop", role="quiet", span="full")]
        out += [ButtonSpec(title, action=action, role="primary", span="full") for title, _words, action in found]
        out.append(ButtonSpec("← Back", intent="raven-back", role="quiet"))
        return out

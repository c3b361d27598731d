"""Outrage!'s moments and its end: the attack's reveal, a jewel stolen, a release from
prison or a piece sent there, an escape (each from two PUBLIC views, so nothing hidden
can show), and the end screen's notes (the endgame chosen, the tie-breaks, the teams).
A mixin of :class:`~companion.ui.games.outrage.presenter.OutragePresenter`."""
from __future__ import annotations

from typing import Any

from ...presenters.actions import Moment
from .words import FACTIONS, HELD_NAMES, SECTION, and_names


class Moments:
    """What is shown large when something happens, and how the game was decided."""

    def moment(self, before: dict[str, Any], after: dict[str, Any]) -> Moment | None:
        """The attack's reveal, a burglary made, a release from prison, an escape, a Raven
        card to read aloud: from two public views, so nothing hidden can show."""
        ply0 = int(before.get("ply", 0))
        news = [x["text"] for x in after.get("log", []) if int(x.get("ply", -1)) >= ply0]
        words = [SECTION.sub("", self.humanise(t)) for t in news]
        revealed = next((w for w in words if w.startswith("The cards are revealed")), "")
        if revealed:
            verdict = next((w for w in words if " against " in w), "")
            return Moment("⚔ " + (verdict or "The weapons are revealed"), revealed, "info")
        p0, p1 = before.get("pieces", {}), after.get("pieces", {})
        for sid, p in p1.items():
            was = p0.get(sid, {})
            if len(p.get("escaped", ())) > len(was.get("escaped", ())):
                return Moment(f"➜ {self.name(sid)} escapes by the ferry",
                              "With " + ", ".join(self.jewel_name(j) for j in p["escaped"]) + ".", "good", self.faction_of(sid))
            if len(p.get("carrying", ())) > len(was.get("carrying", ())) and was.get("burglary"):
                j = p["carrying"][-1]
                return Moment(f"♦ {self.name(sid)} steals the {self.jewel_name(j)}", "The burglary succeeds.", "good", self.faction_of(sid))
            if was.get("held") and not p.get("held"):
                place = HELD_NAMES.get(was["held"].get("place", ""), "prison")
                return Moment(f"✔ {self.name(sid)} is out of the {place}" if not place.startswith("the ") else f"✔ {self.name(sid)} is off {place}",
                              "", "good", self.faction_of(sid))
            if p.get("held") and not was.get("held"):
                place = HELD_NAMES.get(p["held"].get("place", ""), "prison")
                return Moment(f"⛓ {self.name(sid)} goes to the {place}" if not place.startswith("the ") else f"⛓ {self.name(sid)} goes to {place}",
                              "", "bad", self.faction_of(sid))
        return None  # a Raven card has its own large card over the board (the screen's)

    def end_words(self) -> dict[str, str]:
        """Names for the ids in the scores' parts (the jewels), for the shared end screen."""
        return dict(self.board.jewel_name)

    def end_notes(self) -> list[str]:
        """How the game was decided, in the book's order (BEFORE PLAY BEGINS; RULINGS E-01)."""
        v = self.view()
        values = ", ".join(f"{self.jewel_name(j)} {self.board.jewel_value[j]}" for j in self.board.jewels)
        out = [f"Scores: the values of the jewels each player escaped with ({values})."]
        if v.get("endgame") == "first-escape":
            out.append("Endgame chosen: the first player to escape with a jewel wins.")
        else:
            out.append("Endgame chosen: play until every jewel is out of the Tower; the highest score wins.")
        out.append("Tie-breaks: the highest score; then the fewer jewels; then whoever holds St Edward's Crown; "
                   "else the win is shared.")
        return self.team_notes() + out

    def team_notes(self) -> list[str]:
        """With teams, the teams' outcome first: each team's players and the jewels they
        escaped with together, and which team won (RULINGS S-02); none without teams."""
        if not self.teams():
            return []
        o = self.table.outcome
        scores = getattr(o, "scores", {}) or {}
        factions = list(dict.fromkeys(s["faction"] for s in self.seats()))
        factions.sort(key=lambda f: -int(getattr(scores.get(f), "total", 0)))
        out = []
        for f in factions:
            sc = scores.get(f)
            total = int(getattr(sc, "total", 0))
            jewels = ", ".join(self.jewel_name(j) for j in (getattr(sc, "breakdown", {}) or {}))
            names = and_names([self.name(s) for s in self.team_members(f)])
            out.append(f"{self.team_name(f)[:1].upper()}{self.team_name(f)[1:]} ({names}): {total}"
                       + (f" — escaped with {jewels}" if jewels else " — no jewel escaped"))
        winner = getattr(o, "winner", None) if o is not None else None
        if winner in FACTIONS and winner in factions:
            out.append(f"{self.team_name(winner)[:1].upper()}{self.team_name(winner)[1:]} wins together.")
        elif o is not None:
            out.append("No team wins outright: " + ("the teams tie." if any(int(getattr(x, "total", 0)) for x in scores.values())
                                                   else "no jewel escaped."))
        return out

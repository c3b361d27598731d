"""Against All Tyrants at the table, without Kivy: what the table screen shows (the two
theaters with their cards, leaders, bases, the escalation scale, the phase tracker) and
which Table call a tap becomes.

Everything on the shared screen comes from the Table's PUBLIC view and the engine's legal
actions for the public prompt. A seat's hand and Special Forces are read with
``table.private_view(seat)`` only by :meth:`AatPresenter.hand_page` and
:meth:`physical_draw_page`, which the screen calls from inside the privacy gate's builder,
after the hold. Choices that name a hidden card (play, mulligan, infiltrate, discard,
place from hand) are made there, never on the public action panel.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules import Draw, RulesError, facts
from rules.core import DrawRequest
from rules.against_all_tyrants import (
    Attack, Clear, Damage, Delegate, Discard, Done, EndPhase, Heal, Incident, Infiltrate, Instruct, Move, MoveTheater, Mulligan,
    Order, Place, PlaceObjective, Play, Score, Skip, Token,
)
from rules.against_all_tyrants.state import cards_of, deck_of, instances
from rules.against_all_tyrants.steps import TABLE_RESOLVES

from ...presenters.actions import ButtonSpec, GateChoice, GateLine, GateSection, Moment
from ...presenters.gate import GatePick
from ...presenters.base import GamePresenter

ROLE = {f.id: f for f in facts.factions("against_all_tyrants").values()}
THEATERS = (("space", "Space"), ("planetside", "Planetside"))
THEATER_NAME = dict(THEATERS)
# A token is shown as its glyph and its count, and named in full when a card is tapped:
# never a colour alone.
TOKEN_GLYPH = {"Damage": "✖", "Shield": "◈", "Stealth": "◐", "Charge": "⚡", "Computation": "⚙", "Funds": "♦",
               "Disruption": "⊘", "Mark": "◎", "Objective": "⚑"}
PHASES = (("draw", "1 Draw & deploy"), ("combat", "2 Combat"), ("end", "3 End of turn"))
SETUP_PHASES = ("deal", "mulligan", "redraw", "infiltrate")
# Actions that name a card a seat hides (its hand, its Special Forces): chosen behind the gate.
PRIVATE = (Mulligan, Infiltrate, Play, Discard, Place)
INCIDENTS_PER_LEVEL = 4


@dataclass(frozen=True)
class CardChip:
    """One card in play as the table screen draws it."""

    id: str
    title: str
    kind: str
    owner: str
    role: str  # attacker / defender: the owner's colour and glyph
    glyph: str
    stats: str  # "⚔3 ♥2/4" (attack, health left of health)
    badges: str  # "◈2 ◎1" tokens other than Damage, glyph and count
    acts: bool  # has an action left in phase 2
    selected: bool = False
    target: bool = False

    @property
    def text(self) -> str:
        mark = "▶ " if self.selected else ("▸ " if self.acts else "")
        return "\n".join(x for x in (f"{mark}{self.glyph} {self.title}", self.stats, self.badges) if x)


@dataclass(frozen=True)
class Column:
    theater: str
    title: str
    chips: tuple[CardChip, ...]


@dataclass
class AatPresenter(GamePresenter):
    table: Any
    selected: str = ""  # the piece chosen to act in phase 2 (public: it is on the table)
    mode: str = ""  # the primitive being chosen while a card's text is resolved ("damage", "token"…)
    chosen: str = ""  # the card tapped while a text is resolved: the hub's damage slot hits it
    _legal: tuple[Any, list[Any]] = field(default=(None, []), init=False, repr=False)

    # ----------------------------------------------------------- reading

    game_id = "against_all_tyrants"

    def is_over(self) -> bool:
        return bool(self.table.is_over())

    def legal(self) -> list[Any]:
        """The engine's legal actions for the current prompt (listed once per ply)."""
        # Keyed by the Table's history version, not the ply: an undo then another action
        # reaches the same ply in a different state.
        key = (self.table.ply, getattr(self.table, "_version", None))
        if self._legal[0] != key:
            self._legal = (key, list(self.table.legal_actions()))
        return self._legal[1]

    def actor(self) -> str:
        actors = self.view()["prompt"].get("actors") or []
        return actors[0] if actors else ""

    # ----------------------------------------------------------- words

    def _options(self) -> dict[str, Any]:
        opts = getattr(self.table, "options", None)
        return opts if isinstance(opts, dict) else {}

    def card_title(self, instance_or_id: str) -> str:
        """A card's name from an instance id ("D:ff-rebel-cell#2") or a card id."""
        card = self.card(instance_or_id)
        return card.title if card is not None else instance_or_id

    def card(self, instance_or_id: str) -> Any:
        cid = instance_or_id.partition(":")[2].rpartition("#")[0] if ":" in instance_or_id else instance_or_id
        return cards_of(self._options()).cards.get(cid)

    def words(self) -> dict[str, str]:
        """Every card instance of both decks by its card's title, each seat's deck, the
        theaters and the action ids the engine's sentences quote."""
        words = {}
        opts = self._options()
        lib = cards_of(opts)
        for role in ROLE:
            try:
                deck = deck_of(opts, role)
            except (KeyError, RulesError):  # no such example deck, or a deck file the rules refuse
                continue
            for ids in instances(deck, role).values():
                for inst in ids:
                    card = lib.cards.get(inst.partition(":")[2].rpartition("#")[0])
                    if card is not None:
                        words[inst] = card.title
            for s in self.seats():
                words[f"deck-{s['id']}"] = f"{s['name']}'s deck"
        words.update({"space": "Space", "planetside": "Planetside", "end_phase": "end the phase",
                      "place_objective": "place an objective unit", "move_theater": "move theater"})
        return words

    # ----------------------------------------------------------- the board

    def chip(self, p: dict[str, Any], v: dict[str, Any]) -> CardChip:
        role = self.faction_of(p["owner"])
        tokens = dict(p.get("tokens") or {})
        damage = tokens.pop("Damage", 0)
        if p["kind"] == "base":
            stats = f"♥ {max(0, p['health'] - damage)} of {p['health']} HP"
        elif p["kind"] == "leader":
            stats = f"♥{max(0, p['health'] - damage)}/{p['health']}"
        else:
            stats = f"⚔{p['attack']}  ♥{max(0, p['health'] - damage)}/{p['health']}"
        if damage:
            stats += f"  ✖{damage}"
        badges = " ".join(f"{TOKEN_GLYPH.get(t, '•')}{n}" for t, n in sorted(tokens.items()) if n)
        selected = p["id"] in (self.selected, self.chosen)
        target = bool(self.selected) and any(isinstance(a, Attack) and a.piece == self.selected and a.target == p["id"]
                                             for a in self.legal())
        glyph = ROLE[role].glyph if role in ROLE else ""
        return CardChip(p["id"], p["name"], p["kind"], p["owner"], role, glyph, stats, badges, bool(p.get("acts")),
                        selected, target)

    def columns(self, v: dict[str, Any] | None = None) -> list[Column]:
        """The two theaters side by side: in each, the base first, then leaders, then units,
        the Attacker's before the Defender's."""
        v = v or self.view()
        ids = {p["id"] for p in v["pieces"]}
        if self.selected and self.selected not in ids:
            self.selected = ""
        if self.chosen and (self.chosen not in ids or (v.get("pending") or {}).get("kind") != "text"):
            self.chosen = ""  # gone, or the text is applied: nothing is chosen for the hub any more
        order = {"base": 0, "leader": 1, "objective": 2, "unit": 3}
        out = []
        for th, title in THEATERS:
            ps = [p for p in v["pieces"] if p["theater"] == th]
            ps.sort(key=lambda p: (self.faction_of(p["owner"]) != "attacker", order.get(p["kind"], 9)))
            out.append(Column(th, title, tuple(self.chip(p, v) for p in ps)))
        return out

    def describe(self, piece_id: str) -> str:
        """A card's full text, for a tap on it: everything the card says and its tokens in words."""
        v = self.view()
        p = next((x for x in v["pieces"] if x["id"] == piece_id), None)
        if p is None:
            return ""
        card = self.card(p["card"])
        bits = [f"{p['name']} — {self.who(p['owner'])}, {THEATER_NAME.get(p['theater'], '')}"]
        if card is not None:
            kind = {"unit": "Unit", "leader": "Leader", "effect": "One-time effect", "base": "Base",
                    "objective": "Objective unit"}.get(card.kind, card.kind)
            bits.append(" · ".join(x for x in (kind, ", ".join(card.types), f"escalation {card.escalation}") if x))
        if p["kind"] != "base":
            bits.append(f"Attack {p['attack']}, health {p['health']}")
        else:
            bits.append(f"Hit points {p['health']}")
        if p["traits"]:
            bits.append("Traits: " + ", ".join(p["traits"]))
        for o in p["orders"]:
            bits.append(f"» {o}" + self._resolves(card, o))
        if card is not None and card.effect:
            bits.append(f"Effect: {card.effect}" + self._resolves(card, card.effect))
        toks = p.get("tokens") or {}
        if toks:
            bits.append("Tokens: " + ", ".join(f"{TOKEN_GLYPH.get(t, '•')} {n} {t}" for t, n in sorted(toks.items())))
        return "\n".join(bits)

    @staticmethod
    def _resolves(card: Any, text: str) -> str:
        """" (…the table resolves…)" after a text the app does not carry out itself."""
        return "" if card is None or card.steps_of(text) else f"\n   ({TABLE_RESOLVES})"

    # ----------------------------------------------------------- trackers

    def escalation(self, v: dict[str, Any] | None = None) -> tuple[list[str], int, list[str]]:
        """(levels, current level, incident lines) for the shared EscalationScale."""
        v = v or self.view()
        e = v["escalation"]
        n = e["incidents"]
        line = f"{n} of {INCIDENTS_PER_LEVEL} incidents ({INCIDENTS_PER_LEVEL - n} more raise the level)" \
            if e["level"] < e["max"] else f"{n} incidents (the scale is at its top)"
        return [str(i) for i in range(e["max"] + 1)], e["level"], [line]

    def phase_steps(self, v: dict[str, Any] | None = None) -> list[tuple[str, str]]:
        """The turn's three phases, each ``done``, ``current`` or ``todo``."""
        v = v or self.view()
        ph = v["phase"]
        if ph in SETUP_PHASES:
            return [(label, "todo") for _k, label in PHASES]
        at = {"draw": 0, "deploy": 0, "combat": 1, "end": 2}.get(ph, 3)
        return [(label, "done" if i < at else ("current" if i == at else "todo")) for i, (_k, label) in enumerate(PHASES)]

    def still_to_act(self, v: dict[str, Any] | None = None) -> list[str]:
        """In phase 2: the active player's cards that still have an action."""
        v = v or self.view()
        if v["phase"] != "combat":
            return []
        return [p["name"] for p in v["pieces"] if p.get("acts")]

    def turn_line(self, v: dict[str, Any] | None = None) -> str:
        v = v or self.view()
        if self.is_over():
            return "The game is over"
        if v["phase"] in SETUP_PHASES:
            return f"Setup · {self.who(v['active'])}"
        return self.turn_words(v["turn"], v["active"])

    def phase_line(self, v: dict[str, Any] | None = None) -> str:
        v = v or self.view()
        ph = v["phase"]
        if ph in SETUP_PHASES:
            return {"deal": "Setup: five cards each", "mulligan": "Setup: mulligan", "redraw": "Setup: drawing again",
                    "infiltrate": "Setup: Infiltrate units deploy"}[ph]
        pend = v.get("pending")
        if ph == "combat" and pend:
            # Nothing acts while a text or a trait is resolved: "nobody (end the phase)" would
            # offer an end the prompt does not.
            title = self.card_title(pend["card"])
            if pend["kind"] == "delegate":
                return f"First: the damage to {title}"
            what = {"text": "text", "supply": "Supply", "compute": "Compute", "backup": "Backup",
                    "transport": "Transport", "rally": "Sympathized"}.get(pend["kind"], "text")
            return f"First: {title}'s {what}"
        if ph == "combat":
            left = self.still_to_act(v)
            return "Still to act: " + (", ".join(left) if left else "nobody (end the phase)")
        if ph == "deploy":
            return f"Plays left: {v['plays_left']} of 2"
        return ""

    def prompt_line(self) -> str:
        """What the game waits for, in player words (a card text being resolved is quoted)."""
        if self.is_over():
            return ""
        v = self.view()
        pend = v.get("pending")
        seat = self.actor()
        if pend and pend["kind"] == "text":
            expert = f"\n✦ {self.humanise(pend['expert'])}" if pend.get("expert") else ""
            title = self.card_title(pend["card"])
            if pend.get("checked"):
                # Carried out as written: the step asked now, in the card's words.
                # One step is the text itself; of several, the one asked now is said too.
                n = len(pend["steps"])
                step = pend["step"]
                at = f"\nStep {pend['at'] + 1} of {n}: {step}." if n > 1 else ""
                return f"{self.name(seat)}: {title} — “{pend['text']}”{at}{expert}"
            return (f"{self.name(seat)}: apply the text of {title}, step by step:\n“{pend['text']}”\n"
                    f"{TABLE_RESOLVES}{expert}")
        wait = (v["prompt"].get("waits") or {}).get(seat, {})
        note = wait.get("note") or wait.get("purpose") or ""
        return self.humanise(f"{seat}: {note}") if seat and note else ""

    # ----------------------------------------------------------- the action panel

    def buttons(self) -> list[ButtonSpec]:
        if self.is_over():
            return []
        v = self.view()
        seat = self.actor()
        if not seat:
            return []
        legal = self.legal()
        who = self.who(seat)
        out: list[ButtonSpec] = []
        wait = (v["prompt"].get("waits") or {}).get(seat, {})
        if wait.get("$") == "core.DrawRequest":
            n = 1
            if v["phase"] == "deal":
                n = 5 - int(v["sides"][seat]["hand"].get("count", 0))
            elif v["phase"] == "redraw" or (v.get("pending") or {}).get("kind") == "supply":
                n = max(1, int((v.get("pending") or {}).get("left") or 1)) if v["phase"] != "redraw" else 1
            label = f"Deal {n} cards to {self.name(seat)} (the app's deck)" if n > 1 else f"Draw a card for {self.name(seat)} (the app's deck)"
            out.append(ButtonSpec(label, "app-draw", count=n, role="primary"))
            k = self.draws_in_a_row(seat)
            what = f"the {k} cards you drew" if k > 1 else "the card you drew"
            out.append(ButtonSpec(f"✎ {self.name(seat)}: enter {what}", "physical-draw", seat=seat))
        if any(isinstance(a, PRIVATE) for a in legal):
            out.append(ButtonSpec(f"▤ {who}: {self.hand_purpose(seat)}", "hand", seat=seat, role="primary", span="full"))
        pend = v.get("pending")
        if pend and pend["kind"] == "text":
            out += self._text_buttons(legal)
        elif v["phase"] == "combat" and not pend:
            out += self._combat_buttons(v, legal)
        else:
            for a in legal:
                if isinstance(a, (Draw, *PRIVATE)):
                    continue
                out.append(ButtonSpec(self.label(a), "submit", action=a, role="quiet" if isinstance(a, (EndPhase, Skip)) else "normal"))
        return out

    def _combat_buttons(self, v: dict[str, Any], legal: list[Any]) -> list[ButtonSpec]:
        out: list[ButtonSpec] = []
        mine = [a for a in legal if getattr(a, "piece", None) == self.selected] if self.selected else []
        if not mine:
            self.selected = ""  # it has no action left
        else:
            for a in mine:
                if isinstance(a, Attack):
                    out.append(ButtonSpec(self.label(a), "attack", action=a, role="primary"))
            for a in mine:
                if not isinstance(a, Attack):
                    out.append(ButtonSpec(self.label(a), "submit", action=a))
            out.append(ButtonSpec("← Choose another card", "deselect", role="quiet"))
            return out
        actors = [p for p in v["pieces"] if p.get("acts")]
        for p in actors:
            out.append(ButtonSpec(f"▸ {p['name']} ({THEATER_NAME.get(p['theater'], '')})", "select", action=p["id"]))
        out += [ButtonSpec(self.label(a), "submit", action=a, role="quiet") for a in legal if isinstance(a, EndPhase)]
        return out

    TEXT_KINDS = (("damage", "✖ Deal damage", (Damage,)), ("heal", "♥ Heal", (Heal,)), ("token", "◈ Tokens", (Token,)),
                  ("move", "⇄ Move a unit's theater", (MoveTheater,)), ("instruct", "Give an instruction", (Instruct,)),
                  ("score", "⚑ Score an objective step", (Score,)))

    def _text_buttons(self, legal: list[Any]) -> list[ButtonSpec]:
        """The checked primitives a card's text is applied with: for a text carried out as
        written, its step on exactly the cards the text names (or, when none can take it,
        going on); else first which kind, then on what."""
        pend = self.view().get("pending") or {}
        if pend.get("checked"):
            out = [ButtonSpec(self.label(a), "submit", action=a, role="primary") for a in legal if not isinstance(a, (Draw, Skip))]
            out += [ButtonSpec(f"Nothing to {pend['step']}: go on", "submit", action=a, role="quiet")
                    for a in legal if isinstance(a, Skip)]
            return out
        kinds = {k: types for k, _l, types in self.TEXT_KINDS}
        if self.mode in kinds:
            picks = [a for a in legal if isinstance(a, kinds[self.mode])]
            if picks:
                return [ButtonSpec(self.label(a), "submit", action=a) for a in picks] + [ButtonSpec("← Back", "mode", role="quiet")]
            self.mode = ""
        out = [ButtonSpec(label, "mode", action=k) for k, label, types in self.TEXT_KINDS
               if any(isinstance(a, types) for a in legal)]
        out += [ButtonSpec("▲ Add an Incident", "submit", action=a) for a in legal if isinstance(a, Incident)]
        out += [ButtonSpec("✔ Done: the text is applied", "submit", action=a, role="primary") for a in legal if isinstance(a, Done)]
        return out

    def label(self, a: Any) -> str:
        """An action in player words, for its button."""
        t = self.card_title
        if isinstance(a, Attack):
            return f"⚔ Attack {t(a.target)}" + (" (spend a Mark)" if a.mark else "")
        if isinstance(a, Order):
            card = self.card(a.card)
            text = card.orders[a.index] if card is not None and a.index < len(card.orders) else f"order {a.index + 1}"
            src = "" if a.card == a.piece else f"{t(a.card)}: "
            return f"» {src}{text}"
        if isinstance(a, Move):
            return f"⇄ Move {t(a.piece)} to the other theater"
        if isinstance(a, Clear):
            return f"⊘ {t(a.piece)} removes a Disruption token"
        if isinstance(a, EndPhase):
            ph = self.view()["phase"]
            return {"draw": "Nothing to draw: to deployment", "deploy": "End phase 1 → combat",
                    "combat": "End combat → phase 3", "end": "End the turn"}.get(ph, "End the phase")
        if isinstance(a, PlaceObjective):
            return f"⚑ Place {t(a.card)} in {THEATER_NAME.get(a.theater, a.theater)}"
        if isinstance(a, Damage):
            return f"✖ {a.amount} damage to {t(a.target)}"
        if isinstance(a, Heal):
            return f"♥ Heal {a.amount} on {t(a.target)}"
        if isinstance(a, Token):
            g = TOKEN_GLYPH.get(a.token, "•")
            return f"+{g} {a.token} on {t(a.target)}" if a.delta > 0 else f"−{g} {a.token} off {t(a.target)}"
        if isinstance(a, MoveTheater):
            return f"⇄ Move {t(a.target)} to the other theater"
        if isinstance(a, Instruct):
            return f"Instruct {t(a.target)}: one more action"
        if isinstance(a, Score):
            return f"⚑ {t(a.target)} leaves the system" if a.escape else f"⚑ Score with {t(a.target)}"
        if isinstance(a, Delegate):
            return "Keep all the damage on the base" if not a.amount else f"Move {a.amount} damage to {t(a.leader)}"
        if isinstance(a, Skip):
            return "Skip"
        if isinstance(a, Done):
            return "✔ Done"
        if isinstance(a, Incident):
            return "▲ Add an Incident"
        return self.humanise(type(a).__name__)

    def standing_buttons(self) -> list[ButtonSpec]:
        if self.is_over():
            return []
        return self.hand_buttons()

    # ----------------------------------------------------------- taps

    def tap_piece(self, piece_id: str) -> tuple[str, Any]:
        """A tap on a card in play: ``("attack", Attack)`` when it is a target of the chosen
        card, ``("select", id)`` when it is a card that may act, else ``("info", text)``."""
        legal = self.legal()
        if self.selected:
            for a in legal:
                if isinstance(a, Attack) and a.piece == self.selected and a.target == piece_id and not a.mark:
                    return "attack", a
        if (self.view().get("pending") or {}).get("kind") == "text" and any(
                isinstance(a, Damage) and a.target == piece_id for a in legal):
            # While a text is resolved a tap chooses the card the hub's damage slot hits.
            self.chosen = "" if self.chosen == piece_id else piece_id
            return "select", piece_id
        if self.view()["phase"] == "combat" and any(getattr(a, "piece", None) == piece_id for a in legal):
            self.selected = "" if self.selected == piece_id else piece_id
            return "select", piece_id
        return "info", self.describe(piece_id)

    def hub_hint(self, event: Any, result: Any, mapping: dict[str, Any]) -> str:
        """What to do when the hub's damage slot found several cards and none is chosen
        (the router's "ambiguous"): "" for any other result."""
        rejected = getattr(result, "rejected", None)
        if type(event).__name__ != "TokenPlaced" or rejected is None or rejected.code != "ambiguous" or self.chosen:
            return ""
        if self._slot_template(event, mapping).get("kind") != "damage":
            return ""
        return "Several cards could take the hub's damage: tap the card it goes to, then set the token on the slot again."

    def _slot_template(self, event: Any, mapping: dict[str, Any]) -> dict[str, Any]:
        slots = mapping.get("slots", {})
        m = slots.get(f"{event.device}/{event.slot}") or slots.get(f"*/{event.slot}") or {}
        return dict(m.get("on_place") or {})

    def hub_action(self, event: Any, result: Any, mapping: dict[str, Any]) -> Any:
        """A hub token slot whose mapping deals damage found several cards it could hit (the
        router's "ambiguous"): the card chosen on the screen is the one, as a tap on it
        would be. Returns that legal Damage, or None (the refusal stands)."""
        rejected = getattr(result, "rejected", None)
        if type(event).__name__ != "TokenPlaced" or rejected is None or rejected.code != "ambiguous" or not self.chosen:
            return None
        tpl = self._slot_template(event, mapping)
        if tpl.get("kind") != "damage":
            return None
        amount = int(tpl.get("amount", 1))
        return next((a for a in self.legal() if isinstance(a, Damage) and a.target == self.chosen and a.amount == amount), None)

    def attack_preview(self, attack: Attack) -> str:
        """The damage arithmetic, step by step, before the attack is confirmed (the engine's
        preview: nothing changes)."""
        table = self.table
        with table._lock:
            text = table.game.preview_text(table.state, attack)
        # One step a line: the arithmetic, what Shields and Stealth take, a Point-Defense reply.
        return self.humanise(text).replace("; ", ";\n")

    # ----------------------------------------------------------- behind the gate

    def hand_purpose(self, seat: str) -> str:
        if self.actor() != seat:
            return "look at your hand"
        legal = self.legal()
        if any(isinstance(a, Mulligan) for a in legal):
            return "keep your hand or mulligan"
        if any(isinstance(a, Infiltrate) for a in legal):
            return "deploy an Infiltrate unit"
        if any(isinstance(a, Play) for a in legal):
            return "play a card"
        if any(isinstance(a, (Discard, Place)) for a in legal):
            return "choose from your hand"
        return "look at your hand"

    def _card_lines(self, inst: str) -> tuple[GateLine, ...]:
        card = self.card(inst)
        if card is None:
            return (GateLine(self.card_title(inst)),)
        stats = []
        if card.kind in ("unit", "objective"):
            stats.append(f"⚔{card.attack} ♥{card.health}")
        elif card.kind == "leader":
            stats.append(f"♥{card.health}")
        stats.append(f"escalation {card.escalation}")
        if card.theaters:
            stats.append("/".join(THEATER_NAME[t] for t in card.theaters))
        lines = [GateLine(f"{card.title} · {' · '.join(stats)}", "highlight")]
        if card.traits:
            lines.append(GateLine(", ".join(str(t) for t in card.traits), "muted", "small"))
        for o in card.orders:
            lines.append(GateLine(f"» {o}" + self._resolves(card, o), "muted", "small"))
        if card.effect:
            lines.append(GateLine(card.effect + self._resolves(card, card.effect), "muted", "small"))
        return tuple(lines)

    def hand_page(self, seat: str, news: str = "") -> list[GateSection]:
        """``seat``'s hand (and Special Forces), with what it may do with them now. Reads the
        seat's private view: called only after the gate's hold."""
        pv = self.table.private_view(seat)
        side = pv["sides"][seat]
        hand = list(side["hand"].get("cards") or [])
        sf = list((side.get("special_forces") or {}).get("cards") or [])
        legal = [a for a in self.legal() if a.seat == seat and isinstance(a, PRIVATE)] if self.actor() == seat else []
        out: list[GateSection] = []
        if news:
            out.append(GateSection("", (GateLine(self.humanise(news), "accent", "large"),)))
        muls = [a for a in legal if isinstance(a, Mulligan)]
        if muls:
            # Any number of the cards (5.2.5.2): the seat picks them, then confirms; each
            # selection is the engine's own Mulligan naming exactly those cards.
            keep = "Keep all five" if len(hand) == 5 else "Keep your hand"
            pick = GatePick(tuple((inst, self.card_title(inst)) for inst in hand),
                            tuple((frozenset(a.cards), a) for a in muls),
                            confirm="Mulligan {n} card{s}", none=keep, counting="{n} of {total} cards to discard")
            out.append(GateSection("Keep or mulligan", (GateLine("Tap the cards to discard, then confirm: you draw as many again "
                                                                 "and they are shuffled back.", "muted", "small"),), (), pick))
        for title, cards in (("Your hand", hand), ("Your Special Forces", sf)):
            if not cards and title != "Your hand":
                continue
            if not cards:
                out.append(GateSection(title, (GateLine("No cards.", "muted"),)))
                continue
            for inst in cards:
                acts = [a for a in legal if not isinstance(a, Mulligan) and getattr(a, "card", None) == inst]
                choices = tuple(GateChoice(self._private_label(a), a, "primary" if isinstance(a, (Play, Infiltrate)) else "normal")
                                for a in acts)
                out.append(GateSection(title if inst == cards[0] else "", self._card_lines(inst), choices))
        return out

    def _private_label(self, a: Any) -> str:
        t = self.card_title(a.card)
        where = THEATER_NAME.get(getattr(a, "theater", ""), "")
        if isinstance(a, Play):
            return f"Play {t}" + (f" in {where}" if where else "")
        if isinstance(a, Infiltrate):
            return f"Infiltrate {t} in {where}"
        if isinstance(a, Discard):
            return f"Discard {t}"
        return f"Place {t}" + (f" in {where}" if where else "")

    def physical_draws(self, seat: str) -> list[tuple[str, Any]]:
        """The cards ``seat`` may say it drew from its own shuffled deck, by name, each with
        the Draw that enters it (behind the gate or on its phone). Its own deck's contents
        are what its deck list and the cards it has seen leave (the rules never hide which
        of its own cards are in it, only their order): one choice per card name, the copy
        named by the lowest instance so that nothing depends on the order."""
        req = self.table.prompt.waits.get(seat)
        if self.is_over() or not isinstance(req, DrawRequest):
            return []
        table = self.table
        with table._lock:
            left = sorted(table.state.sides[seat].deck.cards)
        seen: dict[str, str] = {}
        for inst in left:
            seen.setdefault(inst.partition(":")[2].rpartition("#")[0], inst)
        return [(self.card_title(inst), Draw(seat, source="physical", deck=req.deck, card=inst))
                for _cid, inst in sorted(seen.items(), key=lambda kv: (self.card_title(kv[1]), kv[0]))]

    def draws_in_a_row(self, seat: str) -> int:
        """How many cards ``seat`` draws in a row now, this one included (0: no draw is
        asked of it): its five-card hand in the deal, the cards it draws again after a
        mulligan, a Supply's draws, a text's "Draw 2 cards." A draw the table may or may
        not make (a text it resolves itself) is one at a time."""
        req = self.table.prompt.waits.get(seat)
        if self.is_over() or not isinstance(req, DrawRequest):
            return 0
        v = self.view()
        pend = v.get("pending") or {}
        if v["phase"] in ("deal", "redraw") and not pend:
            return max(1, 5 - int(v["sides"][seat]["hand"].get("count", 0)))  # 5.2.5.2: back to five cards
        if pend.get("kind") == "supply":
            return max(1, int(pend.get("left") or 1))
        return max(1, int(pend.get("to_draw") or 1))

    def physical_draw_continues(self, seat: str) -> bool:
        """After a card entered behind the gate: whether ``seat`` enters its next card on
        the same page (a whole hand in one pass, as Liberation's deal)."""
        pend = self.view().get("pending") or {}
        if pend.get("kind") == "text" and not pend.get("checked"):
            return False  # the table resolves the text: drawing again is its own choice
        return self.draws_in_a_row(seat) > 0

    def physical_draw_page(self, seat: str) -> list[GateSection]:
        """The cards ``seat`` drew from its own shuffled deck, entered one after another on
        one page: one choice per card name still in it (what the seat can tell from its
        deck list and the cards it has seen), with the cards entered so far in the deal."""
        n = self.draws_in_a_row(seat)
        if not n:
            return [GateSection(lines=(GateLine("Nothing to draw now."),))]
        lines = []
        if self.view()["phase"] == "deal":
            mine = list(self.table.private_view(seat)["sides"][seat]["hand"].get("cards") or [])
            lines.append(GateLine(f"Enter your 5 cards one after another: card {len(mine) + 1} of 5.", "accent", "large"))
            lines.append(GateLine("▤ Entered so far: " + ("; ".join(self.card_title(c) for c in mine) if mine else "none"), "highlight"))
        elif n > 1:
            lines.append(GateLine(f"Enter the {n} cards you drew one after another.", "accent", "large"))
        lines.append(GateLine("Tap the card you drew from your shuffled deck.", "muted", "small"))
        choices = tuple(GateChoice(label, action, span="auto") for label, action in self.physical_draws(seat))
        return [GateSection("Which card did you draw?", tuple(lines), choices)]

    def card_texts(self, seat: str) -> list[tuple[str, str, str]]:
        """``seat``'s hand and Special Forces as (instance id, name, rule text): the lines its
        hand page shows for each card. Only for ``seat``."""
        side = self.table.private_view(seat)["sides"][seat]
        cards = list(side["hand"].get("cards") or []) + list((side.get("special_forces") or {}).get("cards") or [])
        return [(inst, self.card_title(inst), " · ".join(line.text for line in self._card_lines(inst))) for inst in cards]

    def drawn_news(self, action: Any) -> str:
        if isinstance(action, Draw) and action.card:
            return f"You drew: {self.card_title(action.card)}"
        return ""

    # ----------------------------------------------------------- moments

    def moment(self, before: dict[str, Any], after: dict[str, Any]) -> Moment | None:
        """A card destroyed, or the escalation level rising: the whole table reads it."""
        kept = {q["id"] for q in after.get("pieces", ())}
        lost = [p for p in before.get("pieces", ()) if p["id"] not in kept]
        up = after["escalation"]["level"] > before["escalation"]["level"]
        if lost:
            names = ", ".join(p["name"] for p in lost)
            role = self.faction_of(lost[0]["owner"])
            text = f"Escalation rises to {after['escalation']['level']}." if up else \
                f"An incident: {after['escalation']['incidents']} of {INCIDENTS_PER_LEVEL}."
            return Moment(f"✖ {names} destroyed", text, "bad", role)
        if up:
            return Moment(f"⚠ Escalation {after['escalation']['level']}", "Stronger cards may now be played.", "info")
        return None

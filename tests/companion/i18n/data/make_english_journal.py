"""Writes tyranny-journal-english-log.sqlite: a Tyranny game of 23 random legal actions
(seed 3, players Ann, Bob, Cy and Di, a snapshot every 5 plies), journaled by the code as it
was before log lines were structure (commit 6aabea7), so its snapshots hold the log as
English strings. Run from a checkout of that commit:

    python make_english_journal.py OUT.sqlite
"""
import sys

import rules
from companion import Journal, Table
from rules.core import Rng
from rules.core.playout import choose


def main() -> None:
    out = sys.argv[1]
    j = Journal.open(out, snapshot_every=5)
    g = rules.load("tyranny")
    seats = [{"id": s.id, "faction": s.faction, "name": n} for s, n in zip(g.default_seats(), ["Ann", "Bob", "Cy", "Di"])]
    tb = Table.create(j, game_id="tyranny", seats=seats, seed=3)
    rng = Rng(11)
    for _ in range(23):
        tb.submit(choose(rng, list(tb.legal_actions())))
    print(tb.key, tb.ply, len(tb.state.log), type(tb.state.log[0].text))
    tb.close()
    j.close()


if __name__ == "__main__":
    main()

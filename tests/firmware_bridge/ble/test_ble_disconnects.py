"""Disconnects at random moments (hypothesis): whatever the order of throws, hand turns,
drops mid-throw and throws made out of reach, every throw heard is delivered exactly
once, a throw whose end was not heard is delivered at the reconnect, and no roll key is
ever reused. Bounded: 25 examples (TC_LONG=1: 500)."""
from __future__ import annotations

import os
import queue

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import events as E
from firmware_bridge.ble.fake import FakeRadio, FakePixel
from firmware_bridge.ble.session import DieTracker, Tally
from firmware_bridge.ble.source import BleDiceSource

from .ble_helpers import WAIT, drain, settled

ACTIONS = st.lists(st.one_of(
    st.tuples(st.just("roll"), st.integers(1, 6)),
    st.tuples(st.just("turn"), st.integers(1, 6)),
    st.tuples(st.just("drop_mid_throw"), st.integers(1, 6), st.sampled_from(["handling", "rolling"])),
    st.tuples(st.just("away"), st.lists(st.integers(1, 6), max_size=3)),
    st.tuples(st.just("drop"),),
    st.tuples(st.just("drop_at_write"), st.sampled_from([b"\x01", b"\x17"])),
), max_size=8)


@settings(max_examples=500 if os.environ.get("TC_LONG") == "1" else 25)
@given(ACTIONS, st.integers(1, 6))
def test_random_disconnects_lose_and_duplicate_nothing(actions, start):
    radio = FakeRadio()
    px = radio.add(FakePixel("C0:FF:EE:00:00:01", die_type="d6", face=start))
    source = BleDiceSource(queue.Queue(), factory=radio.factory(), backoff_first=0.002,
                           backoff_limit=0.01, identify_wait_s=0.3, connect_timeout=2.0)
    try:
        dev = source.add_pixel(px.address)
        events = settled(source, px, 1)
        expected: list[int] = []
        last = start
        reqs = 1  # RequestRollState writes so far: one per link that got that far
        for action in actions:
            links = px.connections
            if action[0] == "roll":
                px.roll(action[1])
                expected.append(action[1])
                last = action[1]
            elif action[0] == "turn":
                px.turn(action[1])
                last = action[1]
            elif action[0] == "drop_mid_throw":
                px.roll(action[1], drop_after=action[2])
                expected.append(action[1])  # motion was heard: its result is owed
                last = action[1]
            elif action[0] == "away":
                px.other_host = True
                px.drop()
                for v in action[1]:
                    px.roll(v)
                if action[1] and action[1][-1] != last:
                    expected.append(action[1][-1])  # only the last, and only if it shows
                    last = action[1][-1]
                px.other_host = False
            elif action[0] == "drop_at_write":  # the next link drops mid-handshake
                px.drop_on = action[1]
                px.drop()
                assert px.wait_for(lambda p: p.drop_on is None, WAIT)
                links += 1
                reqs += action[1] == b"\x17"
            else:
                px.drop()
            if action[0] in ("away", "drop", "drop_mid_throw", "drop_at_write"):
                assert px.wait_connected(links + 1, WAIT)
                reqs += 1
                events += settled(source, px, reqs)
            else:
                events += drain(source)
        rolled = [e for e in events if isinstance(e, E.DieRolled)]
        assert [e.value for e in rolled] == expected
        assert [e.counter for e in rolled] == list(range(1, len(rolled) + 1))
        assert len({e.key for e in rolled}) == len(rolled)
        assert source.counters(dev).rolls == len(rolled)
    finally:
        source.close()


@given(st.lists(st.tuples(st.sampled_from(["motion", "result", "report", "handled"]),
                          st.sampled_from(["rolled", "crooked", "onFace", "handling", "rolling", "atRest"]),
                          st.integers(1, 20)), max_size=40))
def test_tracker_never_reuses_a_key_and_never_repeats_without_motion(steps):
    tr = DieTracker("px", faces=20, tally=Tally(), boot_id=1)
    keys = set()
    t = 0.0
    for kind, state, value in steps:
        t += 1.0
        before, moved = tr.last, tr.moved
        if kind == "motion":
            out = tr.motion(state if state in ("handling", "rolling") else "unknown", t)
        elif kind == "result":
            out = tr.result(state if state in ("rolled", "crooked") else "rolled", value, 1.0, t)
        elif kind == "handled":
            out = tr.handled(value, t)
        else:
            out = tr.report(state, value, 1.0, t, die_knows_roll=state != "atRest")
        rolled = [e for e in out if isinstance(e, E.DieRolled)]
        assert len(rolled) <= 1
        for e in rolled:
            assert e.key not in keys
            keys.add(e.key)
            # the same result again is news only after motion (or a die's own word, on a report)
            assert moved or before != (e.outcome, e.value)
            assert tr.last == (e.outcome, e.value) and not tr.moved
        if kind == "report" and before is None:
            assert out == [] or all(isinstance(e, E.DieMotion) for e in out)  # the first report is state

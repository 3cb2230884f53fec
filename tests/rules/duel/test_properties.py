"""Properties over random fights built from small arsenals (hypothesis).

Each example plays a random sequence of commands - sensible ones and
nonsense - the way the persistence layer would: expire, then the command.
Checked after every step: card conservation and D1 (``check_invariants``),
refusals change nothing, expire is idempotent, the state survives JSON, and
at the end ``replay(log)`` rebuilds exactly the live state.
"""

import json

from hypothesis import given
from hypothesis import strategies as st

from rules import RuleError
from rules.duel import (
    InstantAttack,
    Join,
    LogEntry,
    Settings,
    apply,
    command_from_dict,
    command_to_dict,
    expire,
    from_dict,
    instant_attack_draw_size,
    open_situation,
    replay,
    to_dict,
)
from tests.rules.duel.kit import COUNTERS, at, check_invariants, setup
from tests.rules.duel.property_kit import GAPS, PROPERTY_SETTINGS, candidates, light_hand, small_hand


@PROPERTY_SETTINGS
@given(hands=st.lists(small_hand, min_size=2, max_size=3), data=st.data())
def test_random_fights_keep_every_invariant_and_replay_exactly(hands, data):
    play_random_fight(hands, data)


@PROPERTY_SETTINGS
@given(hands=st.lists(light_hand, min_size=2, max_size=2), data=st.data())
def test_long_random_duels_keep_every_invariant_and_replay_exactly(hands, data):
    play_random_fight(hands, data)


def play_random_fight(hands, data):
    opening = open_situation(Settings(), COUNTERS, at(0))
    state = opening
    log: list[LogEntry] = []
    for i, hand in enumerate(hands, start=1):
        focus = next((face.card_id for face in hand if face.kind == "defence"), None)
        if not data.draw(st.booleans()):
            focus = None
        state, _ = apply(state, Join(setup(i, *hand, focus=focus)), at(0))
        log.append(("command", Join(setup(i, *hand, focus=focus)), at(0), None))
    t = 0.0
    for _ in range(data.draw(st.integers(1, 60))):
        t += data.draw(st.sampled_from(GAPS))
        now = at(t)
        expired, events = expire(state, now)
        if events:
            log.append(("expire", now))
            state = expired
        # expire is idempotent: nothing is left to apply at this moment.
        assert expire(state, now) == (state, [])
        group = data.draw(st.sampled_from(candidates(state)))
        command = data.draw(st.sampled_from(group))
        assert command_from_dict(json.loads(json.dumps(command_to_dict(command)))) == command
        draw = None
        if isinstance(command, InstantAttack) and command.victim in state.fighters:
            size = instant_attack_draw_size(state, command.victim)
            draw = data.draw(st.integers(0, size - 1)) if size else None
            if data.draw(st.integers(0, 9)) == 0:
                draw = data.draw(st.sampled_from([None, -1, size, 0]))
        before = to_dict(state)
        try:
            state, _ = apply(state, command, now, draw)
        except RuleError as err:
            # A refusal changes nothing and always cites something.
            assert to_dict(state) == before
            assert err.rule_id and "%(" not in err.text()
            continue
        log.append(("command", command, now, draw))
        check_invariants(state)
        assert from_dict(json.loads(json.dumps(to_dict(state)))) == state
    assert replay(opening, log) == state

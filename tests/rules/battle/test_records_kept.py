"""A battle keeps its newest records, counts them all and remembers every window the clock closed (issue 24).

The row a step rewrites holds ``RECORDS_KEPT`` resolved answers; D8's "the
window has closed" reads ``timed_out``, which keeps every (frame, defender)
the clock overtook however old; a replay with ``whole_record`` keeps every
record, as the state did before.
"""

from __future__ import annotations

from rules import battle as B
from tests.rules.battle.kit import ANNA, BOLT, FIRE, GLEB, NOVA, SHIELD, SIDES, VERA, Fight


def _enemies(fight: Fight, actor: int) -> list[int]:
    return [c for c, s in SIDES.items() if s != SIDES[actor] and not fight.state.combatants[c].left]


def _long_fight() -> tuple[Fight, int]:
    """D8 overtakes Gleb in the first frame; then single attacks, each parried, until the records overflow."""
    fight = Fight(reactions_from=50).begin()
    first = fight.attack(ANNA, NOVA, VERA, GLEB)
    fight.answer(VERA, SHIELD)
    fight.tick(16)
    fight.expire()
    fight.next_turn()
    for _ in range(100):  # a Bolt, a Fireball, a Nova on both enemies each: 16 records at most
        if fight.state.records_total > B.RECORDS_KEPT + 1:
            break
        if fight.state.phase == B.BETWEEN_ROUNDS:
            fight.do(B.StartRound())
            continue
        actor = fight.state.turn_of
        assert actor is not None
        hand = [fight.state.cards[u].face.card_id for u in fight.state.combatants[actor].hand]
        card = next((c for c in (BOLT, FIRE, NOVA) if c.face.card_id in hand), None)
        if card is None:
            fight.pass_turn()
            continue
        fight.tick(1)
        targets = _enemies(fight, actor) if card is NOVA else _enemies(fight, actor)[:1]
        fight.attack(actor, card, *targets)
        for target in targets:
            fight.answer(target, None, outcome="parried", reason="stepped aside")
        fight.next_turn()
    assert fight.state.records_total > B.RECORDS_KEPT + 1
    return fight, first.number


def test_D8_an_old_window_the_clock_closed_is_still_overtaken_after_its_record_left_the_state():
    fight, frame = _long_fight()
    state = fight.state
    assert len(state.records) == B.RECORDS_KEPT < state.records_total
    assert all(r.frame != frame for r in state.records)  # the record itself is no longer kept
    assert B.answer_overtaken(state, frame, GLEB)
    assert not B.answer_overtaken(state, frame, VERA)  # answered in time
    stored = B.from_dict(B.to_dict(state))
    assert stored == state and B.answer_overtaken(stored, frame, GLEB)


def test_a_replay_with_the_whole_record_keeps_every_record_and_writes_the_state_of_before():
    fight, frame = _long_fight()
    whole = B.replay(fight.opening, fight.log, whole_record=True)
    assert len(whole.records) == whole.records_total == fight.state.records_total
    assert whole.records[-B.RECORDS_KEPT :] == fight.state.records
    assert whole.records[0].frame == frame and whole.records[1].timed_out
    written = B.to_dict(whole)
    assert "records_total" not in written and "timed_out" not in written  # the form states had before
    # Read back (as an old row is), it is the state the live fight has.
    assert B.from_dict(written) == fight.state
    assert B.to_dict(fight.replayed()) == B.to_dict(fight.state)

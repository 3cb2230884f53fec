"""State serialisation, command serialisation and replay of a logged fight (DESIGN.md §4)."""

import dataclasses
import json

import pytest

from rules import RuleError, event_from_dict
from rules.duel import (
    COMMAND_TYPES,
    EVENT_TYPES,
    Answer,
    Attack,
    ChangeCondition,
    Command,
    ConfirmResult,
    DeclareAggression,
    EndDuel,
    EndSituation,
    InstantAttack,
    Join,
    RoundChoice,
    SetFocus,
    apply,
    command_from_dict,
    command_to_dict,
    command_type,
    from_dict,
    next_deadline,
    replay,
    to_dict,
)
from rules.duel.events import AnswerTimedOut, ArsenalChanged
from tests.rules.duel.kit import ANTON, DART, FIRE, HEAL, OLGA, SHIELD, WARD, ZAVULON, Fight, at, setup

ALL_COMMANDS: list[Command] = [
    Join(setup(OLGA, FIRE, SHIELD, focus=SHIELD.card_id, condition="lightly_wounded")),
    InstantAttack(ANTON, ZAVULON, "1:1:0", True, False, max_rounds=2),
    DeclareAggression(ANTON, ZAVULON, None),
    DeclareAggression(ANTON, ZAVULON, "1:1:0", 3),
    Attack(0, ANTON, "1:1:0"),
    Answer(0, ZAVULON, None),
    Answer(0, ZAVULON, "2:10:1"),
    ConfirmResult(0),
    ConfirmResult(0, "parried", "saw it"),
    RoundChoice(0, ANTON, True),
    RoundChoice(0, ANTON, True, (FIRE, SHIELD), "fire set"),
    SetFocus(ANTON, None),
    SetFocus(ANTON, "1:10:2"),
    EndDuel(0, "parted ways"),
    InstantAttack(ANTON, ZAVULON, "1:1:0", True, True, parry=False, focus_held=False),
    ChangeCondition(ANTON, add="helpless", reason="finishing blow"),
    ChangeCondition(ANTON, clear="paralysed", reason="the paralysis wore off"),
    EndSituation("a third Other joins: a battle"),
]


@pytest.mark.parametrize("command", ALL_COMMANDS, ids=lambda c: command_type(c))
def test_commands_survive_json(command):
    as_json = json.dumps(command_to_dict(command))
    assert command_from_dict(json.loads(as_json)) == command


def test_every_command_type_is_covered():
    assert {command_type(c) for c in ALL_COMMANDS} == set(COMMAND_TYPES)


def played_fight():
    """A fight through an instant attack, a timeout, a round change and a situation end."""
    f = Fight(setup(ANTON, DART, DART, SHIELD), setup(ZAVULON, SHIELD, DART, HEAL), setup(OLGA, FIRE, WARD))
    f.do(SetFocus(ZAVULON, f.uid(ZAVULON, 10)), 0)
    f.do(InstantAttack(ANTON, ZAVULON, f.uid(ANTON, 2), True, True), 1)  # focus parries
    f.do(ConfirmResult(0), 2)
    f.do(Attack(0, ZAVULON, f.uid(ZAVULON, 2)), 3)
    f.tick(30)  # Anton does not answer: timed out
    f.do(Attack(0, ANTON, f.uid(ANTON, 2)), 31)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 11)), 32)
    f.do(ConfirmResult(0, "softened", "partly healed"), 33)
    f.do(RoundChoice(0, ZAVULON, True, (DART, SHIELD), "saved"), 34)
    f.do(RoundChoice(0, ANTON, True), 35)
    f.tick(1000)
    return f


def test_replay_of_the_log_equals_the_live_state():
    f = played_fight()
    assert f.state.ended
    assert [e[0] for e in f.log].count("expire") == 2
    assert replay(f.opening, f.log) == f.state
    # Leaving out an expire entry would change history - it is needed.
    without = [e for e in f.log if e[0] != "expire"]
    with pytest.raises(RuleError) as info:
        replay(f.opening, without)
    assert info.value.rule_id == "D8"


def test_state_survives_json_at_every_point_of_a_fight():
    f = played_fight()
    state = f.opening
    for entry in f.log:
        state = replay(state, [entry])
        again = from_dict(json.loads(json.dumps(to_dict(state))))
        assert again == state
        assert to_dict(again) == to_dict(state)


def test_between_rounds_choices_survive_json():
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 2)), 1)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 2)
    f.do(ConfirmResult(0), 3)
    f.do(RoundChoice(0, ZAVULON, True, (FIRE, HEAL), "new"), 4)
    again = from_dict(json.loads(json.dumps(to_dict(f.state))))
    assert again.duels[0].round_choices == {ZAVULON: RoundChoice(0, ZAVULON, True, (FIRE, HEAL), "new")}
    assert list(again.fighters) == [ANTON, ZAVULON]


def test_events_are_json_and_of_known_types():
    """The stored form: ``to_dict`` survives JSON and ``event_from_dict`` gives the same typed event back."""
    f = played_fight()
    stored = json.loads(json.dumps([e.to_dict() for e in f.events]))
    assert [event_from_dict(d) for d in stored] == f.events
    assert {e.type for e in f.events} <= set(EVENT_TYPES)
    for event in f.events:  # frozen: a logged event cannot change under the log
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(event, dataclasses.fields(event)[0].name, None)


def test_an_event_in_the_old_dict_form_still_reads():
    """A log written when events were dicts reads as the typed event (the stored form did not change)."""
    old = {"type": "arsenal_changed", "duel": 0, "fighter": 2, "label": "Night", "count": 5}
    event = event_from_dict(old)
    assert isinstance(event, ArsenalChanged) and event.count == 5 and event.to_dict() == old


def test_apply_requires_an_aware_time_and_no_draw_outside_an_instant_attack():
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD))
    with pytest.raises(ValueError):
        apply(f.state, DeclareAggression(ANTON, ZAVULON), at(1).replace(tzinfo=None))
    assert f.refused(DeclareAggression(ANTON, ZAVULON), 1, draw=0).rule_id == "INPUT"


def test_card_uids_are_deterministic_and_unique():
    f = Fight(setup(ANTON, DART, DART, SHIELD))
    assert f.fighter(ANTON).hand == ["1:2:0", "1:2:1", "1:10:2"]


def test_next_deadline_is_the_earliest_of_several_duels_and_expire_keeps_time_order():
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD), setup(OLGA, FIRE), setup(4, WARD))
    f.do(DeclareAggression(ANTON, ZAVULON), 1)
    f.do(DeclareAggression(OLGA, 4, f.uid(OLGA, 1)), 2)
    f.do(Attack(0, ANTON, f.uid(ANTON, 2)), 8)
    assert next_deadline(f.state) == at(17)
    events = f.tick(40)
    assert [e.duel for e in events if isinstance(e, AnswerTimedOut)] == [1, 0]
    assert f.state.last_action_at == at(23)

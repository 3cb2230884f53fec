"""Commands through ``perform``: the lock, the version, the nonce, the log (DESIGN.md §4)."""

import pytest

import rules
from cards.words import explain
from duels import services
from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from rules import duel as engine
from tests.services.kit import act, assert_replays, kinds, nonce, state, uid

pytestmark = pytest.mark.django_db


def test_D7_an_answer_is_applied_logged_and_replays(shown, rival, referee, defence_card):
    before = Situation.objects.get(pk=shown.pk).version
    done = act(shown, engine.Answer(duel=0, fighter=rival.pk, card=uid(shown, rival, defence_card)), referee)
    situation = done.situation
    assert situation.version == before + 1
    assert kinds(situation)[-1] == "answer"
    duel = state(situation).duels[0]
    # CR2: the shield parries fire; the referee still has to confirm.
    assert (duel.phase, duel.step.proposed) == ("await_result", "parried")
    # The row's deadline is the engine's next one (the sweeper's query).
    assert situation.next_deadline == engine.next_deadline(state(situation))
    assert_replays(situation)


def test_a_repeated_nonce_applies_once(shown, rival, referee):
    token = nonce()
    version = Situation.objects.get(pk=shown.pk).version
    command = engine.Answer(duel=0, fighter=rival.pk, card=None)
    first = services.perform(shown.pk, command, user=referee, seen_version=version, nonce=token)
    again = services.perform(shown.pk, command, user=referee, seen_version=version, nonce=token)
    assert not first.repeated and again.repeated and again.events == []
    assert LogEntry.objects.filter(nonce=token).count() == 1
    assert Situation.objects.get(pk=shown.pk).version == version + 1


def test_a_stale_version_is_refused_and_nothing_is_applied(shown, rival, referee):
    version = Situation.objects.get(pk=shown.pk).version
    entries = LogEntry.objects.count()
    with pytest.raises(services.StaleVersion) as err:
        services.perform(
            shown.pk,
            engine.Answer(duel=0, fighter=rival.pk, card=None),
            user=referee,
            seen_version=version - 1,
            nonce=nonce(),
        )
    assert err.value.situation.pk == shown.pk
    assert "nothing was done" in explain(err.value)
    assert Situation.objects.get(pk=shown.pk).version == version
    assert LogEntry.objects.count() == entries
    assert state(shown).duels[0].phase == "await_answer"


def test_D7_a_rule_error_saves_nothing(shown, character, referee):
    situation = Situation.objects.get(pk=shown.pk)
    before = (situation.version, situation.state, LogEntry.objects.count())
    token = nonce()
    with pytest.raises(rules.RuleError) as err:
        # Only the defender answers (D7).
        act(shown, engine.Answer(duel=0, fighter=character.pk, card=None), referee, nonce=token)
    assert err.value.rule_id == "D7"
    situation.refresh_from_db()
    assert (situation.version, situation.state, LogEntry.objects.count()) == before
    # The refused command's nonce was not used up: the page may send it again.
    assert not LogEntry.objects.filter(nonce=token).exists()


def test_a_bad_nonce_is_refused(shown, rival, referee):
    with pytest.raises(services.BadNonce):
        act(shown, engine.Answer(duel=0, fighter=rival.pk, card=None), referee, nonce="x" * 65)


def test_an_unknown_situation_is_a_clear_error(referee):
    with pytest.raises(services.SituationNotFound):
        services.perform(999, engine.EndDuel(duel=0, reason="x"), user=referee, seen_version=0, nonce=nonce())


def test_CR2_an_override_is_logged_with_its_reason(shown, rival, referee):
    act(shown, engine.Answer(duel=0, fighter=rival.pk, card=None), referee)
    act(shown, engine.ConfirmResult(duel=0, outcome="softened", reason="the shield was half raised"), referee)
    entry = LogEntry.objects.filter(situation=shown).latest("seq")
    assert (entry.command_type, entry.reason) == ("confirm_result", "the shield was half raised")
    assert_replays(shown)


def test_every_command_of_a_whole_duel_keeps_state_equal_to_the_replay(
    armed, referee, attack_card, defence_card, spark
):
    anton, zavulon = armed
    situation = declare_aggression(anton.event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce()).situation
    steps = [
        lambda: engine.Answer(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, defence_card)),
        lambda: engine.ConfirmResult(duel=0),
        lambda: engine.Attack(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, spark)),
        lambda: engine.Answer(duel=0, fighter=anton.pk, card=None),
        lambda: engine.ConfirmResult(duel=0),
        lambda: engine.Attack(duel=0, fighter=anton.pk, card=uid(situation, anton, attack_card)),
        lambda: engine.Answer(duel=0, fighter=zavulon.pk, card=None),
        lambda: engine.ConfirmResult(duel=0),
    ]
    for step in steps:
        act(situation, step(), referee)
        assert_replays(situation)
    st = state(situation)
    assert st.duels[0].result == "fighter_out"
    assert (st.fighters[anton.pk].condition, st.fighters[zavulon.pk].condition) == (
        "lightly_wounded",
        "heavily_wounded",
    )
    assert Situation.objects.get(pk=situation.pk).version == 1 + len(steps)

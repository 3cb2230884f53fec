"""Two tablets, one step: exactly one wins (DESIGN.md §4: lock, version, nonce)."""

import threading

import pytest
from django.db import connection, transaction
from django.utils import timezone

from duels import services
from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from events.models import Character
from rules import duel as engine
from tests.concurrency.race_kit import race
from tests.services.kit import arm, nonce, uid

pytestmark = pytest.mark.concurrency

TRIALS = 30
# How long the busy fight's lock is held at most: far longer than a read may take on a slow machine.
HOLD_SECONDS = 30


def new_fight(event, referee, attack_card, defence_card, spark, n: int) -> tuple[Situation, Character, Character]:
    anton = Character.objects.create(event=event, name=f"Anton {n}")
    zavulon = Character.objects.create(event=event, name=f"Zavulon {n}")
    arm(anton, attack_card)
    arm(zavulon, spark, defence_card)
    done = declare_aggression(event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce())
    return done.situation, anton, zavulon


def test_D7_two_answers_to_one_step_with_the_same_version_one_wins_the_other_is_stale(
    event, referee, attack_card, defence_card, spark, armed
):
    for n in range(TRIALS):
        situation, _anton, zavulon = new_fight(event, referee, attack_card, defence_card, spark, n)
        version = Situation.objects.get(pk=situation.pk).version
        shield = uid(situation, zavulon, defence_card)

        def answer(card: str | None, situation=situation, zavulon=zavulon, version=version):
            command = engine.Answer(duel=0, fighter=zavulon.pk, card=card)
            return services.perform(situation.pk, command, user=referee, seen_version=version, nonce=nonce())

        results = race(lambda: answer(shield), lambda: answer(None))  # noqa: B023 - bound through defaults
        won = [r for r in results if isinstance(r, services.Performed)]
        stale = [r for r in results if isinstance(r, services.StaleVersion)]
        assert (len(won), len(stale)) == (1, 1), results
        fresh = Situation.objects.get(pk=situation.pk)
        assert fresh.version == version + 1
        assert LogEntry.objects.filter(situation=situation, command__type="answer").count() == 1
        assert engine.to_dict(services.replayed(fresh)) == fresh.state


def test_the_same_nonce_sent_twice_at_once_applies_once(event, referee, attack_card, defence_card, spark, armed):
    for n in range(TRIALS):
        situation, _anton, zavulon = new_fight(event, referee, attack_card, defence_card, spark, n)
        version = Situation.objects.get(pk=situation.pk).version
        token = nonce()

        def answer(situation=situation, zavulon=zavulon, version=version, token=token):
            command = engine.Answer(duel=0, fighter=zavulon.pk, card=None)
            return services.perform(situation.pk, command, user=referee, seen_version=version, nonce=token)

        results = race(answer, answer)
        assert all(isinstance(r, services.Performed) for r in results), results
        assert sorted(r.repeated for r in results) == [False, True]
        assert LogEntry.objects.filter(nonce=token).count() == 1
        assert Situation.objects.get(pk=situation.pk).version == version + 1


def test_S2_two_referees_starting_the_same_fight_at_once_open_one_situation(
    event, referee, attack_card, defence_card, spark, armed
):
    for n in range(TRIALS // 3):
        anton = Character.objects.create(event=event, name=f"Anton {n}")
        zavulon = Character.objects.create(event=event, name=f"Zavulon {n}")
        arm(anton, attack_card)
        arm(zavulon, spark, defence_card)

        def start(anton=anton, zavulon=zavulon):
            return declare_aggression(event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce())

        results = race(start, start)
        won = [r for r in results if isinstance(r, services.Performed)]
        refused = [r for r in results if isinstance(r, services.CharacterBusy)]
        # D1: the second finds both already in the duel the first opened.
        assert (len(won), len(refused)) == (1, 1), results
        assert Situation.objects.filter(participants=anton).count() == 1
        assert LogEntry.objects.filter(situation=won[0].situation, command__type="join").count() == 2


def test_a_read_never_waits_for_a_busy_fight(event, referee, attack_card, defence_card, spark, armed):
    situation, _anton, _zavulon = new_fight(event, referee, attack_card, defence_card, spark, 0)
    # Pretend a deadline is overdue, so that the read wants the lock.
    Situation.objects.filter(pk=situation.pk).update(next_deadline=timezone.now())
    locked = threading.Event()
    release = threading.Event()
    unlocked = threading.Event()

    def hold() -> None:
        with transaction.atomic():
            Situation.objects.select_for_update().get(pk=situation.pk)
            locked.set()
            release.wait(HOLD_SECONDS)
        unlocked.set()

    def hold_then_close() -> None:
        hold()
        connection.close()

    holder = threading.Thread(target=hold_then_close)
    holder.start()
    try:
        assert locked.wait(10)
        result = race(lambda: services.refresh(Situation.objects.get(pk=situation.pk)), timeout=HOLD_SECONDS * 2)[0]
        assert isinstance(result, Situation), result
        # The order of events, not a wall-clock figure (a loaded 2-core CI machine): the read came back while
        # the lock was still held. A read that waited for it would come back only after the holder let go.
        assert not unlocked.is_set(), "the read waited for the fight's lock"
    finally:
        release.set()
        holder.join(10)

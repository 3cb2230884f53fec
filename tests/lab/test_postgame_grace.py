"""The post-game report counts the answers accepted within the lag grace (D8) and the real-card draws (IA3)."""

import pytest
from django.urls import reverse

from duels.duel.start import start_instant_attack
from lab.postgame import read
from rules import duel as engine
from tests.services import kit
from tests.services.kit import act, at, uid

pytestmark = pytest.mark.django_db
T0 = kit.T0


def test_D8_IA3_the_report_counts_answers_in_grace_and_draws_from_real_cards(
    event, armed, referee, organizer, as_user, attack_card, defence_card, spark, clock
):
    event.physical_draws, event.lag_grace_ms = True, 2000
    event.save(update_fields=["physical_draws", "lag_grace_ms"])
    anton, zavulon = armed
    started = start_instant_attack(
        event,
        anton,
        zavulon,
        attack_card.pk,
        out_of_sight=True,
        within_reach=True,
        drawn_card_id=defence_card.pk,  # the Mage Shield, drawn from the real cards: parried
        user=referee,
        nonce=kit.nonce(),
        now=at(0),
    )
    situation = started.situation
    act(situation, engine.ConfirmResult(duel=0), referee, now=at(1))
    # IA5: the duel goes on, the victim attacks; the answer arrives 1 s late, tapped at 14 s.
    act(situation, engine.Attack(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, spark)), referee, now=at(2))
    answer = engine.Answer(duel=0, fighter=anton.pk, card=uid(situation, anton, defence_card))
    act(situation, answer, referee, now=at(18), lag_ms=14_000)

    report = read(event)
    assert (report.answers_in_grace, report.physical_draws) == (1, 1)
    page = as_user(organizer).get(reverse("lab:postgame", args=[event.pk])).content.decode()
    assert "1 answer accepted within the lag grace (D8)" in page
    assert "1 instant-attack draw from the real cards (IA3)" in page

"""IA3 "draws from real cards" through the services: the referee records the card, the server checks it."""

import pytest

from cards.models import Card
from duels.duel.log import describe
from duels.models import LogEntry, Situation
from duels.services.errors import CardNotHeld
from tests.services import kit
from tests.services.kit import assert_replays, instant, record_draws, state

pytestmark = pytest.mark.django_db
T0 = kit.T0


@pytest.fixture
def physical(event):
    event.physical_draws = True
    event.save(update_fields=["physical_draws"])
    return event


def _drawn(situation) -> dict:
    entry = LogEntry.objects.get(situation=situation, command__type="instant_attack")
    return next(e for e in entry.events if e["type"] == "card_drawn")


def test_IA3_real_cards_the_recorded_card_answers_and_the_log_says_so(
    physical, armed, referee, attack_card, spark, monkeypatch, clock
):
    anton, zavulon = armed
    calls = record_draws(monkeypatch)
    done = instant(anton, zavulon, attack_card, referee, 0, drawn_card_id=spark.pk)
    assert calls == []  # the server drew nothing
    drawn = _drawn(done.situation)
    assert drawn["card_id"] == spark.pk and drawn["physical"] is True
    lines = describe(done.situation.log.order_by("seq"), state(done.situation))
    text = " ".join(line for entry in lines for line in entry.lines)
    assert "drawn from the real cards" in text
    assert_replays(done.situation)


def test_IA3_real_cards_a_card_not_in_the_hand_is_refused_and_nothing_changes(
    physical, armed, referee, attack_card, catalogue, clock
):
    anton, zavulon = armed
    stranger = Card.objects.create(catalogue=catalogue, name_ru="Чужая", name_en="Stranger", kind="defence")
    for card in (stranger, attack_card):  # nobody's / the attacker's, not the victim's
        with pytest.raises(CardNotHeld) as info:
            instant(anton, zavulon, attack_card, referee, 0, drawn_card_id=card.pk)
        assert zavulon.name in str(info.value)
    assert not LogEntry.objects.filter(command__type="instant_attack").exists()
    assert not Situation.objects.filter(ended=False).exists()


def test_IA3_server_draw_by_default_logs_its_source(armed, referee, attack_card, monkeypatch, clock):
    anton, zavulon = armed
    calls = record_draws(monkeypatch)
    done = instant(anton, zavulon, attack_card, referee, 0)
    assert calls == [2] and _drawn(done.situation)["physical"] is False
    lines = describe(done.situation.log.order_by("seq"), state(done.situation))
    assert "drawn by the server" in " ".join(line for entry in lines for line in entry.lines)

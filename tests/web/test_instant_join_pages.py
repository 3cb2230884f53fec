"""[IA1, IA3, BP4] The start page's instant attack on someone already fighting, through the real forms.

Olga strikes Anton, who is fighting Zavulon: the page says she will join that
fight, the form grows the duel into a battle and the battle's tablet shows the
blind draw and the proposed result, in Russian and in English. Bad input (a
"real cards" draw not in the victim's hand, a stale fight) is refused in words,
never with a server error, and changes nothing.
"""

import pytest
from django.urls import reverse

from cards.models import ArsenalCard, Card
from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from events.models import Side
from tests.services.battle_kit import begin, party
from tests.services.kit import arm, nonce, record_draws

pytestmark = pytest.mark.django_db

WORDS = {
    "en": ("is already fighting", "drawn by the server: Mage Shield (IA3)", "Mage Shield", "— instant attack"),
    "ru": (
        "уже сражается",
        "сервер вслепую вытянул из арсенала карту Щит мага (IA3)",
        "Щит мага",
        "— мгновенная атака",
    ),
}


@pytest.fixture
def duel(armed, bystander, attack_card, spark, referee):
    anton, zavulon = armed
    bystander.side = Side.DARK
    bystander.save()
    arm(bystander, attack_card)
    return declare_aggression(anton.event, zavulon, anton, spark.pk, user=referee, nonce=nonce()).situation


def _client(as_user, referee, language):
    client = as_user(referee)
    client.cookies["django_language"] = language
    return client


def _strike(client, event, a, b, card, **data):
    form = {"kind": "instant", "a": a.pk, "b": b.pk, "nonce": nonce(), "card": card.pk}
    form.update(out_of_sight="yes", within_reach="yes", **data)
    return client.post(reverse("duels:start", args=[event.pk]), form)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_IA1_IA3_the_start_page_offers_the_strike_on_a_duellist_and_the_battle_shows_the_draw(
    as_user, referee, duel, armed, bystander, attack_card, event, monkeypatch, language
):
    anton, _zavulon = armed
    client = _client(as_user, referee, language)
    offered, drawn_line, shield, blow = WORDS[language]
    page = client.get(reverse("duels:start", args=[event.pk]), {"a": bystander.pk, "b": anton.pk}).content.decode()
    assert 'id="ia-joins-fight"' in page and offered in page
    record_draws(monkeypatch, lambda n: n - 1)  # the Mage Shield
    response = _strike(client, event, bystander, anton, attack_card)
    assert response.status_code == 302
    battle = Situation.objects.get(kind=Situation.Kind.BATTLE)
    assert client.get(response.url, follow=True).status_code == 200
    html = client.get(reverse("duels:battle", args=[battle.pk])).content.decode()
    assert shield in html and drawn_line in html
    assert blow in html  # the tablet names the blow an instant attack, not a turn's attack
    assert battle.participants.count() == 3


def test_IA3_a_real_cards_draw_not_in_the_victims_hand_is_refused_in_words(
    as_user, referee, duel, armed, bystander, attack_card, spark, event
):
    anton, _zavulon = armed
    event.physical_draws = True
    event.save()
    client = _client(as_user, referee, "en")
    entries = LogEntry.objects.count()
    response = _strike(client, event, bystander, anton, attack_card, drawn=spark.pk)
    assert response.status_code == 422
    assert "Anton does not hold the card Spark." in response.content.decode()
    assert LogEntry.objects.count() == entries and not Situation.objects.filter(kind=Situation.Kind.BATTLE).exists()
    assert not Situation.objects.get(pk=duel.pk).ended


def test_IA1_a_stale_battle_page_after_the_strike_is_a_conflict_not_an_error(
    as_user, referee, duel, armed, bystander, attack_card, event, monkeypatch
):
    anton, _zavulon = armed
    client = _client(as_user, referee, "ru")
    record_draws(monkeypatch, lambda n: 0)
    _strike(client, event, bystander, anton, attack_card)
    battle = Situation.objects.get(kind=Situation.Kind.BATTLE)
    frame = battle.state["stack"][-1]["number"]
    stale = {"action": "confirm", "frame": frame, "who": anton.pk, "version": battle.version - 1}
    response = client.post(reverse("duels:battle-act", args=[battle.pk]), {**stale, "nonce": nonce()})
    assert response.status_code == 409
    battle.refresh_from_db()
    assert not battle.state["records"]
    # The same strike sent again (the Back button) starts nothing new.
    again = _strike(client, event, bystander, anton, attack_card)
    assert again.status_code == 409 and 'id="running-fight-link"' in again.content.decode()
    assert Situation.objects.filter(kind=Situation.Kind.BATTLE).count() == 1


def test_IA1_IA3_the_start_page_offers_a_combatant_s_battle_hand_not_their_saved_arsenal(
    as_user, referee, event, defence_card
):
    """A combatant's hand is the battle's (IA3 "draws from real cards"): a card gone from their saved arsenal since
    the battle began is still offered, and their saved arsenal's new card is not."""

    event.physical_draws = True
    event.save()
    people = party(event, count=5)
    olga, combatants = people[4], people[:4]
    vera = combatants[2]
    begin(event, combatants, referee)
    ArsenalCard.objects.filter(character=vera, card__name_en="Blade").delete()  # after the battle took her hand
    extra = defence_card  # not in the battle's hands
    ArsenalCard.objects.create(character=vera, card=extra, copies=1)
    page = _client(as_user, referee, "en").get(reverse("duels:start", args=[event.pk]), {"a": olga.pk, "b": vera.pk})
    html = page.content.decode()
    assert 'id="ia-joins-fight"' in html
    blade = Card.objects.get(catalogue=event.catalogue, name_en="Blade")
    assert f'id="drawn-{blade.pk}"' in html
    assert f'id="drawn-{extra.pk}"' not in html

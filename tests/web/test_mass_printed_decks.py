"""[M1, M7] Printed magic decks from the referee's tablet: the recorded card, the refusals, the printed order."""

import uuid

import pytest
from django.urls import reverse

import rules.mass as magic
from duels.mass.forms import recorded_card
from tests.services.mass_kit import act, armies, assert_replays, ready, start, state, wid

pytestmark = pytest.mark.django_db


@pytest.fixture
def printed(event, referee, cards):
    event.magic_printed_decks = True
    event.save(update_fields=["magic_printed_decks"])
    red, blue = armies(event)
    return start(event, referee, red, blue)


def post(client, situation, **data):
    situation.refresh_from_db()
    data.setdefault("version", situation.version)
    data.setdefault("nonce", uuid.uuid4().hex)
    return client.post(reverse("duels:mass-act", args=[situation.pk]), data)


def test_M1_the_event_setting_is_off_by_default_and_the_server_then_shuffles(event, referee, cards):
    assert event.magic_printed_decks is False
    red, blue = armies(event)
    battle = start(event, referee, red, blue)
    assert not state(battle).settings.printed_decks and all(n == 0 for n in state(battle).shuffled_part.values())


def test_M1_a_card_number_or_its_printed_qr_code_is_read_as_the_card():
    assert recorded_card("17") == 17 and recorded_card(" № 17 ") == 17
    assert recorded_card("http://192.168.1.10:8000/magic-cards/17/") == 17
    assert recorded_card("") is None
    with pytest.raises(ValueError):
        recorded_card("http://example.org/cards/17/")


def test_M1_M7_the_referee_records_the_drawn_card_and_a_card_out_of_place_is_refused(as_user, referee, printed, cards):
    client = as_user(referee)
    ready(printed, referee, 6, 1)  # red draws from deck 6: Flame Wall x2, Warm Wind
    page = client.get(reverse("duels:mass", args=[printed.pk])).content.decode()
    assert 'id="card-entry"' in page and "drawn-card" in page and 'id="deck-order-link"' in page
    assert "Order of the decks, top first" not in page  # the server's order means nothing here
    flame, warm = cards["Flame Wall"], cards["Warm Wind"]
    wrong = post(client, printed, action="points", side="a", card_entry=str(cards["Fire Rain"].pk))
    assert wrong.status_code == 422 and "belongs to deck 2, not deck 6" in wrong.content.decode()
    bad = post(client, printed, action="points", side="a", card_entry="a shopping list")
    assert bad.status_code == 400 and state(printed).pending is None
    qr = f"http://192.168.1.10:8000/magic-cards/{warm.pk}/"
    assert post(client, printed, action="points", side="a", card_entry=qr).status_code == 302
    st = state(printed)
    assert st.pending is not None and st.cards[st.pending.uid].card_id == warm.pk
    assert post(client, printed, action="carry_out", side="a", target_side="b").status_code == 302
    assert magic.deck_belief(state(printed), 6) == ([flame.pk, flame.pk], [warm.pk])  # M7: under the deck
    decks = client.get(reverse("duels:mass-decks", args=[printed.pk])).content.decode()
    assert "shuffled by hand" in decks and f"№ {flame.pk} «Flame Wall» ×2" in decks
    assert decks.index("Flame Wall") < decks.index("Warm Wind", decks.index('id="deck-6"'))
    act(printed, magic.EndTurn(side="a"), referee)
    act(printed, magic.UsePoints(side="b", warrior=wid(printed, "Blue spear 2")), referee)
    act(printed, magic.EndTurn(side="b"), referee)
    act(printed, magic.NextCycle(), referee)
    ready(printed, referee, 6, 1)
    under = post(client, printed, action="points", side="a", card=str(warm.pk))
    assert under.status_code == 422 and "lies under deck 6" in under.content.decode()
    assert post(client, printed, action="points", side="a", card=str(flame.pk)).status_code == 302
    assert_replays(printed)


def test_M1_the_printed_order_is_the_referees_only(as_user, printed, player, client):
    url = reverse("duels:mass-decks", args=[printed.pk])
    assert as_user(player).get(url).status_code == 404
    assert client.get(url).status_code in (302, 404)

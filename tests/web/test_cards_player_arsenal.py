"""Players restore or rebuild their own arsenal between fights, from the phone (S2, D3).

S2: after a combat situation ends, "each side may restore its arsenal to the
original or rebuild it"; D3: a prepared arsenal is taken whole. The pages call
the cards app's arsenal services, so the engine's ARSENAL check (limit, pool)
and the fight guard (AG2, D3) apply; these tests assert the database after
each request. Two ways in: the owner's account and the secret link.
"""

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from cards.models import ArsenalCard, Card, PoolEntry, PreparedArsenal, PreparedArsenalCard
from duels import services
from duels.duel.start import declare_aggression
from events.models import Character

ROLES = ["anonymous", "player", "other_player", "referee", "organizer", "other_organizer"]
ACTIONS = ["restore", "take", "build"]


@pytest.fixture
def anton(character, attack_card, defence_card, healing) -> Character:
    """Pool: Fireball 2, Mage Shield 1, Healing 3; in hand: Healing 1; before the last fight: Fireball, Shield."""
    PoolEntry.objects.create(character=character, card=attack_card, copies=2)
    PoolEntry.objects.create(character=character, card=defence_card, copies=1)
    PoolEntry.objects.create(character=character, card=healing, copies=3)
    ArsenalCard.objects.create(character=character, card=healing, copies=1)
    character.restorable_arsenal = [attack_card.pk, defence_card.pk]
    character.save()
    return character


@pytest.fixture
def night_plan(anton, attack_card, defence_card) -> PreparedArsenal:
    prepared = PreparedArsenal.objects.create(character=anton, name="Night plan")
    PreparedArsenalCard.objects.create(arsenal=prepared, card=attack_card, copies=2)
    PreparedArsenalCard.objects.create(arsenal=prepared, card=defence_card, copies=1)
    return prepared


def hand(character) -> dict[int, int]:
    return dict(ArsenalCard.objects.filter(character=character).values_list("card_id", "copies"))


def account_url(action: str, character: Character, prepared: PreparedArsenal | None = None) -> str:
    if action == "take":
        assert prepared is not None
        return reverse("cards:my-prepared-take", args=[character.pk, prepared.pk])
    return reverse(f"cards:my-arsenal-{action}", args=[character.pk])


def token_url(action: str, token: str, prepared: PreparedArsenal | None = None) -> str:
    if action == "take":
        assert prepared is not None
        return reverse("cards:player-prepared-take", args=[token, prepared.pk])
    return reverse(f"cards:player-arsenal-{action}", args=[token])


def build_data(**copies: int) -> dict[str, int]:
    return {f"card_{card_id}": n for card_id, n in copies.items()}


def post_action(client: Client, url: str, action: str, attack_card: Card, **kwargs):
    data = build_data(**{str(attack_card.pk): 1}) if action == "build" else {}
    return client.post(url, data, **kwargs)


def in_a_fight(anton, rival, referee, attack_card):
    """AG1: an aggression declared by a spoken declaration; the situation is open."""
    ArsenalCard.objects.create(character=rival, card=attack_card, copies=1)
    declare_aggression(anton.event, anton, rival, None, user=referee, nonce=uuid.uuid4().hex)
    assert services.in_active_situation(anton)


# --- who may act ---------------------------------------------------------------------------------


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("role", ROLES)
def test_account_routes_are_the_owners_only(role, action, personas, anton, night_plan, healing, attack_card, as_user):
    response = post_action(as_user(personas[role]), account_url(action, anton, night_plan), action, attack_card)
    if role == "anonymous":
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    elif role == "player":
        assert response.status_code == 302
        assert response["Location"] == reverse("events:my-character", args=[anton.pk])
    else:
        assert response.status_code == 404
    if role != "player":
        assert hand(anton) == {healing.pk: 1}
    else:
        assert hand(anton) != {healing.pk: 1}


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("role", ROLES)
def test_the_secret_link_is_the_key_whoever_holds_it(role, action, personas, anton, night_plan, attack_card, as_user):
    """Like the character page itself: the token opens it, with or without an account."""
    response = post_action(
        as_user(personas[role]), token_url(action, anton.link_token, night_plan), action, attack_card
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("events:character-link", args=[anton.link_token])


@pytest.mark.parametrize("action", ACTIONS)
def test_a_wrong_token_is_a_404(action, anton, night_plan, healing, attack_card, as_user):
    response = post_action(as_user(None), token_url(action, "not-the-token", night_plan), action, attack_card)
    assert response.status_code == 404
    assert hand(anton) == {healing.pk: 1}


@pytest.mark.parametrize("action", ACTIONS)
def test_a_revoked_link_is_a_404_and_changes_nothing(action, anton, night_plan, healing, attack_card, as_user):
    anton.revoke_link()
    response = post_action(as_user(None), token_url(action, anton.link_token, night_plan), action, attack_card)
    assert response.status_code == 404
    assert hand(anton) == {healing.pk: 1}


def test_a_regenerated_link_retires_the_old_token(anton, healing, as_user):
    old = anton.link_token
    anton.regenerate_link()
    assert as_user(None).post(token_url("restore", old)).status_code == 404
    assert hand(anton) == {healing.pk: 1}


@pytest.mark.parametrize("action", ACTIONS)
def test_token_routes_are_post_only(action, anton, night_plan, healing, as_user):
    assert as_user(None).get(token_url(action, anton.link_token, night_plan)).status_code == 405
    assert hand(anton) == {healing.pk: 1}


@pytest.mark.parametrize("action", ACTIONS)
def test_account_routes_are_post_only(action, anton, night_plan, player, as_user):
    assert as_user(player).get(account_url(action, anton, night_plan)).status_code == 405


def test_a_pending_character_has_no_arsenal_actions(anton, player, as_user):
    Character.objects.filter(pk=anton.pk).update(status=Character.Status.PENDING)
    assert as_user(player).post(account_url("restore", anton)).status_code == 404
    assert as_user(None).post(token_url("restore", anton.link_token)).status_code == 404


@pytest.mark.parametrize("via", ["account", "token"])
def test_csrf_is_required(via, anton, player, healing):
    client = Client(enforce_csrf_checks=True)
    if via == "account":
        client.force_login(player)
        url = account_url("restore", anton)
    else:
        url = token_url("restore", anton.link_token)
    assert client.post(url).status_code == 403
    assert hand(anton) == {healing.pk: 1}


def test_someone_elses_prepared_arsenal_cannot_be_taken(anton, rival, player, healing, attack_card, as_user):
    theirs = PreparedArsenal.objects.create(character=rival, name="Dark plan")
    PreparedArsenalCard.objects.create(arsenal=theirs, card=attack_card, copies=1)
    assert as_user(player).post(account_url("take", anton, theirs)).status_code == 404
    assert as_user(None).post(token_url("take", anton.link_token, theirs)).status_code == 404
    assert hand(anton) == {healing.pk: 1}


# --- what the actions do ---------------------------------------------------------------------------


def test_S2_restore_my_arsenal_puts_back_the_one_held_before_the_last_fight(
    anton, player, attack_card, defence_card, as_user
):
    response = as_user(player).post(account_url("restore", anton), follow=True)
    assert hand(anton) == {attack_card.pk: 1, defence_card.pk: 1}
    assert response.redirect_chain[-1][0] == reverse("events:my-character", args=[anton.pk])
    assert "The arsenal is restored to the original." in response.content.decode()


def test_S2_nothing_to_restore_is_a_message(anton, player, healing, as_user):
    Character.objects.filter(pk=anton.pk).update(restorable_arsenal=[])
    response = as_user(player).post(account_url("restore", anton), follow=True)
    assert "There is no original arsenal to restore yet." in response.content.decode()
    assert hand(anton) == {healing.pk: 1}


def test_D3_take_a_prepared_arsenal_whole(anton, night_plan, player, attack_card, defence_card, as_user):
    response = as_user(player).post(account_url("take", anton, night_plan), follow=True)
    assert hand(anton) == {attack_card.pk: 2, defence_card.pk: 1}
    assert "“Night plan” is now the current arsenal." in response.content.decode()


def test_D3_a_prepared_arsenal_no_longer_covered_by_the_pool_is_refused(
    anton, night_plan, player, attack_card, healing, as_user
):
    PoolEntry.objects.filter(character=anton, card=attack_card).update(copies=1)
    response = as_user(player).post(account_url("take", anton, night_plan), follow=True)
    assert "The arsenal has 2 copies of card «Fireball»; the pool holds only 1." in response.content.decode()
    assert hand(anton) == {healing.pk: 1}


def test_S2_D3_build_anew_saves_the_chosen_copies(anton, player, attack_card, defence_card, healing, as_user):
    data = build_data(**{str(attack_card.pk): 2, str(defence_card.pk): 1, str(healing.pk): 0})
    response = as_user(player).post(account_url("build", anton), data, follow=True)
    assert hand(anton) == {attack_card.pk: 2, defence_card.pk: 1}
    assert "The current arsenal is saved: 3 cards." in response.content.decode()


def test_ARSENAL_build_anew_over_the_limit_is_refused(anton, player, attack_card, defence_card, healing, as_user):
    Character.objects.filter(pk=anton.pk).update(arsenal_limit=3)
    data = build_data(**{str(attack_card.pk): 2, str(defence_card.pk): 1, str(healing.pk): 1})
    client = as_user(player)
    response = client.post(account_url("build", anton), data, follow=True)
    html = response.content.decode()
    assert "An arsenal holds at most 3 cards; this one has 4." in html
    assert hand(anton) == {healing.pk: 1}
    # Issue 10: the form comes back open with what the player typed, not the old arsenal, and no rule code.
    assert '<details class="mb-3" id="build-my-arsenal" open>' in html
    assert f'id="build-card-{attack_card.pk}"' in html
    typed = html[html.index(f'id="build-card-{attack_card.pk}"') :]
    assert 'value="2"' in typed[: typed.index(">")]
    typed = html[html.index(f'id="build-card-{healing.pk}"') :]
    assert 'value="1"' in typed[: typed.index(">")]
    assert "(ARSENAL)" not in html and 'class="rule-ref"' not in html
    # Shown once: a reload shows the arsenal as it is.
    again = as_user(player).get(f"/characters/{anton.pk}/").content.decode()
    assert 'build-my-arsenal" open>' not in again and '<details class="mb-3" id="build-my-arsenal">' in again


def test_ARSENAL_build_anew_with_a_card_outside_the_pool_is_refused(anton, player, stranger_card, healing, as_user):
    response = as_user(player).post(account_url("build", anton), build_data(**{str(stranger_card.pk): 1}), follow=True)
    assert "Card «Call of Darkness» is not in this character&#x27;s pool." in response.content.decode()
    assert hand(anton) == {healing.pk: 1}


def test_ARSENAL_build_anew_with_more_copies_than_owned_is_refused(anton, player, defence_card, healing, as_user):
    response = as_user(player).post(account_url("build", anton), build_data(**{str(defence_card.pk): 2}), follow=True)
    assert "The arsenal has 2 copies of card «Mage Shield»; the pool holds only 1." in response.content.decode()
    assert hand(anton) == {healing.pk: 1}


@pytest.mark.parametrize("value", ["many", "-1", "100"])
def test_build_anew_with_bad_numbers_is_a_message(value, anton, player, attack_card, healing, as_user):
    response = as_user(player).post(account_url("build", anton), {f"card_{attack_card.pk}": value}, follow=True)
    assert "Copies must be a whole number from 0 to 99." in response.content.decode()
    assert hand(anton) == {healing.pk: 1}


def test_build_anew_naming_an_impossible_card_id_is_a_message(anton, player, healing, as_user):
    response = as_user(player).post(account_url("build", anton), {f"card_{'9' * 25}": "1"}, follow=True)
    assert response.status_code == 200
    assert "The selection names a card that does not exist." in response.content.decode()
    assert hand(anton) == {healing.pk: 1}


def test_F1_a_focus_on_a_card_no_longer_held_is_dropped(anton, player, healing, attack_card, as_user):
    Character.objects.filter(pk=anton.pk).update(focus_card=healing)
    as_user(player).post(account_url("build", anton), build_data(**{str(attack_card.pk): 1}))
    anton.refresh_from_db()
    assert hand(anton) == {attack_card.pk: 1} and anton.focus_card is None


@pytest.mark.parametrize("via", ["account", "token"])
@pytest.mark.parametrize("action", ACTIONS)
def test_D3_AG2_refused_while_in_an_unfinished_fight(
    via, action, anton, night_plan, rival, referee, player, healing, attack_card, as_user
):
    in_a_fight(anton, rival, referee, attack_card)
    if via == "account":
        client, url = as_user(player), account_url(action, anton, night_plan)
    else:
        client, url = as_user(None), token_url(action, anton.link_token, night_plan)
    response = post_action(client, url, action, attack_card, follow=True)
    assert response.status_code == 200
    assert "Anton is in a fight that has not ended" in response.content.decode()
    assert hand(anton) == {healing.pk: 1}


@pytest.mark.parametrize("action", ACTIONS)
def test_S2_D3_via_the_secret_link_without_an_account(action, anton, night_plan, attack_card, as_user):
    response = post_action(as_user(None), token_url(action, anton.link_token, night_plan), action, attack_card)
    assert response.status_code == 302
    expected = {
        "restore": {attack_card.pk: 1, anton.restorable_arsenal[1]: 1},
        "take": {attack_card.pk: 2, anton.restorable_arsenal[1]: 1},
        "build": {attack_card.pk: 1},
    }[action]
    assert hand(anton) == expected


# --- the page ------------------------------------------------------------------------------------


def test_the_account_page_offers_the_actions(anton, night_plan, player, attack_card, healing, as_user):
    content = as_user(player).get(reverse("events:my-character", args=[anton.pk])).content.decode()
    assert f'action="{account_url("restore", anton)}"' in content
    assert f'action="{account_url("take", anton, night_plan)}"' in content
    assert f'action="{account_url("build", anton)}"' in content
    assert "Take “Night plan”" in content
    # The build form starts from the cards in hand.
    assert f'name="card_{healing.pk}"' in content and f'name="card_{attack_card.pk}"' in content
    assert 'max="3"' in content and 'value="1"' in content
    assert "csrfmiddlewaretoken" in content


def test_the_link_page_posts_to_the_token_routes(anton, night_plan, as_user):
    content = as_user(None).get(reverse("events:character-link", args=[anton.link_token])).content.decode()
    assert f'action="{token_url("restore", anton.link_token)}"' in content
    assert f'action="{token_url("take", anton.link_token, night_plan)}"' in content
    assert f'action="{token_url("build", anton.link_token)}"' in content
    assert reverse("cards:my-arsenal-restore", args=[anton.pk]) not in content


def test_no_restore_button_before_the_first_fight(anton, player, as_user):
    Character.objects.filter(pk=anton.pk).update(restorable_arsenal=[])
    content = as_user(player).get(reverse("events:my-character", args=[anton.pk])).content.decode()
    assert "Restore my arsenal" not in content and "Build anew" in content


def test_S2_the_player_page_offers_no_arsenal_change_during_a_fight(
    as_user, player, anton, rival, referee, attack_card
):
    """While the fight goes on the page says why instead of offering buttons that would be refused."""
    page = reverse("events:my-character", args=[anton.pk])
    assert 'id="player-arsenal-actions"' in as_user(player).get(page).content.decode()
    in_a_fight(anton, rival, referee, attack_card)
    html = as_user(player).get(page).content.decode()
    assert 'id="player-arsenal-actions"' not in html and 'id="arsenal-locked"' in html

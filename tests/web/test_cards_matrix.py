"""The counter rules matrix (CR2): one POST saves the whole matrix; the queries do not grow with its size."""

import pytest
from django.urls import reverse

from cards.models import Card, CounterRule


def url(event):
    return reverse("cards:counter-matrix", args=[event.pk])


def rules(catalogue) -> set[tuple[int, int | None, str, str]]:
    return set(
        CounterRule.objects.filter(defence_card__catalogue=catalogue).values_list(
            "defence_card_id", "attack_card_id", "attack_tag", "outcome"
        )
    )


def test_CR2_matrix_save_round_trip(org, event, catalogue, attack_card, defence_card):
    card_cell = f"c-{defence_card.pk}-{attack_card.pk}"
    tag_cell = f"t-{defence_card.pk}-fire"
    response = org.get(url(event))
    content = response.content.decode()
    assert f'name="{card_cell}"' in content and f'name="{tag_cell}"' in content

    org.post(url(event), {card_cell: "parried", tag_cell: "softened"})
    assert rules(catalogue) == {
        (defence_card.pk, attack_card.pk, "", "parried"),
        (defence_card.pk, None, "fire", "softened"),
    }
    content = org.get(url(event)).content.decode()
    assert '<option value="parried" selected>' in content
    assert '<option value="softened" selected>' in content

    # Change one, clear the other: one update, one delete.
    response = org.post(url(event), {card_cell: "not_parried", tag_cell: ""}, follow=True)
    assert rules(catalogue) == {(defence_card.pk, attack_card.pk, "", "not_parried")}
    assert "Counter rules saved: 2 changed." in response.content.decode()


def test_CR2_cells_left_out_of_the_post_keep_their_rules(org, event, catalogue, attack_card, defence_card):
    CounterRule.objects.create(defence_card=defence_card, attack_card=attack_card, outcome="parried")
    org.post(url(event), {f"t-{defence_card.pk}-fire": "softened"})
    assert (defence_card.pk, attack_card.pk, "", "parried") in rules(catalogue)


def test_CR2_the_matrix_shows_what_tag_rules_propose_for_a_card_without_its_own_rule(
    org, event, attack_card, defence_card
):
    CounterRule.objects.create(defence_card=defence_card, attack_tag="fire", outcome="parried")
    content = org.get(url(event)).content.decode()
    assert "(by tag: parries)" in content
    # A card-specific rule beats the tag rule: no proposal is shown for that cell any more.
    CounterRule.objects.create(defence_card=defence_card, attack_card=attack_card, outcome="not_parried")
    content = org.get(url(event)).content.decode()
    assert "(by tag: parries)" not in content


@pytest.mark.parametrize(
    "bad",
    [
        {"c-{d}-999999": "parried"},  # an attack card that no longer exists
        {"c-{a}-{a}": "parried"},  # an attack card as a defence row
        {"c-{d}-{a}": "beats everything"},  # an outcome that does not exist
        {"t-{d}-unknown": "parried"},  # a tag no column has
        {"c-{d}-x": "parried"},
    ],
)
def test_CR2_a_stale_or_forged_matrix_saves_nothing(org, event, catalogue, attack_card, defence_card, bad):
    cells = {key.format(d=defence_card.pk, a=attack_card.pk): value for key, value in bad.items()}
    data = {f"t-{defence_card.pk}-fire": "parried", **cells}
    response = org.post(url(event), data, follow=True)
    assert "nothing was saved" in response.content.decode()
    assert rules(catalogue) == set()


def test_referee_sees_the_matrix_read_only(as_user, referee, event, attack_card, defence_card):
    CounterRule.objects.create(defence_card=defence_card, attack_card=attack_card, outcome="softened")
    client = as_user(referee)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    content = client.get(url(event)).content.decode()
    assert "<select" not in content
    assert "softens" in content


def _catalogue_of(catalogue, size: int) -> tuple[list[Card], list[Card]]:
    attacks = Card.objects.bulk_create(
        Card(catalogue=catalogue, name_ru=f"Атака {i}", kind="attack", tags=f"t{i % 4}, common") for i in range(size)
    )
    defences = Card.objects.bulk_create(
        Card(catalogue=catalogue, name_ru=f"Защита {i}", kind="defence") for i in range(size)
    )
    CounterRule.objects.bulk_create(
        CounterRule(defence_card=d, attack_card=a, outcome="parried") for d in defences[::2] for a in attacks[::3]
    )
    CounterRule.objects.bulk_create(
        CounterRule(defence_card=d, attack_tag="common", outcome="softened") for d in defences
    )
    return attacks, defences


@pytest.mark.parametrize("size", [5, 30])
def test_CR2_matrix_queries_stay_bounded_for_5_and_30_cards(org, event, catalogue, size, django_assert_max_num_queries):
    attacks, defences = _catalogue_of(catalogue, size)
    with django_assert_max_num_queries(8):
        response = org.get(url(event))
    assert response.status_code == 200
    assert response.content.decode().count("<select") == size * (size + 5)  # attack cards + 5 tags

    # Flip every cell: creates, updates and deletes in one POST.
    data = {}
    for d in defences:
        for a in attacks:
            data[f"c-{d.pk}-{a.pk}"] = "softened" if (d.pk + a.pk) % 2 else ""
        data[f"t-{d.pk}-common"] = ""
        data[f"t-{d.pk}-t1"] = "parried"
    with django_assert_max_num_queries(16):
        org.post(url(event), data)
    expected: set[tuple[int, int | None, str, str]] = {
        (d.pk, a.pk, "", "softened") for d in defences for a in attacks if (d.pk + a.pk) % 2
    }
    expected |= {(d.pk, None, "t1", "parried") for d in defences}
    assert rules(catalogue) == expected

"""Cyrillic names are found in any letter case on SQLite and PostgreSQL (issue 10): the gate's
check-in, the organizers' characters list and the referee's search."""

import pytest
from django.urls import reverse

from events.models import Character
from events.search import name_matches

pytestmark = pytest.mark.django_db
QUERIES = ["ант", "АНТОН", "городецкий", "Городецкий", "антон гор", "Семён", "семен"]


@pytest.fixture
def named(event):
    anton = Character.objects.create(event=event, name="Антон Городецкий")
    semyon = Character.objects.create(event=event, name="Семён")
    Character.objects.create(event=event, name="Завулон")
    return anton, semyon


@pytest.mark.parametrize("query", QUERIES)
def test_a_part_of_a_cyrillic_name_is_found_in_any_case_on_this_database(named, event, query):
    anton, semyon = named
    found = set(Character.objects.filter(name_matches(query), event=event))
    expected = {semyon} if query.lower() in ("семён", "семен") else {anton}
    assert found == expected


def test_regular_expression_characters_are_taken_literally(event):
    Character.objects.create(event=event, name="Антон (2)")
    assert Character.objects.filter(name_matches("(2"), event=event).count() == 1
    assert Character.objects.filter(name_matches(".*"), event=event).count() == 0


def test_the_gate_the_characters_list_and_the_referee_find_antons_in_capitals(
    as_user, organizer, referee, named, event
):
    org = as_user(organizer)
    gate = org.get(reverse("events:check-in", args=[event.pk]), {"q": "АНТОН"}).content.decode()
    listing = org.get(reverse("events:characters", args=[event.pk]), {"q": "городецкий"}).content.decode()
    ref = as_user(referee).get(reverse("duels:referee-home", args=[event.pk]), {"q": "ант"}).content.decode()
    for html in (gate, listing, ref):
        assert "Антон Городецкий" in html and "Завулон" not in html

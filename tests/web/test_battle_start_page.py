"""[D5] The battle's start page with thousands of characters (issue 20): a picker and the chosen few.

Only the chosen combatants are table rows; everyone else who can fight now is one
option of one list box (grouped checked-in first, by side), so the page's length
does not grow with the event. "Add" and "take out" redraw the page and start nothing.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from duels.models import Situation
from events.models import Character, Side
from tests.services.battle_kit import battle_state, begin, party
from tests.services.kit import nonce

pytestmark = pytest.mark.django_db
MANY = 2000


def many(event, n=MANY):
    sides = [Side.LIGHT, Side.DARK, Side.INQUISITION]
    Character.objects.bulk_create(
        Character(event=event, name=f"Crowd {i:04d}", side=sides[i % 3], arrived=i % 5 == 0) for i in range(n)
    )


def start(client, event, **data):
    return client.post(reverse("duels:battle-start", args=[event.pk]), {"nonce": nonce(), **data})


def test_two_thousand_characters_are_options_not_rows(as_user, referee, event):
    many(event)
    client = as_user(referee)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("duels:battle-start", args=[event.pk])).content.decode()
    assert page.count('<tr id="chosen-') == 0
    assert page.count("<option value=") - page.count('name="side_') == MANY  # each once, in the picker
    assert 'data-filter-for="id_pick"' in page and 'id="add-combatant"' in page
    assert len(queries) < 20  # not one per character


def test_the_picker_puts_checked_in_first_by_side_and_leaves_out_who_cannot_join(as_user, referee, event):
    _anna, boris, _vera, gleb = party(event)
    Character.objects.filter(pk=boris.pk).update(arrived=True)
    Character.objects.filter(pk=gleb.pk).update(condition="paralysed")  # D11: cannot fight
    busy = party(event, 3, first=4)
    begin(event, busy, referee)
    page = as_user(referee).get(reverse("duels:battle-start", args=[event.pk])).content.decode()
    picker = page[page.index('id="id_pick"') : page.index("</select>", page.index('id="id_pick"'))]
    groups = re.findall(r'<optgroup label="([^"]+)">', picker)
    assert groups == ["Light · checked in", "Light · not checked in", "Dark · not checked in"]
    assert f'value="{boris.pk}"' in picker.split("not checked in")[0]
    assert f'value="{gleb.pk}"' not in picker  # paralysed
    assert all(f'value="{c.pk}"' not in picker for c in busy)  # in a running battle


def test_add_and_take_out_redraw_the_page_and_start_nothing(as_user, referee, event, people):
    anna, boris, vera, gleb = people
    client = as_user(referee)
    response = start(client, event, intent="add", pick=[anna.pk, vera.pk])
    page = response.content.decode()
    assert response.status_code == 200 and not Situation.objects.exists()
    assert f'id="chosen-{anna.pk}"' in page and f'id="chosen-{vera.pk}"' in page
    # The first chosen declared it, unless the referee says otherwise; the chosen leave the picker.
    assert re.search(rf'name="declarer" value="{anna.pk}" checked', page)
    picker = page[page.index('id="id_pick"') : page.index("</select>", page.index('id="id_pick"'))]
    assert f'value="{anna.pk}"' not in picker and f'value="{boris.pk}"' in picker
    kept = {"combatants": [anna.pk, vera.pk], f"side_{vera.pk}": "inquisition", "declarer": vera.pk}
    page = start(client, event, intent="add", pick=[boris.pk, gleb.pk], **kept).content.decode()
    assert all(f'id="chosen-{c.pk}"' in page for c in people)
    assert '<option value="inquisition" selected>' in page  # Vera's side survives the redraw
    assert re.search(rf'name="declarer" value="{vera.pk}" checked', page)
    page = start(client, event, intent=f"drop:{gleb.pk}", combatants=[c.pk for c in people]).content.decode()
    assert f'id="chosen-{gleb.pk}"' not in page and f'id="chosen-{boris.pk}"' in page
    assert not Situation.objects.exists()
    response = start(client, event, intent="start", combatants=[anna.pk, boris.pk, vera.pk], declarer=vera.pk)
    situation = Situation.objects.get()
    assert response.status_code == 302 and battle_state(situation).turn_of == vera.pk


def test_a_side_no_battle_knows_is_refused(as_user, referee, event, people):
    anna, boris, vera, _gleb = people
    response = start(
        as_user(referee), event, combatants=[anna.pk, boris.pk, vera.pk], declarer=anna.pk, **{f"side_{anna.pk}": "x"}
    )
    assert response.status_code == 400 and not Situation.objects.exists()


def test_add_a_combatant_on_the_tablet_is_grouped_by_side_checked_in_first_and_filterable(
    as_user, referee, event, people
):
    begin(event, people[:3], referee)
    situation = Situation.objects.get()
    late, early, dark = (
        Character.objects.create(event=event, name="Zoe", side=Side.LIGHT),
        Character.objects.create(event=event, name="Yan", side=Side.LIGHT, arrived=True),
        Character.objects.create(event=event, name="Xena", side=Side.DARK),
    )
    page = as_user(referee).get(reverse("duels:battle", args=[situation.pk])).content.decode()
    join = page[page.index('id="join-character"') : page.index("</select>", page.index('id="join-character"'))]
    assert 'data-filter-for="join-character"' in page
    assert re.findall(r'<optgroup label="([^"]+)">', join) == ["Dark", "Light"]
    light = join[join.index('label="Light"') :]
    assert light.index(f'value="{early.pk}">✓ Yan') < light.index(f'value="{late.pk}">Zoe')
    assert f'value="{dark.pk}"' in join and f'value="{people[0].pk}"' not in join  # Anna is fighting

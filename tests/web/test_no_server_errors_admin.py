"""The admin (superusers only) with bad input: garbage filters, ordering, pages, searches and ids.

Never a 500; a refused change leaves the database as it was; anyone else is sent
to the admin's login, whatever they ask for.
"""

import pytest
from django.contrib.auth.models import User
from django.db import transaction

from tests.web.no_server_errors_kit import HUGE, HX, ROLES, fingerprint

pytestmark = pytest.mark.django_db

CHANGELISTS = [
    "events/event",
    "events/staffrole",
    "events/character",
    "cards/catalogue",
    "cards/card",
    "cards/counterrule",
    "cards/preparedarsenal",
    "duels/situation",
    "duels/logentry",
]
BAD_QUERIES = [
    "o=abc",
    "o=99.-1.x",
    "p=abc",
    f"p={HUGE}",
    "q=%00nul",
    "q=%FF%FE",
    "q=" + "x" * 3000,
    "e=1",
    "all=",
    "status__exact=bogus",
    "event__id__exact=abc",
    f"event__id__exact={HUGE}",
    "catalogue__id__exact=-1",
    "ended__exact=maybe",
    "no_such_field=1",
    "_popup=1&_to_field=password",
]


@pytest.fixture
def superuser(db) -> User:
    return User.objects.create_superuser("root", password="pass-root")


def _get(client, url, **kwargs):
    with transaction.atomic():
        response = client.get(url, **kwargs)
        transaction.set_rollback(True)
    return response


@pytest.mark.parametrize("page", CHANGELISTS)
def test_changelists_and_change_pages_with_garbage(page, world, superuser, as_user):
    client = as_user(superuser)
    before = fingerprint()
    model = page.split("/")[1]
    real = {
        "event": world.event.pk,
        "character": world.character.pk,
        "card": world.attack.pk,
        "situation": world.running.pk,
    }.get(model, 1)
    urls = [f"/admin/{page}/?{query}" for query in BAD_QUERIES]
    urls += [f"/admin/{page}/{pk}/change/" for pk in (real, "abc", HUGE, 987654, "-1", "%00")]
    urls += [f"/admin/{page}/{real}/delete/", f"/admin/{page}/{real}/history/", f"/admin/{page}/abc/delete/"]
    for url in urls:
        response = _get(client, url, headers=HX)
        assert response.status_code < 500, url
        # 400: a popup's _to_field that is no relation's target; 403: the log is never deleted.
        assert response.status_code in (200, 302, 400, 403, 404), (url, response.status_code)
    assert fingerprint() == before


def test_admin_refuses_garbage_changes_and_actions(world, superuser, as_user):
    client = as_user(superuser)
    before = fingerprint()
    character = world.character
    posts = [
        (f"/admin/events/character/{character.pk}/change/", {"name": "", "event": "abc", "condition": "zombie"}),
        (f"/admin/events/character/{character.pk}/change/", {"name": "\x00", "event": HUGE, "arsenal_limit": "-7"}),
        (f"/admin/events/event/{world.event.pk}/change/", {"name": "x", "starts_on": "2026-13-45", "ends_on": "abc"}),
        (f"/admin/cards/card/{world.attack.pk}/change/", {"catalogue": HUGE, "kind": "sideways", "name_ru": ""}),
        ("/admin/events/character/", {"action": "revoke_links", "_selected_action": ["abc", HUGE]}),
        ("/admin/events/character/", {"action": "no_such_action", "_selected_action": [character.pk]}),
        ("/admin/events/character/", {"action": "revoke_links", "index": "abc"}),
        ("/admin/duels/situation/", {"action": "export_json", "_selected_action": [HUGE]}),
        (f"/admin/events/character/{HUGE}/delete/", {"post": "yes"}),
    ]
    for url, data in posts:
        with transaction.atomic():
            response = client.post(url, data)
            changed = fingerprint() != before
            transaction.set_rollback(True)
        assert response.status_code < 500, url
        assert not changed, (url, data)


def test_admin_autocomplete_with_garbage(world, superuser, as_user):
    client = as_user(superuser)
    queries = [
        {"term": "\x00", "app_label": "events", "model_name": "character", "field_name": "player"},
        {"term": "A", "app_label": "events", "model_name": "character", "field_name": "no_such_field"},
        {"term": "A", "app_label": "nope", "model_name": "nope", "field_name": "nope"},
        {"term": "A", "page": "abc", "app_label": "cards", "model_name": "counterrule", "field_name": "attack_card"},
        {},
    ]
    for query in queries:
        response = _get(client, "/admin/autocomplete/", data=query)
        assert response.status_code in (200, 403, 404), (query, response.status_code)


@pytest.mark.parametrize("role", [role for role in ROLES if role != "superuser"])
def test_admin_is_only_for_superusers(role, world, sweep_personas, as_user):
    client = as_user(sweep_personas[role])
    for url in ["/admin/", "/admin/events/character/?o=abc", f"/admin/events/character/{world.character.pk}/change/"]:
        response = _get(client, url)
        assert response.status_code == 302, (role, url)
        assert response["Location"].startswith("/admin/login/")

"""The admin shows fights read-only and exports them; it never edits the log."""

import json

import pytest

from duels.duel.start import declare_aggression
from duels.models import LogEntry
from tests.services.kit import nonce

pytestmark = pytest.mark.django_db


def test_admin_lists_shows_and_exports_situations_but_cannot_change_the_log(admin_client_, armed, referee):
    anton, zavulon = armed
    situation = declare_aggression(anton.event, anton, zavulon, None, user=referee, nonce=nonce()).situation
    assert admin_client_.get("/admin/duels/situation/").status_code == 200
    page = admin_client_.get(f"/admin/duels/situation/{situation.pk}/change/")
    assert page.status_code == 200 and b"declare_aggression" in page.content
    exported = admin_client_.post(
        "/admin/duels/situation/", {"action": "export_json", "_selected_action": [situation.pk]}
    )
    assert exported.status_code == 200
    assert json.loads(exported.content)[0]["situation"]["id"] == situation.pk
    entry = LogEntry.objects.filter(situation=situation).earliest("seq")
    assert admin_client_.get(f"/admin/duels/logentry/{entry.pk}/change/").status_code == 200
    assert admin_client_.post(f"/admin/duels/logentry/{entry.pk}/delete/").status_code == 403
    assert LogEntry.objects.filter(pk=entry.pk).exists()


@pytest.mark.parametrize("entries", [5, 60])
def test_a_situations_admin_page_costs_the_same_queries_however_long_its_log(
    admin_client_, armed, referee, entries, django_assert_max_num_queries
):
    anton, zavulon = armed
    situation = declare_aggression(anton.event, anton, zavulon, None, user=referee, nonce=nonce()).situation
    last = situation.log.latest("seq")
    LogEntry.objects.bulk_create(
        LogEntry(situation=situation, seq=last.seq + 1 + i, kind="command", command={}, at=last.at, actor=referee)
        for i in range(entries)
    )
    with django_assert_max_num_queries(14):
        page = admin_client_.get(f"/admin/duels/situation/{situation.pk}/change/")
    assert page.status_code == 200 and page.content.decode().count(referee.username) >= entries

"""The lab's pages and the post-game report on the site (issue 15): who may see them, what they show."""

import pytest
from django.urls import reverse

from cards.models import Card
from events.models import StaffRole
from lab.models import LabRun
from lab.runner import execute
from tests.lab.lab_kit import start

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(demo_organizer):
    return demo_organizer


def test_an_organizer_starts_a_run_and_reads_its_report(organizer, demo_event, monkeypatch):
    queued = []
    monkeypatch.setattr("lab.views.run_lab.delay", lambda run_id: queued.append(run_id))
    response = start(organizer, demo_event)
    run = LabRun.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("lab:run", args=[run.pk])
    assert (run.total, run.settings["seed"], run.status) == (60, 42, LabRun.Status.QUEUED)
    assert run.arsenals and run.counters and run.faces
    page = organizer.get(reverse("lab:run", args=[run.pk])).content.decode()
    assert 'id="lab-progress"' in page and "hx-get" in page
    execute(run.pk)
    polled = organizer.get(reverse("lab:run", args=[run.pk]), headers={"HX-Request": "true"})
    assert polled["HX-Redirect"] == reverse("lab:run", args=[run.pk])
    report = organizer.get(reverse("lab:run", args=[run.pk])).content.decode()
    assert "<svg" in report and "Match-ups" in report and 'id="lab-findings"' in report
    assert "Attack cards" in report and "Defence cards" in report


def test_a_bad_form_starts_nothing(organizer, demo_event):
    response = start(organizer, demo_event, duels="0", instant_percent="120")
    assert response.status_code == 200 and not LabRun.objects.exists()


def test_a_queued_run_can_be_stopped(organizer, demo_event, monkeypatch):
    monkeypatch.setattr("lab.views.run_lab.delay", lambda run_id: None)
    start(organizer, demo_event)
    run = LabRun.objects.get()
    organizer.post(reverse("lab:cancel", args=[run.pk]))
    assert execute(run.pk).status == LabRun.Status.CANCELLED


def test_two_runs_compare_side_by_side(organizer, demo_event, monkeypatch):
    monkeypatch.setattr("lab.views.run_lab.delay", lambda run_id: None)
    start(organizer, demo_event, seed="1")
    start(organizer, demo_event, seed="2", policy="random")
    first, second = LabRun.objects.order_by("pk")
    execute(first.pk), execute(second.pk)
    page = organizer.get(reverse("lab:compare", args=[demo_event.pk]), {"a": first.pk, "b": second.pk})
    assert 'id="compare-table"' in page.content.decode()


@pytest.mark.parametrize("username", ["referee", "anton"])
def test_only_organizers_use_the_lab(username, demo_event, client, django_user_model):
    client.force_login(django_user_model.objects.get(username=username))
    assert client.get(reverse("lab:home", args=[demo_event.pk])).status_code == 404
    assert client.post(reverse("lab:home", args=[demo_event.pk]), {"duels": "10"}).status_code == 404
    assert not LabRun.objects.exists()


def test_the_post_game_report_is_for_referees_and_organizers(demo_event, client, django_user_model):
    for username, status in (("referee", 200), ("organizer", 200), ("anton", 404)):
        client.force_login(django_user_model.objects.get(username=username))
        assert client.get(reverse("lab:postgame", args=[demo_event.pk])).status_code == status


def test_report_downloads_neutralize_formulas(demo_event, client, django_user_model):
    """A card named like a formula stays text in the CSV a spreadsheet opens (issue 13)."""
    from tests.demo_kit import play_the_demo

    for card in Card.objects.filter(catalogue=demo_event.catalogue, kind="attack"):
        Card.objects.filter(pk=card.pk).update(name_ru=f"=HYPERLINK({card.pk})", name_en=f"=HYPERLINK({card.pk})")
    play_the_demo(demo_event)
    referee = django_user_model.objects.get(username="referee")
    assert StaffRole.objects.filter(user=referee, event=demo_event).exists()
    client.force_login(referee)
    url = reverse("lab:postgame", args=[demo_event.pk])
    csv = client.get(url, {"download": "attack_cards", "format": "csv"}).content.decode()
    assert "'=HYPERLINK(" in csv and "\n=HYPERLINK" not in csv and ",=HYPERLINK" not in csv
    xlsx = client.get(url, {"download": "kinds", "format": "xlsx"})
    assert xlsx.status_code == 200 and xlsx.content[:2] == b"PK"
    assert client.get(url, {"download": "nothing", "format": "csv"}).status_code == 400

"""The balance lab and the post-game report on an organizer's tablet (issue 15), with screenshots."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

import demo
from lab.models import LabRun
from lab.runner import execute
from tests.demo_kit import play_the_demo

pytestmark = pytest.mark.browser


@pytest.fixture
def demo_event(transactional_db, monkeypatch):
    monkeypatch.setattr("lab.views.run_lab.delay", lambda run_id: None)
    monkeypatch.setattr("duels.services.store.schedule_expiry", lambda situation_id, deadline: None)
    return demo.load()


def test_a_lab_run_from_the_form_to_its_report(tablet_page, url, log_in_as, screenshot, demo_event):
    page = tablet_page
    log_in_as(page, User.objects.get(username="organizer"))
    page.goto(url("lab:home", demo_event.pk))
    page.fill("#id_duels", "400")
    page.fill("#id_seed", "2026")
    page.click("#lab-form button[type=submit]")
    expect(page.locator("#lab-progress")).to_be_visible()
    run = LabRun.objects.get()
    # The page polls; the in-memory SQLite of a local run shares one connection with the
    # server thread, so the run's row is changed only while no page is open.
    page.goto("about:blank")
    LabRun.objects.filter(pk=run.pk).update(status=LabRun.Status.RUNNING, done=150)
    page.goto(url("lab:run", run.pk))
    expect(page.locator("#lab-bar")).to_have_attribute("value", "150")
    screenshot(page, "progress")
    page.goto("about:blank")
    LabRun.objects.filter(pk=run.pk).update(status=LabRun.Status.QUEUED, done=0)
    assert execute(run.pk).status == LabRun.Status.DONE
    page.goto(url("lab:run", run.pk))
    expect(page.locator("#lab-findings")).to_be_visible()
    expect(page.locator("svg.heat")).to_be_visible()
    screenshot(page, "report")


def test_the_post_game_report_on_a_tablet(tablet_page, url, log_in_as, screenshot, demo_event):
    play_the_demo(demo_event)
    page = tablet_page
    log_in_as(page, User.objects.get(username="referee"))
    page.goto(url("lab:postgame", demo_event.pk))
    expect(page.locator("#postgame-summary")).to_contain_text("2")
    expect(page.locator("#table-attack_cards tbody tr").first).to_be_visible()
    screenshot(page)

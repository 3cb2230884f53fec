"""IA3 "draws from real cards" from the tablet: the QR code of the product's own printed card is the record.

The victim's cards are printed by the product (its PDF), the page is rasterised (pdftoppm)
and the QR codes decoded (zbarimg), as a scanner would read the card in the referee's
hand; the decoded address typed into the start page is accepted as the drawn card.
"""

import re
import shutil
import subprocess

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from cards.printing import render
from duels import services
from duels.models import LogEntry, Situation

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("secret_hands")]
PUBLIC = "http://192.168.7.2:8000"


def _printed_qr_codes(organizer, character, tmp_path) -> list[str]:
    for tool in ("pdftoppm", "zbarimg"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (poppler-utils, zbar-tools)")
    if not render.pdf_available():
        pytest.skip("WeasyPrint's libraries (Pango) are not installed")
    client = Client()
    client.force_login(organizer)
    response = client.get(reverse("cards:print-cards", args=[character.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pdf = tmp_path / "cards.pdf"
    pdf.write_bytes(response.content)
    subprocess.run(
        ["pdftoppm", "-r", "200", "-f", "1", "-l", "1", "-png", str(pdf), str(tmp_path / "page")], check=True
    )
    png = next(tmp_path.glob("page*.png"))
    out = subprocess.run(["zbarimg", "-q", "--raw", str(png)], capture_output=True, text=True)
    return [line.strip() for line in out.stdout.splitlines() if line.strip()]


def test_IA3_real_cards_the_printed_cards_QR_is_accepted_as_the_drawn_card(
    tablet, log_in_as, url, screenshot, settings, referee, organizer, armed, event, attack_card, spark, tmp_path
):
    settings.SUMRAK_PUBLIC_URL = PUBLIC
    anton, zavulon = armed
    event.physical_draws = True
    event.save(update_fields=["physical_draws"])
    codes = _printed_qr_codes(organizer, zavulon, tmp_path)
    spark_code = PUBLIC + reverse("cards:card-entry", args=[spark.pk])
    assert spark_code in codes, codes

    page = tablet()
    log_in_as(page, referee)
    page.goto(url("duels:start", event.pk) + f"?a={anton.pk}&b={zavulon.pk}")
    form = page.locator("#instant-form")
    form.locator("label[for=sight-yes]").click()
    form.locator("label[for=reach-yes]").click()
    form.locator(f"label[for=ia-card-{attack_card.pk}]").click()
    form.locator("#id_drawn_code").fill(spark_code)  # what a scanner types
    screenshot(page, "start")
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/fights/\d+/$"))
    situation = Situation.objects.get()
    expect(page.locator("#duel-0")).to_have_attribute("data-phase", "await_result")
    expect(page.locator("#duel-0")).to_contain_text(spark.name_en)
    expect(page.locator(".fight-log")).to_contain_text("drawn from the real cards")
    st = services.state_of(situation)
    assert st.cards[st.duels[0].step.answer_card].card_id == spark.pk
    drawn = next(
        e
        for e in LogEntry.objects.get(situation=situation, command__type="instant_attack").events
        if e["type"] == "card_drawn"
    )
    assert drawn["physical"] is True
    screenshot(page, "drawn")


def test_IA3_real_cards_a_code_of_a_card_not_in_hand_is_refused_on_the_tablet(
    tablet, log_in_as, url, screenshot, referee, armed, event, attack_card
):
    anton, zavulon = armed
    event.physical_draws = True
    event.save(update_fields=["physical_draws"])
    page = tablet()
    log_in_as(page, referee)
    page.goto(url("duels:start", event.pk) + f"?a={anton.pk}&b={zavulon.pk}")
    form = page.locator("#instant-form")
    form.locator("label[for=sight-yes]").click()
    form.locator("label[for=reach-yes]").click()
    form.locator(f"label[for=ia-card-{attack_card.pk}]").click()
    form.locator("#id_drawn_code").fill(PUBLIC + reverse("cards:card-entry", args=[attack_card.pk]))
    form.locator("button[type=submit]").click()
    expect(page.locator("#start-alert")).to_contain_text("does not hold the card")
    assert not Situation.objects.filter(ended=False).exists()
    screenshot(page, "refused")

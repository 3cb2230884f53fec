"""The instant attack's start fits one screen (issue 23): its questions and submit without scrolling.

IA1's two questions, IA3's parry question (and, with "draws from real cards", the drawn card), the
attack card (IA2) and the submit button all lie inside the viewport at 1024x768 and 768x1024, the
page as it opens (no scroll). Screenshots go to test-artifacts/.
"""

import pytest

from events.models import Character

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("secret_hands")]

SIZES = [(1024, 768), (768, 1024)]
PARTS = ["#question-out-of-sight", "#question-within-reach", "#question-parry", "#question-card"]


def _inside(page, selector: str, height: int, width: int) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, f"{selector} at y={box['y']:.0f}+{box['height']:.0f}"
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, f"{selector} at x={box['x']:.0f}+{box['width']:.0f}"


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("real_cards", [False, True])
def test_IA1_IA3_the_instant_attack_questions_and_submit_fit_one_screen(
    tablet, log_in_as, url, screenshot, referee, armed, event, defence_card, width, height, real_cards
):
    anton, zavulon = armed
    Character.objects.filter(pk=zavulon.pk).update(focus_card=defence_card)  # the F1 question too
    if real_cards:
        event.physical_draws = True
        event.save(update_fields=["physical_draws"])
    page = tablet(viewport={"width": width, "height": height})
    log_in_as(page, referee)
    page.goto(url("duels:start", event.pk) + f"?a={anton.pk}&b={zavulon.pk}")
    page.wait_for_load_state("load")
    assert page.evaluate("window.scrollY") == 0
    screenshot(page, f"{width}x{height}")
    parts = [*PARTS, "#question-focus-held", "#instant-form button[type=submit]"]
    if real_cards:
        parts.append("#question-drawn")
    for selector in parts:
        _inside(page, selector, height, width)

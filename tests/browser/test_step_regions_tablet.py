"""Two taps on a duel tablet answered with the regions they changed: the page then shows what a reload shows (issue 24).

The answers are htmx out-of-band swaps (duels/web/oob.py) and sumrak.js copies
the live mark onto the page; after each tap the live part, with what differs
per response blanked (nonces, CSRF tokens, the server clock, the countdowns'
running text), must equal the same page loaded afresh.
"""

import re

import pytest
from playwright.sync_api import expect

from duels import services
from duels.models import Situation

pytestmark = pytest.mark.browser

# The live part as a reload would draw it: per-response values and what the page's clock writes blanked.
NORMALIZED = """() => {
  const root = document.querySelector('#fight').cloneNode(true);
  root.querySelectorAll('input[name=nonce], input[name=csrfmiddlewaretoken]')
    .forEach(i => i.setAttribute('value', '*'));
  [root, ...root.querySelectorAll('*')].forEach(e => {
    ['data-server-now', 'data-server-skew'].forEach(a => { if (e.hasAttribute(a)) e.setAttribute(a, '*'); });
    e.classList.remove('htmx-settling', 'htmx-request', 'htmx-swapping', 'htmx-added');
    if (e.getAttribute('class') === '') e.removeAttribute('class');
  });
  root.querySelectorAll('.countdown, [data-deadline]')
    .forEach(e => { e.textContent = ''; e.removeAttribute('class'); });
  return root.outerHTML.replace(/>\\s+</g, '><');
}"""


def _attack_uid(situation_id: int, fighter_id: int, card_id: int) -> str:
    st = services.state_of(Situation.objects.get(pk=situation_id))
    return next(u for u in st.fighters[fighter_id].hand if st.cards[u].card_id == card_id)


def test_two_taps_answered_with_regions_leave_the_page_as_a_reload_draws_it(
    tablet, log_in_as, url, referee, fight, armed, attack_card
):
    anton, _ = armed
    page = tablet()
    log_in_as(page, referee)
    answers: list[str] = []

    def note(response) -> None:
        if response.request.method == "POST":
            answers.append(response.headers.get("hx-reswap", ""))

    page.on("response", note)
    page.goto(url("duels:situation", fight.pk))
    live = page.locator("#fight")
    card = _attack_uid(fight.pk, anton.pk, attack_card.pk)
    for tap in (
        lambda: page.locator(f'#duel-0 button[name=card][value="{card}"]').click(),
        lambda: page.locator("#duel-0 form[data-action=answer] button[name=card][value='']").click(),
    ):
        version = Situation.objects.get(pk=fight.pk).version
        tap()
        expect(live).to_have_attribute("data-version", str(version + 1))
        expect(page.locator("#fight-mark")).to_have_attribute("data-version", str(version + 1))
        patched = page.evaluate(NORMALIZED)
        etag = live.get_attribute("data-etag")
        page.reload()
        expect(live).to_have_attribute("data-version", str(version + 1))
        assert live.get_attribute("data-etag") == etag
        assert patched == page.evaluate(NORMALIZED)
    assert answers == ["none", "none"]  # both taps were answered with regions, not the whole fragment
    assert re.search(r"/fights/\d+/$", page.url)

"""A step's new log lines prepended by htmx in a browser: the tablet keeps the newest, as a reload shows (issue 24).

A mass battle whose log already holds more than twenty entries; each tap is answered with its
regions, the log's only with the step's own lines (``hx-swap-oob="afterbegin:#mass-log
.log-lines"``, vendored htmx 2.0.11); static/js/sumrak.js drops the oldest. After every tap the
page's lines are the twenty newest entries, newest first, and after the last one they read
exactly as a reload draws them.
"""

import pytest
from playwright.sync_api import expect

import rules.mass as magic
from duels.models import LogEntry
from tests.services.mass_kit import act, armies, in_catalogue_order, ready, start

pytestmark = pytest.mark.browser

LINES = (
    "() => [...document.querySelectorAll('#mass-log .log-lines > li')].map(li => [li.dataset.seq || '', li.innerText])"
)


def _newest(situation_id: int, count: int) -> list[str]:
    seqs = LogEntry.objects.filter(situation_id=situation_id).order_by("-seq").values_list("seq", flat=True)
    return [str(s) for s in seqs[:count]]


def test_a_mass_tablets_log_gets_each_steps_lines_on_top_and_keeps_twenty(
    tablet, log_in_as, url, referee, event, cards, monkeypatch
):
    in_catalogue_order(monkeypatch)  # the live server runs in this process
    red, blue = armies(event)
    situation = start(event, referee, red, blue)
    for _ in range(3):  # seven entries a cycle: 22 in all
        ready(situation, referee, 5, 4)
        for side in ("a", "b"):
            act(situation, magic.UsePoints(side=side, warrior=None, take=False, card=None), referee)
            act(situation, magic.EndTurn(side=side), referee)
        act(situation, magic.NextCycle(), referee)
    assert LogEntry.objects.filter(situation=situation).count() > 20

    page = tablet()
    log_in_as(page, referee)
    reswaps: list[str] = []
    page.on(
        "response", lambda r: reswaps.append(r.headers.get("hx-reswap", "")) if r.request.method == "POST" else None
    )
    page.goto(url("duels:mass", situation.pk))
    live = page.locator("#mass")
    assert [seq for seq, _ in page.evaluate(LINES)] == _newest(situation.pk, 20)

    def tap(selector: str) -> None:
        version = int(live.get_attribute("data-version") or "0")
        page.locator(selector).first.click()
        expect(live).to_have_attribute("data-version", str(version + 1))
        expect(page.locator("#mass-log .log-lines > li").first).to_have_attribute(
            "data-seq", _newest(situation.pk, 1)[0]
        )
        assert [seq for seq, _ in page.evaluate(LINES)] == _newest(situation.pk, 20)

    page.locator("label[for=dice-a-5]").click()
    page.locator("label[for=dice-b-4]").click()
    tap("#roll-entered button[type=submit]")
    tap("#other-starts")
    tap("#decline")
    tap("#end-turn")
    assert reswaps == ["none"] * 4  # each tap answered with its regions, the log's new lines prepended

    patched = page.evaluate(LINES)
    assert len(patched) == 20 and all(seq for seq, _ in patched)  # no "Nothing yet.", nothing past twenty
    page.reload()
    expect(live).to_have_attribute("data-version", str(int(live.get_attribute("data-version") or "0")))
    assert page.evaluate(LINES) == patched

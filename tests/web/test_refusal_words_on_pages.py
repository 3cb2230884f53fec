"""One refusal path: every page says a refusal in the same words (cards.words).

The fight guard (AG2, D3) is the refusal that three apps' pages show: the
organizers' arsenal builder (cards), the player's character page (events)
and the refusal of an arsenal action itself. The words come from
``cards.words`` for the same ``RuleError``; the rule ID follows them for the
staff, and the player's own page shows the words alone (issue 10: no rule
codes for players).
"""

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from duels.duel.start import declare_aggression
from tests.services.kit import nonce

pytestmark = pytest.mark.django_db

WORDS = {
    "en": (
        "Anton is in a fight that has not ended: the arsenal can change only at the start of a bout, "
        "through the referee."
    ),
    "ru": "Anton в незавершённом бою: арсенал можно сменить только в начале захода",
}


@pytest.fixture
def fighting(armed, referee):
    """Anton and Zavulon are in an unfinished situation (AG1: a spoken declaration)."""
    anton, zavulon = armed
    declare_aggression(anton.event, anton, zavulon, None, user=referee, nonce=nonce())
    return anton


# The one way a rule shows on a staff page (cards/rule_links.py): a small link to its help.
D3_LINK = '<a class="rule-ref" href="/help/referee/#rounds" title="%s">D3</a>'
TITLE = {"en": "What the rule says", "ru": "Что говорит правило"}
# "D3" as a word: random CSRF tokens and secret links (letters, digits, - and _) may hold the two letters.
RULE_CODE = re.compile(r"(?<![\w-])D3(?![\w-])")


def _pages(org, me, anton) -> dict[str, str]:
    pages = {
        "builder": org.get(reverse("cards:arsenal-builder", args=[anton.pk])),
        "staff_refused": org.post(reverse("cards:arsenal-restore", args=[anton.pk]), follow=True),
        "own_page": me.get(reverse("events:my-character", args=[anton.pk])),
        "player_refused": me.post(reverse("cards:my-arsenal-restore", args=[anton.pk]), follow=True),
        "link_refused": me.post(reverse("cards:player-arsenal-restore", args=[anton.link_token]), follow=True),
    }
    return {name: response.content.decode() for name, response in pages.items()}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_AG2_D3_the_frozen_arsenal_reads_the_same_on_every_page_and_only_staff_see_the_rule(
    fighting, org, player, as_user, language
):
    me = as_user(player)
    org.defaults["HTTP_ACCEPT_LANGUAGE"] = me.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    pages = _pages(org, me, fighting)
    for name, html in pages.items():
        assert escape(WORDS[language]) in html, name
    link = D3_LINK % TITLE[language]
    # Staff: the notice and the refused action's message both end with the rule as a link, never " (D3)".
    for name in ("builder", "staff_refused"):
        assert pages[name].count(link) >= 1, name
        assert re.search(r"\. \(D3\)", pages[name]) is None, name  # the old " (D3)" after the sentence
    assert pages["staff_refused"].count(link) == 2  # the notice and the refusal of the action
    # Players (their own page, the secret link): the words alone, no rule code anywhere.
    for name in ("own_page", "player_refused", "link_refused"):
        assert RULE_CODE.search(pages[name]) is None and 'class="rule-ref"' not in pages[name], name

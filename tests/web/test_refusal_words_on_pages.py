"""One refusal path: every page says a refusal in the same words (cards.words).

The fight guard (AG2, D3) is the refusal that three apps' pages show: the
organizers' arsenal builder (cards), the player's character page (events)
and the refusal of an arsenal action itself. The words come from
``cards.words`` for the same ``RuleError``; the rule ID follows them for the
staff, and the player's own page shows the words alone (issue 10: no rule
codes for players).
"""

import pytest
from django.urls import reverse
from django.utils.html import escape

from duels import services
from tests.services.kit import nonce

pytestmark = pytest.mark.django_db

WORDS = {
    "en": (
        "Anton is in a fight that has not ended: the arsenal can change only at the start of a round, "
        "through the referee."
    ),
    "ru": "Anton в незавершённом бою: арсенал можно сменить только в начале захода",
}


@pytest.fixture
def fighting(armed, referee):
    """Anton and Zavulon are in an unfinished situation (AG1: a spoken declaration)."""
    anton, zavulon = armed
    services.declare_aggression(anton.event, anton, zavulon, None, user=referee, nonce=nonce())
    return anton


def _pages(org, me, anton) -> list[str]:
    builder = org.get(reverse("cards:arsenal-builder", args=[anton.pk]))
    own_page = me.get(reverse("events:my-character", args=[anton.pk]))
    refused = me.post(reverse("cards:my-arsenal-restore", args=[anton.pk]), follow=True)
    return [r.content.decode() for r in (builder, own_page, refused)]


def test_AG2_D3_the_frozen_arsenal_reads_the_same_on_the_builder_the_character_page_and_the_refusal(
    fighting, org, player, as_user
):
    builder, own_page, refused = _pages(org, as_user(player), fighting)
    for html in (builder, own_page, refused):
        assert escape(WORDS["en"]) in html
    assert escape(WORDS["en"]) + " (D3)" in builder
    assert "(D3)" not in own_page


def test_AG2_D3_the_same_words_in_russian(fighting, org, player, as_user):
    org.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    me = as_user(player)
    me.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    builder, own_page, _refused = pages = _pages(org, me, fighting)
    assert "(D3)" in builder and "(D3)" not in own_page
    assert all(escape(WORDS["ru"]) in html for html in pages)

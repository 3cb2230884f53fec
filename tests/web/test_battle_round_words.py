"""A battle's round is a round («раунд»), its bout a bout («заход»), in both languages (issue 25).

RULES.md's vocabulary: a round is one turn for each combatant (seed 001), a bout
lasts until nobody fit holds an attack card. The duel's pages keep «заход» for
their stages (tests/web/test_duel_bout_words.py); the battle's round words carry
the gettext context "battle" where a duel shares the English words.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.services.battle_kit import begin
from tests.web.battle_page_kit import to_round_break

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "round_1", "reactions", "start_bout", "wrong"),
    [
        ("en", "Round 1", "reactions from round 2 (R0)", "Start the next bout", "Start round"),
        ("ru", "Раунд 1", "реакции с раунда 2 (R0)", "Начать следующий заход", "Заход 1"),
    ],
)
def test_R0_D3_the_battle_tablet_counts_rounds_and_its_break_starts_a_bout(
    as_user, referee, event, people, language, round_1, reactions, start_bout, wrong
):
    event.every_round_a_bout = True  # a round of passes reaches a bout's break
    event.save()
    battle = begin(event, people, referee)
    client = as_user(referee)
    page = client.get(reverse("duels:battle", args=[battle.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert round_1 in page and reactions in page and wrong not in page
    to_round_break(battle, referee)
    page = client.get(reverse("duels:battle", args=[battle.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert start_bout in page


@pytest.mark.parametrize(
    ("language", "words", "wrong"),
    [
        ("en", ("takes turns from the next round", "at a bout's break you may reorder", "talent grants it"), ()),
        ("ru", ("ходит со следующего раунда", "В каждом раунде", "талант участника"), ("В каждом заходе",)),
    ],
)
def test_BP2_BP4_D3_the_referee_s_battle_help_says_rounds_bouts_and_talents(client, language, words, wrong):
    body = client.get(reverse("help-role", args=["referee"]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    section = body[body.index('id="battle"') :]
    section = section[: section.index("</section>")]
    assert all(w in section for w in words), [w for w in words if w not in section]
    assert not any(w in section for w in wrong)

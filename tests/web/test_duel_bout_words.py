"""D2: a duel's optional maximum is of bouts («заходов»), not of rounds (a battle's turn each).

The engine keeps its field name ``max_rounds`` (stored states, logs and event
files carry it: docs/duel-rules.md); what a person reads says bouts.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.translation import override

from duels.duel.forms import StartForm
from duels.web.log import WORDING
from rules import duel as engine
from rules.duel.events import DuelOpened, RoundEnded, RoundStarted
from rules.duel.opening import check_max_rounds
from rules.errors import RuleError
from tests.web.duels_kit import drive, parry_then_spark, state_of, uid_of


def _line(event) -> str:
    # The duel's wordings name fighters through ``Words``; a stand-in that names them by number is enough.
    class Names:
        def fighter(self, fighter_id: int) -> str:
            return f"F{fighter_id}"

    return WORDING[type(event)](Names(), event)


@pytest.mark.parametrize(
    ("language", "label", "opened", "started", "ended"),
    [
        ("en", "Maximum number of bouts", "at most 3 bouts", "Duel 1, bout 2:", "Duel 1, bout 2 ends."),
        ("ru", "Наибольшее число заходов", "не более 3 заходов", "Поединок 1, заход 2:", "Поединок 1, заход 2 окончен"),
    ],
)
def test_D2_the_duel_s_maximum_and_its_log_say_bouts(language, label, opened, started, ended):
    with override(language):
        assert str(StartForm.base_fields["max_rounds"].label) == label
        assert opened in _line(DuelOpened(duel=0, a=1, b=2, opened_by="aggression", max_rounds=3))
        assert _line(RoundStarted(duel=0, round=2, attacker=1)).startswith(started)
        assert _line(RoundEnded(duel=0, round=2)).startswith(ended)
        assert "round" not in _line(RoundStarted(duel=0, round=2, attacker=1)).lower()


def test_D2_the_engine_refuses_a_maximum_below_one_in_bouts():
    with pytest.raises(RuleError) as caught:
        check_max_rounds(0)
    assert caught.value.rule_id == "D2" and "bouts" in caught.value.message


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "heading", "ends"), [("en", "Bouts", "A bout ends when"), ("ru", "Заходы", "Заход заканчивается")]
)
def test_D1_D11_the_referee_help_calls_a_duel_s_stages_bouts(client, language, heading, ends):
    body = client.get(reverse("help-role", args=["referee"]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    section = body[body.index('id="rounds"') :]
    section = section[: section.index("</section>")]
    assert heading in section and ends in section
    if language == "en":
        assert "round" not in section.lower().replace('id="rounds"', "")


def _visible(html: str) -> str:
    """The words a person reads: no scripts, styles, tags or attributes (ids like ``duel-round`` stay internal)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def bout_break(shown, referee, character, rival, attack_card, defence_card, spark):
    """Bout 1 played to its end (D11): both hold only defence cards, the duel waits for D12/D3."""
    parry_then_spark(shown, referee, character, rival, defence_card, spark)
    drive(
        shown,
        referee,
        engine.Attack(0, character.pk, uid_of(shown, character.pk, attack_card)),
        engine.Answer(0, rival.pk, None),
        engine.ConfirmResult(0, "parried", "ducked"),
    )
    assert state_of(shown).duels[0].phase == engine.BETWEEN_ROUNDS
    return shown


BREAK_WORDS = {
    # page: (English, Russian) words that must be on it at a bout break (D11, D12)
    "tablet": (("Bout 1 has ended. Does each fighter go on?", "Bout 1"), ("Заход 1 окончен", "Заход 1")),
    "player": (("The bout has ended. Tell the referee", "Bout 1"), ("Заход окончен. Скажите мастеру", "Заход 1")),
    "record": (("<th>Bout</th>",), ("<th>Заход</th>",)),
    "watch": (("Bout 1",), ("Заход 1",)),
}


@pytest.mark.django_db
@pytest.mark.usefixtures("secret_hands")
@pytest.mark.parametrize("page", sorted(BREAK_WORDS))
@pytest.mark.parametrize("language", ["en", "ru"])
def test_D1_D11_D12_a_duel_s_pages_at_a_bout_break_say_bout(
    as_user, referee, player, character, bout_break, page, language
):
    client, url = {
        "tablet": (as_user(referee), reverse("duels:situation", args=[bout_break.pk])),
        "player": (as_user(player), reverse("duels:player-live", args=[character.pk])),
        "record": (as_user(None), reverse("duels:record", args=[bout_break.pk])),
        "watch": (as_user(None), reverse("duels:watch", args=[bout_break.pk])),
    }[page]
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    html = response.content.decode()
    english, russian = BREAK_WORDS[page]
    for words in english if language == "en" else russian:
        assert words in html, (page, language, words)
    text = _visible(html)
    if language == "en":
        assert not re.search(r"\bround", text, flags=re.I), re.findall(r".{40}\bround.{40}", text, flags=re.I)
    else:
        assert "Раунд" not in text and "раунд" not in text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("divided into bouts.", '<dt class="col-sm-3">Bout</dt>', "A stage of a duel.")),
        ("ru", ("делится на заходы.", '<dt class="col-sm-3">Заход</dt>')),
    ],
)
def test_D1_the_help_glossary_calls_a_duel_s_stage_a_bout(client, language, words):
    body = client.get(reverse("help"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for word in words:
        assert word in body, word
    if language == "en":
        assert not re.search(r"\bround", _visible(body), flags=re.I)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("<strong>Bouts</strong>: a bout ends when", "In the first bout nobody", "the bout, the cards")),
        ("ru", ("В первом заходе никто", "заход, карты")),
    ],
)
def test_D11_D12_AG2_the_player_help_calls_a_duel_s_stages_bouts(client, language, words):
    body = client.get(reverse("help-role", args=["player"]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for word in words:
        assert word in body, word
    if language == "en":  # only the battle's part speaks of rounds (a turn each, RULES.md)
        duel_part = body[: body.index("In a battle")]
        assert not re.search(r"\bround", _visible(duel_part), flags=re.I)

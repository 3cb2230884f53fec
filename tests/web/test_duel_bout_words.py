"""D2: a duel's optional maximum is of bouts («заходов»), not of rounds (a battle's turn each).

The engine keeps its field name ``max_rounds`` (stored states, logs and event
files carry it: docs/duel-rules.md); what a person reads says bouts.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.translation import override

from duels.duel.forms import StartForm
from duels.web.log import WORDING
from rules.duel.events import DuelOpened, RoundEnded, RoundStarted
from rules.duel.opening import check_max_rounds
from rules.errors import RuleError


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

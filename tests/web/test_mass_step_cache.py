"""The mass battle's step after a warm cache (issue 24): the catalogue's words come from the process.

A mass battle's tablet shows its magic cards' names and texts and its
warriors' type names in the reader's language. They are kept per process
under the catalogue's version (cards/mass_names.py): a step with a warm
cache reads none of them from the database, and a magic card, a warrior
type or a warrior saved makes a new version, so the next render shows the
edit, in Russian and in English. The initiative's undone roll (M4) is read
from the undone roll entries only (duels/mass/rolls.py).
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import rules.mass as magic
from cards import catalogue_version
from cards.models_mass import Warrior, WarriorType
from duels.mass.rolls import undone_roll
from duels.models import Situation
from tests.services.mass_kit import act, armies, in_catalogue_order, start, undo, wid

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
CATALOGUE_TABLES = ('"cards_magiccard"', '"cards_warrior"', '"cards_warriortype"')
# The step's statements with the words cached, the session's own left out (with Redis the session
# is read from the cache, on SQLite from its table): the user, the situation locked and read, the
# idempotency check, the log entry written, the situation saved, the newest log lines and the
# undone rolls before their roll (M4). It was 10: the magic cards' rows and the warriors' type
# names were read at every step.
STEP_STATEMENTS = 9


@pytest.fixture
def mass_battle(event, referee, cards, monkeypatch) -> Situation:
    in_catalogue_order(monkeypatch)
    red, blue = armies(event)
    return start(event, referee, red, blue)


def _post(client: Any, situation: Situation, language: str = "ru", **data: Any) -> tuple[list[str], Any]:
    situation.refresh_from_db()
    data.update(version=situation.version, nonce=uuid.uuid4().hex)
    url = reverse("duels:mass-act", args=[situation.pk])
    with CaptureQueriesContext(connection) as ctx:
        response = client.post(url, data, headers={**HX, "Accept-Language": language})
    assert response.status_code == 200, response.content[:300]
    return [q["sql"] for q in ctx.captured_queries], response


def _tablet(client: Any, situation: Situation, language: str) -> str:
    page = client.get(reverse("duels:mass", args=[situation.pk]), HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    return page.content.decode()


def test_a_step_with_the_words_cached_reads_no_catalogue_row(as_user, referee, mass_battle):
    client = as_user(referee)
    _tablet(client, mass_battle, "ru")  # the session exists, the words are kept
    sql, response = _post(client, mass_battle, action="roll_entered", dice_a="5", dice_b="4")
    assert 'role="alert"' not in response.content.decode()
    assert not [q for q in sql if any(table in q for table in CATALOGUE_TABLES)], "\n".join(sql)
    step = [q for q in sql if '"django_session"' not in q]
    assert len(step) == STEP_STATEMENTS, "\n".join(sql)
    # The next step too, in the other stage (the winner chooses who starts).
    sql, _ = _post(client, mass_battle, action="choose", side="a", starts="yes")
    assert not [q for q in sql if any(table in q for table in CATALOGUE_TABLES)], "\n".join(sql)


def test_a_renamed_magic_card_and_warrior_type_show_at_the_next_render_in_both_languages(
    as_user, referee, mass_battle, cards
):
    client = as_user(referee)
    page = _tablet(client, mass_battle, "ru")
    assert "Fire Rain (ru)" in page and "Саламандра" in page
    page = _tablet(client, mass_battle, "en")
    assert "Fire Rain" in page and "Salamander" in page
    version = catalogue_version.current()
    card = cards["Fire Rain"]
    card.name_ru, card.name_en = "Огненный ливень", "Fire Downpour"
    card.save()
    kind = WarriorType.objects.get(name_en="Salamander")
    kind.name_ru, kind.name_en = "Огненная саламандра", "Fire salamander"
    kind.save()
    assert catalogue_version.current() != version
    page = _tablet(client, mass_battle, "ru")
    assert "Огненный ливень" in page and "Fire Rain (ru)" not in page
    assert "Огненная саламандра" in page
    page = _tablet(client, mass_battle, "en")
    assert "Fire Downpour" in page and "Fire Rain" not in page
    assert "Fire salamander" in page and ">Salamander" not in page
    # A step's regions (the sides) show them too.
    _, response = _post(client, mass_battle, "ru", action="roll_entered", dice_a="5", dice_b="4")
    assert "Огненная саламандра" in response.content.decode()
    _, response = _post(client, mass_battle, "en", action="choose", side="a", starts="yes")
    assert "Fire salamander" in response.content.decode()


def test_a_warrior_given_another_type_shows_it_and_a_move_on_the_field_keeps_the_version(as_user, referee, mass_battle):
    client = as_user(referee)
    _tablet(client, mass_battle, "en")
    warrior = Warrior.objects.get(pk=int(wid(mass_battle, "Red spear 1")))
    version = catalogue_version.current()
    # The place of a warrior is written at every casualty (QuerySet.update): the words stay.
    Warrior.objects.filter(pk=warrior.pk).update(state=Warrior.State.HOSPITAL)
    warrior.save(update_fields=["state"])
    assert catalogue_version.current() == version
    warrior.warrior_type = WarriorType.objects.get(name_en="Sylph")
    warrior.save()
    assert catalogue_version.current() != version
    page = _tablet(client, mass_battle, "en")
    row = page[page.index(f'data-warrior="{warrior.pk}"') :][:400]
    assert "Sylph" in row and "Spearman" not in row


def test_M4_undone_roll_reads_only_the_undone_rolls_and_finds_the_latest_of_the_cycle(referee, mass_battle):
    act(mass_battle, magic.RollInitiative(source=magic.REFEREE, dice=(3, 3)), referee)  # a tie: roll 2 next
    act(mass_battle, magic.RollInitiative(source=magic.REFEREE, dice=(5, 2)), referee)
    undo(mass_battle, referee)
    with CaptureQueriesContext(connection) as ctx:
        dice = undone_roll(mass_battle, 1, 2)
    assert dice is not None and (dice.a, dice.b) == (5, 2)
    assert len(ctx.captured_queries) == 1
    sql = ctx.captured_queries[0]["sql"]
    assert "LIMIT" in sql and '"undone"' in sql
    assert undone_roll(mass_battle, 1, 1) is None  # the tie was never undone


def test_what_a_process_keeps_is_bounded_in_time_and_size(monkeypatch):
    """cards/catalogue_version.PerVersion: one version's rows, forgotten after the TTL or past the size."""
    reads: list[set[int]] = []

    def load(ids: set[int]) -> dict[int, str]:
        reads.append(set(ids))
        return {i: f"row {i}" for i in ids if i != 3}  # 3: no row (kept as missing, not read again)

    clock = [100.0]
    monkeypatch.setattr("cards.catalogue_version.time.monotonic", lambda: clock[0])
    kept = catalogue_version.PerVersion[str](ttl=10, size=4)
    assert kept.get({1, 2, 3}, load, "v1") == {1: "row 1", 2: "row 2"}
    assert kept.get({1, 3}, load, "v1") == {1: "row 1"} and reads == [{1, 2, 3}]
    clock[0] += 11  # past the TTL: read again
    kept.get({1}, load, "v1")
    assert reads[-1] == {1}
    kept.get({1}, load, "v2")  # a new version: read again
    assert reads[-1] == {1} and len(reads) == 3
    kept.get({1, 2, 3, 4, 5}, load, "v2")  # more than the size: the next read starts afresh
    kept.get({1}, load, "v2")
    assert reads[-1] == {1} and len(reads) == 5

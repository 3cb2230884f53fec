"""One name folding for search and duplicates (issue 22; helpers/names.py ``name_key``).

Every pair of the issue is the same name both to the duplicate check (the character form,
the model, an import) and to search (the characters list, the gate, the referee): before,
search found «Петр» for «Пётр» but the duplicate check let both in, and the duplicate check
took a Latin-A «Aнтон» for «Антон» while searching «Антон» did not find it.
"""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from events.imports import runner
from events.imports.kinds import kind_of
from events.models import Character
from events.search import name_matches
from helpers.names import mixed_script, name_key
from tests.web.character_form_kit import character_form

pytestmark = pytest.mark.django_db

LATIN_A, GREEK_TAU = "\u0041", "\u03a4"
PAIRS = [
    (f"{LATIN_A}нтон", "Антон"),  # a Latin A
    ("3авулон", "Завулон"),  # the digit 3
    ("0льга", "Ольга"),  # the digit 0
    (f"{GREEK_TAU}имур", "Тимур"),  # a Greek capital tau
    ("Пётр", "Петр"),  # yo and e
    ("АНТОН", "антон"),  # letter case
    ("Ａнтон", "Антон"),  # a full-width Latin A (NFKC, then the lookalike)
]


@pytest.mark.parametrize(("typed", "stored"), PAIRS)
def test_every_pair_folds_to_one_key(typed, stored):
    assert name_key(typed) == name_key(stored)


@pytest.mark.parametrize(("typed", "stored"), PAIRS)
def test_every_pair_is_a_duplicate_in_the_model_and_the_form(org, event, typed, stored):
    Character.objects.create(event=event, name=stored)
    with pytest.raises(ValidationError, match="already has a character named"):
        Character(event=event, name=typed).full_clean()
    response = org.post(reverse("events:character-create", args=[event.pk]), character_form(name=typed))
    assert response.status_code == 200 and "already has a character named" in response.text
    assert Character.objects.filter(event=event).count() == 1


@pytest.mark.parametrize(("typed", "stored"), PAIRS)
def test_every_pair_is_found_by_search_both_ways(event, typed, stored):
    one = Character.objects.create(event=event, name=stored)
    assert list(Character.objects.filter(name_matches(typed), event=event)) == [one]
    Character.objects.filter(pk=one.pk).update(name=typed)  # stored the other way round
    assert list(Character.objects.filter(name_matches(stored), event=event)) == [one]
    assert list(Character.objects.filter(name_matches(stored[1:4]), event=event)) == [one]


@pytest.mark.parametrize(("typed", "stored"), PAIRS[:4])
def test_every_pair_is_a_duplicate_in_an_import(event, typed, stored):
    Character.objects.create(event=event, name=stored)
    table = kind_of("characters").read(f"name\n{typed}\n".encode(), "csv")
    done = runner.run(runner.start(event, "characters", table).pk)
    assert done.status == "refused" and "already has a character named" in done.errors[0][2]
    assert done.errors[0][1] == "name"  # the error names its column


def test_a_number_on_its_own_stays_a_number():
    """«Страж 3» and «Страж з» are two names: only digits inside a word with letters are read as letters."""
    assert name_key("Страж 3") != name_key("Страж з")
    assert name_key("Агент 007") == "агент 007"


@pytest.mark.parametrize(
    ("name", "mixed"),
    [
        (f"{LATIN_A}нтон", True),
        ("3авулон", True),
        (f"{GREEK_TAU}имур", True),
        ("Антон", False),
        ("Anton", False),
        ("Страж 3", False),
        ("Антон Smith", False),
    ],
)
def test_a_word_mixing_scripts_is_told_apart(name, mixed):
    assert mixed_script(name) is mixed


def test_a_mixed_script_name_is_warned_about_at_entry_and_saved(org, event, catalogue):
    response = org.post(
        reverse("events:character-create", args=[event.pk]), character_form(name="3авулон"), follow=True
    )
    assert Character.objects.filter(event=event, name="3авулон").exists()
    assert "mixes Cyrillic with Latin or Greek letters or digits" in response.text
    plain = org.post(reverse("events:character-create", args=[event.pk]), character_form(name="Гесер"), follow=True)
    assert "mixes Cyrillic" not in plain.text


def test_a_mixed_script_name_in_an_import_is_a_warning_not_an_error(event):
    table = kind_of("characters").read("name\n3авулон\nОльга\n".encode(), "csv")
    done = runner.run(runner.start(event, "characters", table).pk)
    assert done.status == "done" and done.created == 2
    assert [warning[0] for warning in done.warnings] == [2]


def test_the_data_migration_fills_every_key(event):
    """Rows written before the column existed get their key from the migration's function."""
    from importlib import import_module

    from django.apps import apps

    migration = import_module("events.migrations.0011_character_name_key")
    anton = Character.objects.create(event=event, name="Aнтон")
    Character.objects.filter(pk=anton.pk).update(name_key="")
    migration.fill_keys(apps, None)
    anton.refresh_from_db()
    assert anton.name_key == name_key("Антон")

"""Formula injection (issue 13): every CSV/XLSX export neutralizes cells a spreadsheet would run.

Hostile names go into every exported table (characters, catalogue cards,
counter rules, pools and arsenals); each export, in CSV and XLSX, must show
them as text with a leading apostrophe, and no XLSX cell may be a formula. The
list of exports is checked against the URL configuration, so a new export
cannot skip this test.
"""

import csv
import io

import openpyxl
import pytest
import tablib
from django.urls import get_resolver, reverse

from cards.models import (
    ArsenalCard,
    Card,
    CounterRule,
    MagicCard,
    PoolEntry,
    PreparedArsenal,
    PreparedArsenalCard,
    WarriorType,
)
from duels.duel.start import declare_aggression
from events.models import Character
from helpers import tables

HOSTILE = ['=HYPERLINK("http://x","y")', "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rCR"]

# Every export URL: name -> (query parameters per format). Only the fight log's JSON is not a spreadsheet.
EXPORTS = {
    "events:characters-export": lambda fmt: {"format": fmt},
    "cards:catalogue-export:cards": lambda fmt: {"what": "cards", "file_format": fmt},
    "cards:catalogue-export:rules": lambda fmt: {"what": "rules", "file_format": fmt},
    "cards:arsenals-export": lambda fmt: {"format": fmt},
    "cards:mass-export:magic_cards": lambda fmt: {"what": "magic_cards", "file_format": fmt},
    "cards:mass-export:warrior_types": lambda fmt: {"what": "warrior_types", "file_format": fmt},
}
# JSON only, for replay and moving an event, never opened by a spreadsheet: a fight's log and
# state (duels/duel/views.py) and a whole event (duels/views_archive.py).
NOT_SPREADSHEETS = {"duels:export", "duels:event-export"}
# Exports of one fight (by its id, not the event's): tested below with a real fight.
PER_FIGHT = {"duels:log-export-csv", "duels:log-export-xlsx"}


def _export_names() -> set[str]:
    names = set()
    for namespace, (_prefix, resolver) in get_resolver().namespace_dict.items():
        for name in resolver.reverse_dict:
            if isinstance(name, str) and "export" in name:
                names.add(f"{namespace}:{name}")
    return names


def test_every_export_url_is_covered():
    covered = {key.rsplit(":", 1)[0] if key.count(":") > 1 else key for key in EXPORTS}
    assert _export_names() == covered | NOT_SPREADSHEETS | PER_FIGHT


@pytest.fixture
def hostile_event(event, player, catalogue):
    cards = []
    for i, name in enumerate(HOSTILE):
        kind = "attack" if i % 2 == 0 else "defence"
        cards.append(
            Card.objects.create(
                catalogue=catalogue, name_ru=name, name_en=f"-en{i}", kind=kind, rules_text=name, tags=f"@tag{i}"
            )
        )
    attack, defence = cards[0], cards[1]
    CounterRule.objects.create(defence_card=defence, attack_card=attack, outcome="parried")
    CounterRule.objects.create(defence_card=defence, attack_tag="=cmd", outcome="softened")
    for i, name in enumerate(HOSTILE):
        character = Character.objects.create(event=event, name=name, notes=f"=notes{i}")
        PoolEntry.objects.create(character=character, card=attack, copies=2)
        ArsenalCard.objects.create(character=character, card=attack, copies=1)
        prepared = PreparedArsenal.objects.create(character=character, name=f"+prepared{i}")
        PreparedArsenalCard.objects.create(arsenal=prepared, card=attack, copies=1)
        # Mass battles (issue 12): magic cards and the armlist.
        MagicCard.objects.create(catalogue=catalogue, name_ru=name, deck=4, magic_type="fire", text=name)
        WarriorType.objects.create(event=event, name_ru=name, description=name)
    return event


def _cells(content: bytes, fmt: str) -> list:
    if fmt == "csv":
        return [cell for row in csv.reader(io.StringIO(content.decode("utf-8-sig"), newline="")) for cell in row]
    book = openpyxl.load_workbook(io.BytesIO(content))
    cells = [cell for row in book.active.iter_rows() for cell in row]
    formulas = [cell.coordinate for cell in cells if cell.data_type == "f"]
    assert not formulas, f"formula cells {formulas}"
    return [cell.value for cell in cells]


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
@pytest.mark.parametrize("export", EXPORTS)
def test_hostile_cells_are_neutralized_in_every_export(as_user, organizer, hostile_event, export, fmt):
    url_name = export if export.count(":") == 1 else export.rsplit(":", 1)[0]
    response = as_user(organizer).get(reverse(url_name, args=[hostile_event.pk]), EXPORTS[export](fmt))
    assert response.status_code == 200
    cells = [c for c in _cells(response.content, fmt) if isinstance(c, str)]
    dangerous = [c for c in cells if c.startswith(tables.FORMULA_STARTS)]
    assert not dangerous, f"{export} {fmt}: {dangerous}"
    assert any(c.startswith("'") and c[1:].startswith(tables.FORMULA_STARTS) for c in cells)


@pytest.mark.parametrize("value", [*HOSTILE, "plain", "", 5, None])
def test_one_helper_neutralizes_and_the_import_takes_it_back(value):
    safe = tables.neutralize(value)
    if isinstance(value, str) and value[:1] in tables.FORMULA_STARTS:
        assert safe == "'" + value
    else:
        assert safe == value
    content = tables.export_bytes(tablib.Dataset([value], headers=["name"]), "csv")
    if value not in ("", None):
        read = tables.read_table(content, "csv", columns=("name",))
        # The import strips spaces around a cell; the text itself comes back without the apostrophe.
        assert read.rows == [[str(value).strip()]]


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
@pytest.mark.parametrize("table", ["characters"])  # the fight has no resolved step: only this table has rows
def test_the_post_game_report_tables_are_neutralized_too(as_user, referee, hostile_event, table, fmt):
    """The report's downloads (lab/presenters.py) go through the same helper: a fight between hostile names."""
    from tests.services.kit import arm, nonce

    attacker, defender = Character.objects.filter(event=hostile_event).order_by("pk")[:2]
    attack = Card.objects.get(catalogue=hostile_event.catalogue, name_ru=HOSTILE[0])
    arm(attacker, attack)
    declare_aggression(hostile_event, attacker, defender, attack.pk, user=referee, nonce=nonce())
    url = reverse("lab:postgame", args=[hostile_event.pk])
    response = as_user(referee).get(url, {"download": table, "format": fmt})
    assert response.status_code == 200
    cells = [c for c in _cells(response.content, fmt) if isinstance(c, str)]
    assert not [c for c in cells if c.startswith(tables.FORMULA_STARTS)]
    assert any(c.startswith("'") and c[1:].startswith(tables.FORMULA_STARTS) for c in cells), cells


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_the_fight_log_table_is_neutralized(as_user, referee, hostile_event, fmt):
    """duels/views_log_table.py: the log's lines name hostile characters and cards."""
    from tests.services.kit import arm, nonce

    attacker, defender = Character.objects.filter(event=hostile_event).order_by("pk")[:2]
    attack = Card.objects.get(catalogue=hostile_event.catalogue, name_ru=HOSTILE[0])
    arm(attacker, attack)
    done = declare_aggression(hostile_event, attacker, defender, attack.pk, user=referee, nonce=nonce())
    client = as_user(referee)
    response = client.get(reverse(f"duels:log-export-{fmt}", args=[done.situation.pk]))
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    cells = [c for c in _cells(response.content, fmt) if isinstance(c, str)]
    assert cells[:6] == ["seq", "at", "actor", "kind", "undone", "line"]
    assert not [c for c in cells if c.startswith(tables.FORMULA_STARTS)]
    assert any(HOSTILE[0] in c for c in cells)  # the attack card's name is there, as text

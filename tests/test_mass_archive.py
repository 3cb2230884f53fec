"""A mass battle travels with its event through the event file (issue 13's archive; M1-M8 replay)."""

import json
import uuid

import pytest
from django.contrib.auth.models import User

import demo
import rules.mass as magic
from cards.models_mass import Army, MagicCard, Warrior, WarriorType
from duels import services
from duels.archive import ACCOUNTS_MOVE, dumps, export_event, import_event, replays
from duels.mass.start import start_mass_battle
from duels.models import Situation
from tests.demo_kit import remove_everything

pytestmark = pytest.mark.django_db


def test_M1_M8_a_played_mass_battle_round_trips_with_its_cards_armlist_and_armies():
    event = demo.load()
    referee = User.objects.get(username="referee")
    light, dark = Army.objects.filter(event=event).order_by("name")
    battle = start_mass_battle(event, light, dark, user=referee, nonce=uuid.uuid4().hex).situation
    for command in (
        magic.RollInitiative(source=magic.SERVER),
        magic.RollInitiative(source=magic.REFEREE, dice=(6, 3)),
    ):
        battle.refresh_from_db()
        if services.state_of(battle).stage == magic.INITIATIVE:
            services.perform(battle.pk, command, user=referee, seen_version=battle.version, nonce=uuid.uuid4().hex)
    counts = [model.objects.count() for model in (MagicCard, WarriorType, Army, Warrior)]
    data = json.loads(dumps(export_event(event, with_passwords=True)))
    remove_everything(event, data)
    assert not Army.objects.exists() and not MagicCard.objects.exists()

    imported = import_event(data, accounts=ACCOUNTS_MOVE)

    assert [model.objects.count() for model in (MagicCard, WarriorType, Army, Warrior)] == counts
    assert json.loads(dumps(export_event(imported, with_passwords=True))) == data
    mass = Situation.objects.get(event=imported, kind=Situation.Kind.MASS_BATTLE)
    assert replays(mass)
    commander = Army.objects.get(event=imported, name=light.name).commander
    assert commander is not None and commander.username == "anton"


def test_rotating_links_on_import_gives_the_armies_new_qr_codes_too():
    event = demo.load()
    data = json.loads(dumps(export_event(event)))
    before = dict(Army.objects.values_list("pk", "link_token"))
    remove_everything(event, data)
    import_event(data, rotate_links=True)
    after = dict(Army.objects.values_list("pk", "link_token"))
    assert after.keys() == before.keys() and all(after[pk] != before[pk] for pk in before)


def test_M3_an_event_file_from_before_the_rename_imports_its_magic_cards_as_they_decided():
    """A file exported before M3's rename names the flag "negative" (protection stops the card): it
    arrives as "acts on protected warriors too", the opposite, as the migration turned the cards."""
    event = demo.load()
    data = json.loads(dumps(export_event(event)))
    cards = [o for o in data["objects"] if o["model"] == "cards.magiccard"]
    decided = {o["pk"]: o["fields"]["acts_on_protected"] for o in cards}
    assert decided, "the demo has magic cards"
    for row in cards:
        row["fields"]["negative"] = not row["fields"].pop("acts_on_protected")
    remove_everything(event, data)
    import_event(data)
    assert dict(MagicCard.objects.values_list("pk", "acts_on_protected")) == decided

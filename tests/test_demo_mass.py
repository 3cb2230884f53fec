"""The demo game's mass battle: a newcomer can start one and play a cycle at once (M1-M8)."""

import uuid

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

import rules.mass as magic
from cards.models_mass import Army, MagicCard, Warrior
from duels import services
from duels.mass.start import start_mass_battle

pytestmark = pytest.mark.django_db


def test_M1_M2_all_four_decks_every_type_and_keepable_cards_only_in_2_and_5(demo_event):
    cards = MagicCard.objects.filter(catalogue=demo_event.catalogue)
    assert {c.deck for c in cards} == {2, 4, 5, 6} and demo_event.mass_battles_on
    assert {c.magic_type for c in cards} == {"universal", "wind", "earth", "water", "fire"}
    assert {c.deck for c in cards if c.keepable} == {2, 5}
    for card in cards:
        card.full_clean()


def test_M3_two_armies_of_ten_with_different_protections(demo_event):
    armies = Army.objects.filter(event=demo_event)
    assert armies.count() == 2
    for army in armies:
        warriors = list(Warrior.objects.filter(army=army).select_related("warrior_type"))
        assert len(warriors) == 10 and army.commander is not None
        assert len({w.warrior_type.protections for w in warriors}) >= 3
        assert any(w.state == "hospital" for w in warriors)


def test_M4_M5_a_cycle_of_the_demo_battle_plays_through(demo_event):
    referee = User.objects.get(username="referee")
    light, dark = Army.objects.filter(event=demo_event).order_by("name")
    situation = start_mass_battle(demo_event, light, dark, user=referee, nonce=uuid.uuid4().hex).situation

    def act(command):
        situation.refresh_from_db()
        return services.perform(
            situation.pk, command, user=referee, seen_version=situation.version, nonce=uuid.uuid4().hex
        )

    act(magic.RollInitiative(source="referee", dice=(6, 4)))
    act(magic.ChooseStarter(side="a", starts=True))
    act(magic.UsePoints(side="a"))
    act(magic.CarryOut(side="a", target_side="b", move_to="hospital"))
    act(magic.EndTurn(side="a"))
    act(magic.UsePoints(side="b", take=False))
    act(magic.EndTurn(side="b"))
    act(magic.NextCycle())
    situation.refresh_from_db()
    assert services.state_of(situation).cycle == 2


def test_the_demo_with_its_mass_battle_can_be_removed_and_loaded_again(demo_event):
    call_command("load_demo", "--reset", stdout=None)
    assert Army.objects.count() == 2 and Warrior.objects.count() == 20

"""The mass battle's magic phase through the services (M1-M8, seed 002): every case of issue 12."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

import rules.mass as magic
from cards.models_mass import MagicCard, Warrior
from cards.words import explain
from duels import services
from duels.mass.kind import KIND
from duels.mass.start import KeepableInWrongDeck, MassBattlesOff, NoMagicCards, start_mass_battle
from duels.models import LogEntry
from rules.errors import RuleError
from tests.services.mass_kit import (
    act,
    armies,
    assert_replays,
    events,
    in_catalogue_order,
    nonce,
    ready,
    start,
    state,
    types,
    uid_of,
    undo,
    wid,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def mass_battle(event, referee, cards, monkeypatch):
    """A mass battle just started, the decks in catalogue order, no commanders (tests/services/mass_kit.py)."""
    in_catalogue_order(monkeypatch)
    red, blue = armies(event)
    return start(event, referee, red, blue)


def refused(rule_id, situation, command, user):
    before = state(situation)
    version = situation.version
    with pytest.raises(RuleError) as caught:
        act(situation, command, user)
    assert caught.value.rule_id == rule_id
    situation.refresh_from_db()
    assert situation.version == version and magic.to_dict(state(situation)) == magic.to_dict(before)
    return caught.value


def test_M1_the_server_shuffles_four_decks_by_the_back_and_logs_the_order(event, referee, cards):
    red, blue = armies(event)
    situation = start(event, referee, red, blue)
    st = state(situation)
    assert sorted(st.decks) == [2, 4, 5, 6]
    for deck in (2, 4, 5, 6):
        expected = sorted(uid_of(c, n) for c in cards.values() if c.deck == deck for n in range(1, c.copies + 1))
        assert sorted(st.decks[deck]) == expected
    assert len(st.decks[6]) == 3  # Flame Wall's two copies and Warm Wind
    entry = LogEntry.objects.get(situation=situation)
    assert (entry.command or {})["type"] == "shuffle_decks"
    assert dict((deck, order) for deck, order in (entry.command or {})["order"]) == st.decks
    assert_replays(situation)


def test_M1_the_shuffle_is_the_start_and_cannot_be_undone(mass_battle, referee):
    with pytest.raises(services.NothingToUndo):
        undo(mass_battle, referee)


def test_M1_start_refused_when_mass_battles_are_off_or_there_are_no_magic_cards(event, referee, cards):
    red, blue = armies(event)
    with pytest.raises(MassBattlesOff):
        start_mass_battle(event, red, blue, user=referee, nonce=nonce())
    event.mass_battles_on = True
    event.save()
    MagicCard.objects.all().delete()
    with pytest.raises(NoMagicCards):
        start_mass_battle(event, red, blue, user=referee, nonce=nonce())


def test_M5_a_keepable_card_outside_the_event_decks_is_refused_with_a_clear_message(event, referee, cards):
    card = MagicCard(catalogue=event.catalogue, name_ru="Дождь", deck=4, magic_type="water", keepable=True)
    with pytest.raises(ValidationError) as caught:
        card.full_clean()
    assert "deck 4" in str(caught.value) and "2, 5" in str(caught.value)
    card.save()  # a raw save (say, an old import) is still refused at the start of a battle
    red, blue = armies(event)
    event.mass_battles_on = True
    event.save()
    with pytest.raises(KeepableInWrongDeck) as refused_start:
        start_mass_battle(event, red, blue, user=referee, nonce=nonce())
    assert "Дождь" in explain(refused_start.value)
    event.magic_keepable_decks = "2,4,5"
    event.save()
    card.full_clean()  # allowed by the event setting now


def test_M2_magic_card_types_are_the_five_types(event, cards):
    assert {c.magic_type for c in cards.values()} == {"universal", "wind", "earth", "water", "fire"}
    bad = MagicCard(catalogue=event.catalogue, name_ru="Тьма", deck=2, magic_type="shadow")
    with pytest.raises(ValidationError):
        bad.full_clean()
    with pytest.raises(RuleError) as caught:
        magic.MagicFace(uid="x", card_id=1, deck=2, magic_type="shadow")
    assert caught.value.rule_id == "M2"


def test_M3_protected_from_fire_unaffected_by_negative_fire_and_affected_by_negative_water(
    event, referee, cards, monkeypatch
):
    in_catalogue_order(monkeypatch)
    red, blue = armies(event)
    mass_battle = start(event, referee, red, blue)
    ready(mass_battle, referee, 2, 4)  # red: 2 (Fire Rain), blue: 4 (Water Lash); red starts
    salamander, spear = wid(mass_battle, "Blue salamander"), wid(mass_battle, "Blue spear 1")
    act(mass_battle, magic.UsePoints(side="a"), referee)
    done = act(mass_battle, magic.CarryOut(side="a", targets=(salamander, spear), move_to="hospital"), referee)
    carried = next(e for e in events(done) if e["type"] == "mass_card_carried_out")
    assert carried["unaffected"] == [salamander] and carried["affected"] == [spear]
    assert state(mass_battle).warriors[salamander].place == "field"  # not moved by the card
    assert Warrior.objects.get(pk=int(spear)).state == "hospital"
    act(mass_battle, magic.EndTurn(side="a"), referee)
    act(mass_battle, magic.UsePoints(side="b"), referee)  # Water Lash, negative water
    done = act(
        mass_battle,
        magic.CarryOut(side="b", targets=(wid(mass_battle, "Red salamander"),), move_to="hospital"),
        referee,
    )
    carried = next(e for e in events(done) if e["type"] == "mass_card_carried_out")
    assert carried["affected"] == [wid(mass_battle, "Red salamander")] and carried["unaffected"] == []
    assert state(mass_battle).warriors[wid(mass_battle, "Red salamander")].place == "hospital"
    assert_replays(mass_battle)


def test_M3_a_helpful_card_of_the_protected_type_does_not_act_either(event, referee, cards, monkeypatch):
    in_catalogue_order(monkeypatch, cards["Warm Wind"])
    red, blue = armies(event)
    mass_battle = start(event, referee, red, blue)
    ready(mass_battle, referee, 6, 1)
    act(mass_battle, magic.UsePoints(side="a"), referee)
    sylph, spear = wid(mass_battle, "Red sylph"), wid(mass_battle, "Red spear 1")
    done = act(mass_battle, magic.CarryOut(side="a", targets=(sylph, spear)), referee)
    carried = next(e for e in events(done) if e["type"] == "mass_card_carried_out")
    assert carried["affected"] == [spear] and carried["unaffected"] == [sylph]


def test_M4_the_winner_chooses_who_starts_and_a_tie_is_rolled_again(mass_battle, referee):
    tie = act(mass_battle, magic.RollInitiative(source="referee", dice=(3, 3)), referee)
    assert "mass_initiative_tied" in types(tie) and state(mass_battle).stage == "initiative"
    act(mass_battle, magic.RollInitiative(source="referee", dice=(2, 5)), referee)
    assert state(mass_battle).winner == "b" and state(mass_battle).points == {"a": 2, "b": 5}
    refused("M4", mass_battle, magic.ChooseStarter(side="a", starts=True), referee)
    act(mass_battle, magic.ChooseStarter(side="b", starts=False), referee)
    assert state(mass_battle).order == ["a", "b"]
    refused("M4", mass_battle, magic.UsePoints(side="b"), referee)  # a must act first


def test_M5_a_one_with_an_empty_hospital_does_nothing(mass_battle, referee):
    act(mass_battle, magic.MoveWarrior(warrior=wid(mass_battle, "Red spear 2"), to="field"), referee)
    ready(mass_battle, referee, 1, 4, starter="b")
    before = state(mass_battle)
    done = act(mass_battle, magic.UsePoints(side="b"), referee)  # b won: b starts with 4
    act(mass_battle, magic.CarryOut(side="b"), referee)
    act(mass_battle, magic.EndTurn(side="b"), referee)
    done = act(mass_battle, magic.UsePoints(side="a"), referee)
    assert {"type": "mass_nothing_happens", "side": "a", "points": 1, "why": "empty_hospital"} in events(done)
    assert [w.place for w in state(mass_battle).warriors.values() if w.side == "a"] == [
        w.place for w in before.warriors.values() if w.side == "a"
    ]


def test_M5_a_one_kills_and_a_three_returns_the_wounded_warrior_chosen(mass_battle, referee):
    ready(mass_battle, referee, 1, 3, starter="b")
    red_wounded, blue_wounded = wid(mass_battle, "Red spear 2"), wid(mass_battle, "Blue spear 2")
    refused("M5", mass_battle, magic.UsePoints(side="b", warrior=red_wounded), referee)  # not b's own hospital
    act(mass_battle, magic.UsePoints(side="b", warrior=blue_wounded), referee)
    act(mass_battle, magic.EndTurn(side="b"), referee)
    act(mass_battle, magic.UsePoints(side="a", warrior=red_wounded), referee)
    assert state(mass_battle).warriors[blue_wounded].place == "field"
    assert state(mass_battle).warriors[red_wounded].place == "dead"
    assert Warrior.objects.get(pk=int(red_wounded)).state == "dead"


def test_M5_a_declined_four_moves_no_card(mass_battle, referee):
    ready(mass_battle, referee, 4, 1)
    decks = state(mass_battle).decks
    done = act(mass_battle, magic.UsePoints(side="a", take=False), referee)
    assert (
        "mass_card_declined" in types(done) and state(mass_battle).decks == decks and state(mass_battle).pending is None
    )


def test_M5_a_keepable_card_from_deck_2_is_kept_and_one_from_deck_4_is_not(event, referee, cards, monkeypatch):
    in_catalogue_order(monkeypatch, cards["Wind Ward"], cards["Stone Skin"])
    red, blue = armies(event)
    mass_battle = start(event, referee, red, blue)
    ready(mass_battle, referee, 2, 4)
    drawn = act(mass_battle, magic.UsePoints(side="a"), referee)
    assert next(e for e in events(drawn) if e["type"] == "mass_card_drawn")["may_keep"] is True
    act(mass_battle, magic.KeepCard(side="a"), referee)
    assert state(mass_battle).kept_uids("a") == [uid_of(cards["Wind Ward"])]
    act(mass_battle, magic.EndTurn(side="a"), referee)
    drawn = act(mass_battle, magic.UsePoints(side="b"), referee)
    assert next(e for e in events(drawn) if e["type"] == "mass_card_drawn")["may_keep"] is False
    refused("M5", mass_battle, magic.KeepCard(side="b"), referee)
    assert state(mass_battle).kept_uids("b") == []


def _phase_over(mass_battle, referee, a, b):
    """Both sides draw (or decline) and end their turns; a starts."""
    ready(mass_battle, referee, a, b, starter="a")
    for side in ("a", "b"):
        act(mass_battle, magic.UsePoints(side=side, take=False), referee)
        act(mass_battle, magic.EndTurn(side=side), referee)


def test_M5_a_kept_card_waits_for_a_later_cycle_and_its_own_turn(event, referee, cards, monkeypatch):
    in_catalogue_order(monkeypatch, cards["Wind Ward"])
    red, blue = armies(event)
    mass_battle = start(event, referee, red, blue)
    ready(mass_battle, referee, 2, 6, starter="a")
    act(mass_battle, magic.UsePoints(side="a"), referee)
    act(mass_battle, magic.KeepCard(side="a"), referee)
    ward = uid_of(cards["Wind Ward"])
    refused("M5", mass_battle, magic.UseKept(side="a", uid=ward), referee)  # the cycle it was drawn
    act(mass_battle, magic.EndTurn(side="a"), referee)
    act(mass_battle, magic.UsePoints(side="b", take=False), referee)
    act(mass_battle, magic.EndTurn(side="b"), referee)
    act(mass_battle, magic.NextCycle(), referee)
    ready(mass_battle, referee, 4, 5, starter="b")  # b's turn first in cycle 2
    refused("M5", mass_battle, magic.UseKept(side="a", uid=ward), referee)  # the other side's turn
    act(mass_battle, magic.UsePoints(side="b", take=False), referee)
    act(mass_battle, magic.EndTurn(side="b"), referee)
    used = act(mass_battle, magic.UseKept(side="a", uid=ward), referee)
    assert "mass_kept_card_used" in types(used)
    act(mass_battle, magic.CarryOut(side="a", target_side="a"), referee)
    st = state(mass_battle)
    assert st.kept_uids("a") == [] and st.decks[2][-1] == ward  # M7: to the bottom
    assert_replays(mass_battle)


def test_M6_an_effect_ends_exactly_one_cycle_later(mass_battle, referee):
    ready(mass_battle, referee, 6, 1)
    act(mass_battle, magic.UsePoints(side="a"), referee)
    act(mass_battle, magic.CarryOut(side="a", target_side="b"), referee)
    effect = state(mass_battle).effects[0]
    assert (effect.cycle, effect.ends_cycle) == (1, 2)
    act(mass_battle, magic.EndTurn(side="a"), referee)
    act(mass_battle, magic.UsePoints(side="b", warrior=wid(mass_battle, "Blue spear 2")), referee)
    act(mass_battle, magic.EndTurn(side="b"), referee)
    act(mass_battle, magic.MoveWarrior(warrior=wid(mass_battle, "Blue sylph"), to="hospital"), referee)
    assert len(state(mass_battle).effects) == 1  # still on through the rest of cycle 1
    nxt = act(mass_battle, magic.NextCycle(), referee)
    assert "mass_effect_ended" in types(nxt) and state(mass_battle).effects == [] and state(mass_battle).cycle == 2


def test_M7_the_used_card_is_at_the_bottom_of_its_deck(mass_battle, referee, cards):
    ready(mass_battle, referee, 6, 1)
    top = state(mass_battle).decks[6][0]
    act(mass_battle, magic.UsePoints(side="a"), referee)
    assert top not in state(mass_battle).decks[6]  # being carried out
    act(mass_battle, magic.CarryOut(side="a"), referee)
    assert state(mass_battle).decks[6][-1] == top and len(state(mass_battle).decks[6]) == 3


def test_M5_M7_a_mandatory_draw_from_an_empty_deck_does_not_block_the_phase(event, referee, monkeypatch):
    in_catalogue_order(monkeypatch)
    MagicCard.objects.create(catalogue=event.catalogue, name_ru="Ветер", deck=2, magic_type="wind", keepable=True)
    MagicCard.objects.create(catalogue=event.catalogue, name_ru="Камень", deck=4, magic_type="earth")
    red, blue = armies(event)
    mass_battle = start(event, referee, red, blue)
    ready(mass_battle, referee, 2, 1)
    act(mass_battle, magic.UsePoints(side="a"), referee)
    act(mass_battle, magic.KeepCard(side="a"), referee)  # deck 2 is empty now: its only card is kept
    act(mass_battle, magic.EndTurn(side="a"), referee)
    act(mass_battle, magic.UsePoints(side="b", warrior=wid(mass_battle, "Blue spear 2")), referee)
    act(mass_battle, magic.EndTurn(side="b"), referee)
    act(mass_battle, magic.NextCycle(), referee)
    ready(mass_battle, referee, 3, 2, starter="b")
    done = act(mass_battle, magic.UsePoints(side="b"), referee)
    assert {"type": "mass_nothing_happens", "side": "b", "points": 2, "why": "empty_deck"} in events(done)
    act(mass_battle, magic.EndTurn(side="b"), referee)  # the phase goes on
    assert state(mass_battle).whose_turn() == "a"


def test_M8_a_server_roll_and_a_referee_roll_are_both_logged_with_their_source(mass_battle, referee):
    act(mass_battle, magic.RollInitiative(source="server", dice=(6, 1)), referee)  # the request's dice are ignored
    server = LogEntry.objects.filter(situation=mass_battle, command__type="roll_initiative").latest("seq")
    a, b = (server.command or {})["dice"]
    assert (server.command or {})["source"] == "server" and 1 <= a <= 6 and 1 <= b <= 6
    assert server.events[0] == {
        "type": "mass_initiative_rolled",
        "cycle": 1,
        "a": a,
        "b": b,
        "source": "server",
        "nth": 1,
    }
    if a != b:
        undo(mass_battle, referee, "roll again by hand")
    act(mass_battle, magic.RollInitiative(source="referee", dice=(5, 2)), referee)
    entered = LogEntry.objects.filter(situation=mass_battle, command__type="roll_initiative").latest("seq")
    assert entered.command == {"type": "roll_initiative", "source": "referee", "dice": [5, 2]}
    assert entered.events[0]["source"] == "referee"
    assert_replays(mass_battle)


def test_M8_an_entered_die_outside_one_to_six_is_refused(mass_battle, referee):
    refused("M8", mass_battle, magic.RollInitiative(source="referee", dice=(7, 2)), referee)
    refused("M8", mass_battle, magic.RollInitiative(source="guess", dice=(5, 2)), referee)
    refused("M4", mass_battle, magic.RollInitiative(source="referee", dice=None), referee)


def test_undo_needs_a_reason_replays_and_puts_the_warrior_back(mass_battle, referee):
    ready(mass_battle, referee, 1, 4, starter="b")
    act(mass_battle, magic.UsePoints(side="b"), referee)
    act(mass_battle, magic.CarryOut(side="b"), referee)
    act(mass_battle, magic.EndTurn(side="b"), referee)
    wounded = wid(mass_battle, "Red spear 2")
    act(mass_battle, magic.UsePoints(side="a", warrior=wounded), referee)
    assert Warrior.objects.get(pk=int(wounded)).state == "dead"
    with pytest.raises(services.ReasonRequired):
        undo(mass_battle, referee, reason=" ")
    undo(mass_battle, referee)
    assert state(mass_battle).warriors[wounded].place == "hospital"
    assert Warrior.objects.get(pk=int(wounded)).state == "hospital"
    assert_replays(mass_battle)


def test_a_stale_version_or_a_repeated_nonce_changes_nothing(mass_battle, referee):
    mass_battle.refresh_from_db()
    token = nonce()
    command = magic.RollInitiative(source="referee", dice=(4, 2))
    services.perform(mass_battle.pk, command, user=referee, seen_version=mass_battle.version, nonce=token)
    again = services.perform(mass_battle.pk, command, user=referee, seen_version=mass_battle.version, nonce=token)
    assert again.repeated
    with pytest.raises(services.StaleVersion):
        services.perform(mass_battle.pk, command, user=referee, seen_version=mass_battle.version, nonce=nonce())


def test_a_mass_battle_holds_no_character_and_does_not_end_by_itself(mass_battle, referee):
    ready(mass_battle, referee, 4, 1)
    mass_battle.refresh_from_db()
    assert not mass_battle.ended and mass_battle.participants.count() == 0
    act(mass_battle, magic.EndBattle(reason="dusk"), referee)
    mass_battle.refresh_from_db()
    assert mass_battle.ended


def test_M3_a_helpful_card_of_a_protected_type_does_not_act_unless_it_acts_on_protected_too(
    as_user, event, referee, cards, monkeypatch
):
    """[M3] Seed 002: a protected warrior «не выполняет требований магических карт этих типов» - of any card."""
    cards["Stone Skin"].delete()
    beacon = MagicCard.objects.create(
        catalogue=event.catalogue, name_ru="Маяк", name_en="Beacon", deck=4, magic_type="fire", acts_on_protected=True
    )
    in_catalogue_order(monkeypatch, cards["Warm Wind"], beacon)
    red, blue = armies(event)
    mass_battle = start(event, referee, red, blue)
    ready(mass_battle, referee, 6, 4)  # red: 6 (Warm Wind, helpful fire), blue: 4 (Beacon)
    salamander, spear = wid(mass_battle, "Blue salamander"), wid(mass_battle, "Blue spear 1")
    act(mass_battle, magic.UsePoints(side="a"), referee)
    done = act(mass_battle, magic.CarryOut(side="a", targets=(salamander, spear), move_to="hospital"), referee)
    carried = next(e for e in events(done) if e["type"] == "mass_card_carried_out")
    assert carried["unaffected"] == [salamander] and carried["affected"] == [spear]
    assert state(mass_battle).warriors[salamander].place == "field"
    act(mass_battle, magic.EndTurn(side="a"), referee)
    act(mass_battle, magic.UsePoints(side="b"), referee)  # Beacon: fire, acts on protected warriors too
    page = as_user(referee).get(reverse("duels:mass", args=[mass_battle.pk])).content.decode()
    assert "data-acts-on-protected" in page and "acts on protected warriors too" in page
    red_salamander = wid(mass_battle, "Red salamander")
    done = act(mass_battle, magic.CarryOut(side="b", targets=(red_salamander,), move_to="hospital"), referee)
    carried = next(e for e in events(done) if e["type"] == "mass_card_carried_out")
    assert carried["affected"] == [red_salamander] and carried["unaffected"] == []
    assert Warrior.objects.get(pk=int(red_salamander)).state == "hospital"
    assert_replays(mass_battle)


def _dice(monkeypatch, *values):
    """The server's dice, in this order (one value per die)."""
    faces = iter(values)
    monkeypatch.setattr("duels.mass.kind.roll_die", lambda: next(faces))


def _rolled(performed):
    return [(e["a"], e["b"], e["source"]) for e in events(performed) if e["type"] == "mass_initiative_rolled"]


def test_M4_an_undone_server_roll_repeated_keeps_its_dice_and_the_figures_count_it(mass_battle, referee, monkeypatch):
    """[M4] "The commander was not looking": undo and roll again gives the same dice, not a new chance."""
    _dice(monkeypatch, 2, 5, 6, 1, 4, 4)
    assert _rolled(act(mass_battle, magic.RollInitiative(source="server"), referee)) == [(2, 5, "server")]
    undo(mass_battle, referee)
    assert _rolled(act(mass_battle, magic.RollInitiative(source="server"), referee)) == [(2, 5, "server")]
    assert state(mass_battle).winner == "b" and state(mass_battle).points == {"a": 2, "b": 5}
    undo(mass_battle, referee)
    # Entering other dice after an undone roll is a re-roll: accepted (real dice), and counted.
    act(mass_battle, magic.RollInitiative(source="referee", dice=(6, 1)), referee)
    assert state(mass_battle).winner == "a"
    log = list(LogEntry.objects.filter(situation=mass_battle).order_by("seq"))
    assert KIND.review(mass_battle, log)["figures"] == {"rolls": 3, "undone_rolls": 2, "kept_rolls": 1, "rerolls": 1}
    assert_replays(mass_battle)


def test_M4_a_repeated_tie_keeps_its_dice_and_the_roll_after_it_is_new(mass_battle, referee, monkeypatch):
    """[M4] Dice are rolled again only on a tie: each roll of the cycle keeps its own dice when repeated."""
    _dice(monkeypatch, 3, 3, 1, 4, 6, 2)
    act(mass_battle, magic.RollInitiative(source="server"), referee)  # 3-3: a tie
    undo(mass_battle, referee)
    assert _rolled(act(mass_battle, magic.RollInitiative(source="server"), referee)) == [(3, 3, "server")]
    assert _rolled(act(mass_battle, magic.RollInitiative(source="server"), referee)) == [(1, 4, "server")]
    undo(mass_battle, referee)
    assert _rolled(act(mass_battle, magic.RollInitiative(source="server"), referee)) == [(1, 4, "server")]


def test_M4_a_server_roll_after_undone_entered_dice_keeps_the_entered_dice(as_user, mass_battle, referee):
    """[M4] Real dice entered, undone, then "roll (server)": the dice on the table stay, not a new server roll."""
    act(mass_battle, magic.RollInitiative(source="referee", dice=(1, 6)), referee)
    undo(mass_battle, referee)
    page = as_user(referee).get(reverse("duels:mass", args=[mass_battle.pk])).content.decode()
    assert 'id="undone-roll"' in page  # the tablet reminds the referee of the undone dice
    assert _rolled(act(mass_battle, magic.RollInitiative(source="server"), referee)) == [(1, 6, "referee")]
    log = as_user(referee).get(reverse("duels:mass", args=[mass_battle.pk])).content.decode()
    assert "keeps its dice" in log


def test_issue20_an_army_in_a_running_mass_battle_cannot_start_another(event, referee, cards, monkeypatch):
    """Issue 20: a duel refuses a busy character; a mass battle refuses a busy army, by name, and nothing opens."""
    from cards.models_mass import Army
    from duels.mass.start import ArmyInMassBattle
    from duels.models import Situation

    red, blue = armies(event)
    first = start(event, referee, red, blue)
    green = Army.objects.create(event=event, name="Green")
    with pytest.raises(ArmyInMassBattle) as caught:
        start_mass_battle(event, green, blue, user=referee, nonce=nonce())
    assert "“Blue”" in str(caught.value) and str(first.pk) in str(caught.value)
    assert Situation.objects.filter(kind="mass_battle").count() == 1
    act(first, magic.EndBattle(reason="done"), referee)
    again = start_mass_battle(event, green, blue, user=referee, nonce=nonce())  # ended: free again
    assert again.situation.pk != first.pk


def test_issue20_warriors_are_listed_in_natural_order(event, referee, cards):
    """Issue 20: warriors 1, 2, ..., 10, 11 - not 1, 10, 11, 2."""
    from cards.models_mass import Army, WarriorType

    kind = WarriorType.objects.create(event=event, name_ru="Копейщик")
    red, blue = (Army.objects.create(event=event, name=name) for name in ("Red", "Blue"))
    for n in (10, 2, 11, 1, 3):
        Warrior.objects.create(army=red, name=str(n), warrior_type=kind)
    Warrior.objects.create(army=blue, name="Strażnik 2", warrior_type=kind)
    Warrior.objects.create(army=blue, name="Strażnik 10", warrior_type=kind)
    situation = start(event, referee, red, blue)
    names = [w.name for w in state(situation).warriors.values()]
    assert names == ["1", "2", "3", "10", "11", "Strażnik 2", "Strażnik 10"]

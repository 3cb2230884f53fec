"""A step writes only what changed: the static parts of a state live once, in snapshots (issue 24).

The counter rules (CR2) and the card faces of a fight are stored once per
content (``duels.StateSnapshot``, rules/snapshots.py) and named by their hash
from the state a step rewrites. A step writes no snapshot and reads one only
the first time this process meets it; replay gives the stored state exactly
for every kind, round breaks with new faces and undos included; states stored
before snapshots (rules and faces inline) still load, replay and play on.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench import kinds as bench
from cards import arsenal as arsenal_service
from cards.models import Card, PoolEntry
from duels import services
from duels.duel.start import declare_aggression
from duels.models import Situation, StateSnapshot
from duels.services.kinds import kind_of
from duels.services.opening import counters_of
from events.models import Event
from rules import duel as engine
from rules import snapshots
from rules.cards import CounterRule, face_from_dict
from rules.duel.state import counter_table
from tests.services.kit import act, nonce, parries, state
from tests.services.mass_kit import armies, magic_cards
from tests.services.mass_kit import start as start_mass

pytestmark = pytest.mark.django_db


def _text(situation: Situation) -> str:
    situation.refresh_from_db()
    return json.dumps(situation.state, ensure_ascii=False)


def _played_duel(event, armed, referee, attack_card, defence_card, spark) -> Situation:
    """A duel of a few steps with a catalogue of many counter rules (as an event's is)."""
    anton, zavulon = armed
    for n in range(40):
        parries(defence_card, f"tag{n}")
    duel = declare_aggression(event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce()).situation
    shield = next(u for u in state(duel).fighters[zavulon.pk].hand if state(duel).cards[u].card_id == defence_card.pk)
    act(duel, engine.Answer(duel=0, fighter=zavulon.pk, card=shield), referee)
    act(duel, engine.ConfirmResult(duel=0), referee)
    return duel


def _step(duel: Situation, referee) -> services.Performed:
    st = state(duel)
    d = st.duels[0]
    if d.phase == engine.AWAIT_ATTACK:
        card = engine.attack_cards(st, d.attacker)[0]
        return act(duel, engine.Attack(duel=0, fighter=d.attacker, card=card), referee)
    if d.phase == engine.AWAIT_ANSWER:
        return act(duel, engine.Answer(duel=0, fighter=d.step.defender, card=None), referee)
    return act(duel, engine.ConfirmResult(duel=0), referee)


def _legacy(kind: str, stored: Any) -> Any:
    """A state as it was stored before snapshots: the counter rules and every card's face inline."""
    out = dict(stored)
    if kind == "mass_battle":
        out["cards"] = snapshots.data(stored["cards"])
        return out
    out["counters"] = snapshots.data(stored["counters"])
    faces = snapshots.data(out.pop("faces"))
    out["cards"] = {uid: faces[n] for uid, n in stored["cards"].items()}
    return out


def _bout_battle(event, people, referee) -> Situation:
    from tests.services.battle_kit import begin

    event.every_round_a_bout = True
    event.save(update_fields=["every_round_a_bout"])
    return begin(event, people, referee)


def _assert_replays_exactly(situation: Situation) -> None:
    """DESIGN §4 and issue 24: the replayed state, written, is the stored JSON itself (references and all)."""
    situation.refresh_from_db()
    kind = kind_of(situation)
    assert kind.to_dict(services.replayed(situation)) == situation.state


# --- the hot row ---------------------------------------------------------------------------------


def test_CR2_a_duels_state_names_its_counter_rules_and_faces_and_holds_neither(
    event, armed, referee, attack_card, defence_card, spark
):
    duel = _played_duel(event, armed, referee, attack_card, defence_card, spark)
    text = _text(duel)
    assert "defence_card_id" not in text and "attack_tag" not in text  # no counter rule
    assert "Fireball" not in text and "full_effect" not in text  # no card face
    assert len(text) < 2500, len(text)
    # The rules it names are the catalogue's as the duel opened (CR2), stored once.
    counters = StateSnapshot.objects.get(key=duel.state["counters"]["snapshot"]).data
    assert [CounterRule(**r) for r in counters] == counters_of(event)
    assert len(counters) > 40
    faces = StateSnapshot.objects.get(key=duel.state["faces"]["snapshot"]).data
    assert sorted(f["name"] for f in faces) == ["Fireball", "Mage Shield", "Spark"]
    assert state(duel).cards == {uid: face_from_dict(faces[n]) for uid, n in duel.state["cards"].items()}


def test_every_kinds_state_holds_no_card_face_nor_counter_rule(event, people, referee):
    battle = _bout_battle(event, people, referee)
    bench.extend(battle, "battle", 12)
    text = _text(battle)
    assert "full_effect" not in text and "defence_card_id" not in text and "trigger" not in text.split('"cards"')[1]
    magic_cards(event)
    red, blue = armies(event)
    mass = start_mass(event, referee, red, blue)
    bench.extend(mass, "mass", 12)
    text = _text(mass)
    assert "magic_type" not in text and "acts_on_protected" not in text


# --- a step's statements -------------------------------------------------------------------------


def _snapshot_sql(queries) -> list[str]:
    return [q["sql"] for q in queries if "statesnapshot" in q["sql"].lower()]


def test_a_step_writes_no_snapshot_and_reads_one_only_when_the_process_first_meets_it(
    event, armed, referee, attack_card, defence_card, spark
):
    duel = _played_duel(event, armed, referee, attack_card, defence_card, spark)
    with CaptureQueriesContext(connection) as warm:
        _step(duel, referee)
    assert _snapshot_sql(warm.captured_queries) == []
    snapshots.forget()  # a new process: it knows no snapshot yet
    with CaptureQueriesContext(connection) as cold:
        _step(duel, referee)
    read = _snapshot_sql(cold.captured_queries)
    assert len(read) == 1 and read[0].lstrip().upper().startswith("SELECT"), read  # both snapshots, one read
    with CaptureQueriesContext(connection) as again:
        _step(duel, referee)
    assert _snapshot_sql(again.captured_queries) == []
    _assert_replays_exactly(duel)


def test_states_of_one_snapshot_share_their_decoded_rules(event, armed, referee, attack_card, defence_card, spark):
    duel = _played_duel(event, armed, referee, attack_card, defence_card, spark)
    snapshots.forget()
    one, two = state(duel), state(duel)
    assert one.counters == two.counters and all(a is b for a, b in zip(one.counters, two.counters, strict=True))
    assert counter_table(one) is counter_table(two)
    assert all(one.cards[u] is two.cards[u] for u in one.cards)


# --- replay, for every kind ----------------------------------------------------------------------


def test_D3_a_duels_round_break_with_new_faces_names_a_new_snapshot_and_replays_exactly(
    event, armed, referee, attack_card, defence_card, spark, catalogue
):
    anton, zavulon = armed
    frost = Card.objects.create(catalogue=catalogue, name_ru="Мороз", name_en="Frost", kind="attack", tags="frost")
    PoolEntry.objects.create(character=zavulon, card=frost, copies=1)
    duel = declare_aggression(event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce()).situation

    def held(who, card):
        st = state(duel)
        return next(u for u in st.fighters[who.pk].hand if st.cards[u].card_id == card.pk)

    act(duel, engine.Answer(duel=0, fighter=zavulon.pk, card=held(zavulon, defence_card)), referee)
    act(duel, engine.ConfirmResult(duel=0), referee)  # parried (fire)
    act(duel, engine.Attack(duel=0, fighter=zavulon.pk, card=held(zavulon, spark)), referee)
    act(duel, engine.Answer(duel=0, fighter=anton.pk, card=None), referee)
    act(duel, engine.ConfirmResult(duel=0), referee)
    act(duel, engine.Attack(duel=0, fighter=anton.pk, card=held(anton, attack_card)), referee)
    act(duel, engine.Answer(duel=0, fighter=zavulon.pk, card=None), referee)
    act(duel, engine.ConfirmResult(duel=0, outcome="parried", reason="he ducked"), referee)
    assert state(duel).duels[0].phase == engine.BETWEEN_ROUNDS  # D11: no attack card left
    before = dict(duel.state)
    rows = StateSnapshot.objects.count()
    new = arsenal_service.next_round_arsenal(zavulon, [frost.pk])
    act(duel, engine.RoundChoice(duel=0, fighter=zavulon.pk, go_on=True, arsenal=new), referee)
    act(duel, engine.RoundChoice(duel=0, fighter=anton.pk, go_on=True), referee)
    duel.refresh_from_db()
    assert duel.state["faces"] != before["faces"] and duel.state["counters"] == before["counters"]
    assert StateSnapshot.objects.count() == rows + 1
    assert "Frost" in json.dumps(StateSnapshot.objects.get(key=duel.state["faces"]["snapshot"]).data)
    _assert_replays_exactly(duel)
    services.undo_last(duel.pk, user=referee, reason="misread", seen_version=duel.version, nonce=nonce())
    duel.refresh_from_db()
    assert duel.state["faces"] == before["faces"]  # the faces as they were: the same snapshot again
    _assert_replays_exactly(duel)


def test_a_battle_with_round_breaks_and_an_undo_replays_to_its_stored_json(event, people, referee):
    battle = _bout_battle(event, people, referee)
    bench.extend(battle, "battle", 60)
    types = [e.command_type for e in battle.log.all()]
    assert "new_arsenal" in types, set(types)
    _assert_replays_exactly(battle)
    battle.refresh_from_db()
    services.undo_last(battle.pk, user=referee, reason="misread", seen_version=battle.version, nonce=nonce())
    _assert_replays_exactly(battle)


def test_M1_a_mass_battle_over_cycles_and_an_undo_replays_to_its_stored_json(event, referee):
    magic_cards(event)
    red, blue = armies(event)
    mass = start_mass(event, referee, red, blue)
    bench.extend(mass, "mass", 40)
    _assert_replays_exactly(mass)
    mass.refresh_from_db()
    services.undo_last(mass.pk, user=referee, reason="misread the die", seen_version=mass.version, nonce=nonce())
    _assert_replays_exactly(mass)


# --- states stored before snapshots --------------------------------------------------------------


@pytest.mark.parametrize("kind", ["duel", "battle", "mass_battle"])
def test_a_state_stored_before_snapshots_loads_replays_and_plays_on(
    kind, event, armed, people, referee, attack_card, defence_card, spark
):
    if kind == "duel":
        fight = _played_duel(event, armed, referee, attack_card, defence_card, spark)
    elif kind == "battle":
        fight = _bout_battle(event, people, referee)
        bench.extend(fight, "battle", 10)
    else:
        magic_cards(event)
        red, blue = armies(event)
        fight = start_mass(event, referee, red, blue)
        bench.extend(fight, "mass", 10)
    fight.refresh_from_db()
    was = services.state_of(fight)
    stored, opening = fight.state, fight.opening
    Situation.objects.filter(pk=fight.pk).update(state=_legacy(kind, stored), opening=_legacy(kind, opening))
    snapshots.forget()
    fight.refresh_from_db()
    assert "snapshot" not in json.dumps(fight.state) and "snapshot" not in json.dumps(fight.opening)
    assert services.state_of(fight) == was
    assert services.replayed(fight) == was
    assert kind_of(fight).to_dict(services.replayed(fight)) == stored
    # The next step writes the references; the snapshots are there (stored, or written now).
    if kind == "duel":
        _step(fight, referee)
    elif kind == "battle":
        bench.extend(fight, "battle", 1)
    else:
        bench.extend(fight, "mass", 1)
    fight.refresh_from_db()
    assert snapshots.refs(fight.state)
    snapshots.forget()
    assert set(StateSnapshot.objects.filter(key__in=snapshots.refs(fight.state)).values_list("key", flat=True)) == (
        snapshots.refs(fight.state)
    )
    services.state_of(fight)


# --- rows shared, never deleted ------------------------------------------------------------------


def test_two_events_share_a_snapshot_and_deleting_one_keeps_the_others_fight(
    event, other_event, armed, referee, attack_card, defence_card, spark
):
    """Content-hashed rows are shared; none is deleted with an event (docs/performance.md)."""
    from events.models import Character
    from tests.services.kit import arm

    duel = _played_duel(event, armed, referee, attack_card, defence_card, spark)
    olga = Character.objects.create(event=other_event, name="Olga")
    igor = Character.objects.create(event=other_event, name="Igor")
    arm(olga, attack_card)
    arm(igor, spark, defence_card)
    other = declare_aggression(other_event, olga, igor, attack_card.pk, user=referee, nonce=nonce()).situation
    other.refresh_from_db()
    duel.refresh_from_db()
    assert other.state["counters"] == duel.state["counters"]  # one catalogue, one row of rules
    Event.objects.filter(pk=event.pk).delete()
    snapshots.forget()
    assert StateSnapshot.objects.filter(key=other.state["counters"]["snapshot"]).exists()
    assert len(services.state_of(other).counters) > 40

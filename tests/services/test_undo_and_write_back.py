"""Undo (DESIGN.md §4), write-back to characters (S2, D11, F1) and the export for review."""

import datetime as dt
import json

import pytest

from cards.models import ArsenalCard
from duels import services
from duels.models import LogEntry, Situation
from duels.services.export import export_situation
from rules import duel as engine
from rules import snapshots
from tests.services.kit import act, arsenal, assert_replays, kinds, knock_out, nonce, uid

# ``shown`` (tests/conftest.py) is built at T0.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]

T0 = dt.datetime(2026, 12, 5, 20, 0, tzinfo=dt.UTC)


def test_undo_takes_back_the_last_command_keeps_it_in_the_log_and_replays(shown, rival, referee, defence_card):
    before_answer = Situation.objects.get(pk=shown.pk).state
    act(shown, engine.Answer(duel=0, fighter=rival.pk, card=uid(shown, rival, defence_card)), referee)
    version = Situation.objects.get(pk=shown.pk).version
    done = services.undo_last(
        shown.pk, user=referee, reason="the wrong card was tapped", seen_version=version, nonce=nonce()
    )
    situation = done.situation
    assert situation.state == before_answer
    assert situation.version == version + 1
    assert kinds(situation) == ["join", "join", "declare_aggression", "~answer", "undo"]
    undo = LogEntry.objects.get(situation=situation, kind="undo")
    assert (undo.reason, undo.actor, undo.command) == ("the wrong card was tapped", referee, {"undid": [3]})
    assert_replays(situation)
    # The answer can now be given again.
    act(situation, engine.Answer(duel=0, fighter=rival.pk, card=None), referee)
    assert_replays(situation)


def test_undo_needs_a_reason_and_a_fresh_version(shown, referee):
    version = Situation.objects.get(pk=shown.pk).version
    with pytest.raises(services.ReasonRequired):
        services.undo_last(shown.pk, user=referee, reason="  ", seen_version=version, nonce=nonce())
    with pytest.raises(services.StaleVersion):
        services.undo_last(shown.pk, user=referee, reason="oops", seen_version=version - 1, nonce=nonce())
    assert not LogEntry.objects.filter(kind="undo").exists()


def test_undo_with_a_repeated_nonce_undoes_once(shown, rival, referee):
    act(shown, engine.Answer(duel=0, fighter=rival.pk, card=None), referee)
    act(shown, engine.ConfirmResult(duel=0), referee)
    version = Situation.objects.get(pk=shown.pk).version
    token = nonce()
    services.undo_last(shown.pk, user=referee, reason="oops", seen_version=version, nonce=token)
    again = services.undo_last(shown.pk, user=referee, reason="oops", seen_version=version, nonce=token)
    assert again.repeated
    assert kinds(shown)[-3:] == ["answer", "~confirm_result", "undo"]


def test_undoing_the_start_empties_the_situation_and_frees_both(shown, character, rival, referee):
    version = Situation.objects.get(pk=shown.pk).version
    services.undo_last(shown.pk, user=referee, reason="not a fight after all", seen_version=version, nonce=nonce())
    situation = Situation.objects.get(pk=shown.pk)
    assert kinds(situation) == ["~join", "~join", "~declare_aggression", "undo"]
    assert situation.ended and situation.participants.count() == 0
    assert not services.in_active_situation(character) and not services.in_active_situation(rival)
    assert_replays(situation)
    version = situation.version
    with pytest.raises(services.SituationEnded):
        services.undo_last(shown.pk, user=referee, reason="again", seen_version=version, nonce=nonce())


def test_D11_a_fighter_who_is_out_is_written_back_at_once_and_undo_puts_it_back(
    shown, character, rival, referee, attack_card, defence_card, spark
):
    knock_out(shown, character, rival, referee, attack_card, defence_card, spark)
    rival.refresh_from_db()
    character.refresh_from_db()
    assert (character.condition, rival.condition) == ("lightly_wounded", "heavily_wounded")
    # The situation is still on (S2 gap), so the arsenal is not written back yet.
    assert not Situation.objects.get(pk=shown.pk).ended
    version = Situation.objects.get(pk=shown.pk).version
    services.undo_last(shown.pk, user=referee, reason="the shield did touch", seen_version=version, nonce=nonce())
    rival.refresh_from_db()
    assert rival.condition == "fit"
    assert_replays(shown)


def test_S2_at_the_end_the_hand_restorable_arsenal_focus_and_condition_are_written_back(
    shown, character, rival, referee, attack_card, defence_card, spark, clock
):
    # F1: both focus on their shield during the fight.
    for who in (character, rival):
        act(shown, engine.SetFocus(fighter=who.pk, card=uid(shown, who, defence_card)), referee)
    knock_out(shown, character, rival, referee, attack_card, defence_card, spark)
    clock.shift(dt.timedelta(seconds=180, microseconds=1))
    situation = services.refresh(Situation.objects.get(pk=shown.pk))
    assert situation.ended and situation.next_deadline is None
    character.refresh_from_db()
    rival.refresh_from_db()
    # Anton spent both Fireballs and kept his shield; Zavulon spent both his cards.
    assert arsenal(character) == {defence_card.pk: 1}
    assert arsenal(rival) == {}
    assert character.restorable_arsenal == sorted([attack_card.pk, attack_card.pk, defence_card.pk])
    assert rival.restorable_arsenal == sorted([spark.pk, defence_card.pk])
    # F1: Anton still holds his focused shield; Zavulon's parried and was discarded.
    assert character.focus_card_id == defence_card.pk and rival.focus_card_id is None
    assert (character.condition, rival.condition) == ("lightly_wounded", "heavily_wounded")
    assert not services.in_active_situation(character)
    with pytest.raises(services.SituationEnded):
        services.undo_last(shown.pk, user=referee, reason="late", seen_version=situation.version, nonce=nonce())
    assert ArsenalCard.objects.filter(character=character).count() == 1


def test_export_is_json_with_the_whole_log_and_replays_to_the_state(shown, rival, referee, monkeypatch):
    act(shown, engine.Answer(duel=0, fighter=rival.pk, card=None), referee)
    situation = Situation.objects.get(pk=shown.pk)
    services.undo_last(shown.pk, user=referee, reason="oops", seen_version=situation.version, nonce=nonce())
    situation.refresh_from_db()
    data = json.loads(json.dumps(export_situation(situation)))
    assert data["format"] == "sumrak-situation/1"
    assert [(e["seq"], e["kind"], e["undone"]) for e in data["log"]][-2:] == [(3, "command", True), (4, "undo", False)]
    assert data["log"][-1]["reason"] == "oops" and data["log"][-1]["actor"] == "referee"
    assert {p["name"] for p in data["situation"]["participants"]} == {"Anton", "Zavulon"}
    entries: list[engine.LogEntry] = [
        ("command", engine.command_from_dict(e["command"]), dt.datetime.fromisoformat(e["at"]), e["draw"])
        if e["kind"] == "command"
        else ("expire", dt.datetime.fromisoformat(e["at"]))
        for e in data["log"]
        if not e["undone"] and e["kind"] != "undo"
    ]
    # The document needs nothing else: read where no snapshot is known (its static parts carry their data).
    snapshots.forget()
    monkeypatch.setattr(snapshots, "_resolver", None)
    replayed = engine.replay(engine.from_dict(data["opening"]), entries)
    assert snapshots.inlined(engine.to_dict(replayed)) == data["state"]

"""[IA1, IA3, IA6, BP4, S2] An instant attack on someone already fighting: the attacker joins that fight.

Issue 25 item 4. Olga (unseen, 1 m away) strikes Anton, who is fighting
Zavulon: the duel grows into a battle of three with Olga in it, her blow its
first action, answered by a blind draw from Anton's hand (the services' chance
is patched: no random failures). Every time is explicit: T0 plus seconds.
"""

import pytest

from cards.models import ArsenalCard
from duels import services
from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from duels.services.export import export_situation
from events.models import Character, Condition, Side
from rules import RuleError
from rules import battle as B
from rules.battle.referee import ChangeCondition
from rules.duel import SetFocus
from rules.duel import to_dict as duel_to_dict
from tests.services import kit
from tests.services.battle_kit import battle_state, begin, party
from tests.services.kit import act, arm, at, instant, nonce, record_draws, undo

pytestmark = pytest.mark.django_db
T0 = kit.T0


def replays(situation: Situation) -> None:
    """DESIGN.md §4: the stored state is the replay of the log (a battle's or a duel's)."""
    situation.refresh_from_db()
    kind = B.to_dict if situation.kind == Situation.Kind.BATTLE else duel_to_dict
    assert kind(services.replayed(situation)) == situation.state


@pytest.fixture
def duel(armed, bystander, attack_card, spark, referee, clock):
    """Zavulon shows a Spark to Anton (AG1); Olga, of the Dark too, holds a Fireball and stands by."""
    anton, zavulon = armed
    Character.objects.filter(pk=bystander.pk).update(side=Side.DARK)
    bystander.refresh_from_db()
    arm(bystander, attack_card)
    return declare_aggression(anton.event, zavulon, anton, spark.pk, user=referee, nonce=nonce(), now=at(0)).situation


def top_of(state: B.Battle) -> B.Frame:
    frame = B.top(state)
    assert frame is not None
    return frame


def struck(performed: services.Performed) -> B.Frame:
    return top_of(battle_state(performed.situation))


def drawn_uid(frame: B.Frame) -> str:
    uid = frame.parts[0].windows[0].answer_card
    assert uid is not None
    return uid


def test_IA1_IA3_S2_an_instant_attack_on_a_duellist_grows_the_duel_into_a_battle_with_a_blind_draw(
    duel, armed, bystander, attack_card, defence_card, referee, monkeypatch, clock
):
    anton, zavulon = armed
    sizes = record_draws(monkeypatch, lambda n: n - 1)  # the last card of Anton's hand: the Mage Shield
    clock.move_to(at(5))
    done = instant(bystander, anton, attack_card, referee, 5)
    battle = done.situation
    assert battle.kind == Situation.Kind.BATTLE and battle.pk != duel.pk
    st = battle_state(battle)
    assert set(st.combatants) == {anton.pk, zavulon.pk, bystander.pk}
    # D5: the attacker declared it; the blow is her first action, answered at once by the draw (IA3).
    assert st.declarer == bystander.pk and st.turn_of == bystander.pk
    frame = struck(done)
    assert frame.instant and frame.actor == bystander.pk and frame.targets == [anton.pk]
    window = frame.parts[0].windows[0]
    assert sizes == [3] and window.answered and window.deadline is None
    assert st.cards[drawn_uid(frame)].face.card_id == defence_card.pk
    assert window.proposed == "parried"  # the Mage Shield parries fire (CR2)
    # S2, IA6: the duel's situation goes on as the battle; its instant attack is now used.
    assert st.instant_attack_used and st.last_action_at == at(5)
    duel.refresh_from_db()
    assert duel.ended
    entry = LogEntry.objects.get(situation=battle, command__type="instant_attack")
    drawn = next(e for e in entry.events if e["type"] == "battle_card_drawn")
    assert entry.draw == 2 and drawn["draw"] == 2 and drawn["physical"] is False
    # Play goes on: the result is confirmed (IA4: the parrying card is spent), then the next turn.
    act(battle, B.ConfirmAnswer(frame=frame.number, defender=anton.pk), referee, now=at(6))
    act(battle, B.NextTurn(), referee, now=at(7))
    st = battle_state(battle)
    assert st.records[-1].outcome == "parried" and window.answer_card in st.combatants[anton.pk].discards
    assert st.turn_of is not None and st.turn_of != bystander.pk
    replays(battle)
    replays(duel)


def test_IA4_a_card_drawn_for_an_instant_attack_that_does_not_parry_stays_in_hand(
    duel, armed, bystander, attack_card, referee, monkeypatch, clock
):
    anton, _zavulon = armed
    record_draws(monkeypatch, lambda n: 0)  # a Fireball: nothing against fire
    done = instant(bystander, anton, attack_card, referee, 5)
    frame = struck(done)
    drawn = frame.parts[0].windows[0].answer_card
    act(done.situation, B.ConfirmAnswer(frame=frame.number, defender=anton.pk), referee, now=at(6))
    st = battle_state(done.situation)
    assert st.records[-1].outcome == "not_parried" and drawn in st.combatants[anton.pk].hand
    assert st.combatants[anton.pk].condition == Condition.HEAVILY_WOUNDED
    replays(done.situation)


def test_IA6_a_second_instant_attack_in_the_situation_is_an_ordinary_attack_and_joins_by_aggression(
    duel, armed, bystander, attack_card, referee, monkeypatch, clock, event
):
    anton, zavulon = armed
    record_draws(monkeypatch, lambda n: n - 1)  # the Mage Shield parries: Anton fights on
    battle = instant(bystander, anton, attack_card, referee, 5).situation
    frame = top_of(battle_state(battle))
    act(battle, B.ConfirmAnswer(frame=frame.number, defender=anton.pk), referee, now=at(6))
    boris = Character.objects.create(event=event, name="Boris", side=Side.LIGHT)
    arm(boris, attack_card)
    monkeypatch.setattr("secrets.randbelow", lambda n: pytest.fail("IA6: nothing may be drawn"))
    again = instant(boris, zavulon, attack_card, referee, 8)
    assert again.situation.pk == battle.pk
    assert "battle_converted" in [e.type for e in again.events]
    converted = next(e for e in again.events if e.type == "battle_converted")
    assert converted.rule == "IA6"
    # BP4: he joined by attacking - an ordinary attack whose window waits for Zavulon's answer (D8).
    frame = top_of(battle_state(battle))
    assert frame.newcomer and not frame.instant and frame.actor == boris.pk
    assert frame.parts[0].windows[0].deadline == at(8 + 15) and not frame.parts[0].windows[0].answered
    replays(battle)


def test_IA1_BP4_an_instant_attack_into_a_running_battle_joins_it_and_strikes_at_once(
    event, people, referee, monkeypatch, clock
):
    anna, _boris, vera, _gleb = people
    battle = begin(event, people, referee, now=at(0))
    (newcomer,) = party(event, 1, first=4)
    sizes = record_draws(monkeypatch, lambda n: 0)
    blade = ArsenalCard.objects.get(character=newcomer, card__name_en="Blade").card
    done = instant(newcomer, vera, blade, referee, 3)
    assert done.situation.pk == battle.pk
    st = battle_state(battle)
    assert newcomer.pk in st.combatants and st.turn_of == anna.pk  # BP4: out of turn
    frame = top_of(st)
    assert frame.instant and frame.newcomer and sizes == [len(st.combatants[vera.pk].hand) + 1]
    assert st.instant_attack_used
    act(battle, B.ConfirmAnswer(frame=frame.number, defender=vera.pk), referee, now=at(4))
    act(battle, B.NextTurn(), referee, now=at(5))
    st = battle_state(battle)
    # BP4: the turn goes back to Anna; the newcomer takes turns from the next round.
    assert st.turn_of == anna.pk and newcomer.pk not in st.order
    replays(battle)


def test_IA1_without_surprise_a_strike_on_a_duellist_is_an_ordinary_attack_and_a_join_by_aggression(
    duel, armed, bystander, attack_card, referee, monkeypatch, clock
):
    anton, _zavulon = armed
    monkeypatch.setattr("secrets.randbelow", lambda n: pytest.fail("IA1: nothing may be drawn"))
    done = instant(bystander, anton, attack_card, referee, 5, sight=False)
    assert done.situation.kind == Situation.Kind.BATTLE
    converted = next(e for e in done.events if e.type == "battle_converted")
    assert converted.rule == "IA1"
    st = battle_state(done.situation)
    frame = top_of(st)
    assert not frame.instant and frame.actor == bystander.pk and not frame.parts[0].windows[0].answered
    assert not st.instant_attack_used  # IA6: still unused (the duel began by aggression)
    replays(done.situation)


def test_F1_IA3_a_focused_victim_answers_with_the_focused_card(
    duel, armed, bystander, attack_card, defence_card, referee, monkeypatch, clock
):
    anton, _zavulon = armed
    shield = next(
        u for u in kit.state(duel).fighters[anton.pk].hand if kit.state(duel).cards[u].card_id == defence_card.pk
    )
    act(duel, SetFocus(fighter=anton.pk, card=shield), referee, now=at(2))  # F1, held up in front of him
    monkeypatch.setattr("secrets.randbelow", lambda n: pytest.fail("F1: the focus answers, nothing is drawn"))
    done = instant(bystander, anton, attack_card, referee, 5)
    drawn = next(e for e in done.events if e.type == "battle_card_drawn")
    assert drawn.by_focus and drawn.card_id == defence_card.pk and drawn.draw is None
    assert struck(done).parts[0].windows[0].proposed == "parried"
    replays(done.situation)


def test_IA3_draws_from_real_cards_record_the_card_named_which_must_be_in_hand(
    duel, armed, bystander, attack_card, defence_card, spark, referee, monkeypatch, clock, event
):
    anton, _zavulon = armed
    event.physical_draws = True
    event.save()
    monkeypatch.setattr("secrets.randbelow", lambda n: pytest.fail("IA3: the victim draws, not the server"))
    with pytest.raises(services.CardNotHeld) as refused:
        instant(bystander, anton, attack_card, referee, 5, drawn_card_id=spark.pk)  # Zavulon's card
    assert "Anton does not hold the card Spark." in str(refused.value) or refused.value.params["name"] == "Anton"
    duel.refresh_from_db()
    assert not duel.ended and not Situation.objects.filter(kind=Situation.Kind.BATTLE).exists()
    done = instant(bystander, anton, attack_card, referee, 6, drawn_card_id=defence_card.pk)
    drawn = next(e for e in done.events if e.type == "battle_card_drawn")
    assert drawn.physical and drawn.card_id == defence_card.pk and not drawn.by_focus
    replays(done.situation)


def test_D11_a_combatant_who_can_no_longer_fight_is_not_drawn_into_a_fight(event, people, referee, clock):
    _anna, _boris, vera, _gleb = people
    battle = begin(event, people, referee, now=at(0))
    act(
        battle,
        ChangeCondition(combatant=vera.pk, add=Condition.PARALYSED, clear="", reason="the spell held"),
        referee,
        now=at(1),
    )
    (newcomer,) = party(event, 1, first=4)
    version = Situation.objects.get(pk=battle.pk).version
    blade = ArsenalCard.objects.get(character=newcomer, card__name_en="Blade").card
    with pytest.raises(RuleError) as refused:
        instant(newcomer, vera, blade, referee, 3)
    assert refused.value.rule_id == "D11"
    st = battle_state(battle)
    assert newcomer.pk not in st.combatants and not st.instant_attack_used
    assert Situation.objects.get(pk=battle.pk).version == version


def test_IA3_S2_undoing_the_growing_instant_attack_gives_the_duel_back_and_a_repeat_keeps_its_draw(
    duel, armed, bystander, attack_card, defence_card, referee, monkeypatch, clock
):
    anton, zavulon = armed
    duel.refresh_from_db()
    before = duel.state
    record_draws(monkeypatch, lambda n: n - 1)  # the Mage Shield
    battle = instant(bystander, anton, attack_card, referee, 5).situation
    undo(battle, referee, 6)
    battle.refresh_from_db()
    duel.refresh_from_db()
    assert battle.ended and not battle_state(battle).combatants
    assert not duel.ended and duel.state == before
    replays(duel)
    running = services.active_situation_for(anton, now=at(6))
    assert running is not None and running.pk == duel.pk
    assert services.active_situation_for(bystander, now=at(6)) is None
    # IA3: the repeat keeps the undone draw (the same card), drawing nothing new.
    monkeypatch.setattr("secrets.randbelow", lambda n: pytest.fail("IA3: a repeat keeps its draw"))
    again = instant(bystander, anton, attack_card, referee, 7).situation
    assert battle_state(again).cards[drawn_uid(top_of(battle_state(again)))].face.card_id == defence_card.pk
    assert {anton.pk, zavulon.pk, bystander.pk} == set(battle_state(again).combatants)
    figures = export_situation(again)["figures"]
    assert figures == {"blind_draws": 1, "undone_draws": 0, "reused_draws": 1, "redraws": 0}
    replays(again)


def test_D11_a_duellist_who_can_no_longer_fight_is_not_drawn_into_a_fight(
    duel, armed, bystander, attack_card, referee, monkeypatch, clock
):
    """IA1's reading for a duel: Anton, paralysed in his duel, is struck by Olga: refused (D11), nothing
    changes, no battle opens; a blow on him is recorded as a condition change (CR1)."""
    from duels.services.conditions import change_condition
    from rules import duel as engine

    anton, _zavulon = armed
    act(duel, engine.Answer(duel=0, fighter=anton.pk, card=None), referee, now=at(1))
    act(duel, engine.ConfirmResult(duel=0), referee, now=at(1))  # Zavulon's Spark: a light wound
    change_condition(anton, add=Condition.PARALYSED, reason="the spell held", user=referee, now=at(2))
    duel.refresh_from_db()
    version = duel.version
    with pytest.raises(RuleError) as refused:
        instant(bystander, anton, attack_card, referee, 5)
    assert refused.value.rule_id == "D11"
    duel.refresh_from_db()
    assert duel.version == version and not Situation.objects.filter(kind=Situation.Kind.BATTLE).exists()

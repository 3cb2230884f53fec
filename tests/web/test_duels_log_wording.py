"""The fight log words every event the engine can emit, in Russian and English, with the values it carries.

Every event class registered with ``@event_type`` (duels, battles, mass battles)
is a case here: a registered type with no wording in the one table
(``duels/web/log.py``) or no case fails the test, so a new event kind must
come with its log line. The duel's events come from real fights run through
the engine; the battle's and the magic phase's are built by hand on a real
state (their engines reach many of them only deep into a fight).

For each event the line is rendered in both languages and every field the
event carries is checked: names, cards, conditions, outcomes, counts, dice and
reasons must appear in the words; a yes/no field must change the words when
flipped; a field with a closed set of values (why an action was lost, how a
warrior moved) must give different words for each. A field this test does not
know fails it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from django.utils.formats import time_format
from django.utils.timezone import localtime
from django.utils.translation import override

import rules.mass as magic
from cards.models_mass import MagicCard
from duels.battle.log import ROUND_END_LABELS, TRIGGER_LABELS, BattleWords
from duels.battle.presenters import ACT_LABELS, ROLE_LABELS, SIDE_LABELS
from duels.battle.presenters import RESULT_LABELS as BATTLE_RESULT_LABELS
from duels.duel.log import Words
from duels.duel.presenters import OPENED_BY_LABELS, OUTCOME_LABELS, RESULT_LABELS, condition_label
from duels.mass.log import MassWords
from duels.mass.presenters import PLACE_LABELS, SOURCE_LABELS
from duels.web.log import WORDING, LogWords
from rules import NOT_PARRIED, PARRIED, EngineEvent, LagGraceUsed
from rules import battle as B
from rules.battle import events as BE
from rules.battle.referee import ConditionRecorded, SituationTakenOn
from rules.duel import (
    Answer,
    Attack,
    ChangeCondition,
    ConfirmResult,
    EndDuel,
    InstantAttack,
    RoundChoice,
    SetFocus,
    Settings,
)
from rules.duel.events import ArsenalChanged, RoundChoiceMade
from rules.events import EVENT_CLASSES
from rules.mass import events as ME
from tests.rules.battle import kit as battle_kit
from tests.rules.battle.kit import ANNA, BLADE, BORIS, COUNTER, GLEB, VERA
from tests.rules.battle.kit import SHIELD as BATTLE_SHIELD
from tests.rules.duel.kit import ANTON, DART, FIRE, HEAL, OLGA, SHIELD, WARD, ZAVULON, Fight, setup
from tests.rules.mass.kit import CARDS, WARRIORS

LANGUAGES = ("ru", "en")

# Fields whose value the line does not repeat, and why.
NOT_WORDED = {
    "deadline": "the answer window's end; the page's countdown shows it and D8's own line says when it passed",
    "draw": "the index into a hidden hand means nothing to a reader; the drawn card is named",
    "uid": "a magic card's copy in the fight; the card is named by its card_id",
}
# Lines that follow the line naming their duel need not repeat its number.
DUEL_NAMED_BY = {"duel_opened", "round_started", "round_ended", "step_cancelled", "duel_ended"}


def fights() -> tuple[list[EngineEvent], Words]:
    """Two small fights that between them emit every kind of event of a combat situation."""
    f = Fight(
        setup(ANTON, DART, DART, FIRE),
        setup(ZAVULON, SHIELD, WARD, HEAL, focus=SHIELD.card_id),
        setup(OLGA, DART, SHIELD),
    )
    f.do(SetFocus(ZAVULON, f.uid(ZAVULON, WARD.card_id)), 0)
    # A real instant attack answered by the focus (F1); the referee overrides the proposal (CR2).
    f.do(InstantAttack(ANTON, ZAVULON, f.uid(ANTON, DART.card_id), True, True), 1)
    f.do(ConfirmResult(0, PARRIED, "the ward held"), 2)  # IA5: Zavulon has no attack card and passes (D10)
    f.do(Attack(0, ANTON, f.uid(ANTON, DART.card_id)), 3)
    f.tick(20)  # D8: no answer, a light wound
    f.do(Attack(0, ANTON, f.uid(ANTON, FIRE.card_id)), 21)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, HEAL.card_id)), 22)
    f.do(ConfirmResult(0), 23)  # softened; nobody can attack: the round ends
    f.do(RoundChoice(0, ANTON, True, (FIRE, HEAL, SHIELD), "Night set"), 30)
    f.do(RoundChoice(0, ZAVULON, True, None), 31)
    f.do(Attack(0, ANTON, f.uid(ANTON, FIRE.card_id)), 32)
    f.do(Answer(0, ZAVULON, None), 33)
    f.do(ConfirmResult(0), 34)  # heavily wounded: out (D11), the duel ends
    # IA6: Olga's surprise comes too late in this situation; the referee ends it mid-step.
    f.do(InstantAttack(OLGA, ANTON, f.uid(OLGA, DART.card_id), True, True), 40)
    f.do(EndDuel(1, "they parted"), 41)
    f.do(SetFocus(OLGA, None), 42)
    f.tick(1000)  # S2
    # A blind draw whose card is not spent goes back to the hand (IA4).
    g = Fight(setup(ANTON, FIRE), setup(OLGA, WARD, HEAL))
    g.do(InstantAttack(ANTON, OLGA, g.uid(ANTON, FIRE.card_id), True, True), 1, draw=0)
    g.do(ConfirmResult(0, NOT_PARRIED), 2)
    # The victim declines to parry (IA3); later a healer clears the wound (a record with a reason).
    h = Fight(setup(ANTON, FIRE), setup(OLGA, WARD))
    h.do(InstantAttack(ANTON, OLGA, h.uid(ANTON, FIRE.card_id), True, True, parry=False), 1)
    h.do(ConfirmResult(0), 2)
    h.do(ChangeCondition(OLGA, clear="heavily_wounded", reason="the healer's spell"), 3)
    state = f.state
    state.cards = state.cards.with_items({**g.state.cards, **h.state.cards})
    # D8 lag grace: a shared event the services add to an answer's entry (duels/services/grace.py).
    physical = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD, HEAL), settings=Settings(physical_draws=True))
    physical.do(
        InstantAttack(
            ANTON, ZAVULON, physical.uid(ANTON, FIRE.card_id), True, True, drawn=physical.uid(ZAVULON, HEAL.card_id)
        ),
        1,
    )
    drawn = [e for e in physical.events if e.type == "card_drawn"]
    state.cards = state.cards.with_items(physical.state.cards)
    grace = LagGraceUsed(tapped_ms=14_500, late_ms=1_000, grace_ms=2_000)
    return f.events + g.events + h.events + drawn + [grace], Words(state, {}, {})


def number(value: int | None) -> list[str]:
    return [] if value is None else [rf"\b{value}\b"]


def duel_expected(words: Words, event: EngineEvent, name: str, value: Any) -> list[str]:
    """What the line must contain for this field, in the active language."""
    if name in ("fighter", "a", "b", "attacker", "victim"):
        return [words.fighter(value)]
    if name in ("card", "focus", "card_id"):
        if value is None:
            return []
        return [words.card(value, None) if name != "card_id" else words.card(None, value)]
    if name in ("condition", "old", "new"):
        return [condition_label(value)]
    if name in ("outcome", "proposed"):
        return [str(OUTCOME_LABELS[value])]
    if name == "result":
        return [str(RESULT_LABELS[value])]
    if name == "opened_by":
        return [str(OPENED_BY_LABELS[value])]
    if name in ("rule", "reason", "label", "name"):
        return [value] if value else []
    if name in ("count", "round", "max_rounds"):
        return number(value)
    if name == "duel":
        return [rf"\b{value + 1}\b"] if event.type in DUEL_NAMED_BY else []
    if name == "conditions":
        return [part for cid, cond in value.items() for part in (words.fighter(int(cid)), condition_label(cond))]
    if name == "at":
        return [time_format(localtime(datetime.fromisoformat(value)), "H:i:s")]
    if name in ("tapped_ms", "late_ms", "grace_ms"):  # D8 lag grace, in seconds
        return [f"{value / 1000:.1f}"]
    raise AssertionError(f"say how the field {name!r} of {event.type!r} shows in the log (or why it does not)")


def line_has(line: str, wanted: str) -> bool:
    if wanted.startswith(r"\b"):
        return re.search(wanted, line) is not None
    return wanted in line


# --- battles ------------------------------------------------------------------------------------


def battle_events() -> tuple[list[EngineEvent], BattleWords]:
    """One event of every battle type, on the state of a real battle of four (Anna, Boris; Vera, Gleb)."""
    f = battle_kit.Fight()
    blade, counter, shield = f.uid(ANNA, BLADE), f.uid(VERA, COUNTER), f.uid(GLEB, BATTLE_SHIELD)
    joined = next(e for e in f.events if isinstance(e, BE.Joined) and e.combatant == VERA)
    events: list[EngineEvent] = [
        joined,
        BE.Left(combatant=GLEB),
        BE.BoutEnded(bout=2),
        BE.SituationClosed(),
        SituationTakenOn(reason="A duel takes the situation on: Anna and Vera."),
        BE.Begun(declarer=BORIS, max_rounds=4),
        BE.RoundStarted(round=2, order=[VERA, ANNA, GLEB], reactions=True),
        BE.TurnStarted(round=3, combatant=ANNA),
        BE.TurnSkipped(round=3, combatant=BORIS, condition="heavily_wounded"),
        BE.TurnEnded(round=3, combatant=ANNA),
        BE.ActionDeclared(
            frame=7, actor=VERA, role=B.INTERRUPT, act=B.USE, targets=[ANNA], engaged=[BORIS], reacts_to=5, trigger="x"
        ),
        BE.ActionDeclared(frame=8, actor=GLEB, role=B.OPPORTUNITY, act=B.ATTACK, trigger="leaves_reach"),
        BE.AttackShown(
            frame=6, attacker=ANNA, card=blade, card_id=BLADE.face.card_id, targets=[VERA, GLEB], deadline=None
        ),
        BE.CardUsed(frame=7, combatant=VERA, card=counter, card_id=COUNTER.face.card_id),
        BE.PartDone(frame=6, part=1),
        BE.WindowsSuspended(frame=6, by=VERA),
        BE.WindowsResumed(frame=6),
        BE.WindowLost(frame=6, defender=GLEB),
        BE.ActionLost(frame=6, actor=ANNA, by=VERA, why="negated"),
        BE.FrameClosed(frame=7, actor=VERA, role=B.RESPONSE),
        BE.ActionReadied(combatant=GLEB, mode=B.RESPONSE, trigger="Anna steps out of the circle"),
        BE.Answered(frame=6, defender=GLEB, card=shield, card_id=BATTLE_SHIELD.face.card_id, proposed="softened"),
        BE.Answered(frame=9, defender=VERA, card=None, card_id=None, proposed="not_parried"),
        BE.AnswerTimedOut(frame=6, defender=VERA, deadline="2026-12-05T18:00:30+00:00"),
        BE.ResultApplied(
            frame=6,
            attacker=ANNA,
            defender=GLEB,
            outcome="not_parried",
            proposed="softened",
            overridden=True,
            reason="the shield was dropped",
            timed_out=False,
        ),
        BE.ConditionChanged(combatant=GLEB, old="lightly_wounded", new="heavily_wounded"),
        ConditionRecorded(combatant=VERA, old="fit", new="paralysed", reason="a Sleep spell"),
        BE.CombatantOut(combatant=GLEB, condition="helpless"),
        BE.RoundEnded(round=3, why="no_attacks_left"),
        BE.ArsenalChanged(combatant=BORIS, label="Night set", count=6),
        BE.ArsenalChanged(combatant=BORIS, label="", count=1),
        BE.Ended(
            result="one_side_left",
            reason="the dark fled",
            winner="light",
            conditions={str(ANNA): "fit", str(GLEB): "dead"},
        ),
        # IA1, IA3: an instant attack on a combatant (rules/battle/instant.py).
        BE.InstantConverted(rule="IA1", attacker=GLEB, victim=ANNA),
        BE.InstantConverted(rule="IA6", attacker=GLEB, victim=ANNA),
        BE.InstantCardDrawn(
            frame=6, combatant=GLEB, card=shield, card_id=BATTLE_SHIELD.face.card_id, draw=2, by_focus=False
        ),
        BE.InstantCardDrawn(
            frame=6, combatant=GLEB, card=shield, card_id=BATTLE_SHIELD.face.card_id, draw=None, by_focus=True
        ),
        BE.InstantParryDeclined(frame=6, combatant=VERA),
    ]
    return events, BattleWords(f.state, {})


BATTLE_FIGHTERS = ("combatant", "declarer", "actor", "attacker", "defender", "by", "victim")


def battle_expected(words: BattleWords, event: EngineEvent, name: str, value: Any) -> list[str]:
    if name in BATTLE_FIGHTERS:
        return [] if value is None else [words.who(value)]
    if name in ("order", "targets", "engaged"):
        return [words.who(c) for c in value]
    if name == "name":
        return [value]
    if name in ("side", "winner"):
        return [] if value is None else [str(SIDE_LABELS[value])]
    if name in ("condition", "old", "new"):
        return [condition_label(value)]
    if name in ("cards", "count", "round", "bout", "max_rounds", "frame", "reacts_to"):
        return number(value)
    if name == "part":  # counted from 1 for people
        return number(value + 1)
    if name in ("role", "mode"):
        return [str(ROLE_LABELS[value])]
    if name == "act":
        return [str(ACT_LABELS[value])]
    if name == "trigger":
        return [str(TRIGGER_LABELS.get(value, value))] if value else []
    if name in ("card", "card_id"):
        return [] if value is None else [words.card(value, None) if name == "card" else words.card(None, value)]
    if name in ("outcome", "proposed"):
        return [str(OUTCOME_LABELS[value])]
    if name == "result":
        return [str(BATTLE_RESULT_LABELS[value])]
    if name in ("reason", "label"):
        return [value] if value else []
    if name == "conditions":
        return [part for cid, cond in value.items() for part in (words.who(int(cid)), condition_label(cond))]
    if name == "rule":  # IA1 / IA6: why an instant attack is an ordinary one
        return [value]
    raise AssertionError(f"say how the field {name!r} of {event.type!r} shows in the log (or why it does not)")


# --- mass battles -------------------------------------------------------------------------------


def mass_events() -> tuple[list[EngineEvent], MassWords]:
    """One event of every magic-phase type, on the state of a real mass battle (Red against Blue)."""
    state = magic.open_battle(magic.MagicSettings(), CARDS, WARRIORS, [magic.Side("a", "Red"), magic.Side("b", "Blue")])
    names = {1: MagicCard(name_ru="Огненный дождь", name_en="Fire Rain"), 4: MagicCard(name_ru="Ветер", name_en="Wind")}
    events: list[EngineEvent] = [
        ME.DecksShuffled(sizes={"2": 3, "4": 1, "5": 2, "6": 1}),
        ME.InitiativeRolled(cycle=2, a=5, b=3, source="referee"),
        ME.InitiativeTied(cycle=4),
        ME.InitiativeWon(cycle=4, side="b"),
        ME.StarterChosen(chooser="b", starter="a"),
        ME.PointsUsed(side="a", points=5),
        ME.NothingHappens(side="b", points=3, why="empty_hospital"),
        ME.NothingHappens(side="b", points=6, why="empty_deck"),
        ME.NothingHappens(side="b", points=5, why="no_deck"),
        ME.CardDeclined(side="a", deck=4),
        ME.CardDrawn(side="a", deck=5, uid="4.1", card_id=4, may_keep=True),
        ME.CardKept(side="a", uid="4.1", card_id=4),
        ME.KeptCardUsed(side="a", uid="4.2", card_id=4),
        ME.CardCarriedOut(
            side="b",
            uid="1.1",
            card_id=1,
            target_side="a",
            affected=["0", "2"],
            unaffected=["3"],
            ends_cycle=7,
            to_bottom_of=2,
        ),
        ME.WarriorMoved(warrior="1", side="b", old="hospital", new="field", by="points"),
        ME.TurnEnded(side="b"),
        ME.PhaseOver(cycle=3),
        ME.EffectEnded(uid="1.1", card_id=1, cycle=6),
        ME.CycleStarted(cycle=8),
        ME.BattleEnded(cycle=9, reason="the fortress fell"),
    ]
    return events, MassWords(state, names)


def mass_expected(words: MassWords, event: EngineEvent, name: str, value: Any) -> list[str]:
    if name in ("side", "chooser", "starter", "target_side"):
        return [] if value is None else [words.side(value)]
    if name in ("cycle", "points", "deck", "ends_cycle", "to_bottom_of", "a", "b"):  # a, b: the dice (M4)
        return number(value)
    if name == "source":
        return [str(SOURCE_LABELS[value])]
    if name == "sizes":
        return [f"{deck}: {n}" for deck, n in value.items()]
    if name == "card_id":
        return [words.card(value)]
    if name in ("affected", "unaffected"):
        return [words.warrior(w) for w in value]
    if name == "warrior":
        return [words.warrior(value)]
    if name in ("old", "new"):
        return [str(PLACE_LABELS[value])]
    if name == "reason":
        return [value] if value else []
    if name == "nth":  # the roll's number in its cycle: it names the roll an undo repeats (M4), never shown
        return []
    raise AssertionError(f"say how the field {name!r} of {event.type!r} shows in the log (or why it does not)")


# --- every kind ---------------------------------------------------------------------------------

Expected = Callable[[Any, EngineEvent, str, Any], list[str]]
KINDS: list[tuple[list[EngineEvent], LogWords, Expected]] = [
    (*fights(), duel_expected),
    (*battle_events(), battle_expected),
    (*mass_events(), mass_expected),
]
CASES = [(event, words, expected) for events, words, expected in KINDS for event in events]

# Fields with a closed set of values: each value must read differently.
CLOSED = {
    ("battle_action_lost", "why"): ("negated", "out"),
    ("battle_round_ended", "why"): tuple(ROUND_END_LABELS),
    ("mass_nothing_happens", "why"): ("empty_hospital", "empty_deck", "no_deck"),
    ("mass_warrior_moved", "by"): ("points", "card", "casualties"),
}


def test_every_registered_event_type_has_a_wording_and_a_case():
    """A new event kind (of any fight) must come with its log line and with a case here."""
    registered = set(EVENT_CLASSES.values())
    kinds = {cls.__module__ for cls in registered}
    # rules.battle.referee: the referee's condition change outside a step (CR1, D11), its own module.
    expected = {"rules.events", "rules.duel.events", "rules.battle.events", "rules.battle.referee", "rules.mass.events"}
    assert kinds == expected, kinds
    assert len(registered) >= 22 + 24 + 18
    assert set(WORDING) == registered, registered ^ set(WORDING)
    cased = {type(event) for event, _words, _expected in CASES}
    assert cased == registered, registered - cased


def test_an_unknown_or_unworded_event_still_shows_that_it_happened():
    with override("en"):
        assert LogWords().line("teleported") == "Event: teleported"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("event", "words", "expected"), CASES, ids=[event.type for event, _w, _e in CASES])
def test_a_log_line_names_what_the_event_carries(event, words, expected, language):
    with override(language):
        line = words.line(event)
        assert line and not line.startswith("Event:"), line
        for field in dataclasses.fields(event):
            value = getattr(event, field.name)
            if field.name in NOT_WORDED:
                continue
            if isinstance(value, bool):
                flipped = words.line(dataclasses.replace(event, **{field.name: not value}))
                assert flipped != line, f"{event.type}.{field.name} does not change the words: {line}"
                continue
            if (event.type, field.name) in CLOSED:
                values = CLOSED[event.type, field.name]
                assert value in values
                lines = {words.line(dataclasses.replace(event, **{field.name: v})) for v in values}
                assert len(lines) == len(values), f"{event.type}.{field.name}: the same words for two values: {lines}"
                continue
            for wanted in expected(words, event, field.name, value):
                assert line_has(line, wanted), f"{event.type}.{field.name}={value!r}: {wanted!r} not in {line!r}"
    if language == "ru":
        with override("en"):
            english = words.line(event)
        assert line != english, f"not translated: {line}"


@pytest.mark.parametrize(
    ("language", "words"), [("en", "takes the prepared arsenal “Night” (5 cards)"), ("ru", "(5 карт)")]
)
def test_a_new_arsenal_line_gives_its_real_card_count(language, words):
    """The old log read a field the engine never sends and always said "(0 cards)"."""
    event = ArsenalChanged(duel=0, fighter=ANTON, label="Night", count=5)
    with override(language):
        line = KINDS[0][1].line(event)
    assert words in line and "(0 " not in line


@pytest.mark.parametrize(
    ("event", "en", "ru"),
    [
        (
            RoundChoiceMade(duel=0, fighter=ANTON, go_on=True, new_arsenal=True, label=""),
            "goes on with a newly built arsenal",
            "продолжает с новым собранным арсеналом",
        ),
        (
            RoundChoiceMade(duel=0, fighter=ANTON, go_on=True, new_arsenal=True, label="Night"),
            "goes on with the prepared arsenal “Night”",
            "продолжает с подготовленным арсеналом «Night»",
        ),
        (
            RoundChoiceMade(duel=0, fighter=ANTON, go_on=True, new_arsenal=False, label=""),
            "goes on with the same hand",
            "продолжает с теми же картами",
        ),
        (
            ArsenalChanged(duel=0, fighter=ANTON, label="", count=4),
            "takes a newly built arsenal (4 cards)",
            "берёт новый собранный арсенал (4 карты)",
        ),
        (
            ArsenalChanged(duel=0, fighter=ANTON, label="Night", count=5),
            "takes the prepared arsenal “Night” (5 cards)",
            "берёт подготовленный арсенал «Night» (5 карт)",
        ),
    ],
)
def test_D3_the_round_break_log_names_every_arsenal_rightly(event, en, ru):
    """D3: built, prepared (its name in quotes) or kept - never "with a new arsenal ." with an empty name."""
    words = KINDS[0][1]
    for language, wanted in (("en", en), ("ru", ru)):
        with override(language):
            line = words.line(event)
        assert wanted in line, line
        assert " ." not in line and "«»" not in line and "“”" not in line, line

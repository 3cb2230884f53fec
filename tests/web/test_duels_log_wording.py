"""The fight log words every event the engine can emit, in Russian and English, with the values it carries.

The events come from real fights run through the engine (not made up), one
of every registered type at least. For each one the line is rendered in both
languages and every field the event carries is checked: names, cards,
conditions, outcomes, counts and reasons must appear in the words; a yes/no
field must change the words when flipped. A field this test does not know
fails it, and so does a registered event type with no wording or no fight
producing it: a new event kind must come with its log line and a case here.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime
from typing import Any

import pytest
from django.utils.formats import time_format
from django.utils.timezone import localtime
from django.utils.translation import override

from duels.presenters import OPENED_BY_LABELS, OUTCOME_LABELS, RESULT_LABELS, condition_label
from duels.presenters_log import WORDING, Words
from rules import (
    NOT_PARRIED,
    PARRIED,
    Answer,
    Attack,
    ChangeCondition,
    ConfirmResult,
    EndDuel,
    EngineEvent,
    InstantAttack,
    RoundChoice,
    SetFocus,
)
from rules.events import EVENT_CLASSES, ArsenalChanged
from tests.rules.kit import ANTON, DART, FIRE, HEAL, OLGA, SHIELD, WARD, ZAVULON, Fight, setup

LANGUAGES = ("ru", "en")

# Fields whose value the line does not repeat, and why.
NOT_WORDED = {
    "deadline": "the answer window's end; the page's countdown shows it and D8's own line says when it passed",
    "draw": "the index into a hidden hand means nothing to a reader; the drawn card is named",
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
    state.cards.update(g.state.cards)
    state.cards.update(h.state.cards)
    return f.events + g.events + h.events, Words(state, {}, {})


def _card(words: Words, event: EngineEvent, uid: str | None, card_id: int | None) -> str:
    return words.card(uid, card_id)


def expected(words: Words, event: EngineEvent, name: str, value: Any) -> list[str]:
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
        return [] if value is None else [rf"\b{value}\b"]
    if name == "duel":
        return [rf"\b{value + 1}\b"] if event.type in DUEL_NAMED_BY else []
    if name == "conditions":
        return [part for cid, cond in value.items() for part in (words.fighter(int(cid)), condition_label(cond))]
    if name == "at":
        return [time_format(localtime(datetime.fromisoformat(value)), "H:i:s")]
    raise AssertionError(f"say how the field {name!r} of {event.type!r} shows in the log (or why it does not)")


def line_has(line: str, wanted: str) -> bool:
    if wanted.startswith(r"\b"):
        return re.search(wanted, line) is not None
    return wanted in line


EVENTS, WORDS = fights()


# The events of a combat situation of duels: every class registered in rules.events. (Battles
# register theirs in rules/battle/events.py and word them in duels/battle_log.py, still an
# if-chain over type names: not covered here yet.)
SITUATION_EVENTS = {cls for cls in EVENT_CLASSES.values() if cls.__module__ == "rules.events"}


def test_every_registered_event_type_has_a_wording_and_a_case():
    """A new event kind must come with its log line and with a fight here that emits it."""
    assert len(SITUATION_EVENTS) >= 22
    assert set(WORDING) >= SITUATION_EVENTS, SITUATION_EVENTS - set(WORDING)
    assert {type(e) for e in EVENTS} == SITUATION_EVENTS, SITUATION_EVENTS - {type(e) for e in EVENTS}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("event", EVENTS, ids=lambda e: e.type)
def test_a_log_line_names_what_the_event_carries(event, language):
    with override(language):
        line = WORDS.line(event)
        assert line and not line.startswith("Event:"), line
        for field in dataclasses.fields(event):
            value = getattr(event, field.name)
            if field.name in NOT_WORDED:
                continue
            if isinstance(value, bool):
                flipped = WORDS.line(dataclasses.replace(event, **{field.name: not value}))
                assert flipped != line, f"{event.type}.{field.name} does not change the words: {line}"
                continue
            for wanted in expected(WORDS, event, field.name, value):
                assert line_has(line, wanted), f"{event.type}.{field.name}={value!r}: {wanted!r} not in {line!r}"
    if language == "ru":
        with override("en"):
            english = WORDS.line(event)
        assert line != english, f"not translated: {line}"


@pytest.mark.parametrize(("language", "words"), [("en", "takes the new arsenal Night (5 cards)"), ("ru", "(5 карт)")])
def test_a_new_arsenal_line_gives_its_real_card_count(language, words):
    """The old log read a field the engine never sends and always said "(0 cards)"."""
    event = ArsenalChanged(duel=0, fighter=ANTON, label="Night", count=5)
    with override(language):
        line = WORDS.line(event)
    assert words in line and "(0 " not in line

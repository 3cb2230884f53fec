"""The fight log in words: one line per engine event, for referees and organizers.

The log shows every card (it is the referees' record), so only the referee
pages use it. Lines are built from the events stored with each log entry; an
entry undone later keeps its lines and is shown struck through.

Each event's line is a function of the typed event in the one table of every
fight kind (``duels/web/log.py``), registered here with ``@wording``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from datetime import datetime
from typing import Any

from django.utils.formats import time_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from duels.duel.draws import REUSED, Repeat, repeats
from duels.duel.presenters import OPENED_BY_LABELS, OUTCOME_LABELS, RESULT_LABELS, condition_label
from duels.web.log import LogLine, LogWords, log_lines, read_events, wording
from events.models import Character
from rules import EngineEvent
from rules.duel import Situation
from rules.duel.events import (
    Answered,
    AnswerTimedOut,
    ArsenalChanged,
    AttackShown,
    CardDrawn,
    CardKept,
    ConvertedToAggression,
    DuelEnded,
    DuelOpened,
    FighterJoined,
    FighterOut,
    FocusSet,
    ParryDeclined,
    Passed,
    ResultApplied,
    ResultProposed,
    RoundChoiceMade,
    RoundEnded,
    RoundStarted,
    SituationEnded,
    StepCancelled,
)
from rules.events import ConditionChanged

# Event fields that name a fighter (a character id).
FIGHTER_FIELDS = ("fighter", "a", "b", "attacker", "victim")


class Words(LogWords):
    """Names of the fighters and cards an event mentions, from the state (or the database for the gone)."""

    def __init__(self, state: Situation, names: dict[int, str], gone: dict[int, str]) -> None:
        self.state = state
        self.names = names
        self.gone = gone

    def fighter(self, fighter_id: int) -> str:
        found = self.state.fighters.get(fighter_id)
        if found is not None:
            return found.name
        return self.gone.get(fighter_id, f"#{fighter_id}")

    def card(self, uid: str | None, card_id: int | None = None) -> str:
        """The catalogue's current name of the card, else the name it had when the fight took it in."""
        face = self.state.cards.get(uid) if uid else None
        if face is None and card_id is not None:
            face = next((f for f in self.state.cards.values() if f.card_id == card_id), None)
        cid = card_id if card_id is not None else (face.card_id if face else None)
        if cid is not None and cid in self.names:
            return self.names[cid]
        if face is not None:
            return face.name
        return f"#{card_id}" if card_id is not None else str(uid)

    def conditions(self, conditions: dict[str, str]) -> str:
        """ "Anton: fit; Zavulon: heavily wounded" (ids are strings in a stored event)."""
        return "; ".join(
            _("%(name)s: %(condition)s") % {"name": self.fighter(int(cid)), "condition": condition_label(condition)}
            for cid, condition in conditions.items()
        )


def _duel(number: int) -> int:
    # Duels are numbered from 0 in the state and from 1 for people.
    return number + 1


@wording(FighterJoined)
def _joined(w: Words, e: FighterJoined) -> str:
    params = {"name": e.name, "condition": condition_label(e.condition)}
    if e.focus is None:
        return _("%(name)s joins the situation (%(condition)s).") % params
    return _("%(name)s joins the situation (%(condition)s), focused on %(card)s.") % {**params, "card": w.card(e.focus)}


@wording(FocusSet)
def _focus(w: Words, e: FocusSet) -> str:
    if e.card is None:
        return _("%(name)s drops the focus.") % {"name": w.fighter(e.fighter)}
    return _("%(name)s focuses on %(card)s.") % {"name": w.fighter(e.fighter), "card": w.card(e.card, e.card_id)}


@wording(ConvertedToAggression)
def _converted(w: Words, e: ConvertedToAggression) -> str:
    names = {"attacker": w.fighter(e.attacker), "victim": w.fighter(e.victim)}
    if e.rule == "IA6":
        return (
            _("IA6: an instant attack was already used in this situation; %(attacker)s attacks %(victim)s openly.")
            % names
        )
    return _("IA1: no surprise; %(attacker)s attacks %(victim)s openly.") % names


@wording(DuelOpened)
def _opened(w: Words, e: DuelOpened) -> str:
    params = {
        "number": _duel(e.duel),
        "a": w.fighter(e.a),
        "b": w.fighter(e.b),
        "how": OPENED_BY_LABELS.get(e.opened_by, e.opened_by),
    }
    if e.max_rounds is None:
        return _("Duel %(number)s: %(a)s against %(b)s (%(how)s).") % params
    return ngettext(
        "Duel %(number)s: %(a)s against %(b)s (%(how)s, at most %(rounds)s bout).",
        "Duel %(number)s: %(a)s against %(b)s (%(how)s, at most %(rounds)s bouts).",
        e.max_rounds,
    ) % {**params, "rounds": e.max_rounds}


@wording(RoundStarted)
def _round_started(w: Words, e: RoundStarted) -> str:
    return _("Duel %(number)s, bout %(round)s: %(name)s attacks first.") % {
        "number": _duel(e.duel),
        "round": e.round,
        "name": w.fighter(e.attacker),
    }


@wording(Passed)
def _passed(w: Words, e: Passed) -> str:
    return _("Bout %(round)s: %(name)s has no attack card and passes (D10).") % {
        "round": e.round,
        "name": w.fighter(e.fighter),
    }


@wording(AttackShown)
def _attack(w: Words, e: AttackShown) -> str:
    return _("%(name)s attacks with %(card)s.") % {"name": w.fighter(e.fighter), "card": w.card(e.card, e.card_id)}


@wording(CardDrawn)
def _drawn(w: Words, e: CardDrawn) -> str:
    params = {"name": w.fighter(e.fighter), "card": w.card(e.card, e.card_id)}
    if e.by_focus:
        line = _("%(name)s's focused card answers: %(card)s (F1).") % params
        # Never so (a focus held in front draws nothing), but a log is read as it is.
        return f"{line} {_('(recorded from the real cards)')}" if e.physical else line
    if e.physical:
        return _("Blind draw from %(name)s's arsenal, drawn from the real cards: %(card)s (IA3).") % params
    return _("Blind draw from %(name)s's arsenal, drawn by the server: %(card)s (IA3).") % params


@wording(ParryDeclined)
def _declined(w: Words, e: ParryDeclined) -> str:
    return _("%(name)s does not try to parry: nothing is drawn (IA3).") % {"name": w.fighter(e.fighter)}


@wording(Answered)
def _answered(w: Words, e: Answered) -> str:
    if e.card is None:
        return _("%(name)s does not answer.") % {"name": w.fighter(e.fighter)}
    return _("%(name)s answers with %(card)s.") % {"name": w.fighter(e.fighter), "card": w.card(e.card, e.card_id)}


@wording(ResultProposed)
def _proposed(w: Words, e: ResultProposed) -> str:
    return _("Proposed result: %(outcome)s.") % {"outcome": OUTCOME_LABELS.get(e.outcome, e.outcome)}


@wording(AnswerTimedOut)
def _timed_out(w: Words, e: AnswerTimedOut) -> str:
    return _("%(name)s did not answer in time: the attack takes full effect (D8).") % {"name": w.fighter(e.fighter)}


@wording(ResultApplied)
def _result(w: Words, e: ResultApplied) -> str:
    outcome = OUTCOME_LABELS.get(e.outcome, e.outcome)
    if e.overridden:
        text = _("Result: %(outcome)s — overridden (proposed: %(proposed)s). Reason: %(reason)s") % {
            "outcome": outcome,
            "proposed": OUTCOME_LABELS.get(e.proposed, e.proposed),
            "reason": e.reason,
        }
    else:
        text = _("Result: %(outcome)s.") % {"outcome": outcome}
    if e.timed_out:
        return _("No answer in time (D8). %(result)s") % {"result": text}
    return text


@wording(ConditionChanged)
def _condition(w: Words, e: ConditionChanged) -> str:
    params = {"name": w.fighter(e.fighter), "old": condition_label(e.old), "new": condition_label(e.new)}
    if e.reason:
        # Recorded by the referee outside a step (a finishing blow, a healing).
        return _("%(name)s: %(old)s → %(new)s, recorded by the referee. Reason: %(reason)s") % {
            **params,
            "reason": e.reason,
        }
    return _("%(name)s: %(old)s → %(new)s.") % params


@wording(CardKept)
def _kept(w: Words, e: CardKept) -> str:
    return _("%(card)s goes back to %(name)s's hand (IA4).") % {"name": w.fighter(e.fighter), "card": w.card(e.card)}


@wording(StepCancelled)
def _cancelled(w: Words, e: StepCancelled) -> str:
    return _("Duel %(number)s: the open step is cancelled; the shown cards go back to hand.") % {
        "number": _duel(e.duel)
    }


@wording(RoundEnded)
def _round_ended(w: Words, e: RoundEnded) -> str:
    return _("Duel %(number)s, bout %(round)s ends.") % {"number": _duel(e.duel), "round": e.round}


@wording(RoundChoiceMade)
def _choice(w: Words, e: RoundChoiceMade) -> str:
    """D3/D12: the arsenal named as it is: built from the pool, a prepared one (its name quoted), or kept."""
    name = w.fighter(e.fighter)
    if not e.go_on:
        return _("%(name)s does not go on.") % {"name": name}
    if e.new_arsenal and e.label:
        return _("%(name)s goes on with the prepared arsenal “%(label)s”.") % {"name": name, "label": e.label}
    if e.new_arsenal:
        return _("%(name)s goes on with a newly built arsenal.") % {"name": name}
    return _("%(name)s goes on with the same hand.") % {"name": name}


@wording(ArsenalChanged)
def _arsenal(w: Words, e: ArsenalChanged) -> str:
    # D4: the event carries only how many cards, never which. A label is a prepared arsenal's name (D3).
    params = {"name": w.fighter(e.fighter), "count": e.count, "label": e.label}
    if e.label:
        return (
            ngettext(
                "%(name)s takes the prepared arsenal “%(label)s” (%(count)s card).",
                "%(name)s takes the prepared arsenal “%(label)s” (%(count)s cards).",
                e.count,
            )
            % params
        )
    return (
        ngettext(
            "%(name)s takes a newly built arsenal (%(count)s card).",
            "%(name)s takes a newly built arsenal (%(count)s cards).",
            e.count,
        )
        % params
    )


@wording(FighterOut)
def _out(w: Words, e: FighterOut) -> str:
    return _("%(name)s can no longer fight (%(condition)s).") % {
        "name": w.fighter(e.fighter),
        "condition": condition_label(e.condition),
    }


@wording(DuelEnded)
def _duel_ended(w: Words, e: DuelEnded) -> str:
    params = {"number": _duel(e.duel), "result": RESULT_LABELS.get(e.result, e.result), "reason": e.reason}
    if e.reason:
        text = _("Duel %(number)s ends: %(result)s (%(reason)s).") % params
    else:
        text = _("Duel %(number)s ends: %(result)s.") % params
    return f"{text} {w.conditions(e.conditions)}." if e.conditions else text


@wording(SituationEnded)
def _situation_ended(w: Words, e: SituationEnded) -> str:
    moment = time_format(localtime(datetime.fromisoformat(e.at)), "H:i:s")
    text = _("The combat situation ends at %(time)s (S2).") % {"time": moment}
    return f"{text} {w.conditions(e.conditions)}." if e.conditions else text


def _repeat_line(w: Words, repeat: Repeat) -> str:
    params = {"card": w.card(None, repeat.card_id), "time": time_format(localtime(repeat.undone_at), "H:i:s")}
    if repeat.how == REUSED:
        return _("The undone instant attack of %(time)s drew %(card)s: the same card answers again (IA3).") % params
    return _("The undone instant attack of %(time)s drew %(card)s, no longer in hand: a new draw (IA3).") % params


def _fighter_ids(event: EngineEvent) -> set[int]:
    ids = {getattr(event, f.name) for f in fields(event) if f.name in FIGHTER_FIELDS}
    ids |= {int(cid) for cid in getattr(event, "conditions", {})}
    return {i for i in ids if isinstance(i, int)}


def _gone_fighters(events: Iterable[EngineEvent | str], state: Situation) -> dict[int, str]:
    """Names of fighters the log mentions but the state no longer holds (their join was undone), in one query."""
    ids = {i for event in events if not isinstance(event, str) for i in _fighter_ids(event) if i not in state.fighters}
    return dict(Character.objects.filter(pk__in=ids).values_list("pk", "name")) if ids else {}


def describe(
    entries: Iterable[Any], state: Situation, names: dict[int, str] | None = None, earlier: Iterable[Any] = ()
) -> list[LogLine]:
    """Lines for ``LogEntry`` rows (with ``actor`` selected), in the order given.

    ``earlier``: undone instant attacks this situation's may repeat (``draws.related_undone``).
    """
    entries = list(entries)
    events = {entry.seq: read_events(entry.events or []) for entry in entries}
    words = Words(state, names or {}, _gone_fighters((e for evs in events.values() for e in evs), state))
    repeated = repeats([*entries, *earlier])
    return log_lines(
        entries, words, lambda entry: [_repeat_line(words, repeated[entry.pk])] if entry.pk in repeated else []
    )

"""The battle's log in words, for the referee (every card is named: it is the referees' record).

Each battle event's line is a function of the typed event (``rules.battle.events``)
in the one table of every fight kind (``duels/web/log.py``). Actions are
numbered as the engine numbers them ("action 3"), so the lines of one action
(declared, parts done, lost, over) can be followed through the log.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from cards.words import OUTCOME_LABELS, condition_label
from duels.battle.presenters import ACT_LABELS, RESULT_LABELS, ROLE_LABELS, SIDE_LABELS
from duels.web.log import LogLine, LogWords, log_lines, wording
from rules import battle as B
from rules.battle import events as E
from rules.battle import reactions as R
from rules.battle.referee import ConditionRecorded, SituationTakenOn
from rules.battle.state import NO_ATTACKS_LEFT, NO_CARD

# R1: what drew an opportunity attack (the engine's trigger kinds); a readied action's
# or a reaction card's trigger is the words the referee or the card gave, shown as they are.
TRIGGER_LABELS = {
    R.LEAVES_REACH: gettext_lazy("leaving reach"),
    R.RANGED_ATTACK: gettext_lazy("a ranged attack"),
    R.AREA_ATTACK: gettext_lazy("an area attack"),
    R.MOVEMENT: gettext_lazy("movement"),
    R.OTHER: gettext_lazy("another action"),
}
ROUND_END_LABELS = {
    NO_ATTACKS_LEFT: gettext_lazy("nobody has an attack card left"),
    "all_turns": gettext_lazy("everyone had a turn"),
}


def _label(labels: Mapping[str, object], value: str | None) -> str:
    """The label of an event's value; a value the table does not know is shown as it came (an old log still reads)."""
    return str(labels.get(value, value)) if value is not None else ""


class BattleWords(LogWords):
    def __init__(self, state: B.Battle, names: dict[int, str]) -> None:
        self.state = state
        self.names = names

    def who(self, cid: int | None) -> str:
        if cid is None:
            return ""
        c = self.state.combatants.get(cid)
        return c.name if c is not None else self.names.get(cid, f"#{cid}")

    def all(self, cids: Iterable[int]) -> str:
        return ", ".join(self.who(c) for c in cids)

    def card(self, uid: str | None, card_id: int | None = None) -> str:
        """The card's name in the fight; by ``card_id`` when the uid is not (or no longer) known."""
        card = self.state.cards.get(uid) if uid else None
        if card is None and card_id is not None:
            card = next((c for c in self.state.cards.values() if c.face.card_id == card_id), None)
        if card is not None:
            return card.face.name
        return f"#{card_id}" if card_id is not None else str(uid)

    def conditions(self, conditions: dict[str, str]) -> str:
        return "; ".join(
            _("%(name)s: %(condition)s") % {"name": self.who(int(cid)), "condition": condition_label(condition)}
            for cid, condition in conditions.items()
        )


@wording(E.Joined)
def _joined(w: BattleWords, e: E.Joined) -> str:
    # D4: how many cards, never which.
    return ngettext(
        "%(name)s joins the battle for %(side)s (%(condition)s, %(count)s card).",
        "%(name)s joins the battle for %(side)s (%(condition)s, %(count)s cards).",
        e.cards,
    ) % {
        "name": e.name,
        "side": _label(SIDE_LABELS, e.side),
        "condition": condition_label(e.condition),
        "count": e.cards,
    }


@wording(E.Left)
def _left(w: BattleWords, e: E.Left) -> str:
    return _("%(name)s is not ready to go on and leaves the battle at the bout's end (D12).") % {
        "name": w.who(e.combatant)
    }


@wording(E.Begun)
def _begun(w: BattleWords, e: E.Begun) -> str:
    text = _("The battle begins; %(name)s declared it (D5).") % {"name": w.who(e.declarer)}
    if e.max_rounds is None:
        return text
    rounds = ngettext("At most %(rounds)s round.", "At most %(rounds)s rounds.", e.max_rounds)
    return f"{text} {rounds % {'rounds': e.max_rounds}}"


@wording(E.RoundStarted)
def _round_started(w: BattleWords, e: E.RoundStarted) -> str:
    text = _("Round %(round)s: %(order)s.") % {"round": e.round, "order": w.all(e.order)}
    return f"{text} {_('Reactions are allowed (R0).')}" if e.reactions else text


@wording(E.TurnStarted)
def _turn_started(w: BattleWords, e: E.TurnStarted) -> str:
    return _("Round %(round)s: %(name)s's turn.") % {"round": e.round, "name": w.who(e.combatant)}


@wording(E.TurnSkipped)
def _turn_skipped(w: BattleWords, e: E.TurnSkipped) -> str:
    return _("Round %(round)s: %(name)s can no longer fight (%(condition)s) and is skipped (D11).") % {
        "round": e.round,
        "name": w.who(e.combatant),
        "condition": condition_label(e.condition),
    }


@wording(E.TurnEnded)
def _turn_ended(w: BattleWords, e: E.TurnEnded) -> str:
    return _("Round %(round)s: %(name)s's turn ends.") % {"round": e.round, "name": w.who(e.combatant)}


@wording(E.ActionDeclared)
def _declared(w: BattleWords, e: E.ActionDeclared) -> str:
    text = _("Action %(frame)s, %(name)s: %(role)s — %(act)s.") % {
        "frame": e.frame,
        "name": w.who(e.actor),
        "role": _label(ROLE_LABELS, e.role),
        "act": _label(ACT_LABELS, e.act),
    }
    more = []
    if e.targets:
        more.append(_("Targets: %(names)s.") % {"names": w.all(e.targets)})
    if e.engaged:
        more.append(_("Next to: %(names)s.") % {"names": w.all(e.engaged)})
    if e.reacts_to is not None:
        more.append(_("It reacts to action %(frame)s.") % {"frame": e.reacts_to})
    if e.trigger:
        more.append(_("Trigger: %(trigger)s.") % {"trigger": _label(TRIGGER_LABELS, e.trigger)})
    return " ".join([text, *more])


@wording(E.AttackShown)
def _attack_shown(w: BattleWords, e: E.AttackShown) -> str:
    return _("Action %(frame)s: %(name)s shows %(card)s against %(targets)s.") % {
        "frame": e.frame,
        "name": w.who(e.attacker),
        "card": w.card(e.card, e.card_id),
        "targets": w.all(e.targets),
    }


@wording(E.CardUsed)
def _card_used(w: BattleWords, e: E.CardUsed) -> str:
    return _("Action %(frame)s: %(name)s uses %(card)s.") % {
        "frame": e.frame,
        "name": w.who(e.combatant),
        "card": w.card(e.card, e.card_id),
    }


@wording(E.PartDone)
def _part_done(w: BattleWords, e: E.PartDone) -> str:
    # Parts are counted from 0 in the state and from 1 for people.
    return _("Action %(frame)s: part %(part)s is done.") % {"frame": e.frame, "part": e.part + 1}


@wording(E.WindowsSuspended)
def _suspended(w: BattleWords, e: E.WindowsSuspended) -> str:
    return _("The answers to action %(frame)s wait: %(name)s reacts first.") % {"frame": e.frame, "name": w.who(e.by)}


@wording(E.WindowsResumed)
def _resumed(w: BattleWords, e: E.WindowsResumed) -> str:
    return _("The waiting answers to action %(frame)s run again with the time they had left.") % {"frame": e.frame}


@wording(E.WindowLost)
def _window_lost(w: BattleWords, e: E.WindowLost) -> str:
    return _("Action %(frame)s: %(name)s can no longer fight and has no answer window; nothing lands (BP3).") % {
        "frame": e.frame,
        "name": w.who(e.defender),
    }


@wording(E.ActionLost)
def _lost(w: BattleWords, e: E.ActionLost) -> str:
    params = {"frame": e.frame, "name": w.who(e.actor), "by": w.who(e.by)}
    if e.why == "negated":
        return _("Action %(frame)s: %(name)s's action is negated by %(by)s and lost (R6).") % params
    if e.why == NO_CARD:
        # R8: a waiting response whose card was played meanwhile (the engine's words for it, reused).
        over = _("Action %(frame)s: %(name)s's %(role)s is over.") % {**params, "role": ROLE_LABELS[B.RESPONSE]}
        return f"{over} ({_('no card for it in hand')})"
    return _("Action %(frame)s: %(name)s can no longer fight; the action is lost.") % params


@wording(E.FrameClosed)
def _frame_closed(w: BattleWords, e: E.FrameClosed) -> str:
    return _("Action %(frame)s: %(name)s's %(role)s is over.") % {
        "frame": e.frame,
        "name": w.who(e.actor),
        "role": _label(ROLE_LABELS, e.role),
    }


@wording(E.ActionReadied)
def _readied(w: BattleWords, e: E.ActionReadied) -> str:
    return _("%(name)s readies an action (%(mode)s): %(trigger)s (R4).") % {
        "name": w.who(e.combatant),
        "mode": _label(ROLE_LABELS, e.mode),
        "trigger": e.trigger,
    }


@wording(E.Answered)
def _answered(w: BattleWords, e: E.Answered) -> str:
    proposed = _label(OUTCOME_LABELS, e.proposed)
    if e.card is None:
        return _("Action %(frame)s: %(name)s does not answer. Proposed result: %(proposed)s.") % {
            "frame": e.frame,
            "name": w.who(e.defender),
            "proposed": proposed,
        }
    return _("Action %(frame)s: %(name)s answers with %(card)s. Proposed result: %(proposed)s.") % {
        "frame": e.frame,
        "name": w.who(e.defender),
        "card": w.card(e.card, e.card_id),
        "proposed": proposed,
    }


@wording(E.AnswerTimedOut)
def _timed_out(w: BattleWords, e: E.AnswerTimedOut) -> str:
    return _("Action %(frame)s: %(name)s did not answer in time: the attack takes full effect (D8).") % {
        "frame": e.frame,
        "name": w.who(e.defender),
    }


@wording(E.ResultApplied)
def _result(w: BattleWords, e: E.ResultApplied) -> str:
    text = _("Action %(frame)s, %(attacker)s → %(defender)s: %(outcome)s.") % {
        "frame": e.frame,
        "attacker": w.who(e.attacker),
        "defender": w.who(e.defender),
        "outcome": _label(OUTCOME_LABELS, e.outcome),
    }
    if e.overridden:
        text += " " + _("Overridden (proposed: %(proposed)s). Reason: %(reason)s") % {
            "proposed": _label(OUTCOME_LABELS, e.proposed),
            "reason": e.reason,
        }
    if e.timed_out:
        return _("No answer in time (D8). %(result)s") % {"result": text}
    return text


@wording(E.ConditionChanged)
def _condition(w: BattleWords, e: E.ConditionChanged) -> str:
    return _("%(name)s: %(old)s → %(new)s.") % {
        "name": w.who(e.combatant),
        "old": condition_label(e.old),
        "new": condition_label(e.new),
    }


@wording(ConditionRecorded)
def _recorded(w: BattleWords, e: ConditionRecorded) -> str:
    """CR1, D11: the referee's change outside a step (rules/battle/referee.py), with its reason."""
    return _("%(name)s: %(old)s → %(new)s, recorded by the referee. Reason: %(reason)s") % {
        "name": w.who(e.combatant),
        "old": condition_label(e.old),
        "new": condition_label(e.new),
        "reason": e.reason,
    }


@wording(E.CombatantOut)
def _out(w: BattleWords, e: E.CombatantOut) -> str:
    return _("%(name)s can no longer fight (%(condition)s).") % {
        "name": w.who(e.combatant),
        "condition": condition_label(e.condition),
    }


@wording(E.RoundEnded)
def _round_ended(w: BattleWords, e: E.RoundEnded) -> str:
    return _("Round %(round)s ends: %(why)s.") % {"round": e.round, "why": _label(ROUND_END_LABELS, e.why)}


@wording(E.ArsenalChanged)
def _arsenal(w: BattleWords, e: E.ArsenalChanged) -> str:
    # D4: the count only, never the cards' names; ngettext for Russian's three plural forms.
    params = {"name": w.who(e.combatant), "count": e.count, "label": e.label}
    if e.label:
        return (
            ngettext(
                "%(name)s takes the new arsenal %(label)s (%(count)s card, D3).",
                "%(name)s takes the new arsenal %(label)s (%(count)s cards, D3).",
                e.count,
            )
            % params
        )
    return (
        ngettext(
            "%(name)s takes a new arsenal (%(count)s card, D3).",
            "%(name)s takes a new arsenal (%(count)s cards, D3).",
            e.count,
        )
        % params
    )


@wording(E.Ended)
def _ended(w: BattleWords, e: E.Ended) -> str:
    text = _("The battle ends: %(result)s.") % {"result": _label(RESULT_LABELS, e.result)}
    if e.winner:
        text += " " + _("%(side)s wins.") % {"side": _label(SIDE_LABELS, e.winner)}
    if e.reason:
        text += f" {e.reason}"
    return f"{text} {w.conditions(e.conditions)}." if e.conditions else text


def describe_battle(entries: Iterable[Any], state: B.Battle) -> list[LogLine]:
    """Lines for ``LogEntry`` rows (``actor`` selected), in the order given."""
    return log_lines(entries, BattleWords(state, {}))


@wording(E.SituationClosed)
def _situation_closed(w: BattleWords, e: E.SituationClosed) -> str:
    return _("The combat situation ends: no combat action for the gap (S2); arsenals may change again.")


@wording(SituationTakenOn)
def _situation_taken_on(w: BattleWords, e: SituationTakenOn) -> str:
    return _("The combat situation goes on in a new fight (S2): %(reason)s Arsenals stay frozen.") % {
        "reason": e.reason
    }


@wording(E.BoutEnded)
def _bout_ended(w: BattleWords, e: E.BoutEnded) -> str:
    return _("Bout %(bout)s ends: arsenals may change now (D3).") % {"bout": e.bout}


# --- an instant attack on someone already fighting (IA1, IA3, rules/battle/instant.py) -------------


@wording(E.InstantConverted)
def _instant_converted(w: BattleWords, e: E.InstantConverted) -> str:
    params = {"attacker": w.who(e.attacker), "victim": w.who(e.victim), "rule": e.rule}
    if e.rule == "IA6":
        return (
            _(
                "%(attacker)s's instant attack on %(victim)s is an ordinary attack: "
                "this situation has used its instant attack (%(rule)s)."
            )
            % params
        )
    return _("%(attacker)s's instant attack on %(victim)s is an ordinary attack: no surprise (%(rule)s).") % params


@wording(E.InstantCardDrawn)
def _instant_drawn(w: BattleWords, e: E.InstantCardDrawn) -> str:
    params = {"frame": e.frame, "name": w.who(e.combatant), "card": w.card(e.card, e.card_id)}
    if e.by_focus:
        line = _("Action %(frame)s: %(name)s's focused card answers the instant attack: %(card)s (F1).") % params
        # Never so (a focus held in front draws nothing), but a log is read as it is.
        return f"{line} {_('(recorded from the real cards)')}" if e.physical else line
    if e.physical:
        return (
            _("Action %(frame)s: blind draw from %(name)s's arsenal, drawn from the real cards: %(card)s (IA3).")
            % params
        )
    return _("Action %(frame)s: blind draw from %(name)s's arsenal, drawn by the server: %(card)s (IA3).") % params


@wording(E.InstantParryDeclined)
def _instant_declined(w: BattleWords, e: E.InstantParryDeclined) -> str:
    return _("Action %(frame)s: %(name)s does not try to parry the instant attack: nothing is drawn (IA3).") % {
        "frame": e.frame,
        "name": w.who(e.combatant),
    }

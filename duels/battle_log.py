"""The battle's log in words, for the referee (every card is named: it is the referees' record)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from duels.battle_presenters import ACT_LABELS, RESULT_LABELS, ROLE_LABELS, SIDE_LABELS
from duels.presenters import OUTCOME_LABELS, condition_label
from duels.presenters_log import LogLine
from rules import battle as B


def _label(labels: Mapping[str, object], value: object, default: object = None) -> object:
    """The label of an event's value; a value the table does not know is shown as it came
    (or as ``default``, when given), so an old log entry still reads."""
    fallback = value if default is None else default
    return labels.get(value, fallback) if isinstance(value, str) else fallback


class _Words:
    def __init__(self, state: B.Battle, names: dict[int, str]) -> None:
        self.state = state
        self.names = names

    def who(self, cid: Any) -> str:
        c = self.state.combatants.get(cid)
        return c.name if c is not None else self.names.get(cid, f"#{cid}")

    def card(self, uid: Any) -> str:
        card = self.state.cards.get(uid) if uid else None
        return card.face.name if card is not None else str(uid)

    def line(self, e: dict[str, Any]) -> str | None:
        t = e.get("type")
        if t == "battle_joined":
            return _("%(name)s joins the battle for %(side)s (%(condition)s).") % {
                "name": e.get("name"),
                "side": _label(SIDE_LABELS, e.get("side")),
                "condition": condition_label(e.get("condition", "")),
            }
        if t == "battle_side_set":
            return _("%(name)s now fights for %(side)s.") % {
                "name": self.who(e.get("combatant")),
                "side": _label(SIDE_LABELS, e.get("side")),
            }
        if t == "battle_begun":
            return _("The battle begins; %(name)s declared it (D5).") % {"name": self.who(e.get("declarer"))}
        if t == "battle_round_started":
            return _("Round %(round)s: %(order)s.") % {
                "round": e.get("round"),
                "order": ", ".join(self.who(c) for c in e.get("order", [])),
            }
        if t == "battle_turn_started":
            return _("%(name)s's turn.") % {"name": self.who(e.get("combatant"))}
        if t == "battle_turn_skipped":
            return _("%(name)s can no longer fight and is skipped (D11).") % {"name": self.who(e.get("combatant"))}
        if t == "battle_action_declared":
            return _("%(name)s: %(role)s — %(act)s%(targets)s.") % {
                "name": self.who(e.get("actor")),
                "role": _label(ROLE_LABELS, e.get("role")),
                "act": _label(ACT_LABELS, e.get("act")),
                "targets": (" → " + ", ".join(self.who(t) for t in e.get("targets", []))) if e.get("targets") else "",
            }
        if t == "battle_attack_shown":
            return _("%(name)s shows %(card)s.") % {
                "name": self.who(e.get("attacker")),
                "card": self.card(e.get("card")),
            }
        if t == "battle_card_used":
            return _("%(name)s uses %(card)s.") % {
                "name": self.who(e.get("combatant")),
                "card": self.card(e.get("card")),
            }
        if t == "battle_windows_suspended":
            return _("The answers wait: %(name)s reacts first.") % {"name": self.who(e.get("by"))}
        if t == "battle_windows_resumed":
            return _("The waiting answers run again with the time they had left.")
        if t == "battle_action_lost":
            if e.get("why") == "negated":
                return _("%(name)s's action is negated by %(by)s and lost (R6).") % {
                    "name": self.who(e.get("actor")),
                    "by": self.who(e.get("by")),
                }
            return _("%(name)s can no longer fight; the action is lost.") % {"name": self.who(e.get("actor"))}
        if t == "battle_frame_closed":
            return _("%(name)s's %(role)s is over.") % {
                "name": self.who(e.get("actor")),
                "role": _label(ROLE_LABELS, e.get("role")),
            }
        if t == "battle_readied":
            return _("%(name)s readies an action: %(trigger)s (R4).") % {
                "name": self.who(e.get("combatant")),
                "trigger": e.get("trigger"),
            }
        if t == "battle_answered":
            if e.get("card") is None:
                return _("%(name)s does not answer.") % {"name": self.who(e.get("defender"))}
            return _("%(name)s answers with %(card)s.") % {
                "name": self.who(e.get("defender")),
                "card": self.card(e.get("card")),
            }
        if t == "battle_answer_timed_out":
            return _("%(name)s did not answer in time: the attack takes full effect (D8).") % {
                "name": self.who(e.get("defender"))
            }
        if t == "battle_result_applied":
            outcome = _label(OUTCOME_LABELS, e.get("outcome"), default="")
            text = _("%(attacker)s → %(defender)s: %(outcome)s.") % {
                "attacker": self.who(e.get("attacker")),
                "defender": self.who(e.get("defender")),
                "outcome": outcome,
            }
            if e.get("overridden"):
                text += " " + _("Overridden. Reason: %(reason)s") % {"reason": e.get("reason", "")}
            return text
        if t == "battle_condition_changed":
            return _("%(name)s: %(old)s → %(new)s.") % {
                "name": self.who(e.get("combatant")),
                "old": condition_label(e.get("old", "")),
                "new": condition_label(e.get("new", "")),
            }
        if t == "battle_combatant_out":
            return _("%(name)s can no longer fight (%(condition)s).") % {
                "name": self.who(e.get("combatant")),
                "condition": condition_label(e.get("condition", "")),
            }
        if t == "battle_round_ended":
            return _("Round %(round)s ends.") % {"round": e.get("round")}
        if t == "battle_arsenal_changed":
            # D4: the count only, never the cards' names; ngettext for Russian's three plural forms.
            count = e.get("count") or 0
            return ngettext(
                "%(name)s takes a new arsenal (%(count)s card, D3).",
                "%(name)s takes a new arsenal (%(count)s cards, D3).",
                count,
            ) % {
                "name": self.who(e.get("combatant")),
                "count": e.get("count"),
            }
        if t == "battle_ended":
            text = _("The battle ends: %(result)s.") % {"result": _label(RESULT_LABELS, e.get("result"))}
            return f"{text} {e['reason']}" if e.get("reason") else text
        return None


def describe_battle(entries: Iterable[Any], state: B.Battle) -> list[LogLine]:
    """Lines for ``LogEntry`` rows (``actor`` selected), in the order given."""
    words = _Words(state, {})
    out = []
    for entry in entries:
        lines = [text for text in (words.line(e) for e in entry.events or []) if text]
        if entry.kind == "undo":
            lines.insert(0, _("Undo of the last action. Reason: %(reason)s") % {"reason": entry.reason})
        elif entry.kind == "expire" and not lines:
            lines.append(_("A deadline passed."))
        out.append(
            LogLine(
                seq=entry.seq,
                at=entry.at,
                actor=entry.actor.get_username() if entry.actor_id else "",
                kind=entry.kind,
                undone=entry.undone,
                lines=lines,
            )
        )
    return out

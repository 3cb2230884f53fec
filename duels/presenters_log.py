"""The fight log in words: one line per engine event, for referees and organizers.

The log shows every card (it is the referees' record), so only the referee
pages use it. Lines are built from the events stored with each log entry; an
entry undone later keeps its lines and is shown struck through.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from duels.presenters import OUTCOME_LABELS, RESULT_LABELS, condition_label
from events.models import Character
from rules import Situation


@dataclass
class LogLine:
    seq: int
    at: datetime
    actor: str
    kind: str
    undone: bool
    lines: list[str]


# Event fields that name a fighter.
FIGHTER_KEYS = ("fighter", "a", "b", "attacker")


class _Words:
    def __init__(self, state: Situation, names: dict[int, str], gone: dict[int, str]) -> None:
        self.state = state
        self.names = names
        self.gone = gone

    def fighter(self, fighter_id: Any) -> str:
        found = self.state.fighters.get(fighter_id)
        if found is not None:
            return found.name
        return self.gone.get(fighter_id, f"#{fighter_id}")

    def card(self, uid: Any, card_id: Any = None) -> str:
        face = self.state.cards.get(uid) if uid else None
        cid = card_id if card_id is not None else (face.card_id if face else None)
        if cid is not None and cid in self.names:
            return self.names[cid]
        return face.name if face is not None else str(uid)

    def line(self, e: dict[str, Any]) -> str | None:
        t = e.get("type")
        who = self.fighter(e.get("fighter"))
        if t == "fighter_joined":
            return _("%(name)s joins the situation (%(condition)s).") % {
                "name": e.get("name", who),
                "condition": condition_label(e.get("condition", "")),
            }
        if t == "focus_set":
            if e.get("card") is None:
                return _("%(name)s drops the focus.") % {"name": who}
            return _("%(name)s focuses on %(card)s.") % {"name": who, "card": self.card(e["card"], e.get("card_id"))}
        if t == "converted_to_aggression":
            if e.get("rule") == "IA6":
                return _("IA6: an instant attack was already used in this situation; this is aggression.")
            return _("IA1: no surprise; the instant attack becomes aggression.")
        if t == "duel_opened":
            return _("Duel %(number)s: %(a)s against %(b)s.") % {
                "number": e.get("duel", 0) + 1,
                "a": self.fighter(e.get("a")),
                "b": self.fighter(e.get("b")),
            }
        if t == "round_started":
            return _("Round %(round)s: %(name)s attacks first.") % {
                "round": e.get("round"),
                "name": self.fighter(e.get("attacker")),
            }
        if t == "passed":
            return _("%(name)s has no attack card and passes (D10).") % {"name": who}
        if t == "attack_shown":
            return _("%(name)s attacks with %(card)s.") % {
                "name": who,
                "card": self.card(e.get("card"), e.get("card_id")),
            }
        if t == "card_drawn":
            card = self.card(e.get("card"), e.get("card_id"))
            if e.get("by_focus"):
                return _("%(name)s's focused card answers: %(card)s (F1).") % {"name": who, "card": card}
            return _("Blind draw from %(name)s's arsenal: %(card)s (IA3).") % {"name": who, "card": card}
        if t == "answered":
            if e.get("card") is None:
                return _("%(name)s does not answer.") % {"name": who}
            return _("%(name)s answers with %(card)s.") % {"name": who, "card": self.card(e["card"], e.get("card_id"))}
        if t == "result_proposed":
            return _("Proposed result: %(outcome)s.") % {"outcome": OUTCOME_LABELS.get(e.get("outcome", ""), "")}
        if t == "answer_timed_out":
            return _("%(name)s did not answer in time: the attack takes full effect (D8).") % {"name": who}
        if t == "result_applied":
            outcome = OUTCOME_LABELS.get(e.get("outcome", ""), "")
            if e.get("overridden"):
                return _("Result: %(outcome)s — overridden (proposed: %(proposed)s). Reason: %(reason)s") % {
                    "outcome": outcome,
                    "proposed": OUTCOME_LABELS.get(e.get("proposed", ""), ""),
                    "reason": e.get("reason", ""),
                }
            return _("Result: %(outcome)s.") % {"outcome": outcome}
        if t == "condition_changed":
            return _("%(name)s: %(old)s → %(new)s.") % {
                "name": who,
                "old": condition_label(e.get("old", "")),
                "new": condition_label(e.get("new", "")),
            }
        if t == "card_kept":
            return _("%(card)s goes back to %(name)s's hand (IA4).") % {"name": who, "card": self.card(e.get("card"))}
        if t == "step_cancelled":
            return _("The open step is cancelled; the shown cards go back to hand.")
        if t == "round_ended":
            return _("Round %(round)s ends.") % {"round": e.get("round")}
        if t == "round_choice_made":
            if not e.get("go_on"):
                return _("%(name)s does not go on.") % {"name": who}
            if e.get("new_arsenal"):
                return _("%(name)s goes on with a new arsenal %(label)s.") % {"name": who, "label": e.get("label", "")}
            return _("%(name)s goes on with the same hand.") % {"name": who}
        if t == "arsenal_changed":
            return _("%(name)s takes the new arsenal (%(count)s cards).") % {
                "name": who,
                "count": len(e.get("cards", [])),
            }
        if t == "fighter_out":
            return _("%(name)s can no longer fight (%(condition)s).") % {
                "name": who,
                "condition": condition_label(e.get("condition", "")),
            }
        if t == "duel_ended":
            text = _("Duel %(number)s ends: %(result)s.") % {
                "number": e.get("duel", 0) + 1,
                "result": RESULT_LABELS.get(e.get("result", ""), e.get("result")),
            }
            return f"{text} {e['reason']}" if e.get("reason") else text
        if t == "situation_ended":
            return _("The combat situation ends (S2).")
        return None


def _gone_fighters(entries: list[Any], state: Situation) -> dict[int, str]:
    """Names of fighters the log mentions but the state no longer holds (their join was undone), in one query."""
    ids = {
        e[key]
        for entry in entries
        for e in entry.events or []
        for key in FIGHTER_KEYS
        if isinstance(e.get(key), int) and e[key] not in state.fighters
    }
    return dict(Character.objects.filter(pk__in=ids).values_list("pk", "name")) if ids else {}


def describe(entries: Iterable[Any], state: Situation, names: dict[int, str] | None = None) -> list[LogLine]:
    """Lines for ``LogEntry`` rows (with ``actor`` selected), in the order given."""
    entries = list(entries)
    words = _Words(state, names or {}, _gone_fighters(entries, state))
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

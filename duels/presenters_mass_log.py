"""A mass battle's log in words, for the referee's tablet (who may see every card)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

import rules.magic as magic
from cards.models_mass import MagicCard
from duels.models import LogEntry
from duels.presenters_mass import PLACE_LABELS, SOURCE_LABELS

BY_LABELS = {"points": "M5", "card": "M6", "casualties": ""}


@dataclass
class LogLine:
    seq: int
    at: datetime
    actor: str
    undone: bool
    reason: str
    texts: list[str]


def _card(names: dict[int, MagicCard], card_id: int) -> str:
    row = names.get(card_id)
    return f"«{row.name}»" if row else f"#{card_id}"


def _event(e: dict[str, Any], state: magic.MassBattle, names: dict[int, MagicCard]) -> str:
    side = {key: s.name for key, s in state.sides.items()}
    who = side.get(e.get("side", ""), "")
    warrior = {w.wid: w.name for w in state.warriors.values()}
    kind = e["type"]
    if kind == "mass_decks_shuffled":
        sizes = ", ".join(f"{deck}: {n}" for deck, n in e["sizes"].items())
        return _("The server shuffled the four decks (M1) — %(sizes)s.") % {"sizes": sizes}
    if kind == "mass_initiative_rolled":
        return _("Initiative, cycle %(cycle)s: %(a)s %(da)s — %(b)s %(db)s, %(source)s (M4, M8).") % {
            "cycle": e["cycle"],
            "a": side["a"],
            "da": e["a"],
            "b": side["b"],
            "db": e["b"],
            "source": SOURCE_LABELS[e["source"]],
        }
    if kind == "mass_initiative_tied":
        return _("A tie: both roll again (M4).")
    if kind == "mass_initiative_won":
        return _("%(side)s wins the initiative.") % {"side": who}
    if kind == "mass_starter_chosen":
        return _("%(chooser)s chooses: %(starter)s starts.") % {
            "chooser": side[e["chooser"]],
            "starter": side[e["starter"]],
        }
    if kind == "mass_points_used":
        return _("%(side)s uses %(points)s magic points (M5).") % {"side": who, "points": e["points"]}
    if kind == "mass_nothing_happens":
        if e["why"] == "empty_hospital":
            return _("Nothing happens: the hospital of %(side)s is empty.") % {"side": who}
        return _("Nothing happens: deck %(deck)s is empty, all its cards are kept.") % {"deck": e["points"]}
    if kind == "mass_card_declined":
        return _("%(side)s does not take a card from deck %(deck)s.") % {"side": who, "deck": e["deck"]}
    if kind == "mass_card_drawn":
        return _("%(side)s draws %(card)s from deck %(deck)s.") % {
            "side": who,
            "card": _card(names, e["card_id"]),
            "deck": e["deck"],
        }
    if kind == "mass_card_kept":
        return _("%(side)s keeps %(card)s for a later cycle.") % {"side": who, "card": _card(names, e["card_id"])}
    if kind == "mass_kept_card_used":
        return _("%(side)s uses the kept card %(card)s.") % {"side": who, "card": _card(names, e["card_id"])}
    if kind == "mass_card_carried_out":
        text = _("%(side)s carries out %(card)s; it acts until cycle %(end)s begins and goes under deck %(deck)s.") % {
            "side": who,
            "card": _card(names, e["card_id"]),
            "end": e["ends_cycle"],
            "deck": e["to_bottom_of"],
        }
        if e["affected"]:
            text += " " + _("Acts on: %(names)s.") % {"names": ", ".join(warrior.get(w, w) for w in e["affected"])}
        if e["unaffected"]:
            text += " " + _("Protected, not affected (M3): %(names)s.") % {
                "names": ", ".join(warrior.get(w, w) for w in e["unaffected"])
            }
        return text
    if kind == "mass_warrior_moved":
        return _("%(warrior)s: %(old)s → %(new)s.") % {
            "warrior": warrior.get(e["warrior"], e["warrior"]),
            "old": PLACE_LABELS[e["old"]],
            "new": PLACE_LABELS[e["new"]],
        }
    if kind == "mass_turn_ended":
        return _("%(side)s ends its turn.") % {"side": who}
    if kind == "mass_phase_over":
        return _("The magic phase of cycle %(cycle)s is over.") % {"cycle": e["cycle"]}
    if kind == "mass_effect_ended":
        return _("%(card)s (cycle %(cycle)s) no longer acts (M6).") % {
            "card": _card(names, e["card_id"]),
            "cycle": e["cycle"],
        }
    if kind == "mass_cycle_started":
        return _("Cycle %(cycle)s begins.") % {"cycle": e["cycle"]}
    if kind == "mass_battle_ended":
        return _("The mass battle is over.") + (f" {e['reason']}" if e["reason"] else "")
    return kind


def describe(entries: Iterable[LogEntry], state: magic.MassBattle, names: dict[int, MagicCard]) -> list[LogLine]:
    lines = []
    for entry in entries:
        if entry.kind == LogEntry.Kind.UNDO:
            texts = [_("Undone: the last action.")]
        else:
            texts = [_event(e, state, names) for e in entry.events or []]
        lines.append(
            LogLine(
                seq=entry.seq,
                at=entry.at,
                actor=entry.actor.get_username() if entry.actor else "",
                undone=entry.undone,
                reason=entry.reason,
                texts=texts,
            )
        )
    return lines

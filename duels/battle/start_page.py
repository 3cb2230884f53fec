"""The battle's start page with thousands of characters (issue 20): a picker and the chosen few.

The page used to list every accepted character as a table row (11,400 px in a
200-character game). Now it shows a picker - one list box of who can fight now,
grouped by checked in / not and by side, filtered as the referee types
(sumrak.js ``data-filter-for``, the duel's start form's filter) - and below it
only the characters chosen so far, each with their side, "declared the fight"
and a button that takes them out again. "Add" and "take out" post the same
form with an ``intent`` and redraw the page (no battle is started), so the
choice survives without JavaScript and the CSRF token never goes into an
address. Who can fight is the engine's word (``rules.can_fight``, D11); who is
in a running fight is left out, as the battle would refuse them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import QueryDict
from django.utils import timezone
from django.utils.translation import gettext as _

from duels.models import Situation
from duels.services.opening import fight_over
from events.models import Character, Condition, Event, Side
from rules.conditions import can_fight

MAX_CHOSEN = 40  # duels.battle.forms.MAX_LIST: more is garbage
ADD, DROP, START = "add", "drop", "start"
FIT = [c for c in Condition.values if can_fight(c)]


@dataclass(frozen=True)
class Row:
    character: Character
    side: str
    declared: bool


def _ids(values: list[str]) -> list[int]:
    return [int(v) for v in values[: MAX_CHOSEN * 2] if v.isdigit() and len(v) < 10]


def intent_of(data: QueryDict) -> str:
    intent = data.get("intent", START)
    return intent if intent in (ADD, START) or intent.startswith(f"{DROP}:") else START


def chosen(event: Event, data: QueryDict) -> list[Character]:
    """The combatants the form carries, plus the picked ones on "add", minus the one taken out."""
    ids = _ids(data.getlist("combatants"))
    intent = intent_of(data)
    if intent == ADD:
        ids += _ids(data.getlist("pick"))
    if intent.startswith(f"{DROP}:"):
        ids = [i for i in ids if str(i) != intent.split(":", 1)[1]]
    ordered = list(dict.fromkeys(ids))[:MAX_CHOSEN]
    found = Character.objects.filter(event=event, status=Character.Status.ACCEPTED, pk__in=ordered).in_bulk()
    return [found[i] for i in ordered if i in found]


def rows(people: list[Character], data: QueryDict) -> list[Row]:
    sides = {value for value, _label in Side.choices}
    declarer = data.get("declarer") or ""
    if people and declarer not in {str(c.pk) for c in people}:
        declarer = str(people[0].pk)  # the first chosen declared it, unless the referee says otherwise
    return [
        Row(c, side if (side := data.get(f"side_{c.pk}", "")) in sides else c.side, str(c.pk) == declarer)
        for c in people
    ]


def picker_groups(event: Event, people: list[Character]) -> list[tuple[str, list[tuple[int, str]]]]:
    """Who can be added: checked in first, then by side, by name; nobody whose fight still runs."""
    # S2: one whose fight is over but whose situation is open may fight again (the new fight takes it on).
    now = timezone.now()
    running = [s.pk for s in Situation.objects.filter(event=event, ended=False) if not fight_over(s, now=now)]
    busy = Situation.participants.through.objects.filter(situation_id__in=running).values("character_id")
    candidates = (
        Character.objects.filter(event=event, status=Character.Status.ACCEPTED, condition__in=FIT)
        .exclude(pk__in=busy)
        .exclude(pk__in=[c.pk for c in people])
        .order_by("-arrived", "side", "name")
        .values_list("pk", "name", "side", "arrived")
    )
    side_names = dict(Side.choices)
    groups: dict[tuple[bool, str], list[tuple[int, str]]] = {}
    for pk, name, side, arrived in candidates:
        groups.setdefault((arrived, side), []).append((pk, name))
    order = {value: n for n, value in enumerate(side_names)}
    labelled = []
    for (arrived, side), members in sorted(groups.items(), key=lambda g: (not g[0][0], order.get(g[0][1], 99))):
        where = _("checked in") if arrived else _("not checked in")
        labelled.append((f"{side_names.get(side, side)} · {where}", members))
    return labelled


def context(event: Event, data: QueryDict) -> dict[str, Any]:
    people = chosen(event, data)
    groups = picker_groups(event, people)
    return {"rows": rows(people, data), "groups": groups, "candidates": sum(len(m) for _l, m in groups)}

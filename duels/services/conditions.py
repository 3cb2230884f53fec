"""The referee (or an organizer) records a condition change outside a fight step (CR1, D11).

A blow outside a step (a finishing blow on a helpless character, a healer's
spell after the fight) adds a condition; a healing or the end of a paralysis
clears one. Every change states a reason and is kept as a ``ConditionRecord``
on the character. When the character is in a running fight of any kind the
change goes through that fight's engine too (the kind's ``condition_command``),
so the fight knows (D11: one who can no longer fight leaves it, or its turn
order) and its log shows it; the engine refuses it while that character's step
is open (D9).
"""

from __future__ import annotations

import datetime as dt
import uuid

from django.db import transaction
from django.utils import timezone

import rules
from duels.models import Situation
from duels.services.active import active_situation_for
from duels.services.commands import User, perform, state_of
from duels.services.kinds import kind_of
from duels.services.store import actor_of
from events.models import Character, ConditionRecord


def change_condition(
    character: Character,
    *,
    add: str = "",
    clear: str = "",
    reason: str,
    user: User,
    now: dt.datetime | None = None,
    nonce: str | None = None,
    seen_version: int | None = None,
) -> ConditionRecord | None:
    """Add one condition or clear one, with a reason; refused (RuleError) and nothing saved otherwise.

    ``nonce``/``seen_version``: a tablet's tap (duels/views_conditions.py); a tap sent again (its
    nonce seen) changes nothing and records nothing (None), one drawn from an older version is
    refused (``StaleVersion``) as any tap is. Without them the change is the page's own.
    """
    now = now or timezone.now()
    reason = (reason or "").strip()
    with transaction.atomic():
        situation = active_situation_for(character, now=now)
        through = _in_the_fight(situation, character, (add, clear, reason), user, now, nonce, seen_version)
        if through == REPEATED:
            return None
        if through is not None:
            old, new = through
            situation_id: int | None = situation.pk if situation else None
        else:
            locked = Character.objects.select_for_update().get(pk=character.pk)
            old = locked.condition
            new = rules.changed_condition(old, locked.name, add=add, clear=clear, reason=reason)
            Character.objects.filter(pk=locked.pk).update(condition=new)
            situation_id = None
        character.condition = new
        return ConditionRecord.objects.create(
            character=character,
            at=now,
            actor=actor_of(user),
            old=old,
            new=new,
            reason=reason,
            situation_id=situation_id,
        )


REPEATED = ("", "")


def _in_the_fight(
    situation: Situation | None,
    character: Character,
    change: tuple[str, str, str],
    user: User,
    now: dt.datetime,
    nonce: str | None,
    seen_version: int | None,
) -> tuple[str, str] | None:
    """(old, new) once the fight's engine recorded the change; None when not in a fight that has them."""
    if situation is None:
        return None
    add, clear, reason = change
    kind = kind_of(situation)
    before = state_of(situation)
    command = kind.condition_command(before, character.pk, add=add, clear=clear, reason=reason)
    if command is None:
        return None
    version = situation.version if seen_version is None else seen_version
    done = perform(situation.pk, command, user=user, seen_version=version, nonce=nonce or uuid.uuid4().hex, now=now)
    if done.repeated:
        return REPEATED
    after = done.state if done.state is not None else state_of(done.situation)
    return kind.conditions(before)[character.pk], kind.conditions(after)[character.pk]

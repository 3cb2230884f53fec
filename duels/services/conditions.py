"""The referee (or an organizer) records a condition change outside a fight step (CR1, D11).

A blow outside a step (a finishing blow on a helpless character, a healer's
spell after the fight) adds a condition; a healing or the end of a paralysis
clears one. Every change states a reason and is kept as a ``ConditionRecord``
on the character. When the character is in a running fight the change goes
through the fight's engine too, so the fight knows (D11) and its log shows it.
"""

from __future__ import annotations

import datetime as dt
import uuid

from django.db import transaction
from django.utils import timezone

import rules
from duels.services.active import active_situation_for
from duels.services.commands import User, perform, state_of
from duels.services.store import actor_of
from events.models import Character, ConditionRecord
from rules import duel as engine
from rules.events import ConditionChanged


def change_condition(
    character: Character,
    *,
    add: str = "",
    clear: str = "",
    reason: str,
    user: User,
    now: dt.datetime | None = None,
) -> ConditionRecord:
    """Add one condition or clear one, with a reason; refused (RuleError) and nothing saved otherwise."""
    now = now or timezone.now()
    reason = (reason or "").strip()
    with transaction.atomic():
        situation = active_situation_for(character, now=now)
        if situation is not None and character.pk in state_of(situation).fighters:
            command = engine.ChangeCondition(fighter=character.pk, add=add, clear=clear, reason=reason)
            done = perform(
                situation.pk, command, user=user, seen_version=situation.version, nonce=uuid.uuid4().hex, now=now
            )
            changed = next(e for e in done.events if isinstance(e, ConditionChanged))
            old, new, situation_id = changed.old, changed.new, situation.pk
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

"""Sumrak's rules engine: a functional core with no Django in it (DESIGN.md §3).

This package's top is the kernel every kind of fight shares: refusals
(``errors``), typed events and their registry (``events``), card faces and
counter rules (``cards``), conditions (``conditions``), arsenal checks
(``arsenal``), the participant a fight takes in (``fighters``) and time
(``clock``). Each kind has its engine beside it and imports the kernel, never
another kind:

- ``rules.duel``: combat situations of instant attacks, aggression and duels
  (S, IA, F, AG, D, CR);
- ``rules.battle``: battles, with opportunity and immediate actions (R0-R8, BP);
- ``rules.mass``: the magic phase of mass battles (M1-M8).

Every engine takes a state, a command and ``now`` (and the chance the
services chose: a draw, a shuffle, dice) and returns a new state and typed
events, or raises ``RuleError``. The rules are in RULES.md; the readings
chosen in docs/duel-rules.md, docs/battle-rules.md, docs/mass-battle-rules.md.
"""

from rules.arsenal import check_arsenal, check_focus
from rules.cards import (
    ATTACK,
    DEFENCE,
    NOT_PARRIED,
    OUTCOMES,
    PARRIED,
    SOFTENED,
    CardFace,
    CounterRule,
    CounterTable,
    effect_of,
    face_from_dict,
    face_to_dict,
    propose,
)
from rules.clock import utc
from rules.conditions import (
    CONDITIONS,
    DEAD,
    FIT,
    HEAVILY_WOUNDED,
    HELPLESS,
    LIGHTLY_WOUNDED,
    NO_EFFECT,
    PARALYSED,
    SEVERITY,
    SUBDUED,
    apply_effect,
    can_fight,
    changed_condition,
    parts,
    without,
    written,
)
from rules.errors import RuleError, gettext_noop
from rules.events import EVENT_CLASSES, ConditionChanged, EngineEvent, LagGraceUsed, event_from_dict, event_type
from rules.fighters import FighterSetup

__all__ = [
    "ATTACK",
    "CONDITIONS",
    "DEAD",
    "DEFENCE",
    "EVENT_CLASSES",
    "FIT",
    "HEAVILY_WOUNDED",
    "HELPLESS",
    "LIGHTLY_WOUNDED",
    "NOT_PARRIED",
    "NO_EFFECT",
    "OUTCOMES",
    "PARALYSED",
    "PARRIED",
    "SEVERITY",
    "SOFTENED",
    "SUBDUED",
    "CardFace",
    "ConditionChanged",
    "CounterRule",
    "CounterTable",
    "EngineEvent",
    "FighterSetup",
    "LagGraceUsed",
    "RuleError",
    "apply_effect",
    "can_fight",
    "changed_condition",
    "check_arsenal",
    "check_focus",
    "effect_of",
    "event_from_dict",
    "event_type",
    "face_from_dict",
    "face_to_dict",
    "gettext_noop",
    "parts",
    "propose",
    "utc",
    "without",
    "written",
]

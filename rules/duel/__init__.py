"""The duel situation's engine (S, IA, F, AG, D, CR): instant attacks, focus, aggression, duels.

A combat situation holds the duels fought between the same people one after
another (S2); ``apply(state, command, now, draw)`` returns a new state and
typed events (``rules.duel.events``) or raises ``RuleError``;
``expire(state, now)`` applies overdue deadlines (D8, S2). The blind draw
(IA3) is an input chosen by the services. The readings chosen are in
docs/duel-rules.md; the kernel it stands on is the ``rules`` package's top.
"""

from rules.duel.apply import apply
from rules.duel.commands import (
    COMMAND_TYPES,
    Answer,
    Attack,
    ChangeCondition,
    Command,
    ConfirmResult,
    DeclareAggression,
    EndDuel,
    EndSituation,
    InstantAttack,
    Join,
    RoundChoice,
    SetFocus,
    command_from_dict,
    command_to_dict,
    command_type,
)
from rules.duel.core import answer_overtaken, attack_cards, open_duel_of
from rules.duel.events import EVENT_TYPES
from rules.duel.instant import answer_source, conversion_rule, draw_size_for, instant_attack_draw_size
from rules.duel.replay import LogEntry, replay
from rules.duel.situation import expire, next_deadline, open_situation, situation_deadline
from rules.duel.state import (
    AGGRESSION,
    ANSWER_BY_DECLINED,
    ANSWER_BY_DRAW,
    ANSWER_BY_FOCUS,
    ANSWER_BY_REAL_CARDS,
    AWAIT_ANSWER,
    AWAIT_ATTACK,
    AWAIT_RESULT,
    BETWEEN_ROUNDS,
    ENDED,
    INSTANT_ATTACK,
    PHASES,
    RECORDS_KEPT,
    RESULTS,
    Duel,
    Fighter,
    Settings,
    Situation,
    Step,
    StepRecord,
    from_dict,
    to_dict,
)

__all__ = [
    "AGGRESSION",
    "ANSWER_BY_DECLINED",
    "ANSWER_BY_DRAW",
    "ANSWER_BY_FOCUS",
    "ANSWER_BY_REAL_CARDS",
    "AWAIT_ANSWER",
    "AWAIT_ATTACK",
    "AWAIT_RESULT",
    "BETWEEN_ROUNDS",
    "COMMAND_TYPES",
    "ENDED",
    "EVENT_TYPES",
    "INSTANT_ATTACK",
    "PHASES",
    "RECORDS_KEPT",
    "RESULTS",
    "Answer",
    "Attack",
    "ChangeCondition",
    "Command",
    "ConfirmResult",
    "DeclareAggression",
    "Duel",
    "EndDuel",
    "EndSituation",
    "Fighter",
    "InstantAttack",
    "Join",
    "LogEntry",
    "RoundChoice",
    "SetFocus",
    "Settings",
    "Situation",
    "Step",
    "StepRecord",
    "answer_overtaken",
    "answer_source",
    "apply",
    "attack_cards",
    "command_from_dict",
    "command_to_dict",
    "command_type",
    "conversion_rule",
    "draw_size_for",
    "expire",
    "from_dict",
    "instant_attack_draw_size",
    "next_deadline",
    "open_duel_of",
    "open_situation",
    "replay",
    "situation_deadline",
    "to_dict",
]

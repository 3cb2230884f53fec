"""Fight services: the ONLY way to change a combat situation (DESIGN.md §4).

Every change runs in one transaction with the situation row locked, applies
overdue deadlines first (``expire``), then the engine command, and appends both
to the append-only log. The rules themselves are the engine's (rules/);
nothing here decides a rule.

This package is the situation core: it names no kind of fight. Each kind
is a wing (``duels/duel/``, ``duels/battle/``, ``duels/mass/``) whose
``kind.py`` answers the ``SituationKind`` Protocol (``kinds.py``) and is
registered by ``DuelsConfig.ready``; ``kind_of(situation)`` finds it.

Starting a fight
    Each wing's ``start.py`` (e.g. ``duels.duel.start.start_instant_attack``,
    ``duels.battle.start.start_battle``, ``duels.mass.start.start_mass_battle``)
    runs its checks inside the one opening path (``opening.opening``: the
    event's lock, the nonce, a repeat hands back what the first one opened),
    opens the row (``opening.new_situation``), joins the fighters and applies
    the opening command. Return ``Performed``.

Commands inside a situation (the fight page's buttons)
    ``perform(situation_id, command, *, user, seen_version, nonce)`` with an
    engine command (``rules.Attack/Answer/ConfirmResult/RoundChoice/
    SetFocus/EndDuel/...``; card arguments are the uids shown in the state).
    ``undo_last(situation_id, *, user, reason, seen_version, nonce)`` - the
    view must check that the user referees the event; a reason is required.

    ``seen_version`` is ``situation.version`` as rendered in the page; ``nonce``
    is a UUID generated per rendered button/form (max 64 chars).

Reading
    ``refresh(situation)`` applies overdue deadlines (D8, S2) and returns the
    row, reloaded if it changed: call it in every view before rendering.
    ``state_of(situation)`` gives the engine state (dataclasses).
    ``active_situation_for(character)`` / ``in_active_situation(character)``.
    ``situation.log.order_by("seq")`` is the log (``LogEntry``); undone
    entries stay in it with ``undone=True``, and ``kind == "undo"`` entries
    carry the reason and ``command == {"undid": [seq, ...]}``.
    ``duels.services.export.export_situation(situation)`` for post-game review.

Outcomes and refusals
    ``Performed(situation, events, repeated)``: the row after the change, the
    engine's events (expiries first), and ``repeated=True`` when the nonce had
    already been used (nothing changed; show the current state).
    Refusals change nothing of their own and are either the engine's
    ``RuleError`` or a ``ServiceError`` (``StaleVersion``, ``NotInEvent``,
    ``CharacterBusy``, ``SeparateSituations``, ``CardNotHeld``, ``DuelsOff``,
    ``SituationEnded``, ``NothingToUndo``, ``ReasonRequired``, ``BadNonce``,
    ``SituationNotFound``). Both carry ``rule_id``, an English ``message`` and
    ``params``: show ``cards.words.explain(err)``. ``StaleVersion`` means "409: someone
    else acted first" - re-render from ``refresh(err.situation)``.
    A command refused by the engine still lets overdue deadlines apply.

Write-back to ``Character``
    A fighter's condition is written whenever the fight changes it (so a
    fighter who is out is out on every page at once; an undo writes it back).
    When the situation ends: the remaining hand becomes the ``ArsenalCard``
    rows; ``restorable_arsenal`` (the original for "restore", S2) is kept, or
    set to the card ids held on joining if the character never composed one;
    ``focus_card`` stays only if that card is still in hand. Undo is refused
    on an ended situation, so this is never un-written.

Undo
    Marks the last command entry undone - with the joins logged by the same
    start, and every expiry after it - appends an undo entry, and replays the
    rest. Deadlines are absolute: undoing an answer after its window has closed
    brings back a step whose window is over, and the next read applies D8
    again; to correct a result, undo the confirmation and override it instead.
    Undoing the start of a situation leaves it empty and closes the row.

Timers
    After commit, the task ``duels.tasks.expire_situation(id)`` (defined in
    ``duels/services/timers.py``, sent by name) is scheduled for the new
    ``next_deadline``; the beat task ``duels.tasks.sweep_deadlines`` and
    every ``refresh`` catch anything a worker missed.
"""

from duels.services.active import active_situation_for, in_active_situation
from duels.services.commands import perform, replayed, state_of, undo_last
from duels.services.deadlines import refresh, refresh_by_id, sweep
from duels.services.errors import (
    BadNonce,
    CardNotHeld,
    CharacterBusy,
    DuelsOff,
    NothingToUndo,
    NotInEvent,
    ReasonRequired,
    SeparateSituations,
    ServiceError,
    SituationEnded,
    SituationNotFound,
    StaleVersion,
)
from duels.services.store import Performed
from rules import RuleError

__all__ = [
    "BadNonce",
    "CardNotHeld",
    "CharacterBusy",
    "DuelsOff",
    "NotInEvent",
    "NothingToUndo",
    "Performed",
    "ReasonRequired",
    "RuleError",
    "SeparateSituations",
    "ServiceError",
    "SituationEnded",
    "SituationNotFound",
    "StaleVersion",
    "active_situation_for",
    "in_active_situation",
    "perform",
    "refresh",
    "refresh_by_id",
    "replayed",
    "state_of",
    "sweep",
    "undo_last",
]

"""Opening a duel (S1, AG1, D1, D2, D5)."""

from __future__ import annotations

from datetime import datetime

from rules.conditions import can_fight
from rules.duel.commands import DeclareAggression
from rules.duel.core import attack_cards, get_fighter, open_duel_of, require_attack_card
from rules.duel.events import DuelOpened
from rules.duel.state import AGGRESSION, Duel, Fighter, Situation
from rules.duel.steps import begin_round, show_attack
from rules.errors import RuleError, gettext_noop
from rules.events import EngineEvent


def check_can_open(state: Situation, first: int, second: int) -> tuple[Fighter, Fighter]:
    """D1: a duel is one Other against one other Other, neither already in a duel.

    D11: a fighter who can no longer fight cannot start or be drawn into one.
    """
    a = get_fighter(state, first)
    b = get_fighter(state, second)
    if first == second:
        raise RuleError("D1", gettext_noop("A duel needs two different fighters."))
    for fighter in (a, b):
        if open_duel_of(state, fighter.character_id) is not None:
            raise RuleError("D1", gettext_noop("%(name)s is already in a duel."), name=fighter.name)
    for fighter in (a, b):
        if not can_fight(fighter.condition):
            raise RuleError(
                "D11",
                gettext_noop("%(name)s can no longer fight (%(condition)s)."),
                name=fighter.name,
                condition=fighter.condition,
            )
    return a, b


def check_max_rounds(max_rounds: int | None) -> None:
    if max_rounds is not None and max_rounds < 1:
        raise RuleError("D2", gettext_noop("A duel's maximum number of bouts must be at least 1."))


def new_duel(
    state: Situation, a: int, b: int, opened_by: str, max_rounds: int | None, at: datetime, events: list[EngineEvent]
) -> Duel:
    duel = Duel(
        number=len(state.duels),
        a=a,
        b=b,
        opened_by=opened_by,
        opened_at=at,
        max_rounds=max_rounds,
        attacker=a,
        first_attacker_this_round=a,
    )
    state.duels.append(duel)
    events.append(DuelOpened(duel=duel.number, a=a, b=b, opened_by=opened_by, max_rounds=max_rounds))
    return duel


def open_aggression(
    state: Situation,
    declarer_id: int,
    target_id: int,
    card: str | None,
    max_rounds: int | None,
    at: datetime,
    events: list[EngineEvent],
) -> Duel:
    """AG1: an open attack card (the first attack of round 1) or a spoken declaration.

    D5: the declarer acts first - shows the card, or is the first to attack.
    """
    declarer, _target = check_can_open(state, declarer_id, target_id)
    check_max_rounds(max_rounds)
    if card is not None:
        require_attack_card(state, declarer, card, "AG1")
    elif not attack_cards(state, declarer_id) and not attack_cards(state, target_id):
        # D11: such a round would be over before it began, and AG2 forbids
        # changing arsenals first - there is nothing to fight with.
        raise RuleError("D11", gettext_noop("Neither fighter holds an attack card."))
    duel = new_duel(state, declarer_id, target_id, AGGRESSION, max_rounds, at, events)
    begin_round(state, duel, declarer_id, events)
    if card is not None:
        show_attack(state, duel, declarer_id, card, at, events)
    return duel


def declare_aggression(state: Situation, cmd: DeclareAggression, now: datetime, events: list[EngineEvent]) -> None:
    open_aggression(state, cmd.declarer, cmd.target, cmd.card, cmd.max_rounds, now, events)

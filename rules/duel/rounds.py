"""Between rounds (D3, D12, AG2, IA5) and the referee ending a duel (D2)."""

from __future__ import annotations

from datetime import datetime

from rules.cards import CardFace
from rules.conditions import can_fight
from rules.duel.commands import EndDuel, EndSituation, RoundChoice
from rules.duel.core import attack_cards, end_duel, get_duel, mint, require_open
from rules.duel.events import ArsenalChanged, RoundChoiceMade, StepCancelled
from rules.duel.situation import end_situation
from rules.duel.state import (
    AGGRESSION,
    BETWEEN_ROUNDS,
    ENDED,
    ENDED_BY_REFEREE,
    INSTANT_ATTACK,
    NO_ATTACKS_LEFT,
    STOPPED,
    Duel,
    Fighter,
    Situation,
)
from rules.duel.steps import begin_round
from rules.errors import INPUT, RuleError, gettext_noop
from rules.events import EngineEvent


def round_choice(state: Situation, cmd: RoundChoice, now: datetime, events: list[EngineEvent]) -> None:
    duel = require_open(get_duel(state, cmd.duel))
    if duel.phase != BETWEEN_ROUNDS:
        if duel.round == 1 and duel.opened_by == AGGRESSION:
            raise RuleError("AG2", gettext_noop("Arsenals cannot change before the first bout ends."))
        if duel.round == 1 and duel.opened_by == INSTANT_ATTACK:
            raise RuleError(
                "IA5", gettext_noop("After an instant attack both keep their arsenals until the first bout ends.")
            )
        raise RuleError("D3", gettext_noop("Arsenals can change only between bouts."))
    if cmd.fighter not in (duel.a, duel.b):
        raise RuleError(INPUT, gettext_noop("Fighter %(fighter)s is not in this duel."), fighter=cmd.fighter)
    fighter = state.fighters[cmd.fighter]
    if cmd.go_on and not can_fight(fighter.condition):
        raise RuleError("D11", gettext_noop("%(name)s can no longer fight."), name=fighter.name)
    # A fighter may change their mind until the other has chosen too.
    duel.round_choices[cmd.fighter] = cmd
    events.append(
        RoundChoiceMade(
            duel=duel.number,
            fighter=cmd.fighter,
            go_on=cmd.go_on,
            new_arsenal=cmd.arsenal is not None,
            label=cmd.label,
        )
    )
    if len(duel.round_choices) == 2:
        _settle(state, duel, now, events)


def _settle(state: Situation, duel: Duel, at: datetime, events: list[EngineEvent]) -> None:
    """D12: both ready -> a new round under the same rules; otherwise the duel ends."""
    choices = duel.round_choices
    if not all(c.go_on for c in choices.values()):
        end_duel(state, duel, STOPPED, at, events)
        return
    for fighter_id in (duel.a, duel.b):
        arsenal = choices[fighter_id].arsenal
        if arsenal is not None:
            _take_arsenal(state, duel, state.fighters[fighter_id], arsenal, choices[fighter_id].label, events)
    duel.round_choices = {}
    if not attack_cards(state, duel.a) and not attack_cards(state, duel.b):
        # D12 reading: ready to go on but nobody can attack - nothing to fight with.
        end_duel(state, duel, NO_ATTACKS_LEFT, at, events)
        return
    duel.round += 1
    # D10 reading: the one who defended first last round attacks first now.
    begin_round(state, duel, duel.other(duel.first_attacker_this_round), events)


def _take_arsenal(
    state: Situation, duel: Duel, fighter: Fighter, arsenal: tuple[CardFace, ...], label: str, events: list[EngineEvent]
) -> None:
    """D3: a new or prepared arsenal replaces the hand, which is set aside (kept for conservation)."""
    fighter.set_aside.extend(fighter.hand)
    fighter.hand = mint(state, fighter, arsenal)
    # S2 reading: this is now the arsenal last composed, the one "restore" puts back.
    fighter.composed = sorted(face.card_id for face in arsenal)
    fighter.focus = None  # the focused card left the hand (F1)
    # D4: unplayed cards stay hidden, so the event names no uid - only how many.
    events.append(ArsenalChanged(duel=duel.number, fighter=fighter.character_id, label=label, count=len(fighter.hand)))


def end_duel_command(state: Situation, cmd: EndDuel, now: datetime, events: list[EngineEvent]) -> None:
    """D2: the fighters' ability to go on ends a duel - the referee records why."""
    duel = require_open(get_duel(state, cmd.duel))
    reason = cmd.reason.strip()
    if not reason:
        raise RuleError("D2", gettext_noop("Say why the duel ends."))
    step = duel.step
    if step is not None:
        # No result was decided, so nothing was played (D9): shown cards go back.
        state.fighters[step.attacker].hand.append(step.attack_card)
        if step.answer_card is not None:
            state.fighters[step.defender].hand.append(step.answer_card)
        duel.step = None
        events.append(StepCancelled(duel=duel.number))
    end_duel(state, duel, ENDED_BY_REFEREE, now, events, reason=reason)


def end_situation_command(state: Situation, cmd: EndSituation, now: datetime, events: list[EngineEvent]) -> None:
    """The referee closes the situation (it grows into a battle): open duels end as by EndDuel, then S2's end."""
    reason = cmd.reason.strip()
    if not reason:
        raise RuleError("D2", gettext_noop("Say why the duel ends."))
    for duel in state.duels:
        if duel.phase != ENDED:
            end_duel_command(state, EndDuel(duel=duel.number, reason=reason), now, events)
    end_situation(state, now, events)
    state.closed_by_referee = True

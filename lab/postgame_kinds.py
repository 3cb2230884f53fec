"""The post-game report's reading of battle and mass-battle steps (issue 20): their logged events.

A battle's attack names one or more targets; each target answers (or lets
the window run out) and gets its own result, so a battle step is one
(frame, defender) pair: the same figures as a duel's step (cards played,
answers, late answers, results, overrides). Reactions are the frames
declared in a role other than the turn's main action (R4-R5). Conditions
dealt come from ``battle_condition_changed``, results from ``battle_ended``.

A mass battle (M1-M8) has no characters: it counts its magic cards
(drawn, kept, carried out, declined), its initiative rolls (M8: by the
server or entered by the referee, ties) and where its warriors were moved.
Everything is read from the events as the engines logged them; no rule is
worked out again here.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from lab.postgame_figures import PostGame, Step, count_conditions, count_result

MAIN = "main"  # rules.battle.MAIN: a turn's own action; any other role is a reaction


def read_battle_event(
    report: PostGame, event: dict[str, Any], at: dt.datetime, steps: dict[Any, Step], fighters: set[int]
) -> None:
    kind = event.get("type")
    if kind == "battle_joined":
        fighters.add(int(event["combatant"]))
    elif kind == "battle_action_declared":
        role = str(event.get("role") or MAIN)
        if role != MAIN:
            report.reactions[role] += 1
            report.characters[int(event["actor"])]["reactions"] += 1
    elif kind == "battle_attack_shown":
        attacker = int(event["attacker"])
        report.cards_played[attacker][int(event["card_id"])] += 1
        for target in event.get("targets") or []:
            steps[(event["frame"], int(target))] = Step(attack=int(event["card_id"]), shown_at=at, attacker=attacker)
    elif kind == "battle_card_used":
        report.cards_played[int(event["combatant"])][int(event["card_id"])] += 1
    elif kind == "battle_answered" and (step := steps.get((event["frame"], int(event["defender"])))):
        step.defender = int(event["defender"])
        step.answer = int(event["card_id"]) if event.get("card_id") is not None else None
        step.answered_at = at
        report.answers += 1
        report.answer_seconds.append((at - step.shown_at).total_seconds())
        if step.answer is not None:
            report.cards_played[step.defender][step.answer] += 1
    elif kind == "battle_answer_timed_out" and (step := steps.get((event["frame"], int(event["defender"])))):
        step.timed_out = True
        report.timeouts += 1
    elif kind == "battle_result_applied" and (step := steps.pop((event["frame"], int(event["defender"])), None)):
        step.timed_out = step.timed_out or bool(event.get("timed_out"))
        count_result(report, step, event)
    elif kind == "battle_condition_changed":
        count_conditions(report, event)
    elif kind == "battle_ended":
        report.results[str(event.get("result") or "")] += 1


def read_mass_event(report: PostGame, event: dict[str, Any]) -> None:
    kind = event.get("type")
    if kind == "mass_card_drawn":
        report.magic_cards[int(event["card_id"])]["drawn"] += 1
    elif kind == "mass_card_kept":
        report.magic_cards[int(event["card_id"])]["kept"] += 1
    elif kind in ("mass_card_carried_out", "mass_kept_card_used"):
        report.magic_cards[int(event["card_id"])]["carried_out"] += 1
    elif kind == "mass_card_declined":
        report.magic_cards_declined += 1
    elif kind == "mass_initiative_rolled":
        report.rolls[str(event.get("source") or "")] += 1
    elif kind == "mass_initiative_tied":
        report.rolls["tied"] += 1
    elif kind == "mass_warrior_moved":
        report.warriors_moved[str(event.get("new") or "")] += 1
    elif kind == "mass_battle_ended":
        report.results["mass_battle_ended"] += 1

"""The lab's inputs and figures as JSON: what a saved run stores and what worker processes exchange."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict
from typing import Any

from lab.simulate import Arsenal, LabSettings, Tally
from rules.cards import CounterRule, face_from_dict, face_to_dict


def arsenal_to_dict(arsenal: Arsenal) -> dict[str, Any]:
    return {"label": arsenal.label, "cards": [face_to_dict(face) for face in arsenal.cards]}


def arsenal_from_dict(data: dict[str, Any]) -> Arsenal:
    return Arsenal(str(data["label"]), tuple(face_from_dict(face) for face in data["cards"]))


def counter_to_dict(rule: CounterRule) -> dict[str, Any]:
    return asdict(rule)


def counter_from_dict(data: dict[str, Any]) -> CounterRule:
    return CounterRule(**data)


def settings_to_dict(settings: LabSettings) -> dict[str, Any]:
    return asdict(settings)


def settings_from_dict(data: dict[str, Any]) -> LabSettings:
    return LabSettings(**data)


_COUNTERS = ("results", "attack_outcomes", "defence_outcomes", "pairs", "instant")


def tally_to_dict(tally: Tally) -> dict[str, Any]:
    # JSON has no tuple keys: each counter is a list of [key..., count] rows.
    out: dict[str, Any] = {"duels": tally.duels, "rounds": tally.rounds, "steps": tally.steps}
    for name in _COUNTERS:
        out[name] = sorted(([*key, count] for key, count in getattr(tally, name).items()), key=json.dumps)
    return out


def tally_from_dict(data: dict[str, Any]) -> Tally:
    tally = Tally(duels=int(data["duels"]), rounds=int(data["rounds"]), steps=int(data["steps"]))
    for name in _COUNTERS:
        counter: Counter[Any] = getattr(tally, name)
        for *key, count in data[name]:
            counter[tuple(key)] = int(count)
    return tally

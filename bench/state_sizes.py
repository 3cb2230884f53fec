"""How big a fight's stored state is, per kind and length (issue 24: "write only what changed").

    DATABASE_URL=sqlite:////tmp/sizes.sqlite3 DJANGO_SETTINGS_MODULE=config.settings_test \\
        python -m bench.state_sizes

Builds, on a fresh database, the bench's catalogue (300 cards, ~450 counter
rules) and plays a duel, a battle of four and a mass battle as the benchmark
does, then prints the bytes of each state's JSON (the row a step rewrites)
and its largest parts. Run it on a build before a change and after.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import secrets
import sys
from typing import Any


def _sizes(state: dict[str, Any]) -> dict[str, Any]:
    def size(value: Any) -> int:
        return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())

    parts = sorted(((name, size(value)) for name, value in state.items()), key=lambda p: -p[1])
    return {"total": size(state), **dict(parts[:5])}


def _timing(kind: Any, stored: dict[str, Any]) -> str:
    """Median µs of what a step does with the row: decode the JSON and the state, encode both again."""
    import statistics
    import time

    from duels.fields import dumps, loads

    text = dumps(stored)
    kind.from_dict(loads(text))  # warm: the process's shared faces and rules (and snapshots) are known
    runs = []
    for _ in range(200):
        t0 = time.perf_counter()
        dumps(kind.to_dict(kind.from_dict(loads(text))))
        runs.append(time.perf_counter() - t0)
    return f"{statistics.median(runs) * 1e6:,.0f} µs"


def main() -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model

    from bench import game, kind_battle, kind_mass, kinds
    from cards.faces import counter_rule_of, face_of
    from cards.models import Card, CounterRule
    from duels.battle.start import start_battle
    from duels.mass.start import start_mass_battle
    from duels.models import Situation
    from duels.services.kinds import KINDS
    from events.models import Character, Event

    game.CHARACTERS = 8
    catalogue, attacks, defences = game._catalogue()
    today = dt.date.today()
    event = Event.objects.create(
        name="Sizes",
        starts_on=today,
        ends_on=today + dt.timedelta(days=2),
        catalogue=catalogue,
        answer_window_s=3600,
        situation_gap_s=7200,
        mass_battles_on=True,
        every_round_a_bout=True,
    )
    game._people(event, attacks, defences)
    user = get_user_model().objects.create_user("sizes-referee")
    faces = {card.pk: face_of(card) for card in Card.objects.filter(catalogue=catalogue)}
    counters = [counter_rule_of(r) for r in CounterRule.objects.filter(defence_card__catalogue=catalogue)]
    people = list(Character.objects.filter(event=event).prefetch_related("arsenal").order_by("pk"))
    lengths = [int(n) for n in sys.argv[1:]] or [10, 100]
    out: dict[str, Any] = {}
    pairs = kind_mass.armies(event, len(lengths))
    for n, length in enumerate(lengths):
        duel = game._fight(event, KINDS["duel"], people[0], people[1], faces, counters, length)
        out[f"duel {length}"] = _sizes(Situation.objects.get(pk=duel["id"]).state)
        out[f"duel {length}"]["µs"] = _timing(KINDS["duel"], Situation.objects.get(pk=duel["id"]).state)
        event = Event.objects.get(pk=event.pk)
        if n == 0:
            kind_battle.people(event, people[4:8])
        four = list(Character.objects.filter(pk__in=[p.pk for p in people[4:8]]).order_by("pk"))
        battle = start_battle(event, four, declarer=four[0], user=user, nonce=secrets.token_hex(16)).situation
        kinds.extend(battle, "battle", length - battle.log.count())
        out[f"battle {length}"] = _sizes(Situation.objects.get(pk=battle.pk).state)
        out[f"battle {length}"]["µs"] = _timing(KINDS["battle"], Situation.objects.get(pk=battle.pk).state)
        Situation.objects.filter(pk=battle.pk).update(ended=True)
        red, blue = pairs[n]
        mass = start_mass_battle(event, red, blue, user=user, nonce=secrets.token_hex(16)).situation
        kinds.extend(mass, "mass", length - mass.log.count())
        out[f"mass {length}"] = _sizes(Situation.objects.get(pk=mass.pk).state)
        out[f"mass {length}"]["µs"] = _timing(KINDS["mass_battle"], Situation.objects.get(pk=mass.pk).state)
    for name, sizes in out.items():
        parts = ", ".join(f"{k} {v:,}" if isinstance(v, int) else f"{k}: {v}" for k, v in sizes.items() if k != "total")
        print(f"{name:12} {sizes['total']:>8,} B   {parts}")


if __name__ == "__main__":
    main()

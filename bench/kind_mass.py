"""The benchmark's mass battles: the patient referee's wishes and the game's mass battles (issue 24).

Each magic cycle (M4-M6) the referee enters both dice (never a tie), the
winner starts, each side uses its points (a card drawn is carried out on the
first enemy warrior, or kept when it may be), ends its turn; one casualty of
the physical battle; the next cycle. Every command has its button on the
referee's page, so the prepared steps go on as long as the log does.
"""

from __future__ import annotations

import random
from typing import Any

import rules.mass as magic

LENGTHS = (40, 150)
PER_LENGTH = 30  # as kind_battle.PER_LENGTH: more fights than wrk has connections
WARRIORS = 6  # per army
MAGIC = [
    # name, deck, type, negative, keepable, copies (as tests/services/mass_kit.py)
    ("Fire Rain", 2, "fire", True, False, 2),
    ("Wind Ward", 2, "wind", False, True, 1),
    ("Water Lash", 4, "water", True, False, 2),
    ("Stone Skin", 4, "earth", False, False, 1),
    ("Bright Banner", 5, "universal", False, True, 1),
    ("Flame Wall", 6, "fire", True, False, 2),
    ("Warm Wind", 6, "fire", False, False, 1),
]


def wishes(state: magic.MassBattle, memo: dict[str, Any]) -> list[Any]:
    """The referee's wishes for the next command, in order (the engine refuses what the rules do not allow)."""
    if state.ended:
        return []
    rng: random.Random = memo.setdefault("rng", random.Random(24))
    if state.stage == magic.INITIATIVE:
        a, b = rng.sample(range(1, 7), 2)
        return [magic.RollInitiative(source=magic.REFEREE, dice=(a, b))]
    if state.stage == magic.CHOOSE:
        assert state.winner is not None
        return [magic.ChooseStarter(side=state.winner, starts=True)]
    if state.stage == magic.OVER:
        field = [w for w in state.warriors.values() if w.place == magic.FIELD]
        if memo.get("casualty") != state.cycle and len(field) > 4:
            memo["casualty"] = state.cycle
            return [
                magic.MoveWarrior(warrior=field[state.cycle % len(field)].wid, to=magic.HOSPITAL),
                magic.NextCycle(),
            ]
        return [magic.NextCycle()]
    side = state.whose_turn()
    if side is None:
        return []
    other = state.other(side)
    if state.pending is not None:
        enemy = [w.wid for w in state.warriors.values() if w.side == other and w.place == magic.FIELD][:1]
        keep = [magic.KeepCard(side=side)] if magic.may_keep(state) and rng.random() < 0.3 else []
        return [
            *keep,
            magic.CarryOut(side=side, targets=tuple(enemy)),
            magic.CarryOut(side=side, target_side=other),
            magic.CarryOut(side=side),
        ]
    if side not in state.used_points:
        wounded = state.hospital(side)
        return [magic.UsePoints(side=side, warrior=wounded[0] if wounded else None, take=True)]
    return [magic.EndTurn(side=side)]


# --- the bench game's mass battles (Django set up) -------------------------------------------------


def armies(event: Any, count: int) -> list[tuple[Any, Any]]:
    """The magic deck and ``count`` pairs of armies of ``WARRIORS`` each."""
    from cards.models_mass import Army, MagicCard, Warrior, WarriorType

    for name, deck, kind, negative, keepable, copies in MAGIC:
        MagicCard.objects.get_or_create(
            catalogue=event.catalogue, name_en=name,
            defaults={"name_ru": name, "deck": deck, "magic_type": kind, "text": f"{name}: read aloud.",
                      "acts_on_protected": not negative, "keepable": keepable, "copies": copies},
        )  # fmt: skip
    types = [
        WarriorType.objects.create(event=event, name_ru="Саламандра", name_en="Salamander", protections="fire"),
        WarriorType.objects.create(event=event, name_ru="Копейщик", name_en="Spearman"),
        WarriorType.objects.create(event=event, name_ru="Сильф", name_en="Sylph", protections="wind,fire"),
    ]
    pairs = []
    for i in range(count):
        pair = []
        for colour in ("Red", "Blue"):
            army = Army.objects.create(event=event, name=f"{colour} {i}", commander_name=f"{colour} commander {i}")
            Warrior.objects.bulk_create(
                Warrior(army=army, name=f"{colour} {i}.{n}", warrior_type=types[n % len(types)])
                for n in range(WARRIORS)
            )
            pair.append(army)
        pairs.append((pair[0], pair[1]))
    return pairs


def build(event: Any, user: Any, ahead: int, lengths: tuple[int, ...] | None = None) -> list[dict[str, Any]]:
    """Mass battles, ``PER_LENGTH`` at each of ``LENGTHS`` (or one a length of ``lengths``; a magic cycle
    is ~8-10 entries), each with its next ``ahead`` steps."""
    from bench import kinds
    from duels.mass.start import start_mass_battle

    made = []
    lengths = lengths or tuple(n for n in LENGTHS for _ in range(PER_LENGTH))
    for (red, blue), length in zip(armies(event, len(lengths)), lengths, strict=True):
        situation = start_mass_battle(event, red, blue, user=user, nonce=kinds.secrets_hex()).situation
        state, memo = kinds.extend(situation, "mass", length - situation.log.count())
        made.append(kinds.described(situation, "mass", length, state, memo, ahead, []))
    return made

"""How long a battle's and a mass battle's ``apply`` take over a long fight: the clone against a whole deep copy.

Not a test (timings are not asserted anywhere): the numbers of docs/performance.md's issue-24 section.
CPU time of this process (time.process_time), so a machine busy with other work does not inflate it.

    python scripts/battle_apply_timing.py [--cards 60] [--repeat 3]

A battle of four combatants with ``--cards`` attack cards each, every card of
no effect so nobody falls: each turn one attack, its answer, its result and the
next turn, until the hands are empty (thousands of commands, a record per
answer). It is played once to get its log; then the log is replayed through
``apply`` (one command at a time, as the live site does) with the engine's
``clone`` and again with ``copy.deepcopy`` in its place (the engine before
issue 24). The mass battle: a few hundred cycles of the magic phase, the same way.
"""

from __future__ import annotations

import argparse
import copy
import importlib
import os
import sys
import time
from datetime import UTC, datetime, timedelta
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules import battle as B
from rules import mass as M
from rules.cards import ATTACK, CardFace
from rules.conditions import NO_EFFECT
from rules.fighters import FighterSetup

T0 = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
# The modules, not the functions the packages export under the same names.
battle_apply = importlib.import_module("rules.battle.apply")
mass_phase = importlib.import_module("rules.mass.phase")
SIDES = {1: "light", 2: "light", 3: "dark", 4: "dark"}


def _battle_log(cards: int) -> tuple[B.Battle, list[tuple[Any, datetime]]]:
    hand = tuple(
        B.BattleCard(face=CardFace(100 + i, f"Spark {i}", ATTACK, NO_EFFECT, NO_EFFECT, ("melee",)))
        for i in range(cards)
    )
    opening = B.open_battle(B.BattleSettings(), [], T0)
    state, log, t = opening, [], 0.0

    def do(command: Any) -> None:
        nonlocal state
        now = T0 + timedelta(seconds=t)
        state, _ = B.apply(state, command, now)
        log.append((command, now))

    for cid, side in SIDES.items():
        do(B.JoinBattle(FighterSetup(cid, f"C{cid}", tuple(c.face for c in hand)), side, hand))
    do(B.BeginBattle(declarer=1))
    while not state.ended:
        t += 1
        if state.phase == B.BETWEEN_ROUNDS:
            do(B.StartRound())
            continue
        actor = state.turn_of
        assert actor is not None
        attacks = [u for u in state.combatants[actor].hand if state.cards[u].is_attack]
        if not attacks:
            do(B.Act(actor=actor, act=B.PASS))
            do(B.NextTurn())
            continue
        target = next(c for c in SIDES if SIDES[c] != SIDES[actor])
        do(B.Act(actor=actor, act=B.ATTACK, cards=(attacks[0],), targets=(target,)))
        frame = B.top(state)
        assert frame is not None
        do(B.AnswerAttack(frame=frame.number, defender=target, card=None))
        do(B.ConfirmAnswer(frame=frame.number, defender=target))
        if B.top(state) is not None and not state.ended:
            do(B.NextTurn())
    return opening, log


def _replay_live(opening: B.Battle, log: list[tuple[Any, datetime]]) -> float:
    start = time.process_time()
    state = opening
    for command, now in log:
        state, _ = B.apply(state, command, now)
    return time.process_time() - start


def _mass_log(cycles: int) -> tuple[M.MassBattle, list[object]]:
    cards = [M.MagicFace(f"c{d}-{i}", 10 * d + i, d, M.FIRE) for d in M.DECKS for i in range(8)]
    warriors = [M.Warrior(f"w{i}", M.SIDES[i % 2], f"W{i}") for i in range(40)]
    opening = M.open_battle(M.MagicSettings(), cards, warriors, [M.Side("a", "A"), M.Side("b", "B")])
    order = tuple((d, tuple(c.uid for c in cards if c.deck == d)) for d in M.DECKS)
    log: list[object] = [M.ShuffleDecks(order=order)]
    state, _ = M.apply(opening, log[0])
    for n in range(cycles):
        start: list[object] = [M.RollInitiative(M.REFEREE, (5, 4)), M.ChooseStarter("a", starts=True)]
        for command in start:
            state, _ = M.apply(state, command)
            log.append(command)
        for side in ("a", "b"):  # 5 and 4 points: a card from deck 5 or 4 that each side declines (M5)
            for command in (M.UsePoints(side, take=False), M.EndTurn(side)):
                state, _ = M.apply(state, command)
                log.append(command)
        if n < cycles - 1:
            state, _ = M.apply(state, M.NextCycle())
            log.append(M.NextCycle())
    return opening, log


def _mass_live(opening: M.MassBattle, log: list[object]) -> float:
    start = time.process_time()
    state = opening
    for command in log:
        state, _ = M.apply(state, command)
    return time.process_time() - start


def _with_deepcopy(run: Any, *args: Any) -> float:
    """The same run with the engine's clone replaced by a whole deep copy (the engine before issue 24)."""
    saved = {module: module.clone for module in (battle_apply, mass_phase)}
    for module in saved:
        setattr(module, "clone", copy.deepcopy)  # noqa: B010 - the module's own name, patched for the run
    try:
        return float(run(*args))
    finally:
        for module, clone in saved.items():
            setattr(module, "clone", clone)  # noqa: B010


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=60)
    parser.add_argument("--cycles", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    opening, log = _battle_log(args.cards)
    records = len(B.replay(opening, [("command", c, at, None) for c, at in log]).records)
    clone_s = min(_replay_live(opening, log) for _ in range(args.repeat))
    deep_s = min(_with_deepcopy(_replay_live, opening, log) for _ in range(args.repeat))
    n = len(log)
    print(f"battle: {n} commands, {records} records at the end")
    print(f"  apply with a deep copy: {deep_s:.2f} s, {1000 * deep_s / n:.2f} ms a command")
    print(f"  apply with the clone:   {clone_s:.2f} s, {1000 * clone_s / n:.2f} ms a command ({deep_s / clone_s:.1f}x)")
    mopening, mlog = _mass_log(args.cycles)
    mclone = min(_mass_live(mopening, mlog) for _ in range(args.repeat))
    mdeep = min(_with_deepcopy(_mass_live, mopening, mlog) for _ in range(args.repeat))
    m = len(mlog)
    print(f"mass battle: {m} commands")
    print(f"  apply with a deep copy: {mdeep:.2f} s, {1000 * mdeep / m:.3f} ms a command")
    print(f"  apply with the clone:   {mclone:.2f} s, {1000 * mclone / m:.3f} ms a command ({mdeep / mclone:.1f}x)")


if __name__ == "__main__":
    main()

"""The magic phase's random-play helpers, shared by the engine and service property tests."""

import pytest
from hypothesis import strategies as st

import rules.mass as magic
from rules.errors import RuleError

CARDS = [
    magic.MagicFace(f"{cid}.{n}", cid, deck, kind, acts_on_protected=acts, keepable=keep)
    for cid, deck, kind, acts, keep, copies in [
        (1, 2, "fire", False, False, 2),
        (2, 2, "wind", True, True, 1),
        (3, 4, "water", False, False, 1),
        (4, 5, "universal", False, True, 2),
        (5, 6, "earth", False, False, 1),
    ]
    for n in range(1, copies + 1)
]
WARRIORS = [
    magic.Warrior(str(i), "ab"[i % 2], f"w{i}", protections=(("fire",) if i % 3 == 0 else ()), place=place)
    for i, place in enumerate(["field", "hospital", "field", "hospital", "dead", "field"])
]

# Taps 0-8 are any command (often refused); 9 and above take the phase one legal step further,
# so long sequences reach kept cards used in later cycles, not only refusals.
taps = st.lists(st.tuples(st.integers(0, 13), st.integers(0, 6), st.integers(0, 6)), min_size=1, max_size=40)


def progress(state, x, y):
    """The next legal step of the phase, with some choices left to x and y."""
    side = state.whose_turn()
    if state.stage == magic.INITIATIVE:
        return magic.RollInitiative("referee", (1 + x % 6, 1 + y % 6))
    if state.stage == magic.CHOOSE:
        return magic.ChooseStarter(state.winner, starts=bool(x % 2))
    if state.stage == magic.OVER:
        return magic.NextCycle()
    pending = state.pending
    if pending is not None:
        face = state.cards[pending.uid]
        if face.keepable and not pending.from_kept and x % 2:
            return magic.KeepCard(side)
        return magic.CarryOut(side, targets=tuple(sorted(state.warriors))[: y % 3], move_to=[None, "hospital"][x % 2])
    usable = [k.uid for k in state.sides[side].kept if k.cycle < state.cycle]
    if usable:
        return magic.UseKept(side, usable[0])
    if side not in state.used_points:
        hospital = state.hospital(side)
        return magic.UsePoints(side, warrior=hospital[0] if hospital else None, take=x % 3 != 0)
    return magic.EndTurn(side)


def command_for(state, tap, x, y):
    if tap >= 9:
        return progress(state, x, y)
    side = state.whose_turn() or "ab"[x % 2]
    if tap == 0:
        return magic.RollInitiative("referee" if x % 2 else "server", (1 + x % 6, 1 + y % 6))
    if tap == 1:
        return magic.ChooseStarter(state.winner or "a", starts=bool(x % 2))
    if tap == 2:
        hospital = state.hospital(side)
        return magic.UsePoints(side, warrior=hospital[x % len(hospital)] if hospital else None, take=y % 3 != 0)
    if tap == 3:
        return magic.KeepCard(side)
    if tap == 4:
        targets = tuple(sorted(state.warriors))[: x % 4]
        return magic.CarryOut(side, targets=targets, move_to=[None, "hospital", "dead", "field"][y % 4])
    if tap == 5:
        kept = state.kept_uids(side)
        return magic.UseKept(side, kept[x % len(kept)] if kept else "1.1")
    if tap == 6:
        return magic.EndTurn(side)
    if tap == 7:
        return magic.MoveWarrior(str(x % len(WARRIORS)), magic.WARRIOR_PLACES[y % 3])
    return magic.NextCycle()  # tap 8


# --- from test_audit_magic_rules.py ---


EDGE_CARDS = [
    magic.MagicFace("20.1", 20, 2, "fire"),
    magic.MagicFace("21.1", 21, 2, "wind", keepable=True),
    magic.MagicFace("40.1", 40, 4, "earth"),
    magic.MagicFace("50.1", 50, 5, "universal", keepable=True),
    magic.MagicFace("60.1", 60, 6, "fire"),
    magic.MagicFace("61.1", 61, 6, "fire", acts_on_protected=True),
]


EDGE_ORDER = ((2, ("21.1", "20.1")), (4, ("40.1",)), (5, ("50.1",)), (6, ("60.1", "61.1")))


EDGE_SIDES = [magic.Side("a", "Red"), magic.Side("b", "Blue")]


def edge_warriors():
    return [
        magic.Warrior("1", "a", "archer", place="hospital"),
        magic.Warrior("2", "a", "salamander", protections=("fire",)),
        magic.Warrior("3", "b", "pikeman"),
        magic.Warrior("4", "b", "salamander", protections=("fire",)),
        magic.Warrior("5", "b", "healer", place="hospital"),
        magic.Warrior("6", "b", "scout", place="hospital"),
    ]


def edge_battle(order=EDGE_ORDER):
    state = magic.open_battle(magic.MagicSettings(), EDGE_CARDS, edge_warriors(), EDGE_SIDES)
    state, _ = magic.apply(state, magic.ShuffleDecks(order=order))
    return state


def edge_run(state, *commands):
    for command in commands:
        state, _ = magic.apply(state, command)
    return state


def edge_events(state, command):
    return [e.to_dict() for e in magic.apply(state, command)[1]]


def edge_ready(state, a, b, starter="a"):
    state = edge_run(state, magic.RollInitiative("referee", (a, b)))
    return edge_run(state, magic.ChooseStarter(state.winner, starts=state.winner == starter))


def edge_refused(rule_id, state, command):
    with pytest.raises(RuleError) as caught:
        magic.apply(state, command)
    assert caught.value.rule_id == rule_id, caught.value
    return caught.value

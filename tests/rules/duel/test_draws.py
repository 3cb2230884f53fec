"""IA3: the blind draw is uniform over the victim's current hand and never touches discards."""

import random

from rules import RuleError
from rules.duel import (
    Answer,
    ConfirmResult,
    DeclareAggression,
    EndDuel,
    InstantAttack,
    apply,
    draw_size_for,
    instant_attack_draw_size,
)
from tests.rules.duel.kit import ANTON, DART, FIRE, HEAL, SHIELD, SLEEP, WARD, ZAVULON, Fight, at, setup


def test_IA3_each_draw_index_picks_a_different_card_of_the_hand():
    """The engine maps the index 0..n-1 one-to-one onto the victim's hand, so a uniform index is a uniform card.

    The index itself comes from the services (tests/services/test_draw_uniformity.py
    checks the real source and the log with a chi-square test).
    """
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD, HEAL, WARD, DART, SLEEP))
    state, hand = f.state, list(f.fighter(ZAVULON).hand)
    command = InstantAttack(ANTON, ZAVULON, f.uid(ANTON, 1), True, True)
    assert draw_size_for(state, command) == len(hand) == 5
    steps = [apply(state, command, at(1), draw)[0].duels[0].step for draw in range(len(hand))]
    assert [step.answer_card if step else None for step in steps] == hand


def test_IA3_a_draw_never_returns_a_discarded_card():
    f = Fight(setup(ANTON, DART, DART, FIRE), setup(ZAVULON, SHIELD, SHIELD, HEAL, WARD))
    # An aggression first, so Zavulon plays (discards) two cards...
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 2)), 1)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 2)
    f.do(ConfirmResult(0), 3)
    f.do(EndDuel(0, "parted"), 4)
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 2)), 5)
    f.do(Answer(1, ZAVULON, f.uid(ZAVULON, 11)), 6)
    f.do(ConfirmResult(1, "parried", "healed in time"), 7)
    f.do(EndDuel(1, "parted"), 8)
    discards = set(f.fighter(ZAVULON).discards)
    hand = list(f.fighter(ZAVULON).hand)
    assert len(discards) == 2 and len(hand) == 2
    # ...then an instant attack: every possible draw is a hand card.
    command = InstantAttack(ANTON, ZAVULON, f.uid(ANTON, 1), True, True)
    assert instant_attack_draw_size(f.state, ZAVULON) == len(hand)
    drawn = set()
    rng = random.Random(1)
    for _ in range(500):
        new, _ = apply(f.state, command, at(9), rng.randrange(len(hand)))
        step = new.duels[-1].step
        assert step is not None
        drawn.add(step.answer_card)
    assert drawn == set(hand) and not drawn & discards
    for bad in (len(hand), len(hand) + 1):
        try:
            apply(f.state, command, at(9), bad)
        except RuleError as err:
            assert err.rule_id == "IA3"
        else:
            raise AssertionError("a draw past the hand was accepted")


def test_IA3_draw_size_is_the_hand_and_nothing_when_focused_or_converted():
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, SHIELD, HEAL, WARD))
    fire = f.uid(ANTON, 1)
    assert draw_size_for(f.state, InstantAttack(ANTON, ZAVULON, fire, True, True)) == 3
    # IA1: no surprise, no draw.
    assert draw_size_for(f.state, InstantAttack(ANTON, ZAVULON, fire, False, True)) == 0
    # F1: the focused card answers instead.
    g = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD, HEAL, focus=SHIELD.card_id))
    assert draw_size_for(g.state, InstantAttack(ANTON, ZAVULON, g.uid(ANTON, 1), True, True)) == 0


def test_IA3_the_engine_holds_no_source_of_chance():
    """DESIGN §3: draws are inputs; no module of the rules package imports secrets or random."""
    import ast
    import pathlib

    import rules

    for path in pathlib.Path(rules.__file__).parent.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module.split(".")[0]]
            assert not {"secrets", "random"} & set(names), path

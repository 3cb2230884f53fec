"""IA3: the blind draw is uniform over the victim's current hand and never touches discards."""

import random
from collections import Counter

from rules import (
    Answer,
    ConfirmResult,
    DeclareAggression,
    EndDuel,
    InstantAttack,
    RuleError,
    apply,
    choose_draw,
    instant_attack_draw_size,
)

from .kit import ANTON, DART, FIRE, HEAL, SHIELD, SLEEP, WARD, ZAVULON, Fight, at, setup

# chi-square critical value for p = 0.001 with 4 degrees of freedom (5 cards).
CHI2_999_DF4 = 18.467


def test_IA3_each_of_five_cards_is_drawn_equally_often_chi_square():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD, HEAL, WARD, DART, SLEEP))
    state, hand = f.state, list(f.fighter(ZAVULON).hand)
    command = InstantAttack(ANTON, ZAVULON, f.uid(ANTON, 1), True, True)
    rng = random.Random(20261205)
    counts: Counter[str] = Counter()
    trials = 10_000
    for _ in range(trials):
        draw = rng.randrange(instant_attack_draw_size(state, ZAVULON))
        new, _ = apply(state, command, at(1), draw)
        step = new.duels[0].step
        assert step is not None and step.answer_card is not None
        counts[step.answer_card] += 1
    assert set(counts) == set(hand)
    expected = trials / len(hand)
    chi2 = sum((counts[u] - expected) ** 2 / expected for u in hand)
    assert chi2 < CHI2_999_DF4, (chi2, counts)


def test_IA3_a_biased_draw_would_fail_the_chi_square_check():
    """The statistic is sharp enough to catch a draw that favours one card."""
    rng = random.Random(7)
    counts = Counter(min(rng.randrange(6), 4) for _ in range(10_000))  # card 4 twice as likely
    expected = 2000
    assert sum((counts[i] - expected) ** 2 / expected for i in range(5)) > CHI2_999_DF4


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


def test_IA3_choose_draw_uses_the_hand_size_and_nothing_when_focused():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD, HEAL, WARD))
    seen = {choose_draw(f.state, ZAVULON) for _ in range(300)}
    assert seen == {0, 1, 2}
    g = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD, HEAL, focus=SHIELD.card_id))
    assert choose_draw(g.state, ZAVULON) is None

"""A referee's checklist run against random fights (hypothesis): every rule in every case.

The example tests walk the cases someone thought of; here random fights walk
the rest, and after every accepted command or expiry an independent checklist
compares the state before and after with what the rules demand:

- S2: an ended situation holds no open duel and accepts nothing more;
- IA6: at most one real instant attack per situation;
- IA4/IA7: an unparried instant attack keeps the victim's card and ends the duel;
- IA5/D5: a parried instant attack gives the victim the next attack;
- D2: no duel goes past its own round limit;
- D8: a timed-out step is "not parried" with no answer card;
- D10: roles swap at every step, a fighter with no attack card passes,
  a new round opens with whoever defended first in the previous one;
- D11: nobody who is out stays in an open duel, a round between rounds has no
  attack card left, an attacker awaited always holds one;
- AG2/IA5/D3: nobody's hand gains a card inside a round;
- CR1: the condition after a step is the worse of before and the outcome's effect;
- F1: a focus is always one defence card of the fighter's own.
"""

import json

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules import (
    LIGHTLY_WOUNDED,
    NO_EFFECT,
    NOT_PARRIED,
    OUTCOMES,
    PARRIED,
    SOFTENED,
    CardFace,
    RuleError,
    apply_effect,
    can_fight,
    effect_of,
)
from rules.duel import (
    AWAIT_ANSWER,
    AWAIT_ATTACK,
    AWAIT_RESULT,
    BETWEEN_ROUNDS,
    ENDED,
    INSTANT_ATTACK,
    Answer,
    Attack,
    Command,
    ConfirmResult,
    DeclareAggression,
    EndDuel,
    InstantAttack,
    Join,
    LogEntry,
    RoundChoice,
    SetFocus,
    Settings,
    apply,
    attack_cards,
    expire,
    from_dict,
    instant_attack_draw_size,
    open_situation,
    replay,
    to_dict,
)
from tests.rules.duel.kit import COUNTERS, DART, FIRE, HEAL, SHIELD, SLEEP, WARD, at, check_invariants, setup

STING = CardFace(4, "Sting", "attack", LIGHTLY_WOUNDED, NO_EFFECT, ("missile",))
FACES = [FIRE, DART, DART, STING, STING, SLEEP, SHIELD, HEAL, WARD, WARD]
# Light attacks only: nobody drops out, so duels reach later rounds (D3, D10, D12).
LIGHT = [DART, STING, SHIELD, HEAL, WARD]
GAPS = [0, 0.5, 1, 3, 14.9, 15, 15.1, 40, 179, 181]


def moves(state):
    """Plausible commands first (so fights get far), then some wrong ones."""
    good: list[Command] = []
    bad: list[Command] = []
    busy = {i for d in state.duels if d.phase != ENDED for i in (d.a, d.b)}
    for duel in state.duels:
        n = duel.number
        if duel.phase == AWAIT_ATTACK:
            good += [Attack(n, duel.attacker, u) for u in state.fighters[duel.attacker].hand]
        elif duel.phase == AWAIT_ANSWER:
            assert duel.step is not None
            defender = duel.step.defender
            good += [Answer(n, defender, None)] + [Answer(n, defender, u) for u in state.fighters[defender].hand]
        elif duel.phase == AWAIT_RESULT:
            good += [ConfirmResult(n)] + [ConfirmResult(n, o, "as seen") for o in OUTCOMES]
        elif duel.phase == BETWEEN_ROUNDS:
            for who in (duel.a, duel.b):
                if who in duel.round_choices:
                    continue  # mostly let the other one choose
                good += [RoundChoice(n, who, True, (DART, STING, WARD), "prepared")] * 4
                good += [RoundChoice(n, who, True), RoundChoice(n, who, False), RoundChoice(n, who, True, (SHIELD,))]
        if duel.phase != ENDED:
            bad += [RoundChoice(n, duel.a, True, (FIRE,)), EndDuel(n, "parted")]
    for x, fighter in state.fighters.items():
        bad += [SetFocus(x, u) for u in fighter.hand] + [SetFocus(x, None)]
        for y in state.fighters:
            if x == y or {x, y} & busy:
                continue
            good.append(DeclareAggression(x, y))
            for u in fighter.hand:
                good += [InstantAttack(x, y, u, s, r) for s in (True, False) for r in (True, False)]
                good.append(DeclareAggression(x, y, u, max_rounds=2))
    return good, bad


def check_rules(before, after, command):
    """The checklist: ``command`` (None for an expiry) took ``before`` to ``after``."""
    check_invariants(after)
    if before.ended:
        raise AssertionError("S2: an ended situation changed")
    if after.ended:
        assert all(d.phase == ENDED for d in after.duels), "S2: a duel outlived its situation"
    assert sum(d.opened_by == INSTANT_ATTACK for d in after.duels) <= 1, "IA6: two instant attacks"
    if any(d.opened_by == INSTANT_ATTACK for d in after.duels):
        assert after.instant_attack_used
    for fighter in after.fighters.values():
        if fighter.focus is not None:
            assert after.cards[fighter.focus].is_defence, "F1: focus on an attack card"
    for duel in after.duels:
        old = before.duels[duel.number] if duel.number < len(before.duels) else None
        if duel.max_rounds is not None:
            assert duel.round <= duel.max_rounds, "D2: past the round limit"
        if duel.phase != ENDED:
            for fid in (duel.a, duel.b):
                assert can_fight(after.fighters[fid].condition), "D11: someone out is still fighting"
        if duel.phase == BETWEEN_ROUNDS:
            assert not attack_cards(after, duel.a) and not attack_cards(after, duel.b), "D11: attacks left"
        if duel.phase == AWAIT_ATTACK:
            assert attack_cards(after, duel.attacker), "D10: awaiting an attack from someone with none"
        for record in duel.steps_done:
            if record.timed_out:
                event("timed out")
                assert record.outcome == NOT_PARRIED and record.answer_card is None, "D8"
        if old is None:
            check_opening(before, after, duel, command)
            continue
        if len(duel.steps_done) > len(old.steps_done):
            check_resolution(before, after, old, duel)
        if duel.round > old.round:
            event(f"round {duel.round}")
            check_new_round(before, after, old, duel)
        elif duel.phase != ENDED and old.phase != ENDED:
            for fid in (duel.a, duel.b):
                gained = set(after.fighters[fid].hand) - set(before.fighters[fid].hand)
                kept = {
                    r.answer_card for r in duel.steps_done[len(old.steps_done) :] if r.instant and r.defender == fid
                }
                assert gained <= kept, "AG2/IA5/D3: a hand gained a card inside a round"


def check_opening(before, after, duel, command):
    first = duel.first_attacker_this_round
    converted = isinstance(command, InstantAttack) and duel.opened_by != INSTANT_ATTACK
    event(f"opened by {duel.opened_by}" + (" (converted IA)" if converted else ""))
    if duel.opened_by == INSTANT_ATTACK:
        assert isinstance(command, InstantAttack) and command.out_of_sight and command.within_reach
        assert not before.instant_attack_used, "IA6"
        assert first == command.attacker
        return
    declarer = command.attacker if isinstance(command, InstantAttack) else command.declarer
    if isinstance(command, InstantAttack):
        assert not (command.out_of_sight and command.within_reach) or before.instant_attack_used, "IA1/IA6"
    # D5 (with the D10 pass): the declarer acts first if they can.
    expected = declarer if attack_cards(before, declarer) else duel.other(declarer)
    assert first == expected, "D5"


def check_resolution(before, after, old, duel):
    record = duel.steps_done[-1]
    defender_before = before.fighters[record.defender].condition
    face = after.cards[record.attack_card]
    assert after.fighters[record.defender].condition == apply_effect(
        defender_before, effect_of(record.outcome, face)
    ), "CR1"
    assert record.attack_card in after.fighters[record.attacker].discards, "D9"
    if record.answer_card is not None:
        victim = after.fighters[record.defender]
        if record.instant and record.outcome == NOT_PARRIED:
            assert record.answer_card in victim.hand, "IA4: an unspent card was lost"
        else:
            assert record.answer_card in victim.discards, "D9/IA4"
    out = [f for f in (duel.a, duel.b) if not can_fight(after.fighters[f].condition)]
    if duel.result == "situation_ended":
        # One expiry may time the step out and then run out the gap (S2) after it.
        assert after.ended and record.timed_out
        return
    if record.instant and record.outcome == NOT_PARRIED:
        assert duel.phase == ENDED and duel.result == "instant_attack_succeeded", "IA7"
        return
    if out:
        assert duel.phase == ENDED and duel.result == "fighter_out", "D11"
        return
    if not attack_cards(after, duel.a) and not attack_cards(after, duel.b):
        assert duel.phase in (BETWEEN_ROUNDS, ENDED), "D11: round over"
        if duel.phase == ENDED:
            assert duel.result == "max_rounds" and duel.round == duel.max_rounds
        return
    assert duel.phase == AWAIT_ATTACK and duel.round == old.round
    # D10 / IA5: the defender attacks next, unless they hold no attack card.
    expected = record.defender if attack_cards(after, record.defender) else record.attacker
    assert duel.attacker == expected, "D10/IA5"
    if record.instant:
        assert record.outcome in (PARRIED, SOFTENED)


def check_new_round(before, after, old, duel):
    assert old.phase == BETWEEN_ROUNDS and duel.round == old.round + 1, "D12"
    # D10 reading: whoever defended first in the previous round opens this one, if they can.
    preferred = old.other(old.first_attacker_this_round)
    expected = preferred if attack_cards(after, preferred) else duel.other(preferred)
    assert duel.first_attacker_this_round == expected and duel.attacker == expected, "D10: new round"


RUN = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@RUN
@given(
    hands=st.lists(st.lists(st.sampled_from(FACES), max_size=5).map(tuple), min_size=2, max_size=4),
    data=st.data(),
)
def test_every_rule_holds_after_every_accepted_command_in_random_fights(hands, data):
    play(hands, data)


@RUN
@given(
    hands=st.lists(st.lists(st.sampled_from(LIGHT), min_size=1, max_size=4).map(tuple), min_size=2, max_size=2),
    data=st.data(),
)
def test_every_rule_holds_in_long_random_duels(hands, data):
    play(hands, data)


def play(hands, data):
    opening = open_situation(Settings(), COUNTERS, at(0))
    state = opening
    log: list[LogEntry] = []
    for i, hand in enumerate(hands, start=1):
        defences = [face.card_id for face in hand if face.is_defence]
        focus = defences[0] if defences and data.draw(st.booleans()) else None
        join = Join(setup(i, *hand, focus=focus))
        state, _ = apply(state, join, at(0))
        log.append(("command", join, at(0), None))
    t = 0.0
    for _ in range(data.draw(st.integers(1, 50))):
        t += data.draw(st.sampled_from(GAPS))
        now = at(t)
        expired, events = expire(state, now)
        if events:
            check_rules(state, expired, None)
            log.append(("expire", now))
            state = expired
        if state.ended:
            break
        good, bad = moves(state)
        pool = good if good and data.draw(st.integers(0, 4)) else (bad or good)
        if not pool:
            break
        command = data.draw(st.sampled_from(pool))
        draw = None
        if isinstance(command, InstantAttack):
            size = instant_attack_draw_size(state, command.victim)
            draw = data.draw(st.integers(0, size - 1)) if size else None
        try:
            new, _ = apply(state, command, now, draw)
        except RuleError:
            continue
        check_rules(state, new, command)
        log.append(("command", command, now, draw))
        state = new
    assert to_dict(replay(opening, log)) == to_dict(state)
    assert from_dict(json.loads(json.dumps(to_dict(state)))) == state

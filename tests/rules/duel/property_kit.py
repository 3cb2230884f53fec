"""Random fights' ingredients shared by the engine's property tests (hands, pauses, candidate commands)."""

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from rules import LIGHTLY_WOUNDED, NO_EFFECT, OUTCOMES, CardFace
from rules.duel import (
    AWAIT_ANSWER,
    AWAIT_ATTACK,
    AWAIT_RESULT,
    BETWEEN_ROUNDS,
    ENDED,
    Answer,
    Attack,
    ConfirmResult,
    DeclareAggression,
    EndDuel,
    InstantAttack,
    Join,
    RoundChoice,
    SetFocus,
)
from tests.rules.duel.kit import DART, FIRE, HEAL, SHIELD, SLEEP, WARD, setup

# Light attacks outnumber the deadly ones so that fights last a few rounds.
STING = CardFace(4, "Sting", "attack", LIGHTLY_WOUNDED, NO_EFFECT, ("missile",))
FACES = [FIRE, DART, DART, STING, SLEEP, SHIELD, HEAL, WARD, WARD]
small_hand = st.lists(st.sampled_from(FACES), max_size=5).map(tuple)
# Mostly short pauses, with the deadlines' edges and the occasional long gap.
GAPS = [0, 0.5, 1, 2, 3, 5, 14.9, 15, 15.1, 40, 179, 180.5, 400]


def candidates(state):
    """Commands worth trying now, grouped so that no kind crowds out the others.

    Mostly plausible moves (so fights get far: rounds, choices, timeouts),
    plus plainly wrong ones (so refusals are exercised too).
    """
    groups: dict[str, list] = {"progress": [], "open": [], "focus": [], "wrong": []}
    ids = list(state.fighters)
    for duel in state.duels:
        n = duel.number
        progress, wrong = groups["progress"], groups["wrong"]
        if duel.phase == AWAIT_ATTACK:
            progress += [Attack(n, duel.attacker, u) for u in state.fighters[duel.attacker].hand]
            wrong += [Attack(n, duel.other(duel.attacker), u) for u in state.fighters[duel.other(duel.attacker)].hand]
        if duel.phase == AWAIT_ANSWER:
            progress.append(Answer(n, duel.step.defender, None))
            progress += [Answer(n, duel.step.defender, u) for u in state.fighters[duel.step.defender].hand]
            wrong.append(Answer(n, duel.step.attacker, None))
        if duel.phase == AWAIT_RESULT:
            progress.append(ConfirmResult(n))
            progress += [ConfirmResult(n, o, "referee says") for o in OUTCOMES]
            wrong += [ConfirmResult(n, o, "") for o in OUTCOMES]
        if duel.phase == BETWEEN_ROUNDS:
            for who in (duel.a, duel.b):
                progress += [RoundChoice(n, who, True, None), RoundChoice(n, who, True, (DART, WARD), "saved")]
                progress += [RoundChoice(n, who, True, (FIRE, SHIELD)), RoundChoice(n, who, False)]
        elif duel.phase != ENDED:
            wrong.append(RoundChoice(n, duel.a, True, (FIRE,)))
        if duel.phase != ENDED:
            wrong += [EndDuel(n, "parted ways"), EndDuel(n, "")]
        wrong.append(Attack(n, duel.a, "nope"))
    busy = {i for d in state.duels if d.phase != ENDED for i in (d.a, d.b)}
    for x in ids:
        hand = state.fighters[x].hand
        groups["focus"] += [SetFocus(x, None)] + [SetFocus(x, u) for u in hand]
        for y in [*ids, 99]:
            plausible = x != y and y in state.fighters and not {x, y} & busy
            target = groups["open"] if plausible else groups["wrong"]
            target.append(DeclareAggression(x, y))
            for u in hand:
                target.append(DeclareAggression(x, y, u, max_rounds=3))
                target += [InstantAttack(x, y, u, s, r) for s in (True, False) for r in (True, False)]
    groups["wrong"].append(Join(setup(ids[0])))
    # Progress twice as likely as anything else when there is some.
    order = ["progress", "progress", "open", "focus", "wrong"]
    return [groups[k] for k in order if groups[k]]


# Light attacks only: nobody drops out, so duels run through several rounds
# and the between-rounds choices (D3, D12) get exercised.
LIGHT_FACES = [DART, STING, SHIELD, HEAL, WARD]
light_hand = st.lists(st.sampled_from(LIGHT_FACES), min_size=1, max_size=4).map(tuple)
PROPERTY_SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

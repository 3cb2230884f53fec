"""The balance lab plays duels through the real engine and reports what it finds (issue 15).

Small runs here (the 10,000-duel speed target is measured in bench/): a fixed
seed gives the same figures however the duels are split among processes; an
attack card with no counter and a defence card that parries everything are
named; every duel is counted once and every step's cards are accounted for.
"""

import pytest

from lab.findings import NEVER_MATTERED, PARRIES_ALL, UNANSWERED, USELESS, report, static_findings
from lab.simulate import GREEDY, RANDOM, Arsenal, LabSettings, Tally, batch, chunks, play
from rules.cards import CardFace, CounterRule

FIRE = CardFace(1, "Fireball", "attack", "heavily_wounded", "lightly_wounded", ("fire",))
FREEZE = CardFace(2, "Freeze", "attack", "paralysed", "", ("ice",))
SPARK = CardFace(3, "Spark", "attack", "lightly_wounded", "", ())
SHIELD = CardFace(10, "Shield", "defence")
HEAL = CardFace(11, "Heal", "defence")
MIRROR = CardFace(12, "Mirror", "defence")
COUNTERS = [
    CounterRule(10, None, "fire", "parried"),
    CounterRule(11, None, "ice", "softened"),
    CounterRule(10, 3, None, "parried"),
]
FIRE_SIDE = Arsenal("Fire", (FIRE, FIRE, SPARK, SHIELD, HEAL))
ICE_SIDE = Arsenal("Ice", (FREEZE, SPARK, SHIELD, SHIELD, HEAL))
FACES = [FIRE, FREEZE, SPARK, SHIELD, HEAL, MIRROR]


def run(policy: str = RANDOM, duels: int = 120, seed: int = 7, **changes) -> Tally:
    settings = LabSettings(duels=duels, seed=seed, policy=policy, **changes)
    return batch([FIRE_SIDE, ICE_SIDE], COUNTERS, settings, range(duels))


def test_a_fixed_seed_gives_the_same_figures_and_another_seed_others():
    first, again, other = run(seed=7), run(seed=7), run(seed=8)
    assert first == again
    assert first.results != other.results or first.attack_outcomes != other.attack_outcomes


def test_the_figures_do_not_depend_on_how_the_duels_are_split_among_processes():
    settings = LabSettings(duels=90, seed=3, policy=GREEDY)
    whole = batch([FIRE_SIDE, ICE_SIDE], COUNTERS, settings, range(90))
    split = Tally()
    for part in chunks(90, 7):
        split.add(batch([FIRE_SIDE, ICE_SIDE], COUNTERS, settings, part))
    assert split == whole


def test_every_duel_is_counted_once_and_every_step_once():
    tally = run(duels=150)
    assert tally.duels == 150 == sum(tally.results.values())
    assert sum(tally.attack_outcomes.values()) == tally.steps == sum(tally.pairs.values())
    answered = sum(n for (defence, _a, _o), n in tally.pairs.items() if defence is not None)
    assert sum(tally.defence_outcomes.values()) == answered
    # Both orders of the match-up are played (the first arsenal declares the fight).
    assert {(a, b) for a, b, _w in tally.results} == {("Fire", "Ice"), ("Ice", "Fire")}


def test_CR2_greedy_answers_follow_the_counter_rules():
    """The greedy defender answers a Fireball with the Shield (parried), never with a card that does nothing."""
    tally = run(policy=GREEDY, duels=60, timeout_share=0, instant_share=0)
    fire_answers = {(d, o) for (d, a, o), _n in tally.pairs.items() if a == FIRE.card_id and d is not None}
    assert fire_answers <= {(SHIELD.card_id, "parried")}
    assert any(d == SHIELD.card_id for d, _o in fire_answers)


def test_D8_late_answers_are_counted_as_timeouts():
    assert not any(o == "timed_out" for (_c, o) in run(timeout_share=0).attack_outcomes)
    late = run(timeout_share=1.0, duels=40, instant_share=0)  # an instant attack draws: no window
    assert {o for (_c, o) in late.attack_outcomes} == {"timed_out"}


def test_IA3_F1_instant_attacks_are_counted_with_and_without_focus():
    tally = run(instant_share=1.0, focus_share=0.5, duels=120)
    assert {focused for focused, _k in tally.instant} == {True, False}
    assert sum(tally.instant.values()) == 120


def test_the_report_names_an_attack_card_that_nothing_counters():
    """Freeze is only softened by Heal; a catalogue without Heal's rule leaves it unanswered."""
    counters = [r for r in COUNTERS if r.defence_card_id != HEAL.card_id]
    found = static_findings(FACES, counters)
    assert any(f.kind == UNANSWERED and f.card_id == FREEZE.card_id for f in found)
    assert not any(f.kind == UNANSWERED and f.card_id == FIRE.card_id for f in found)
    assert any(f.kind == USELESS and f.card_id == MIRROR.card_id for f in found)


def test_the_report_flags_a_defence_card_that_parries_everything():
    counters = [*COUNTERS, *(CounterRule(MIRROR.card_id, a.card_id, None, "parried") for a in (FIRE, FREEZE, SPARK))]
    found = static_findings(FACES, counters)
    assert [f.card_id for f in found if f.kind == PARRIES_ALL] == [MIRROR.card_id]


def test_the_report_adds_up_and_names_what_never_mattered():
    tally = run(duels=200, timeout_share=0)
    result = report(tally, FACES, COUNTERS)
    for shares in result.heat.values():
        assert shares["a"] + shares["b"] + shares["draw"] == pytest.approx(1.0)
    assert sum(s["n"] for s in result.heat.values()) == 200
    assert result.steps_per_duel == tally.steps / 200
    # Random play answers Freeze with the Shield, which does nothing against it... but the Shield parries
    # Fireballs, so it mattered; a hand whose only defence never parries anything is flagged.
    useless_hand = Arsenal("Bare", (SPARK, MIRROR))
    bare = batch([useless_hand, ICE_SIDE], COUNTERS, LabSettings(duels=60, seed=1, policy=RANDOM), range(60))
    flagged = report(bare, FACES, COUNTERS).findings
    assert any(f.kind == NEVER_MATTERED and f.card_id == MIRROR.card_id for f in flagged)


def test_one_duel_ends_within_its_rounds():
    tally = play(FIRE_SIDE, ICE_SIDE, COUNTERS, LabSettings(duels=1, seed=5, max_rounds=2), 0)
    assert tally.duels == 1 and 1 <= tally.rounds <= 2


def test_a_tally_survives_json_as_a_saved_run_stores_it():
    import json

    from lab.codec import tally_from_dict, tally_to_dict

    tally = run(duels=80, instant_share=0.5)
    assert tally_from_dict(json.loads(json.dumps(tally_to_dict(tally)))) == tally

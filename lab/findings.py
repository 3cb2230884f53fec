"""What a lab run means for the catalogue: the figures and the findings (issue 15).

Pure functions of a ``Tally`` and the catalogue's faces and counter rules, so
the report page, the saved run and the tests read the same numbers. A finding
names the counter-matrix cell (defence card, attack card) that causes it,
for the page to link to.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import rules as engine
from lab.simulate import Tally
from rules.cards import CardFace, CounterRule, CounterTable

OUTCOMES = (engine.NOT_PARRIED, engine.SOFTENED, engine.PARRIED)
UNANSWERED = "unanswered"  # an attack card no defence card of the catalogue parries or softens
USELESS = "useless"  # a defence card that parries or softens no attack card of the catalogue
PARRIES_ALL = "parries_all"  # a defence card that parries every attack card of the catalogue
NEVER_MATTERED = "never_mattered"  # played in the run, never parried or softened anything
ONE_SIDED = "one_sided"  # a match-up one arsenal wins at least 80 % of the time (over 20 duels or more)


@dataclass(frozen=True)
class Finding:
    kind: str
    card_id: int | None = None
    other_card_id: int | None = None  # the matrix cell's other card, where one cell is the cause
    labels: tuple[str, ...] = ()
    share: float | None = None


@dataclass
class Report:
    duels: int
    heat: dict[tuple[str, str], dict[str, float]]  # (a, b) -> {"a": share, "b": ..., "draw": ..., "n": count}
    attack_rates: dict[int, dict[str, float]]  # card -> outcome shares (and "timed_out"), "n"
    defence_rates: dict[int, dict[str, float]]  # card -> parried/softened/useless shares, "n"
    rounds_per_duel: float
    steps_per_duel: float
    instant: dict[str, dict[str, float]]  # "focused"/"blind" -> {"succeeded": share, ..., "n"}
    findings: list[Finding] = field(default_factory=list)


def _shares(counts: dict[str, int]) -> dict[str, float]:
    total = sum(counts.values())
    out = {key: (value / total if total else 0.0) for key, value in counts.items()}
    out["n"] = float(total)
    return out


def static_findings(faces: list[CardFace], counters: list[CounterRule]) -> list[Finding]:
    """From the counter rules alone, before any duel is played."""
    table = CounterTable(counters)
    attacks = [f for f in faces if f.is_attack]
    defences = [f for f in faces if f.is_defence]
    found: list[Finding] = []
    for attack in attacks:
        if all(table.propose(d, attack) == engine.NOT_PARRIED for d in defences):
            found.append(Finding(UNANSWERED, card_id=attack.card_id))
    for defence in defences:
        outcomes = [table.propose(defence, a) for a in attacks]
        if attacks and all(o == engine.PARRIED for o in outcomes):
            found.append(Finding(PARRIES_ALL, card_id=defence.card_id))
        elif all(o == engine.NOT_PARRIED for o in outcomes):
            found.append(Finding(USELESS, card_id=defence.card_id))
    return found


def report(tally: Tally, faces: list[CardFace], counters: list[CounterRule]) -> Report:
    heat: dict[tuple[str, str], dict[str, int]] = {}
    for (a, b, winner), count in tally.results.items():
        cell = heat.setdefault((a, b), {"a": 0, "b": 0, "draw": 0})
        cell[winner] += count
    attack: dict[int, dict[str, int]] = {}
    for (card, outcome), count in tally.attack_outcomes.items():
        attack.setdefault(card, {o: 0 for o in (*OUTCOMES, "timed_out")})[outcome] += count
    defence: dict[int, dict[str, int]] = {}
    for (card, outcome), count in tally.defence_outcomes.items():
        defence.setdefault(card, {o: 0 for o in OUTCOMES})[outcome] += count
    instant: dict[str, dict[str, int]] = {}
    for (focused, kind), count in tally.instant.items():
        instant.setdefault("focused" if focused else "blind", {"succeeded": 0, "softened": 0, "parried": 0})[kind] += (
            count
        )
    result = Report(
        duels=tally.duels,
        heat={pair: _shares(counts) for pair, counts in heat.items()},
        attack_rates={card: _shares(counts) for card, counts in attack.items()},
        defence_rates={
            card: {**_shares(counts), USELESS: _shares(counts)[engine.NOT_PARRIED]} for card, counts in defence.items()
        },
        rounds_per_duel=tally.rounds / tally.duels if tally.duels else 0.0,
        steps_per_duel=tally.steps / tally.duels if tally.duels else 0.0,
        instant={key: _shares(counts) for key, counts in instant.items()},
    )
    result.findings = static_findings(faces, counters)
    defence_cards = {face.card_id for face in faces if face.is_defence}
    for card, counts in defence.items():
        # An attack card drawn blind in an instant attack (IA3) is no defence that failed.
        if card not in defence_cards:
            continue
        if sum(counts.values()) and not counts[engine.PARRIED] and not counts[engine.SOFTENED]:
            # The pair it met most often is the matrix cell to look at.
            met = max(
                ((att, n) for (d, att, _o), n in tally.pairs.items() if d == card), key=lambda x: x[1], default=None
            )
            result.findings.append(Finding(NEVER_MATTERED, card_id=card, other_card_id=met[0] if met else None))
    for (a, b), shares in result.heat.items():
        if shares["n"] >= 20:
            for side, label in (("a", a), ("b", b)):
                if shares[side] >= 0.8:
                    result.findings.append(
                        Finding(ONE_SIDED, labels=(label, b if side == "a" else a), share=shares[side])
                    )
    return result

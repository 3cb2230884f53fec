"""Card faces and counter rules (CR1, CR2).

A face is a snapshot of a catalogue card: the engine copies it into the
situation so that editing the catalogue mid-game never changes a fight that is
already running or being replayed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rules.conditions import NO_EFFECT, is_effect

ATTACK: Final = "attack"
DEFENCE: Final = "defence"
KINDS: Final[tuple[str, ...]] = (ATTACK, DEFENCE)

# A card is a spell or an ability (F1: only a defence SPELL can be focused,
# unless the event also allows defence abilities).
SPELL: Final = "spell"
ABILITY: Final = "ability"
CATEGORIES: Final[tuple[str, ...]] = (SPELL, ABILITY)

PARRIED: Final = "parried"
SOFTENED: Final = "softened"
NOT_PARRIED: Final = "not_parried"
OUTCOMES: Final[tuple[str, ...]] = (PARRIED, SOFTENED, NOT_PARRIED)

# When several tag rules apply, the defence does the best it can: the
# strongest outcome wins (CR2 reading).
_STRENGTH: Final[dict[str, int]] = {NOT_PARRIED: 0, SOFTENED: 1, PARRIED: 2}


@dataclass(frozen=True)
class CardFace:
    card_id: int
    name: str
    kind: str
    full_effect: str = NO_EFFECT
    softened_effect: str = NO_EFFECT
    tags: tuple[str, ...] = ()
    category: str = SPELL

    def __post_init__(self) -> None:
        # Bad faces are programming or catalogue errors, not rule refusals.
        if self.kind not in KINDS:
            raise ValueError(f"card kind must be one of {KINDS}, not {self.kind!r}")
        if self.category not in CATEGORIES:
            raise ValueError(f"card category must be one of {CATEGORIES}, not {self.category!r}")
        for effect in (self.full_effect, self.softened_effect):
            if not is_effect(effect):
                raise ValueError(f"unknown effect {effect!r}")
        if not isinstance(self.tags, tuple):
            object.__setattr__(self, "tags", tuple(self.tags))

    @property
    def is_attack(self) -> bool:
        return self.kind == ATTACK

    @property
    def is_defence(self) -> bool:
        return self.kind == DEFENCE

    @property
    def is_spell(self) -> bool:
        return self.category == SPELL

    def __deepcopy__(self, memo: dict[int, Any]) -> CardFace:
        # Immutable all through: a deep copy of a state shares it (and its key, rules/snapshots.py).
        return self


@dataclass(frozen=True)
class CounterRule:
    """CR2: what ``defence_card_id`` does against one attack card or one tag."""

    defence_card_id: int
    attack_card_id: int | None
    attack_tag: str | None
    outcome: str

    def __post_init__(self) -> None:
        if (self.attack_card_id is None) == (self.attack_tag is None):
            raise ValueError("a counter rule names either an attack card or an attack tag")
        if self.outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {OUTCOMES}, not {self.outcome!r}")

    def __deepcopy__(self, memo: dict[int, Any]) -> CounterRule:
        return self  # immutable all through, as CardFace


def stronger(a: str, b: str) -> str:
    return a if _STRENGTH[a] >= _STRENGTH[b] else b


class CounterTable:
    """Counter rules indexed for lookup; see ``propose`` for precedence."""

    def __init__(self, rules: Iterable[CounterRule]) -> None:
        self._by_card: dict[tuple[int, int], str] = {}
        self._by_tag: dict[tuple[int, str], str] = {}
        for rule in rules:
            # Duplicates keep the strongest so the order of the catalogue's
            # rows never changes a proposal.
            if rule.attack_card_id is not None:
                key = (rule.defence_card_id, rule.attack_card_id)
                self._by_card[key] = stronger(rule.outcome, self._by_card.get(key, NOT_PARRIED))
            else:
                assert rule.attack_tag is not None
                tkey = (rule.defence_card_id, rule.attack_tag)
                self._by_tag[tkey] = stronger(rule.outcome, self._by_tag.get(tkey, NOT_PARRIED))

    def propose(self, defence: CardFace | None, attack: CardFace) -> str:
        """CR2: the outcome to propose to the referee.

        No answer -> not parried. A rule for this exact attack card beats any
        tag rule (the catalogue's specific word overrides its general one);
        among tag rules the strongest wins; no rule -> not parried.
        """
        if defence is None:
            return NOT_PARRIED
        exact = self._by_card.get((defence.card_id, attack.card_id))
        if exact is not None:
            return exact
        best = NOT_PARRIED
        for tag in attack.tags:
            found = self._by_tag.get((defence.card_id, tag))
            if found is not None:
                best = stronger(found, best)
        return best


# The tables of the rules tuples in use, by identity: a fight's counter rules
# are one tuple, decoded once per snapshot and shared by its states (a
# battle's ~450 rules cost ~1 ms to index, once per answer before).
_TABLES: dict[int, tuple[tuple[CounterRule, ...], CounterTable]] = {}
_TABLES_MAX = 64


def table_of(rules: Sequence[CounterRule]) -> CounterTable:
    """``CounterTable(rules)``, built once per tuple of rules (they are immutable)."""
    if not isinstance(rules, tuple):
        return CounterTable(rules)
    hit = _TABLES.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    table = CounterTable(rules)
    if len(_TABLES) >= _TABLES_MAX:
        _TABLES.clear()
    _TABLES[id(rules)] = (rules, table)
    return table


def propose(rules: Iterable[CounterRule], defence: CardFace | None, attack: CardFace) -> str:
    return CounterTable(rules).propose(defence, attack)


def effect_of(outcome: str, attack: CardFace) -> str:
    """CR1: what an outcome does to the defender."""
    if outcome == NOT_PARRIED:
        return attack.full_effect
    if outcome == SOFTENED:
        return attack.softened_effect
    if outcome == PARRIED:
        return NO_EFFECT
    raise ValueError(f"unknown outcome {outcome!r}")


# --- the stored form of a face (the fight log keeps faces as they were when played) -----------


def face_to_dict(face: CardFace) -> dict[str, Any]:
    return {
        "card_id": face.card_id,
        "name": face.name,
        "kind": face.kind,
        "full_effect": face.full_effect,
        "softened_effect": face.softened_effect,
        "tags": list(face.tags),
        "category": face.category,
    }


# Decoded faces, shared: a face is immutable, and a long fight's state holds
# hundreds of copies of a few dozen faces (every step decodes them all).
_FACES: dict[tuple[Any, ...], CardFace] = {}
_FACES_MAX = 20_000


def face_from_dict(d: Mapping[str, Any]) -> CardFace:
    key = (
        d["card_id"],
        d["name"],
        d["kind"],
        d["full_effect"],
        d["softened_effect"],
        tuple(d["tags"]),
        d.get("category"),
    )
    face = _FACES.get(key)
    if face is None:
        if len(_FACES) >= _FACES_MAX:
            _FACES.clear()
        face = _FACES[key] = _new_face(d)
    return face


def _new_face(d: Mapping[str, Any]) -> CardFace:
    return CardFace(
        card_id=int(d["card_id"]),
        name=str(d["name"]),
        kind=str(d["kind"]),
        full_effect=str(d["full_effect"]),
        softened_effect=str(d["softened_effect"]),
        tags=tuple(str(t) for t in d["tags"]),
        # Logs from before categories were recorded: every card counted as a spell.
        category=str(d.get("category", SPELL)),
    )

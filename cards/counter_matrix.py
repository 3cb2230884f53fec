"""The counter rules matrix (CR2): defence cards down, attack cards and attack tags across.

The whole matrix is loaded in two queries (cards, rules) and saved from one POST
as a diff: only changed cells are written, with one bulk statement per kind of
change, in one transaction. The page is ``cards/views_matrix.py``.
"""

import functools
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from cards.faces import counter_rule_of, face_of
from cards.models import Card, Catalogue, CounterRule
from helpers.history import delete_leaf_rows
from rules.cards import CounterTable

OUTCOME_LABELS = dict(CounterRule.Outcome.choices)


@dataclass
class Cell:
    name: str  # the form field: c-<defence>-<attack> or t-<defence>-<tag>
    value: str  # the rule's outcome, "" for no rule
    label: str  # "defence — attack", for screen readers and read-only viewers
    hint: str = ""  # CR2: what the tag rules propose when a card cell has no rule of its own

    @property
    def shown(self) -> str:
        return str(OUTCOME_LABELS[self.value]) if self.value else ""

    @property
    def options(self) -> SafeString:
        return _options(self.value, self.hint)


@functools.cache
def _options_for(language: str | None, value: str, hint: str) -> SafeString:
    # A 30x30 matrix has ~1000 selects but only a dozen distinct option lists:
    # building each once keeps the page fast to render.
    empty = _("(by tag: %(hint)s)") % {"hint": hint} if hint else _("(no rule)")
    options = [format_html('<option value="">{}</option>', empty)]
    for choice, label in CounterRule.Outcome.choices:
        selected = " selected" if choice == value else ""
        options.append(format_html('<option value="{}"{}>{}</option>', choice, selected, label))
    return mark_safe("".join(options))  # every part is format_html output


def _options(value: str, hint: str) -> SafeString:
    return _options_for(get_language(), value, hint)


@dataclass
class Row:
    card: Card
    cells: list[Cell] = field(default_factory=list)


@dataclass
class Matrix:
    defences: list[Card]
    attacks: list[Card]
    tags: list[str]
    by_card: dict[tuple[int, int], CounterRule]
    by_tag: dict[tuple[int, str], CounterRule]

    @classmethod
    def load(cls, catalogue: Catalogue) -> "Matrix":
        cards = list(catalogue.cards.order_by("name_ru"))
        rules = list(CounterRule.objects.filter(defence_card__catalogue=catalogue))
        attacks = [c for c in cards if c.kind == Card.Kind.ATTACK]
        tags = {tag for card in attacks for tag in card.tag_list}
        # A tag rule stays visible (and editable) even when no attack card carries the tag any more.
        tags |= {r.attack_tag.strip().lower() for r in rules if r.attack_card_id is None}
        return cls(
            defences=[c for c in cards if c.kind == Card.Kind.DEFENCE],
            attacks=attacks,
            tags=sorted(tags),
            by_card={(r.defence_card_id, r.attack_card_id): r for r in rules if r.attack_card_id is not None},
            by_tag={(r.defence_card_id, r.attack_tag.strip().lower()): r for r in rules if r.attack_card_id is None},
        )

    def rows(self) -> list[Row]:
        table = CounterTable(counter_rule_of(r) for r in [*self.by_card.values(), *self.by_tag.values()])
        rows = []
        for defence in self.defences:
            row = Row(defence)
            defence_face = face_of(defence)
            for attack in self.attacks:
                rule = self.by_card.get((defence.pk, attack.pk))
                hint = ""
                if rule is None and any((defence.pk, tag) in self.by_tag for tag in attack.tag_list):
                    hint = str(OUTCOME_LABELS[table.propose(defence_face, face_of(attack))])
                label = f"{defence.name} — {attack.name}"
                row.cells.append(Cell(f"c-{defence.pk}-{attack.pk}", rule.outcome if rule else "", label, hint))
            for tag in self.tags:
                rule = self.by_tag.get((defence.pk, tag))
                label = f"{defence.name} — #{tag}"
                row.cells.append(Cell(f"t-{defence.pk}-{tag}", rule.outcome if rule else "", label))
            rows.append(row)
        return rows


class StaleMatrix(ValueError):
    """The POST names a card or tag the matrix no longer has, or an unknown outcome."""


def parse(post: dict[str, str], matrix: Matrix) -> tuple[dict[tuple[int, int], str], dict[tuple[int, str], str]]:
    defence_ids = {c.pk for c in matrix.defences}
    attack_ids = {c.pk for c in matrix.attacks}
    tags = set(matrix.tags)
    by_card: dict[tuple[int, int], str] = {}
    by_tag: dict[tuple[int, str], str] = {}
    for key, value in post.items():
        if not key.startswith(("c-", "t-")):
            continue
        if value and value not in OUTCOME_LABELS:
            raise StaleMatrix(key)
        kind, defence, target = [*key.split("-", 2), "", ""][:3]
        if not defence.isdigit() or int(defence) not in defence_ids:
            raise StaleMatrix(key)
        if kind == "c":
            if not target.isdigit() or int(target) not in attack_ids:
                raise StaleMatrix(key)
            by_card[int(defence), int(target)] = value
        else:
            if target not in tags:
                raise StaleMatrix(key)
            by_tag[int(defence), target] = value
    return by_card, by_tag


def save(matrix: Matrix, by_card: dict[tuple[int, int], str], by_tag: dict[tuple[int, str], str]) -> int:
    """Write the changed cells; returns how many rules changed."""
    create: list[CounterRule] = []
    update: list[CounterRule] = []
    delete: list[CounterRule] = []
    wanted: list[tuple[CounterRule | None, str, dict[str, object]]] = [
        (matrix.by_card.get(key), value, {"defence_card_id": key[0], "attack_card_id": key[1]})
        for key, value in by_card.items()
    ]
    wanted += [
        (matrix.by_tag.get(key), value, {"defence_card_id": key[0], "attack_tag": key[1]})
        for key, value in by_tag.items()
    ]
    for rule, value, target in wanted:
        if rule is None:
            if value:
                create.append(CounterRule(outcome=value, **target))
        elif not value:
            delete.append(rule)
        elif rule.outcome != value:
            rule.outcome = value
            update.append(rule)
    with transaction.atomic():
        if delete:
            delete_leaf_rows(delete)  # no row refers to a counter rule
        # Each rule created, changed or deleted is a row in the history of organizers' edits.
        if create:
            bulk_create_with_history(create, CounterRule)
        if update:
            bulk_update_with_history(update, CounterRule, ["outcome"])
    return len(create) + len(update) + len(delete)

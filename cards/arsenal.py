"""A character's pool and arsenals: the services behind the arsenal builder.

The checks themselves live in the rules engine (``rules/arsenal.py``);
these functions load what the checks need, call them, and save. Each change runs
in one transaction with the character row locked, so two organizers saving at
once serialise instead of mixing their arsenals. A refusal raises ``RuleError``
before anything is written; ``cards.words.explain`` turns it into the user's language.
"""

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Model, Prefetch, QuerySet
from django.utils.translation import gettext_noop

from cards.faces import face_of
from cards.hooks import in_fight
from cards.models import ArsenalCard, Card, PoolEntry, PreparedArsenal, PreparedArsenalCard
from events.models import Character
from helpers.history import note_change
from rules.arsenal import check_arsenal, check_focus
from rules.cards import CardFace
from rules.errors import ARSENAL, RuleError

CARD_ORDER = ("card__kind", "card__name_ru")


def frozen_by_fight(character: Character) -> RuleError:
    """AG2, D3, IA5: the refusal of an arsenal change during the character's unfinished fight.

    One wording for the refusal itself and for the notice every arsenal page
    shows while the fight goes on (through ``cards.words.explain``).
    """
    return RuleError(
        "D3",
        gettext_noop(
            "%(name)s is in a fight that has not ended: the arsenal can change only at the start "
            "of a bout, through the referee."
        ),
        name=character.name,
    )


def _guard_fight(character: Character) -> None:
    """During an unfinished situation the arsenal changes only through the fight itself."""
    if in_fight(character):
        raise frozen_by_fight(character)


def _locked(character: Character) -> Character:
    return Character.objects.select_for_update().select_related("event").get(pk=character.pk)


def pool_entries(character: Character) -> list[PoolEntry]:
    """The character's pool with its cards, attack cards first."""
    return list(PoolEntry.objects.filter(character=character).select_related("card").order_by(*CARD_ORDER))


def pool_of(character: Character) -> dict[int, int]:
    """Card id -> copies the character owns."""
    return dict(PoolEntry.objects.filter(character=character).values_list("card_id", "copies"))


def _check(character: Character, card_ids: Sequence[int]) -> None:
    check_arsenal(list(card_ids), pool_of(character), character.effective_arsenal_limit)


def _as_card_ids(value: Any) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise RuleError(ARSENAL, gettext_noop("The saved arsenal is damaged and cannot be used."))
    return value


def sync_rows(rows: QuerySet[Any], wanted: Counter[int], make: Callable[[int, int], Model]) -> None:
    """Make ``rows`` (card rows with ``copies``) hold ``wanted``, one row at a time.

    Each changed row is one change in the history of organizers' edits (docs/history.md):
    a card added, its copies changed, a card taken out; a row left as it was records nothing.
    """
    held = {row.card_id: row for row in rows}
    for card_id, row in held.items():
        if card_id not in wanted:
            note_change(row, "-")  # before the delete, which forgets the row's id
            row.delete()
        elif row.copies != wanted[card_id]:
            row.copies = wanted[card_id]
            row.save(update_fields=["copies"])
            note_change(row, "~")
    for card_id, copies in wanted.items():
        if card_id not in held:
            row = make(card_id, copies)
            row.save(force_insert=True)
            note_change(row, "+")


def _replace_hand(character: Character, card_ids: Sequence[int]) -> None:
    sync_rows(
        ArsenalCard.objects.filter(character=character),
        Counter(card_ids),
        lambda card_id, copies: ArsenalCard(character=character, card_id=card_id, copies=copies),
    )
    # S2 "restore to the original": the original is the arsenal as last composed
    # (built, taken whole or restored), not what was left after some fight.
    character.restorable_arsenal = sorted(card_ids)
    Character.objects.filter(pk=character.pk).update(restorable_arsenal=character.restorable_arsenal)
    # F1: the focus is a card held in hand; a card no longer held cannot stay focused.
    if character.focus_card_id is not None and character.focus_card_id not in card_ids:
        Character.objects.filter(pk=character.pk).update(focus_card=None)
        character.focus_card_id = None


@transaction.atomic
def build_arsenal(character: Character, card_ids: Sequence[int]) -> None:
    """Make ``card_ids`` (one id per copy) the current arsenal."""
    locked = _locked(character)
    _guard_fight(locked)
    _check(locked, card_ids)
    _replace_hand(locked, card_ids)
    character.focus_card_id = locked.focus_card_id


@transaction.atomic
def save_prepared(character: Character, name: str, card_ids: Sequence[int]) -> tuple[PreparedArsenal, bool]:
    """Save a named arsenal for later (D3); a name used before is replaced. Returns (arsenal, created)."""
    locked = _locked(character)
    name = name.strip()
    if not name:
        raise RuleError(ARSENAL, gettext_noop("A prepared arsenal needs a name."))
    if not card_ids:
        raise RuleError(ARSENAL, gettext_noop("A prepared arsenal needs at least one card."))
    _check(locked, card_ids)
    prepared, created = PreparedArsenal.objects.get_or_create(character=locked, name=name)
    sync_rows(
        prepared.cards.all(),
        Counter(card_ids),
        lambda card_id, copies: PreparedArsenalCard(arsenal=prepared, card_id=card_id, copies=copies),
    )
    return prepared, created


def next_round_arsenal(character: Character, card_ids: Sequence[int]) -> tuple[CardFace, ...]:
    """D3: an arsenal taken at a round break, checked like any other, as the engine's card faces.

    It goes into the fight through the engine's ``RoundChoice``; the character's
    own arsenal rows change only when the situation ends.
    """
    _check(character, card_ids)
    cards = Card.objects.in_bulk(set(card_ids))
    return tuple(face_of(cards[card_id]) for card_id in card_ids)


def prepared_ids(prepared: PreparedArsenal) -> list[int]:
    ids: list[int] = []
    for card_id, copies in prepared.cards.values_list("card_id", "copies"):
        ids.extend([card_id] * copies)
    return sorted(ids)


@transaction.atomic
def take_prepared(character: Character, prepared: PreparedArsenal) -> None:
    """D3: a prepared arsenal becomes the current one, whole; checked again, the pool may have changed."""
    locked = _locked(character)
    if prepared.character_id != locked.pk:
        raise RuleError(ARSENAL, gettext_noop("This prepared arsenal belongs to another character."))
    _guard_fight(locked)
    card_ids = prepared_ids(prepared)
    _check(locked, card_ids)
    _replace_hand(locked, card_ids)
    character.focus_card_id = locked.focus_card_id


def delete_prepared(prepared: PreparedArsenal) -> None:
    prepared.delete()


@transaction.atomic
def restore_arsenal(character: Character) -> None:
    """S2: put back the original arsenal: as last composed, or as held when the first fight began."""
    locked = _locked(character)
    _guard_fight(locked)
    card_ids = _as_card_ids(locked.restorable_arsenal)
    if not card_ids:
        raise RuleError("S2", gettext_noop("There is no original arsenal to restore yet."))
    _check(locked, card_ids)
    _replace_hand(locked, card_ids)
    character.focus_card_id = locked.focus_card_id


@transaction.atomic
def set_focus(character: Character, card_id: int | None) -> None:
    """F1: focus on one defence card of the current arsenal, or drop the focus (``None``)."""
    locked = _locked(character)
    if card_id is not None:
        hand = [face_of(ac.card) for ac in ArsenalCard.objects.filter(character=locked).select_related("card")]
        check_focus(hand, card_id, abilities=locked.event.focus_abilities)
    Character.objects.filter(pk=locked.pk).update(focus_card_id=card_id)
    character.focus_card_id = card_id


@transaction.atomic
def add_to_pool(character: Character, card: Card, copies: int) -> PoolEntry:
    """Give the character ``copies`` more copies of ``card`` (a new pool entry if needed)."""
    locked = _locked(character)
    if copies < 1:
        raise RuleError(ARSENAL, gettext_noop("Add at least one copy."))
    if locked.event.catalogue_id != card.catalogue_id:
        raise RuleError(ARSENAL, gettext_noop("This card is not in the event's catalogue."))
    entry, created = PoolEntry.objects.get_or_create(character=locked, card=card, defaults={"copies": copies})
    if not created:
        entry.copies += copies
        entry.save(update_fields=["copies"])
    return entry


@transaction.atomic
def set_pool_copies(character: Character, entry: PoolEntry, copies: int) -> None:
    """Change how many copies the character owns; 0 removes the card from the pool.

    The current arsenal must stay within the pool, so the pool never shrinks
    below what is in hand. Prepared arsenals are checked again when taken.
    """
    locked = _locked(character)
    if entry.character_id != locked.pk:
        raise RuleError(ARSENAL, gettext_noop("This card is not in the character's pool."))
    if copies < 0:
        raise RuleError(ARSENAL, gettext_noop("The number of copies cannot be negative."))
    held = ArsenalCard.objects.filter(character=locked, card_id=entry.card_id).values_list("copies", flat=True).first()
    if held and copies < held:
        refusal = RuleError(
            ARSENAL,
            gettext_noop(
                "The current arsenal holds %(count)s copies of %(card_id)s; take them out of the arsenal first."
            ),
            count=held,
            card_id=entry.card_id,
        )
        raise refusal
    if copies == 0:
        entry.delete()
    else:
        entry.copies = copies
        entry.save(update_fields=["copies"])


def arsenal_context(character: Character) -> dict[str, Any]:
    """Everything ``cards/_arsenal.html`` shows, in four queries.

    ``hand``: (card, copies) pairs; ``pool``: PoolEntry list with cards;
    ``prepared``: PreparedArsenal list with their cards prefetched.
    """
    hand = [
        (entry.card, entry.copies)
        for entry in ArsenalCard.objects.filter(character=character).select_related("card").order_by(*CARD_ORDER)
    ]
    pool = pool_entries(character)
    prepared = list(
        PreparedArsenal.objects.filter(character=character).prefetch_related(
            Prefetch("cards", queryset=PreparedArsenalCard.objects.select_related("card").order_by(*CARD_ORDER))
        )
    )
    return {
        "character": character,
        "hand": hand,
        "hand_size": sum(copies for _card, copies in hand),
        "arsenal_limit": character.effective_arsenal_limit,
        "pool": pool,
        "prepared": prepared,
    }

"""Handouts at the check-in desk (issue 22): what was printed for each character, and what was handed out.

A print run notes what it printed for whom (``note_printed``, called by
cards/printing/runs.py when the run is ready); the desk ticks each item as it is
handed over (``set_handed``). A tick sets a value, it does not toggle: a repeated
or resent tap changes nothing more, and the conditional update keeps the first
tick's time and person when two desks tap at once.
"""

from collections.abc import Iterable, Mapping

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from events.models import Character, Handout

Item = Handout.Item
# Every character gets these; magic decks only a commander (their row comes with the print).
BASE_ITEMS = (Item.SHEET, Item.CARDS, Item.QR)


def note_printed(items_by_character: Mapping[int, Iterable[str]]) -> None:
    """Record that these items were printed for these characters (now): the desk pre-fills from it."""
    now = timezone.now()
    wanted = [(pk, item) for pk, items in items_by_character.items() for item in items]
    if not wanted:
        return
    Handout.objects.bulk_create(
        [Handout(character_id=pk, item=item) for pk, item in wanted], ignore_conflicts=True, batch_size=500
    )
    for item in {item for _pk, item in wanted}:
        ids = [pk for pk, each in wanted if each == item]
        Handout.objects.filter(character_id__in=ids, item=item).update(printed_at=now)


def set_handed(character: Character, item: str, handed: bool, user: User) -> Handout:
    """Mark ``item`` handed out (or not) to ``character``; the same tap twice is one tick."""
    row = _row(character, item)
    if handed:
        Handout.objects.filter(pk=row.pk, handed_at__isnull=True).update(handed_at=timezone.now(), handed_by=user)
    else:
        Handout.objects.filter(pk=row.pk, handed_at__isnull=False).update(handed_at=None, handed_by=None)
    row.refresh_from_db()
    return row


def _row(character: Character, item: str) -> Handout:
    try:
        with transaction.atomic():
            return Handout.objects.get_or_create(character=character, item=item)[0]
    except IntegrityError:  # another desk made it between the get and the create
        return Handout.objects.get(character=character, item=item)


def items_of(character: Character) -> list[tuple[str, str, Handout | None]]:
    """(item, label, row or None) for the desk's row: the base items, and the decks once printed for them."""
    rows = {row.item: row for row in character.handouts.all()}  # prefetched by the desk's list
    shown = [*BASE_ITEMS, *([Item.DECKS] if Item.DECKS in rows else [])]
    return [(item.value, str(item.label), rows.get(item.value)) for item in shown]


def lacking(character: Character) -> list[str]:
    """What was printed for the character and not handed out yet, in words."""
    return [label for _item, label, row in items_of(character) if row and row.printed_at and not row.handed_at]


def still_lacking(queryset: QuerySet[Character]) -> QuerySet[Character]:
    """The characters with something printed for them and not handed out yet."""
    waiting = Handout.objects.filter(printed_at__isnull=False, handed_at__isnull=True)
    return queryset.filter(pk__in=waiting.values("character_id"))

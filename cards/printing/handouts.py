"""What a finished print run printed for whom: the check-in desk's handouts are pre-filled from it (issue 22)."""

from cards.models_mass import Army
from cards.printing import content
from cards.printing.models import PrintRun
from events.handouts import Item, note_printed
from events.models import Character
from helpers.names import name_key


def commanders(event_id: int, character_ids: list[int]) -> set[int]:
    """The characters among ``character_ids`` who command an army (by their player's account, or by name)."""
    armies = list(Army.objects.filter(event_id=event_id).values_list("commander_id", "commander_name"))
    accounts = {account for account, _name in armies if account is not None}
    names = {name_key(name) for _account, name in armies if name}
    rows = Character.objects.filter(pk__in=character_ids).values_list("pk", "player_id", "name")
    return {pk for pk, player, name in rows if player in accounts or name_key(name) in names}


def note_run(run: PrintRun) -> None:
    """Note each item the run printed for each of its characters (a sheet or an envelope carries the QR link)."""
    ids = list(
        Character.objects.filter(
            event_id=run.event_id, pk__in=run.character_ids, status=Character.Status.ACCEPTED
        ).values_list("pk", flat=True)
    )
    items: dict[int, list[str]] = {pk: [] for pk in ids}
    for pk in ids:
        items[pk] += [Item.SHEET] if run.with_sheets else []
        items[pk] += [Item.QR] if run.with_sheets or run.with_envelopes else []
    if run.with_cards:
        for pk, count in content.physical_card_counts(ids).items():
            if count:
                items[pk].append(Item.CARDS)
    if run.with_magic_decks:
        for pk in commanders(run.event_id, ids):
            items[pk].append(Item.DECKS)
    note_printed(items)

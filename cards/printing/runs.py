"""An event's print run: every chosen character's sheet and cards, the magic decks and army rosters in one PDF.

WeasyPrint lays out a whole document in memory and on one core, so 2,000 characters
(some 5,000 pages) are printed as parts of ``CHUNK`` characters: ``plan`` lists them,
``print_part`` writes each to its own file (the Celery worker prints several at once,
one per worker process: ``cards.printing.tasks``), and the part that completes the set joins
them with pypdf (``join``). The run's ``done`` counter moves after each part; the
progress page polls it. The document: all character sheets first (one page each,
padded to an even count so that a duplex print starts the cards on a fresh sheet),
then the cards, fronts and mirrored backs (cards/printing/layout.py), numbered
across the whole run; then the mass battles' magic decks (fronts and backs, each
deck on fresh sheets) and the army rosters (cards/printing/mass.py). The progress
counts pages: each part's weight is the pages it prints.
"""

from __future__ import annotations

import logging
import secrets
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone, translation

from cards.models_mass import Army
from cards.printing import content, handouts, layout, mass, pdf, render
from cards.printing.groups import Envelope, envelope, groups_of, label_of
from cards.printing.models import PrintRun
from events.models import Character, Event

logger = logging.getLogger(__name__)

CHUNK = 50
# Up to this many characters a run is printed during the organizer's own request
# (the demo's 13, some 35 pages, take a few seconds); more go to the worker with a progress bar.
INLINE_LIMIT = 20
KEEP_RUNS = 5


def prints_dir() -> Path:
    folder = Path(settings.VAR_DIR) / "prints"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _parts_dir(run: PrintRun) -> Path:
    folder = prints_dir() / f"run-{run.pk}-parts"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def printable_characters(event: Event) -> list[Character]:
    """Accepted characters, by name: a rejected or pending application gets no cards."""
    return list(Character.objects.filter(event=event, status=Character.Status.ACCEPTED).order_by("name", "pk"))


def start_run(
    event: Event,
    user,
    characters: Sequence[Character],
    *,
    with_sheets: bool,
    with_cards: bool,
    with_magic_decks: bool = False,
    with_rosters: bool = False,
    group_by: str = "",
    with_envelopes: bool = False,
) -> PrintRun:
    run = PrintRun.objects.create(
        event=event,
        requested_by=user if getattr(user, "is_authenticated", False) else None,
        language=translation.get_language() or settings.LANGUAGE_CODE,
        character_ids=[c.pk for c in characters],
        with_sheets=with_sheets,
        with_cards=with_cards,
        with_magic_decks=with_magic_decks,
        with_rosters=with_rosters,
        group_by=group_by,
        with_envelopes=with_envelopes,
    )
    _forget_old_runs(event)
    return run


def _forget_old_runs(event: Event) -> None:
    """Only the last few runs of an event keep their files: a print is made again in minutes."""
    for old in PrintRun.objects.filter(event=event).order_by("-created_at", "-pk")[KEEP_RUNS:]:
        if old.file_name:
            (prints_dir() / old.file_name).unlink(missing_ok=True)
        shutil.rmtree(prints_dir() / f"run-{old.pk}-parts", ignore_errors=True)
        old.delete()


def file_of(run: PrintRun) -> Path | None:
    if run.status != PrintRun.Status.DONE or not run.file_name:
        return None
    path = prints_dir() / run.file_name
    return path if path.exists() else None


def plan(run_id: int) -> PrintRun | None:
    """Claim a queued run and list its parts; None when it was already claimed (a repeated task)."""
    with transaction.atomic():
        run = PrintRun.objects.select_for_update().get(pk=run_id)
        if run.status != PrintRun.Status.QUEUED:
            return None
        characters = list(
            Character.objects.filter(event_id=run.event_id, pk__in=run.character_ids)
            .order_by("name", "pk")
            .only("pk", "name", "side", "groups")
        )
        grouped = groups_of(characters, run.group_by)
        event = run.event
        deck_pages = mass.deck_page_count(event) if run.with_magic_decks else 0
        counts = content.physical_card_counts(c.pk for c in characters) if run.with_cards else {}
        # Each part's weight is the pages it will print: the progress bar moves by pages.
        parts: list[dict] = []
        number = 1
        for index, (label, members) in enumerate(grouped):
            followed = bool(deck_pages) or index < len(grouped) - 1
            group_parts, number = _character_parts(run, label, [c.pk for c in members], counts, number, followed)
            parts += group_parts
        if deck_pages:
            parts.append({"kind": "decks", "ids": [], "weight": deck_pages})
        if run.with_rosters:
            armies = Army.objects.filter(event=event).count()
            if armies:
                parts.append({"kind": "rosters", "ids": [], "weight": armies})
        if run.with_envelopes:  # after everything A4: the print shop feeds them as one envelope job
            for _label, members in grouped:
                ids = [c.pk for c in members]
                parts += [{"kind": "envelopes", "ids": chunk, "weight": len(chunk)} for chunk in _chunks(ids)]
        run.parts, run.status = parts, PrintRun.Status.RUNNING
        run.total = sum(part["weight"] for part in parts)
        run.save(update_fields=["parts", "status", "total"])
    return run


def _chunks(ids: list[int]) -> list[list[int]]:
    return [ids[i : i + CHUNK] for i in range(0, len(ids), CHUNK)]


def _character_parts(
    run: PrintRun, label: str, ids: list[int], counts: dict[int, int], number: int, followed: bool
) -> tuple[list[dict], int]:
    """One group's parts (the whole run's when not grouped): its page, sheets, a blank to pad, cards."""
    parts: list[dict] = []
    if label and (run.with_sheets or run.with_cards):
        # The group's name on a page of its own, blank behind: the group starts on a fresh paper sheet.
        parts.append({"kind": "divider", "ids": [], "label": label, "count": len(ids), "weight": 2})
    if run.with_sheets:
        parts += [{"kind": "sheets", "ids": chunk, "weight": len(chunk)} for chunk in _chunks(ids)]
        if len(ids) % 2 == 1 and (run.with_cards or followed):
            parts.append({"kind": "blank", "ids": [], "weight": 1})
    if run.with_cards:
        for chunk in _chunks(ids):
            count = sum(counts[pk] for pk in chunk)
            parts.append({"kind": "cards", "ids": chunk, "first": number, "weight": layout.sheet_count(count)})
            number += count
    return parts, number


def print_part(run_id: int, index: int) -> bool:
    """Print one part to its file; True when it was the last one missing (then call ``join``)."""
    run = PrintRun.objects.select_related("event").get(pk=run_id)
    if run.status != PrintRun.Status.RUNNING:
        return False
    part = run.parts[index]
    try:
        with translation.override(run.language):
            document = _part_document(run, part)
            if document is not None:
                (_parts_dir(run) / f"{index:05d}.pdf").write_bytes(pdf.document_pdf(**document))
    except Exception as error:  # the organizer sees a failed run and its reason, never a stuck bar
        logger.exception("print run %s, part %s failed", run.pk, index)
        _fail(run, error)
        return False
    PrintRun.objects.filter(pk=run.pk).update(
        parts_done=F("parts_done") + 1, done=F("done") + part.get("weight", len(part["ids"]))
    )
    # One part completes the set: the conditional update lets exactly one of them join.
    return bool(
        PrintRun.objects.filter(pk=run.pk, status=PrintRun.Status.RUNNING, parts_done__gte=len(run.parts)).update(
            status=PrintRun.Status.JOINING
        )
    )


def _part_document(run: PrintRun, part: dict) -> dict[str, Any] | None:
    """What the part prints (``pdf.document_pdf``'s arguments); None when it has nothing (no empty page)."""
    event = run.event
    document: dict[str, Any] = {"title": event.name, "event": event}
    kind = part["kind"]
    if kind == "blank":
        return {**document, "blank_only": True}
    if kind == "decks":
        pages = mass.deck_pages(event)
        return {**document, "pages": pages} if pages else None
    if kind == "rosters":
        rosters = mass.rosters(event)
        return {**document, "rosters": rosters} if rosters else None
    if kind == "divider":
        return {**document, "divider": (part["label"], part["count"])}
    if kind == "envelopes":
        return {**document, "envelopes": envelopes(run.group_by, part["ids"])}
    characters = content.with_cards(Character(pk=pk) for pk in part["ids"])
    if kind == "sheets":
        return {**document, "sheets": [content.character_sheet(c) for c in characters]}
    cards = content.printed_cards(characters)
    return {**document, "cards": cards, "first_number": part["first"]} if cards else None


def envelopes(group_by: str, ids: Sequence[int]) -> list[Envelope]:
    """An envelope for each character of ``ids``, in that order."""
    found = Character.objects.select_related("event", "player").in_bulk(list(ids))
    return [envelope(c, label_of(c, group_by), *content.link_of(c)) for c in (found[pk] for pk in ids if pk in found)]


def whole_document(
    event: Event,
    characters: Sequence[Character],
    *,
    with_sheets: bool,
    with_cards: bool,
    with_magic_decks: bool = False,
    with_rosters: bool = False,
    group_by: str = "",
    with_envelopes: bool = False,
) -> str:
    """The run as one HTML document, for the browser to print (the same order as the PDF, without group pages)."""
    loaded = [c for _label, members in groups_of(content.with_cards(characters), group_by) for c in members]
    pages = render.card_pages(content.printed_cards(loaded)) if with_cards else []
    if with_magic_decks:
        pages += mass.deck_pages(event)
    return render.render_document(
        title=event.name,
        event=event,
        sheets=[content.character_sheet(c) for c in loaded] if with_sheets else [],
        pages=pages,
        rosters=mass.rosters(event) if with_rosters else [],
        pad_to_even=True,
        envelopes=envelopes(group_by, [c.pk for c in loaded]) if with_envelopes else [],
    )


def join(run_id: int) -> PrintRun:
    """Join the printed parts into the run's PDF, in order."""
    from pypdf import PdfReader, PdfWriter

    run = PrintRun.objects.get(pk=run_id)
    folder = _parts_dir(run)
    try:
        writer = PdfWriter()
        for index in range(len(run.parts)):
            path = folder / f"{index:05d}.pdf"
            if not path.exists():
                continue  # nothing to print in this part (nobody in it holds a card)
            for page in PdfReader(path).pages:  # add_page: append also copies outlines and forms, none here
                writer.add_page(page)
        name = f"run-{run.pk}-{secrets.token_hex(8)}.pdf"
        with (prints_dir() / name).open("wb") as out:
            writer.write(out)
    except Exception as error:
        logger.exception("print run %s could not be joined", run.pk)
        _fail(run, error)
    else:
        PrintRun.objects.filter(pk=run.pk).update(
            status=PrintRun.Status.DONE,
            file_name=name,
            pages=len(writer.pages),
            done=run.total,
            finished_at=timezone.now(),
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    run.refresh_from_db()
    if run.status == PrintRun.Status.DONE:
        handouts.note_run(run)  # the check-in desk's ticks start from what was printed
    return run


def _fail(run: PrintRun, error: Exception) -> None:
    PrintRun.objects.filter(pk=run.pk).update(
        status=PrintRun.Status.FAILED, error=str(error)[:2000], finished_at=timezone.now()
    )


def execute(run_id: int) -> PrintRun:
    """The whole run in this process, part after part (a small event, during the organizer's request)."""
    run = plan(run_id)
    if run is None:
        return PrintRun.objects.get(pk=run_id)
    for index in range(len(run.parts)):
        if print_part(run_id, index):
            return join(run_id)
    return PrintRun.objects.get(pk=run_id)

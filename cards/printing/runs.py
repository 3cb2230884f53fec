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
        ids = list(
            Character.objects.filter(event_id=run.event_id, pk__in=run.character_ids)
            .order_by("name", "pk")
            .values_list("pk", flat=True)
        )
        groups = [ids[i : i + CHUNK] for i in range(0, len(ids), CHUNK)]
        event = run.event
        deck_pages = mass.deck_page_count(event) if run.with_magic_decks else 0
        # Each part's weight is the pages it will print: the progress bar moves by pages.
        parts: list[dict] = []
        if run.with_sheets:
            parts += [{"kind": "sheets", "ids": group, "weight": len(group)} for group in groups]
            if len(ids) % 2 == 1 and (run.with_cards or deck_pages):
                parts.append({"kind": "blank", "ids": [], "weight": 1})
        if run.with_cards:
            number = 1
            counts = content.physical_card_counts(ids)
            for group in groups:
                count = sum(counts[pk] for pk in group)
                parts.append({"kind": "cards", "ids": group, "first": number, "weight": layout.sheet_count(count)})
                number += count
        if deck_pages:
            parts.append({"kind": "decks", "ids": [], "weight": deck_pages})
        if run.with_rosters:
            armies = Army.objects.filter(event=event).count()
            if armies:
                parts.append({"kind": "rosters", "ids": [], "weight": armies})
        run.parts, run.status = parts, PrintRun.Status.RUNNING
        run.total = sum(part["weight"] for part in parts)
        run.save(update_fields=["parts", "status", "total"])
    return run


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
    characters = content.with_cards(Character(pk=pk) for pk in part["ids"])
    if kind == "sheets":
        return {**document, "sheets": [content.character_sheet(c) for c in characters]}
    cards = content.printed_cards(characters)
    return {**document, "cards": cards, "first_number": part["first"]} if cards else None


def whole_document(
    event: Event,
    characters: Sequence[Character],
    *,
    with_sheets: bool,
    with_cards: bool,
    with_magic_decks: bool = False,
    with_rosters: bool = False,
) -> str:
    """The run as one HTML document, for the browser to print (the same order as the PDF)."""
    loaded = content.with_cards(characters)
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

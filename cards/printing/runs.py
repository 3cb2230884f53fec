"""An event's print run: every chosen character's sheet and cards in one PDF, made in parts.

WeasyPrint lays out a whole document in memory and on one core, so 2,000 characters
(some 5,000 pages) are printed as parts of ``CHUNK`` characters: ``plan`` lists them,
``print_part`` writes each to its own file (the Celery worker prints several at once,
one per worker process: ``cards.tasks``), and the part that completes the set joins
them with pypdf (``join``). The run's ``done`` counter moves after each part; the
progress page polls it. The document: all character sheets first (one page each,
padded to an even count so that a duplex print starts the cards on a fresh sheet),
then the cards, fronts and mirrored backs (cards/printing/layout.py), numbered
across the whole run.
"""

from __future__ import annotations

import logging
import secrets
import shutil
from collections.abc import Sequence
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone, translation

from cards.models_print import PrintRun
from cards.printing import content, render
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


def start_run(event: Event, user, characters: Sequence[Character], *, with_sheets: bool, with_cards: bool) -> PrintRun:
    parts = int(with_sheets) + int(with_cards)
    run = PrintRun.objects.create(
        event=event,
        requested_by=user if getattr(user, "is_authenticated", False) else None,
        language=translation.get_language() or settings.LANGUAGE_CODE,
        character_ids=[c.pk for c in characters],
        with_sheets=with_sheets,
        with_cards=with_cards,
        total=len(characters) * parts,
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
        parts: list[dict] = []
        if run.with_sheets:
            parts += [{"kind": "sheets", "ids": group} for group in groups]
            if run.with_cards and len(ids) % 2 == 1:
                parts.append({"kind": "blank", "ids": []})
        if run.with_cards:
            number = 1
            for group in groups:
                parts.append({"kind": "cards", "ids": group, "first": number})
                number += _card_count(group)
        run.parts, run.status = parts, PrintRun.Status.RUNNING
        run.save(update_fields=["parts", "status"])
    return run


def _card_count(ids: list[int]) -> int:
    characters = content.with_cards(Character(pk=pk) for pk in ids)
    return sum(copies for character in characters for _card, copies in content.physical_cards(character))


def print_part(run_id: int, index: int) -> bool:
    """Print one part to its file; True when it was the last one missing (then call ``join``)."""
    run = PrintRun.objects.select_related("event").get(pk=run_id)
    if run.status != PrintRun.Status.RUNNING:
        return False
    part = run.parts[index]
    try:
        with translation.override(run.language):
            html = _part_html(run, part)
            if html is not None:
                (_parts_dir(run) / f"{index:05d}.pdf").write_bytes(render.html_to_pdf(html))
    except Exception as error:  # the organizer sees a failed run and its reason, never a stuck bar
        logger.exception("print run %s, part %s failed", run.pk, index)
        _fail(run, error)
        return False
    PrintRun.objects.filter(pk=run.pk).update(parts_done=F("parts_done") + 1, done=F("done") + len(part["ids"]))
    # One part completes the set: the conditional update lets exactly one of them join.
    return bool(
        PrintRun.objects.filter(pk=run.pk, status=PrintRun.Status.RUNNING, parts_done__gte=len(run.parts)).update(
            status=PrintRun.Status.JOINING
        )
    )


def _part_html(run: PrintRun, part: dict) -> str | None:
    """The part's document; None for cards of characters who hold none (no empty page)."""
    event = run.event
    if part["kind"] == "blank":
        return render.render_document(title=event.name, event=event, blank_only=True, for_pdf=True)
    characters = content.with_cards(Character(pk=pk) for pk in part["ids"])
    if part["kind"] == "sheets":
        sheets = [content.character_sheet(c) for c in characters]
        return render.render_document(title=event.name, event=event, sheets=sheets, for_pdf=True)
    cards = content.printed_cards(characters)
    if not cards:
        return None
    return render.render_document(title=event.name, event=event, cards=cards, first_number=part["first"], for_pdf=True)


def join(run_id: int) -> PrintRun:
    """Join the printed parts into the run's PDF, in order."""
    from pypdf import PdfWriter

    run = PrintRun.objects.get(pk=run_id)
    folder = _parts_dir(run)
    try:
        writer = PdfWriter()
        for index, part in enumerate(run.parts):
            path = folder / f"{index:05d}.pdf"
            if part["kind"] == "cards" and not path.exists():
                continue  # nobody in this part holds a card
            writer.append(str(path))
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

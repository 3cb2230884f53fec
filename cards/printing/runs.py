"""An event's print run: every chosen character's sheet and cards in one PDF, made in chunks.

WeasyPrint lays out a document in memory, so 2,000 characters (some 5,000 pages) are
printed as chunks of ``CHUNK`` characters, each written to its own file and joined at
the end with pypdf; the run's ``done`` counter moves after each chunk, which the
progress page polls. The document: all character sheets first (one page each, padded
to an even count so that a duplex print starts the cards on a fresh sheet), then the
cards, fronts and mirrored backs (cards/printing/layout.py).
"""

from __future__ import annotations

import logging
import secrets
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone, translation

from cards.printing import content, render
from cards.printing.models import PrintRun
from events.models import Character, Event

logger = logging.getLogger(__name__)

CHUNK = 50
# Up to this many characters a run is printed during the organizer's own request
# (the demo's 8 take a few seconds); more go to the worker with a progress bar.
INLINE_LIMIT = 12
KEEP_RUNS = 5


def prints_dir() -> Path:
    folder = Path(settings.VAR_DIR) / "prints"
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
        old.delete()


def file_of(run: PrintRun) -> Path | None:
    if run.status != PrintRun.Status.DONE or not run.file_name:
        return None
    path = prints_dir() / run.file_name
    return path if path.exists() else None


def _chunks(items: list[Character], size: int = CHUNK) -> list[list[Character]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _advance(run: PrintRun, by: int) -> None:
    PrintRun.objects.filter(pk=run.pk).update(done=F("done") + by)


def execute(run_id: int, on_chunk: Callable[[int], None] | None = None) -> PrintRun:
    """Print the run; safe to call again for a run already done (it does nothing)."""
    with transaction.atomic():
        run = PrintRun.objects.select_for_update().select_related("event").get(pk=run_id)
        if run.status != PrintRun.Status.QUEUED:
            return run
        run.status = PrintRun.Status.RUNNING
        run.save(update_fields=["status"])
    try:
        with translation.override(run.language):
            pages, name = _print(run, on_chunk)
    except Exception as error:  # the organizer sees a failed run and its reason, never a stuck bar
        logger.exception("print run %s failed", run.pk)
        PrintRun.objects.filter(pk=run.pk).update(
            status=PrintRun.Status.FAILED, error=str(error)[:2000], finished_at=timezone.now()
        )
    else:
        PrintRun.objects.filter(pk=run.pk).update(
            status=PrintRun.Status.DONE, file_name=name, pages=pages, done=run.total, finished_at=timezone.now()
        )
    run.refresh_from_db()
    return run


def _print(run: PrintRun, on_chunk: Callable[[int], None] | None) -> tuple[int, str]:
    from pypdf import PdfWriter

    event = run.event
    chosen = list(Character.objects.filter(event=event, pk__in=run.character_ids).order_by("name", "pk"))
    qr = content.QrCache()
    workdir = Path(tempfile.mkdtemp(prefix=f"run{run.pk}-", dir=prints_dir()))
    parts: list[Path] = []
    groups = _chunks(chosen)
    try:
        if run.with_sheets:
            for index, group in enumerate(groups):
                loaded = content.with_cards(group)
                last = index == len(groups) - 1
                html = render.render_document(
                    title=event.name,
                    event=event,
                    sheets=[content.character_sheet(c) for c in loaded],
                    # Pad once, after the last sheet, when the cards follow.
                    pad_to_even=False,
                    for_pdf=True,
                )
                parts.append(_write(workdir, len(parts), render.html_to_pdf(html)))
                if last and run.with_cards and len(chosen) % 2 == 1:
                    parts.append(_write(workdir, len(parts), render.html_to_pdf(_blank_page(event))))
                _advance(run, len(group))
                if on_chunk:
                    on_chunk(len(group))
        if run.with_cards:
            number = 1
            for group in groups:
                cards = content.printed_cards(content.with_cards(group), qr)
                if cards:
                    html = render.render_document(
                        title=event.name, event=event, cards=cards, first_number=number, for_pdf=True
                    )
                    parts.append(_write(workdir, len(parts), render.html_to_pdf(html)))
                    number += len(cards)
                _advance(run, len(group))
                if on_chunk:
                    on_chunk(len(group))
        writer = PdfWriter()
        for part in parts:
            writer.append(str(part))
        name = f"run-{run.pk}-{secrets.token_hex(8)}.pdf"
        with (prints_dir() / name).open("wb") as out:
            writer.write(out)
        return len(writer.pages), name
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _write(folder: Path, index: int, pdf: bytes) -> Path:
    path = folder / f"{index:05d}.pdf"
    path.write_bytes(pdf)
    return path


def _blank_page(event: Event) -> str:
    return render.render_document(title=event.name, event=event, blank_only=True, for_pdf=True)

"""Organizers' prints: a character's cards and sheet, and the whole event's print run (issue 14).

Only the event's organizers print: cards in a hand are hidden from everyone else (D4).
Every print exists as HTML (the browser prints it) and as PDF; without WeasyPrint's
system libraries the PDF pages say so and link the HTML version, never a 500.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from cards.printing import content, mass
from cards.printing import render as printing
from cards.printing.forms import ArmyForm, MagicDeckForm, PrintRunForm
from cards.printing.models import PrintRun
from cards.printing.pdf import document_pdf
from cards.printing.runs import INLINE_LIMIT, execute, file_of, start_run, whole_document
from cards.printing.tasks import print_run
from events.access import ORGANIZER, character_for_staff, event_for_organizer
from events.models import Event
from events.public_url import address_note
from helpers.ids import MAX_ID
from helpers.jobs import queue_reachable, send
from helpers.requests import HtmxRequest


def file_name(*parts: str) -> str:
    return "-".join(slugify(p, allow_unicode=False) or "print" for p in parts) + ".pdf"


def _unavailable(request: HttpRequest, event: Event, html_url: str) -> HttpResponse:
    context = {"event": event, "html_url": html_url}
    return render(request, "print/unavailable.html", context, status=503)


def deliver(request: HttpRequest, name: str, **document: Any) -> HttpResponse:
    """The print ``printing.render_document(**document)`` as a PDF download, or as HTML with ``?format=html``."""
    if request.GET.get("format") == "html":
        return HttpResponse(printing.render_document(**document))
    try:
        pdf = document_pdf(**document)
    except printing.PdfUnavailable:
        query = request.GET.copy()
        query["format"] = "html"
        return _unavailable(request, document["event"], f"{request.path}?{query.urlencode()}")
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@never_cache
@login_required
def character_cards(request: HttpRequest, character_id: int) -> HttpResponse:
    """The character's physical cards: fronts, then their backs for a long-edge duplex print."""
    character = character_for_staff(request.user, character_id, ORGANIZER)
    loaded = content.with_cards([character])
    cards = content.printed_cards(loaded)
    name = file_name(character.name, "cards")
    return deliver(request, name, title=character.name, event=character.event, cards=cards)


@never_cache
@login_required
def character_sheet(request: HttpRequest, character_id: int) -> HttpResponse:
    character = character_for_staff(request.user, character_id, ORGANIZER)
    sheet = content.character_sheet(content.with_cards([character])[0])
    name = file_name(character.name, "sheet")
    return deliver(request, name, title=character.name, event=character.event, sheets=[sheet])


def _what(data: dict[str, Any]) -> dict[str, Any]:
    what: dict[str, Any] = {
        key: bool(data[key])
        for key in ("with_sheets", "with_cards", "with_magic_decks", "with_rosters", "with_envelopes")
    }
    return {**what, "group_by": data.get("group_by") or ""}


def _preselected(request: HttpRequest) -> dict[str, object]:
    """``?characters=1&characters=2`` (e.g. from a bulk action of the characters list) ticks those characters."""
    wanted = [pk for pk in request.GET.getlist("characters") if pk.isdigit() and int(pk) <= MAX_ID]
    if not wanted:
        return {}
    return {"everyone": False, "characters": wanted}


@never_cache
@login_required
def event_print(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    form = PrintRunForm(request.POST or None, event=event, initial=_preselected(request))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if data["as_html"]:
            return HttpResponse(whole_document(event, data["chosen"], **_what(data)))
        if not printing.pdf_available():
            return _unavailable(request, event, "")
        inline = len(data["chosen"]) <= INLINE_LIMIT
        if not inline and not queue_reachable():
            # Nothing is written: a run no worker can be told of would wait for ever (helpers/jobs.py).
            form.add_error(None, queue_away(INLINE_LIMIT))
            return _form_page(request, event, form, status=503)
        run = start_run(event, request.user, data["chosen"], **_what(data))
        if inline:
            # A small event (the demo's 8) is one click: printed now, the download starts at once.
            run = execute(run.pk)
            if run.status == PrintRun.Status.DONE:
                return redirect("cards:print-run-download", event.pk, run.pk)
        else:
            transaction.on_commit(lambda: _send(run.pk))
        return redirect("cards:print-run", event.pk, run.pk)
    return _form_page(request, event, form)


def queue_away(inline_limit: int) -> str:
    return _(
        "The job queue is unreachable right now (it may be restarting): nothing was started. "
        "Try again in a minute; up to %(count)s characters print at once without it."
    ) % {"count": inline_limit}


def _send(run_id: int) -> None:
    """The queue went away between the check and the send: the run says so instead of waiting for ever."""
    if not send(print_run, run_id):
        note = _("The job queue was unreachable when the print was sent; nothing was printed. Start it again.")
        PrintRun.objects.filter(pk=run_id, status=PrintRun.Status.QUEUED).update(
            status=PrintRun.Status.FAILED, error=note
        )


def _form_page(request: HttpRequest, event: Event, form: PrintRunForm, status: int = 200) -> HttpResponse:
    runs = PrintRun.objects.filter(event=event)[:5]
    context = {"event": event, "form": form, "runs": runs, "pdf_available": printing.pdf_available()}
    return render(request, "print/event_print.html", {**context, **address_note(event)}, status=status)


def _run_of(event: Event, run_id: int) -> PrintRun:
    try:
        return PrintRun.objects.get(pk=run_id, event=event)
    except PrintRun.DoesNotExist:
        raise Http404 from None


@never_cache
@login_required
def run_status(request: HtmxRequest, event_id: int, run_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    run = _run_of(event, run_id)
    context = {"event": event, "run": run}
    if request.htmx:
        return render(request, "print/run.html#progress", context)
    return render(request, "print/run.html", context)


@never_cache
@login_required
def run_download(request: HttpRequest, event_id: int, run_id: int) -> HttpResponseBase:
    event = event_for_organizer(request.user, event_id)
    run = _run_of(event, run_id)
    path = file_of(run)
    if path is None:
        messages.warning(request, _("This print is not ready (or no longer kept): start a new one."))
        return redirect("cards:print-run", event.pk, run.pk)
    return FileResponse(path.open("rb"), as_attachment=True, filename=file_name(event.name, f"print-{run.pk}"))


# --- mass battles: the magic decks and the army rosters (issue 14, M1-M3) ---------------------------
#
# Only the event's organizers print them: a roster carries the commander's secret link. Bad
# choices (a deck that is not 2, 4, 5 or 6, an army of another event) come back to the
# mass-battle page with a message, never a 500.


@never_cache
@login_required
@require_GET
def magic_decks(request: HttpRequest, event_id: int) -> HttpResponse:
    """Every copy of the chosen decks' cards: fronts, then backs with the deck's number (M1)."""
    event = event_for_organizer(request.user, event_id)
    form = MagicDeckForm(request.GET)
    if not form.is_valid():
        messages.error(request, _("Choose the magic decks to print: 2, 4, 5 or 6."))
        return redirect("cards:mass-data", event.pk)
    decks = form.decks()
    pages = mass.deck_pages(event, decks)
    if not pages:
        messages.warning(request, _("These decks hold no magic cards yet: nothing to print."))
        return redirect("cards:mass-data", event.pk)
    name = file_name(event.name, "magic-decks", *map(str, decks))
    return deliver(request, name, title=event.name, event=event, pages=pages)


@never_cache
@login_required
@require_GET
def army_rosters(request: HttpRequest, event_id: int) -> HttpResponse:
    """The roster of each chosen army (all of them without ``?army=``), with the commander's QR code."""
    event = event_for_organizer(request.user, event_id)
    form = ArmyForm(request.GET, event=event)
    if not form.is_valid():
        messages.error(request, _("Choose armies of this event to print."))
        return redirect("cards:mass-data", event.pk)
    rosters = mass.rosters(event, form.army_ids())
    if not rosters:
        messages.warning(request, _("This event has no armies yet: nothing to print."))
        return redirect("cards:mass-data", event.pk)
    parts = [r.army.name for r in rosters] if len(rosters) == 1 else ["armies"]
    return deliver(request, file_name(event.name, *parts), title=event.name, event=event, rosters=rosters)

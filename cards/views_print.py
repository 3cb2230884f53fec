"""Organizers' prints: a character's cards and sheet, and the whole event's print run (issue 14).

Only the event's organizers print: cards in a hand are hidden from everyone else (D4).
Every print exists as HTML (the browser prints it) and as PDF; without WeasyPrint's
system libraries the PDF pages say so and link the HTML version, never a 500.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache

from cards.models_print import PrintRun
from cards.printing import content
from cards.printing import render as printing
from cards.printing.runs import INLINE_LIMIT, execute, file_of, printable_characters, start_run
from cards.tasks import print_run
from events.access import ORGANIZER, character_for_staff, event_for_organizer
from events.ids import MAX_ID
from events.models import Character, Event
from events.public_url import address_note
from events.requests import HtmxRequest


def _file_name(*parts: str) -> str:
    return "-".join(slugify(p, allow_unicode=False) or "print" for p in parts) + ".pdf"


def _unavailable(request: HttpRequest, event: Event, html_url: str) -> HttpResponse:
    context = {"event": event, "html_url": html_url}
    return render(request, "print/unavailable.html", context, status=503)


def _deliver(request: HttpRequest, event: Event, html: str, pdf_html: str, name: str) -> HttpResponse:
    if request.GET.get("format") == "html":
        return HttpResponse(html)
    try:
        pdf = printing.html_to_pdf(pdf_html)
    except printing.PdfUnavailable:
        return _unavailable(request, event, request.path + "?format=html")
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _document(**kwargs) -> tuple[str, str]:
    return printing.render_document(**kwargs), printing.render_document(**kwargs, for_pdf=True)


@never_cache
@login_required
def character_cards(request: HttpRequest, character_id: int) -> HttpResponse:
    """The character's physical cards: fronts, then their backs for a long-edge duplex print."""
    character = character_for_staff(request.user, character_id, ORGANIZER)
    loaded = content.with_cards([character])
    html, pdf_html = _document(title=character.name, event=character.event, cards=content.printed_cards(loaded))
    return _deliver(request, character.event, html, pdf_html, _file_name(character.name, "cards"))


@never_cache
@login_required
def character_sheet(request: HttpRequest, character_id: int) -> HttpResponse:
    character = character_for_staff(request.user, character_id, ORGANIZER)
    sheet = content.character_sheet(content.with_cards([character])[0])
    html, pdf_html = _document(title=character.name, event=character.event, sheets=[sheet])
    return _deliver(request, character.event, html, pdf_html, _file_name(character.name, "sheet"))


class _CharacterChoice(forms.ModelMultipleChoiceField):
    def _check_values(self, value):
        # A number past the database's integer range would overflow the lookup (a 500): no such character.
        for pk in value or ():
            if not str(pk).isdigit() or int(pk) > MAX_ID:
                raise forms.ValidationError(
                    self.error_messages["invalid_choice"], code="invalid_choice", params={"value": pk}
                )
        # django-stubs leave out this private (long-standing) Django method: the stub is incomplete.
        return super()._check_values(value)  # type: ignore[misc]


class PrintRunForm(forms.Form):
    everyone = forms.BooleanField(label=gettext_lazy("All accepted characters"), required=False, initial=True)
    characters = _CharacterChoice(
        label=gettext_lazy("Or only these characters"),
        queryset=Character.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    with_sheets = forms.BooleanField(label=gettext_lazy("Character sheets"), required=False, initial=True)
    with_cards = forms.BooleanField(label=gettext_lazy("Cards (fronts and backs)"), required=False, initial=True)
    as_html = forms.BooleanField(
        label=gettext_lazy("As a web page to print from the browser (instead of a PDF)"), required=False
    )

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ModelMultipleChoiceField, self.fields["characters"]).queryset = Character.objects.filter(
            event=event, status=Character.Status.ACCEPTED
        ).order_by("name", "pk")
        self.event = event

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("with_sheets") and not data.get("with_cards"):
            raise forms.ValidationError(_("Choose what to print: character sheets, cards or both."))
        chosen = printable_characters(self.event) if data.get("everyone") else list(data.get("characters") or [])
        if not chosen:
            raise forms.ValidationError(_("Choose the characters to print, or all of them."))
        data["chosen"] = chosen
        return data


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
            loaded = content.with_cards(data["chosen"])
            return HttpResponse(
                printing.render_document(
                    title=event.name,
                    event=event,
                    sheets=[content.character_sheet(c) for c in loaded] if data["with_sheets"] else [],
                    cards=content.printed_cards(loaded) if data["with_cards"] else None,
                    pad_to_even=True,
                )
            )
        if not printing.pdf_available():
            return _unavailable(request, event, "")
        run = start_run(
            event, request.user, data["chosen"], with_sheets=data["with_sheets"], with_cards=data["with_cards"]
        )
        if len(data["chosen"]) <= INLINE_LIMIT:
            # A small event (the demo's 8) is one click: printed now, the download starts at once.
            run = execute(run.pk)
            if run.status == PrintRun.Status.DONE:
                return redirect("cards:print-run-download", event.pk, run.pk)
        else:
            transaction.on_commit(lambda: print_run.delay(run.pk))
        return redirect("cards:print-run", event.pk, run.pk)
    runs = PrintRun.objects.filter(event=event)[:5]
    context = {"event": event, "form": form, "runs": runs, "pdf_available": printing.pdf_available()}
    return render(request, "print/event_print.html", {**context, **address_note(event)})


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
    return FileResponse(path.open("rb"), as_attachment=True, filename=_file_name(event.name, f"print-{run.pk}"))

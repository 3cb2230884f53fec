"""The balance lab's pages (organizers) and the post-game report (organizers and referees)."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from events.access import event_for_organizer, event_for_referee, person
from helpers.jobs import queue_reachable, send
from helpers.requests import HtmxRequest
from lab import presenters
from lab.arsenals import arsenals_of, catalogue_faces, counters_of
from lab.codec import arsenal_to_dict, counter_to_dict, settings_to_dict
from lab.forms import CompareForm, LabForm
from lab.models import LabRun
from lab.postgame import read
from lab.simulate import LabSettings
from lab.tasks import run_lab
from rules.cards import face_to_dict


@login_required
def lab_home(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    form = LabForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        seed = data["seed"] if data["seed"] is not None else secrets.randbelow(2**31)
        arsenals = arsenals_of(event, data["source"], seed)
        if not arsenals:
            messages.error(request, _("No character of this event has such an arsenal yet: nothing to test."))
        elif not queue_reachable():
            # Nothing is written: a run no worker can be told of would wait for ever (helpers/jobs.py).
            form.add_error(None, QUEUE_AWAY)
            status = 503
        else:
            settings = LabSettings(
                duels=data["duels"],
                seed=seed,
                policy=data["policy"],
                instant_share=data["instant_percent"] / 100,
                focus_share=data["focus_percent"] / 100,
                timeout_share=data["timeout_percent"] / 100,
                max_rounds=data["max_rounds"],
                answer_window_s=event.answer_window_s,
                gap_s=event.situation_gap_s,
            )
            with transaction.atomic():
                run = LabRun.objects.create(
                    event=event,
                    created_by=person(request),
                    label=data["label"],
                    source=data["source"],
                    settings=settings_to_dict(settings),
                    arsenals=[arsenal_to_dict(a) for a in arsenals],
                    counters=[counter_to_dict(c) for c in counters_of(event)],
                    faces=[face_to_dict(f) for f in catalogue_faces(event)],
                    total=settings.duels,
                )
                transaction.on_commit(lambda: _send(run.pk))
            return redirect("lab:run", run.pk)
    runs = LabRun.objects.filter(event=event)
    context = {"event": event, "form": form, "runs": runs, "compare": CompareForm(event_id=event.pk)}
    return render(request, "lab/home.html", context, status=status)


QUEUE_AWAY = gettext_lazy(
    "The job queue is unreachable right now (it may be restarting): nothing was started. Try again in a minute."
)


def _send(run_id: int) -> None:
    """The queue went away between the check and the send: the run says so instead of waiting for ever."""
    if not send(run_lab, run_id):
        LabRun.objects.filter(pk=run_id, status=LabRun.Status.QUEUED).update(
            status=LabRun.Status.FAILED, error=LabRun.QUEUE_UNREACHABLE
        )


def _run_for_organizer(request: HttpRequest, run_id: int) -> LabRun:
    run = get_object_or_404(LabRun.objects.select_related("event"), pk=run_id)
    event_for_organizer(request.user, run.event_id)  # 404 for everyone else
    return run


@login_required
@require_GET
def run_page(request: HtmxRequest, run_id: int) -> HttpResponse:
    run = _run_for_organizer(request, run_id)
    context: dict[str, Any] = {"event": run.event, "run": run}
    if run.status == LabRun.Status.DONE:
        context["report"] = presenters.lab_report(run)
    if request.htmx:
        if run.status in presenters.ACTIVE:
            return render(request, "lab/run.html#progress", context)
        # Finished while the bar polled: the whole page, with the report.
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("lab:run", args=[run.pk])
        return response
    return render(request, "lab/run.html", context)


@login_required
@require_POST
def run_cancel(request: HttpRequest, run_id: int) -> HttpResponse:
    run = _run_for_organizer(request, run_id)
    if run.status in presenters.ACTIVE:
        LabRun.objects.filter(pk=run.pk).update(cancel_requested=True)
        if run.status == LabRun.Status.QUEUED:
            # Not started yet: the worker that picks it up will find it cancelled.
            LabRun.objects.filter(pk=run.pk).update(status=LabRun.Status.CANCELLED)
        messages.success(request, _("The run is being stopped."))
    return redirect("lab:run", run.pk)


@login_required
@require_GET
def compare(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    form = CompareForm(request.GET or None, event_id=event.pk)
    context: dict[str, Any] = {"event": event, "form": form}
    if form.is_valid():
        context["comparison"] = presenters.comparison(form.cleaned_data["a"], form.cleaned_data["b"])
    return render(request, "lab/compare.html", context)


@login_required
@require_GET
def postgame(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_referee(request.user, event_id)
    page = presenters.postgame_page(event, read(event))
    wanted = request.GET.get("download")
    if wanted:
        return presenters.download(event, page, wanted, request.GET.get("format", "csv"))
    return render(request, "lab/postgame.html", {"event": event, "page": page})

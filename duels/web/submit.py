"""The referee's tablet for every kind: its page, its poll, and the one path a tap takes.

A tap is a form; ``submit`` checks it and makes one service call with its
data. Over the fresh state, a malformed request is a 400, a stale page a 409
and a refusal a 422, each with a message in the user's language. When only
the clock moved the fight on since the page was drawn (an answer window
closed, the situation's gap ran out) the message is the rule that decided
(D8, S2), never "another referee acted first": the kind says when that is
(``KindPages.clock_note``), the words are duels/web/notes.py's.

The page, its poll and undo are the same view for every kind: the kind gives
its template and context (``duels.web.pages``). Every referee of the same
version gets the same fragment, rendered once (``shared_fragment``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from duels import services
from duels.models import LogEntry, Situation
from duels.web.access import situation_for_staff, staff_meta
from duels.web.alerts import Alert, conflict, form_problem, refusal
from duels.web.forms import UndoForm
from duels.web.live import cached_fragment, not_modified, polled, render_live, shared_fragment, situation_etag
from duels.web.notes import Note
from duels.web.oob import KindParts, oob_response, parts_for
from duels.web.pages import pages_for, pages_of, refuse_other_kinds, url_name
from duels.web.viewers import REFEREE_VIEW
from helpers.requests import HtmxRequest
from rules import RuleError

# How many of the newest log lines the tablet shows (a command hands back as many, services.RECENT_ENTRIES).
LOG_LINES = 20


def tablet_etag(situation: Any, kind: str) -> str:
    return situation_etag(situation, REFEREE_VIEW, f"tablet-{kind}")


def tablet_context(
    situation: Situation,
    alert: Alert | None = None,
    *,
    state: Any = None,
    recent: Iterable[LogEntry] | None = None,
    added: Sequence[LogEntry] | None = None,
) -> dict[str, Any]:
    """What every tablet shows (the situation, its version, the alert, undo's quick reasons) and the kind's part.

    The state is the cached one (or the one a command just produced); the log
    shown is bounded, so a long fight costs the same queries as a short one.
    ``added``: a step's own new entries (newest first); the kind then describes
    only their lines (its ``log_lines``), the ones a step's answer prepends.
    """
    if state is None:
        state = services.state_of(situation)
    if recent is None:
        recent = situation.log.select_related("actor").order_by("-seq")[:LOG_LINES]
    event = situation.event
    pages = pages_of(situation)
    return {
        "situation": situation,
        "event": event,
        "version": situation.version,
        "alert": alert,
        "reasons": event.quick_reason_list,
        "undo_url": reverse("duels:undo", args=[situation.pk]),
        # A step's newest entries are built when used (services.rows.Entries): sliced, not listed.
        **pages.tablet_context(situation, state, _newest(recent), alert, added=added),
    }


def _newest(recent: Iterable[LogEntry]) -> Sequence[LogEntry]:
    return recent[:LOG_LINES] if isinstance(recent, Sequence) else list(recent)[:LOG_LINES]


def render_tablet(
    request: HtmxRequest,
    situation: Situation,
    alert: Alert | None = None,
    status: int = 200,
    *,
    state: Any = None,
    recent: Iterable[LogEntry] | None = None,
) -> HttpResponse:
    """The referee's page, or its live fragment for htmx; ``state``/``recent``: what a command just produced."""
    pages = pages_of(situation)
    etag = tablet_etag(situation, pages.key)
    template = pages.templates.tablet
    if request.htmx and alert is None and status == 200:
        # The same for every referee of this version: rendered once (duels/web/live.py).
        return shared_fragment(
            request, f"{template}#live", etag, lambda: tablet_context(situation, state=state, recent=recent)
        )
    template = f"{template}#live" if request.htmx else template
    context = tablet_context(situation, alert, state=state, recent=recent)
    return render_live(request, template, context, etag, status=status)


@login_required
@require_GET
def tablet(request: HtmxRequest, situation_id: int) -> HttpResponse:
    """Any kind's tablet (its URL names stay: duels:situation, duels:battle, duels:mass).

    The poll: one lean statement checks the role and reads the version
    columns; an unchanged fight is a 304, a changed one the fragment another
    referee's poll had rendered already.
    """
    if polled(request):
        meta, kind = staff_meta(request.user, situation_id)
        if not meta.is_due(timezone.now()):
            etag = tablet_etag(meta, kind)
            fragment = f"{pages_for(kind).templates.tablet}#live"
            answered = not_modified(request, etag) or cached_fragment(request, fragment, etag)
            if answered is not None:
                return answered
    situation = services.refresh(situation_for_staff(request.user, situation_id, whole=not polled(request)))
    pages = pages_of(situation)
    if url_name(request) not in ("", pages.tablet_url_name):
        return redirect(pages.tablet_url_name, situation.pk)  # another kind's URL: its own page
    if request.htmx and (unchanged := not_modified(request, tablet_etag(situation, pages.key))) is not None:
        return unchanged
    return render_tablet(request, situation)


def fresh(situation: Situation) -> Situation:
    # A refused command may still have applied overdue deadlines on its way.
    return services.refresh(Situation.objects.select_related("event").get(pk=situation.pk))


def note_alert(note: Note) -> Alert:
    return Alert(note.level, note.text, note.rule)


def step_answer(request: HtmxRequest, performed: services.Performed, base_version: int) -> HttpResponse | None:
    """A step's htmx answer as the regions it changed (duels/web/oob.py), or None: the whole fragment.

    Only for the version right after the one the page showed: any jump (a
    concurrent step, a deadline applied in between) and the page may show an
    older state than the regions were cut from.

    The context describes only the log entries the step added (``Performed.added``:
    an overdue deadline's entry and the command's): the answer prepends their
    lines to the page's log (``oob.log_part``), the older lines are on the page
    already. When the answer is the whole fragment after all (None), ``submit``
    renders it from the full context, every line.
    """
    situation = performed.situation
    if performed.repeated or performed.state is None or situation.version != base_version + 1:
        return None
    if performed.added is None:
        return None  # which lines are new is not known: the whole fragment
    pages = pages_of(situation)
    if not isinstance(pages, KindParts):
        return None
    context = tablet_context(situation, state=performed.state, recent=performed.recent, added=performed.added)
    parts = parts_for(pages, context, performed.events)
    if parts is None:
        return None
    return oob_response(request, parts, context, tablet_etag(situation, pages.key), base_version)


def submit(
    request: HtmxRequest,
    situation: Situation,
    form: Any,
    call: Callable[[dict[str, Any]], object],
    command: Callable[[], object] | None = None,
    *,
    regions: bool = False,
) -> HttpResponse:
    """Check the form, then run one service call with its data; a refusal changes nothing.

    ``command``: the engine command the tap carries, if any, so that a tap the
    clock overtook is told with the rule that decided. ``regions``: an htmx
    answer may be the regions the command changed (``step_answer``); else the
    whole fragment.
    """
    if not form.is_valid():
        return render_tablet(request, fresh(situation), form_problem(form), 400)
    try:
        performed = call(form.cleaned_data)
    except services.StaleVersion:
        now = fresh(situation)
        tapped = command() if command is not None else None
        note = pages_of(now).clock_note(services.state_of(now), tapped, None)
        return render_tablet(request, now, conflict() if note is None else note_alert(note), 409)
    except (RuleError, services.ServiceError) as err:
        now = fresh(situation)
        tapped = command() if command is not None else None
        note = pages_of(now).clock_note(services.state_of(now), tapped, err)
        return render_tablet(request, now, refusal(err) if note is None else note_alert(note), 422)
    if not request.htmx:
        return redirect(pages_of(situation).tablet_url_name, situation.pk)
    known = isinstance(performed, services.Performed) and performed.state is not None
    if known and isinstance(performed, services.Performed) and performed.situation.pk == situation.pk:
        if regions and (answer := step_answer(request, performed, form.cleaned_data["version"])) is not None:
            return answer
        # The locked row as saved, with the state the command produced: no
        # second load of the row, no second decoding of its state.
        return render_tablet(request, performed.situation, state=performed.state, recent=performed.recent)
    return render_tablet(request, fresh(situation))


def act_on(request: HtmxRequest, situation_id: int, form_for: Callable[[Situation], Any | None]) -> HttpResponse:
    """A wing's action: the form ``form_for`` makes of the request (None: no such action), then one command.

    The fight must be of the kind whose URL was used (``refuse_other_kinds``);
    the form builds the engine command the services perform.
    """
    situation = situation_for_staff(request.user, situation_id)
    refuse_other_kinds(request, situation)
    form = form_for(situation)
    if form is None:
        return render_tablet(request, situation, Alert("danger", gettext("Unknown action.")), 400)
    return submit(
        request,
        situation,
        form,
        lambda d: services.perform(
            situation.pk,
            form.command(),
            user=request.user,
            seen_version=d["version"],
            nonce=d["nonce"],
            lag_ms=d.get("lag_ms"),
        ),
        form.command,
        regions=True,
    )


@login_required
@require_POST
def undo(request: HtmxRequest, situation_id: int) -> HttpResponse:
    """The referee takes back the last action of a fight of any kind, with a reason."""
    situation = situation_for_staff(request.user, situation_id)
    refuse_other_kinds(request, situation)
    return submit(
        request,
        situation,
        UndoForm(request.POST),
        lambda d: services.undo_last(
            situation.pk, user=request.user, reason=d["reason"], seen_version=d["version"], nonce=d["nonce"]
        ),
    )

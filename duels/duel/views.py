"""The referee's fight screen: the live situation, its actions, undo, the log and the export.

Views build a command from a well-formed request and hand it to the services;
the engine decides. A refusal (RuleError or a service refusal) changes nothing
and comes back as a message over the fresh state; a stale version is a 409.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

import rules as engine
from cards.models import PoolEntry, PreparedArsenal
from duels import services
from duels.battle.log import describe_battle
from duels.duel import notes as fight_notes
from duels.duel.draws import related_undone
from duels.duel.forms import ACTION_FORMS
from duels.duel.log import describe
from duels.duel.presenters import OUTCOME_LABELS, ChoiceView, SituationView, card_ids, card_names, present
from duels.models import LogEntry, Situation
from duels.services.export import export_situation
from duels.web.access import situation_for_staff, staff_meta
from duels.web.alerts import Alert, conflict, form_problem, refusal
from duels.web.forms import UndoForm
from duels.web.live import cached_fragment, not_modified, polled, render_live, shared_fragment, situation_etag
from duels.web.viewers import REFEREE, Viewer
from events.models import Character
from helpers.requests import HtmxRequest

LOG_LINES = 20
LOG_PAGE = 100
REFEREE_VIEW = Viewer(REFEREE)


def _round_options(view: SituationView, event_id: int) -> None:
    """Prepared arsenals and pools for the D3 choice, only while some duel is between rounds."""
    choices = [c for d in view.duels for c in d.choices]
    if not choices:
        return
    ids = {c.fighter.id for c in choices}
    prepared: dict[int, list[PreparedArsenal]] = {}
    for arsenal in PreparedArsenal.objects.filter(character_id__in=ids, character__event_id=event_id):
        prepared.setdefault(arsenal.character_id, []).append(arsenal)
    pools: dict[int, list[PoolEntry]] = {}
    for entry in (
        PoolEntry.objects.filter(character_id__in=ids).select_related("card").order_by("card__kind", "card_id")
    ):
        pools.setdefault(entry.character_id, []).append(entry)
    limits = {c.pk: c.effective_arsenal_limit for c in Character.objects.filter(pk__in=ids, event_id=event_id)}
    for choice in choices:
        choice.prepared = prepared.get(choice.fighter.id, [])
        choice.pool = pools.get(choice.fighter.id, [])
        choice.limit = limits.get(choice.fighter.id)
        choice.picked = _picked(choice)


def _picked(choice: ChoiceView) -> str | int:
    """The arsenal radio that matches the saved choice, so the form never contradicts its badge."""
    if not (choice.chosen and choice.go_on and choice.new_arsenal):
        return "keep"
    named = [p.pk for p in choice.prepared if p.name == choice.label]
    return named[0] if choice.label and named else "new"


def fight_context(
    situation: Situation, alert: Alert | None = None, state: Any = None, recent: Iterable[LogEntry] | None = None
) -> dict[str, Any]:
    # The state is the cached JSON (or the one a command just produced); the
    # log shown is bounded, so a long fight costs the same queries as a short one.
    if state is None:
        state = services.state_of(situation)
    names = card_names(card_ids(state))
    view = present(state, REFEREE_VIEW, names)
    _round_options(view, situation.event_id)
    if recent is None:
        recent = situation.log.select_related("actor").order_by("-seq")[:LOG_LINES]
    # A command hands back the newest RECENT_ENTRIES (the whole log, if shorter).
    entries = list(recent)[:LOG_LINES]
    event = situation.event
    return {
        "situation": situation,
        "event": situation.event,
        "view": view,
        "version": situation.version,
        # The full log page also links a repeated instant attack to an undone one
        # outside these lines; the fight page keeps its fixed number of queries.
        "log_lines": describe(entries, state, names),
        "alert": alert,
        "notes": fight_notes.conversions(entries, view),
        "ended_note": fight_notes.gap_ended(state) if state.ended else None,
        "reasons": event.quick_reason_list,
        "outcomes": list(OUTCOME_LABELS.items()),
        "act_url": reverse("duels:act", args=[situation.pk]),
        "undo_url": reverse("duels:undo", args=[situation.pk]),
    }


def _render(
    request: HtmxRequest, situation: Situation, alert: Alert | None = None, status: int = 200, **known: Any
) -> HttpResponse:
    """``known``: the ``state`` and ``recent`` log entries a command just produced, if any."""
    etag = situation_etag(situation, REFEREE_VIEW, "fight")
    if request.htmx and alert is None:
        # The same for every referee of this version: rendered once (see views_common).
        return shared_fragment(request, "duels/duel/tablet.html#live", etag, lambda: fight_context(situation, **known))
    template = "duels/duel/tablet.html#live" if request.htmx else "duels/duel/tablet.html"
    return render_live(request, template, fight_context(situation, alert, **known), etag, status=status)


@login_required
@require_GET
def situation_page(request: HtmxRequest, situation_id: int) -> HttpResponse:
    if polled(request):
        # The poll: one lean statement checks the role and reads the version columns.
        meta, kind = staff_meta(request.user, situation_id)
        if kind == Situation.Kind.DUEL and not meta.is_due(timezone.now()):
            etag = situation_etag(meta, REFEREE_VIEW, "fight")
            answered = not_modified(request, etag) or cached_fragment(request, "duels/duel/tablet.html#live", etag)
            if answered is not None:
                return answered
    situation = services.refresh(situation_for_staff(request.user, situation_id, whole=not polled(request)))
    if situation.kind == Situation.Kind.BATTLE:
        return redirect("duels:battle", situation.pk)  # a battle has its own tablet page
    if situation.kind == Situation.Kind.MASS_BATTLE:
        return redirect("duels:mass", situation.pk)  # its own tablet page
    if request.htmx:
        unchanged = not_modified(request, situation_etag(situation, REFEREE_VIEW, "fight"))
        if unchanged is not None:
            return unchanged
    return _render(request, situation)


def _fresh(situation: Situation) -> Situation:
    # A refused command may still have applied overdue deadlines on its way.
    return services.refresh(Situation.objects.select_related("event").get(pk=situation.pk))


def _refused(request: HtmxRequest, situation: Situation, alert: Alert, status: int) -> HttpResponse:
    return _render(request, _fresh(situation), alert, status)


def _done(request: HtmxRequest, situation: Situation, performed: object) -> HttpResponse:
    if not request.htmx:
        return redirect("duels:situation", situation.pk)
    if isinstance(performed, services.Performed) and performed.state is not None:
        # The locked row as saved, with the state the command produced: no
        # second load of the row, no second decoding of its state.
        return _render(request, performed.situation, state=performed.state, recent=performed.recent)
    return _render(request, _fresh(situation))


def _submit(
    request: HtmxRequest,
    situation: Situation,
    form: Any,
    call: Callable[[dict[str, Any]], object],
    command: Callable[[], object] | None = None,
) -> HttpResponse:
    """Check the form, then run one service call with its data; over the fresh state, a malformed
    request is a 400, a stale page a 409 and a refusal a 422.

    A tap the clock overtook (the answer window closed, the gap ended the
    situation) is told with the rule that decided, never "another referee
    acted first" (issue 10): the fresh state says which.
    """
    if not form.is_valid():
        return _refused(request, situation, form_problem(form), 400)
    try:
        performed = call(form.cleaned_data)
    except services.StaleVersion:
        fresh = _fresh(situation)
        overtaken = fight_notes.overtaken_by_clock(services.state_of(fresh), command() if command else None)
        return _render(request, fresh, conflict() if overtaken is None else _alert(overtaken), 409)
    except (engine.RuleError, services.ServiceError) as err:
        fresh = _fresh(situation)
        state = services.state_of(fresh)
        if state.ended:
            return _render(request, fresh, _alert(fight_notes.gap_ended(state)), 422)
        if fight_notes.is_late_refusal(err):
            return _render(request, fresh, _alert(fight_notes.late_answer(state)), 422)
        return _render(request, fresh, refusal(err), 422)
    return _done(request, situation, performed)


def _alert(note: fight_notes.Note) -> Alert:
    return Alert(note.level, note.text, note.rule)


@login_required
@require_POST
def act(request: HtmxRequest, situation_id: int) -> HttpResponse:
    situation = situation_for_staff(request.user, situation_id)
    if situation.kind == Situation.Kind.BATTLE:
        return redirect("duels:battle", situation.pk)
    if situation.kind == Situation.Kind.MASS_BATTLE:
        raise Http404  # a mass battle takes its commands at duels:mass-act
    form_class = ACTION_FORMS.get(request.POST.get("action", ""))
    if form_class is None:
        return _refused(request, situation, Alert("danger", gettext("Unknown action.")), 400)
    form = form_class(request.POST, event_id=situation.event_id)
    return _submit(
        request,
        situation,
        form,
        lambda d: services.perform(
            situation.pk, form.command(), user=request.user, seen_version=d["version"], nonce=d["nonce"]
        ),
        form.command,
    )


@login_required
@require_POST
def undo(request: HtmxRequest, situation_id: int) -> HttpResponse:
    situation = situation_for_staff(request.user, situation_id)
    if situation.kind == Situation.Kind.BATTLE:
        return redirect("duels:battle", situation.pk)
    if situation.kind == Situation.Kind.MASS_BATTLE:
        raise Http404
    return _submit(
        request,
        situation,
        UndoForm(request.POST),
        lambda d: services.undo_last(
            situation.pk, user=request.user, reason=d["reason"], seen_version=d["version"], nonce=d["nonce"]
        ),
    )


@login_required
@require_GET
def log_page(request: HttpRequest, situation_id: int) -> HttpResponse:
    situation = services.refresh(situation_for_staff(request.user, situation_id, whole=True))
    if situation.kind == Situation.Kind.MASS_BATTLE:
        return redirect("duels:mass", situation.pk)  # its log is on its own page and in the export
    state = services.state_of(situation)
    page = Paginator(situation.log.select_related("actor").order_by("-seq"), LOG_PAGE).get_page(request.GET.get("page"))
    if situation.kind == Situation.Kind.BATTLE:
        lines = describe_battle(page.object_list, state)
    else:
        lines = describe(page.object_list, state, card_names(card_ids(state)), related_undone(situation))
    context = {
        "situation": situation,
        "event": situation.event,
        "page": page,
        "log_lines": lines,
    }
    return render(request, "duels/log.html", context)


@login_required
@require_GET
def export(request: HttpRequest, situation_id: int) -> HttpResponse:
    situation = services.refresh(situation_for_staff(request.user, situation_id, whole=True))
    data = export_situation(situation)
    response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="situation-{situation.pk}.json"'
    return response

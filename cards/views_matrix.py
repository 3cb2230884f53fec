"""The counter rules matrix page (CR2): referees of the event look, organizers edit (cards/counter_matrix.py)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from cards.counter_matrix import Matrix, StaleMatrix, parse, save
from events.access import event_for_referee, is_organizer


@login_required
def counter_matrix(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_referee(request.user, event_id)
    can_edit = is_organizer(request.user, event)
    if event.catalogue is None or (request.method == "POST" and not can_edit):
        raise Http404
    matrix = Matrix.load(event.catalogue)
    if request.method == "POST":
        try:
            changed = save(matrix, *parse(request.POST.dict(), matrix))
        except StaleMatrix:
            messages.error(
                request,
                _(
                    "The catalogue changed since this page was opened; nothing was saved. "
                    "Check the matrix and save again."
                ),
            )
        except IntegrityError:
            messages.error(request, _("Someone saved the matrix at the same time; nothing was saved. Try again."))
        else:
            messages.success(request, _("Counter rules saved: %(count)s changed.") % {"count": changed})
        return redirect("cards:counter-matrix", event.pk)
    context = {
        "event": event,
        "catalogue": event.catalogue,
        "can_edit": can_edit,
        "matrix": matrix,
        "rows": matrix.rows(),
    }
    return render(request, "cards/counter_matrix.html", context)

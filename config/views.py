"""The smallest view of the project: a liveness probe for load balancers, and the benchmark's yardstick."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_http_methods


@require_http_methods(["GET", "HEAD", "POST"])
def ping(request: HttpRequest) -> HttpResponse:
    """``ok``, through the whole middleware stack and nothing else: no database, no template.

    The benchmark (bench/) measures every page against this one in the same
    run, so its figures compare the fight's own cost, not the machine. POST
    is accepted (with the CSRF check every form passes) as the yardstick of a
    step.
    """
    return HttpResponse("ok", content_type="text/plain")

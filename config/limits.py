"""The request body is capped before anyone reads it (issue 13: spreadsheet bombs).

Django's own limits cover only part of a body: ``DATA_UPLOAD_MAX_MEMORY_SIZE``
skips file parts, and ``FILE_UPLOAD_MAX_MEMORY_SIZE`` only decides when an
upload goes to a temporary file. A 50 MB upload would still be read (and
written to disk) before the import form could say it is too large. This
middleware refuses any body larger than ``SUMRAK_MAX_REQUEST_BYTES`` from its
declared length, with a page in the user's language, and reads none of it.

It runs as a plain ``__call__`` step, so it acts before CSRF's ``process_view``
(the first thing that would read the body). Behind nginx the same cap is
``client_max_body_size`` (docs/deployment.md); gunicorn has no body limit of its
own, only the header limits that ``manage.py serve`` passes to it.
"""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string


class RequestSizeLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.SUMRAK_MAX_REQUEST_BYTES
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0  # Django's own parsing treats it as no body too
        # A body without a length (chunked) is read by Django as empty: nothing to cap there.
        if length > limit:
            # Connection: close — the unread body must not be taken for the next request.
            page = render_to_string(
                "request_too_large.html", {"megabytes": max(1, limit // (1024 * 1024))}, request=request
            )
            response = HttpResponse(page, status=413)
            response["Connection"] = "close"
            return response
        return self.get_response(request)

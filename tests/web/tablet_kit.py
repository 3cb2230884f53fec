"""A referee's tablet page in a test: its live fragment as the browser holds it, patched by each step's answer.

tests/web/test_step_regions.py and the regions' tests (tests/web/test_*_regions_python.py) tap
through it: every answer's out-of-band swaps applied as htmx and sumrak.js do, and the patched
page compared with a fresh full render.
"""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

from duels.models import Situation
from tests.web.oob_kit import Dom

HX = {"HX-Request": "true"}


class Tablet:
    """A referee's tablet page: its live fragment as the browser holds it, patched by each answer."""

    def __init__(self, client: Client, situation: Situation, url_name: str) -> None:
        self.client = client
        self.situation = situation
        self.url = reverse(url_name, args=[situation.pk])
        self.dom = Dom(self._fresh())

    def _fresh(self) -> str:
        response = self.client.get(self.url, headers=HX)
        assert response.status_code == 200
        return response.content.decode()

    def tap(self, action: str, match: dict[str, Any] | None = None, *, whole: bool = False, **extra: Any) -> list[str]:
        """Send the page's ``action`` form (``match``: its hidden fields) with ``extra``; check the patched page.

        ``whole``: the answer must be the whole fragment (what the kind cannot cut into regions).
        """
        post_to, fields = self.dom.form(action, **(match or {}))
        before = self.situation.version
        response = self.client.post(post_to, {**fields, **extra}, headers=HX)
        assert response.status_code == 200, response.content[:400]
        if whole:
            assert "HX-Reswap" not in response and "hx-swap-oob" not in response.content.decode()
            self.dom = Dom(response.content.decode())
            self.situation.refresh_from_db()
            assert self.dom.normalized() == Dom(self._fresh()).normalized()
            return []
        assert response["HX-Reswap"] == "none", response.content[:400]
        assert response["X-Sumrak-Base-Version"] == str(before)
        swapped = self.dom.apply_oob(response.content.decode())
        self.situation.refresh_from_db()
        assert self.situation.version == before + 1
        assert self.dom.normalized() == Dom(self._fresh()).normalized()
        # The tapped form went with its region: its nonce is not left on the page to be sent again.
        assert fields["nonce"] not in self.dom.html()
        # The next poll sends the patched page's ETag: unchanged, a 304 (not the fragment again).
        etag = self.dom.live_root().get("data-etag")
        assert etag == response["ETag"]
        assert self.client.get(self.url, headers={**HX, "If-None-Match": etag}).status_code == 304
        return swapped

"""The public base address that printed QR codes point to (issue 10, issue 14).

A QR code is read by a phone on the game site's network, not by the organizer's
laptop that printed it: building it from the host the organizer's browser used
(``request.build_absolute_uri``) printed ``http://127.0.0.1:8000/...`` on every
sheet made on the server machine itself. The address comes from, in order:

1. the event's own override (``Event.public_url``), for a game reached by a name;
2. the deployment setting ``SUMRAK_PUBLIC_URL`` (``scripts/start.sh --lan``, launcher.py, sets it to
   the LAN address it prints for tablets and phones);
3. this machine's LAN address on port 8000, found as the launcher finds it: the default route's,
   else the interface list's (a laptop that is itself the hotspot has no default route;
   helpers/addresses.py).
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from django.conf import settings
from django.urls import reverse

from helpers.addresses import lan_address

if TYPE_CHECKING:
    from events.models import Character, Event

DEFAULT_PORT = 8000


@lru_cache(maxsize=1)
def _lan_address() -> str:
    return lan_address()


def public_base(event: Event | None = None) -> str:
    """``scheme://host[:port]`` without a trailing slash."""
    override = (getattr(event, "public_url", "") or "").strip()
    if override:
        return override.rstrip("/")
    configured = (getattr(settings, "SUMRAK_PUBLIC_URL", "") or "").strip()
    if configured:
        return configured.rstrip("/")
    return f"http://{_lan_address()}:{DEFAULT_PORT}"


def public_url(path: str, event: Event | None = None) -> str:
    """An absolute address on the public base; ``path`` starts with a slash (a ``reverse()``)."""
    return public_base(event) + path


def secret_link(character: Character) -> str:
    return public_url(reverse("events:character-link", args=[character.link_token]), character.event)


def is_loopback(url: str) -> bool:
    """True when only the machine itself can open ``url`` (localhost, 127.x, ::1): phones cannot."""
    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def address_note(event: Event | None = None) -> dict[str, object]:
    """What a QR page says about where its codes point (templates/events/_qr_address.html)."""
    base = public_base(event)
    return {"qr_base": base, "qr_base_loopback": is_loopback(base)}

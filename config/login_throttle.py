"""The user name django-axes counts a failed login under (config/settings.py AXES_USERNAME_CALLABLE)."""

from typing import Any

from django.http import HttpRequest

# axes keeps the name in a 255-character column; no account name is longer than 150.
MAX_USERNAME = 150


def attempted_username(request: HttpRequest, credentials: dict[str, Any] | None = None) -> str:
    """The name as typed, cut to what an account name can be: a 300-character guess is no 500 on PostgreSQL."""
    value = (credentials or {}).get("username")
    if value is None:
        value = request.POST.get("username", "")
    return str(value).replace("\x00", "")[:MAX_USERNAME]

"""Typed environment helpers: a bad value stops the start-up with a clear message.

Why: a typo in a deployment variable (``DEBUG=ture``) must fail loudly at boot,
not quietly run the game with the wrong setting.
"""

import os

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class EnvError(RuntimeError):
    pass


def env_str(name: str, default: str | None = None) -> str:
    value = os.environ.get(name)
    if value is None:
        if default is None:
            raise EnvError(f"Environment variable {name} is required.")
        return default
    return value


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise EnvError(f"{name}={value!r} is not a boolean (use true/false).")


def env_int(name: str, default: int, minimum: int | None = None) -> int:
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise EnvError(f"{name}={value!r} is not an integer.") from None
    if minimum is not None and number < minimum:
        raise EnvError(f"{name}={number} is below the minimum {minimum}.")
    return number


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_base_url(name: str, default: str = "") -> str:
    """An ``http(s)://host[:port]`` address without a path; empty means "not set"."""
    from urllib.parse import urlsplit

    value = os.environ.get(name, default).strip()
    if not value:
        return ""
    parts = urlsplit(value)
    if parts.scheme not in {"http", "https"} or not parts.hostname or parts.path.strip("/") or parts.query:
        raise EnvError(f"{name}={value!r} is not a base address like http://192.168.1.10:8000")
    try:
        parts.port  # noqa: B018 - raises on a bad port number
    except ValueError:
        raise EnvError(f"{name}={value!r} has a bad port number.") from None
    return f"{parts.scheme}://{parts.netloc}"

"""A secret link's answer kept in Redis, so a player's poll needs no database, yet a revoked link stops at once.

A link works while its character's ``link_token``, ``link_active`` and
``status`` and its event's ``links_expire_after_end`` and ``ends_on`` say so
(``events.access.link_holder``). A poll used to ask the database every time
(issue 8). Now (issue 24) the answer is cached under the token's hash,
stamped with the *generations* of three scopes: the character, its event,
and everything. A cached answer counts only while each scope still has the
generation it was stamped with **and no write to it is under way**:

- A writer of any of those columns marks its scope *pending* (an atomic
  ``INCR``) **before** it writes, and after its commit (``on_commit``) gives
  the scope a fresh random generation and takes its mark back, in one Lua
  call. ``save`` and ``delete`` of a character or an event do it through
  their signals (``events/signals.py``), their querysets' ``update`` (and so
  ``bulk_update``) for the whole "everything" scope (they may touch any row).
- A poll whose answer is missing or no longer counts reads the scopes'
  generations and marks, then the database, and stores the answer stamped
  with the generations it read first - unless a mark was set, then it
  stores nothing.

So once a revocation has committed, every answer stamped before it fails:
until the writer's callback ran, its mark is set; after, the generation is
new, and an answer stamped with it was read from the database after the
commit. Concurrent writers each hold their own mark (a counter), so one
writer's callback never clears another's. A writer that dies between mark
and commit leaves its mark for ``PENDING_TTL`` (that link goes to the
database meanwhile). The tests race revocations against polls
(tests/web/test_link_cache_race.py, PostgreSQL + Redis).

What stays outside: a write that does not go through the ORM's ``save``,
``delete`` or ``QuerySet.update`` (raw SQL, a migration's historical model)
must call ``revoked_everywhere()`` itself - or wait ``LINK_TTL``, the life of a
cached answer. The same bound holds if Redis cannot be reached by the
writer but still by the pollers (the writer logs it); when Redis is away
altogether the polls ask the database, as before. Only with Redis (atomic
counters shared by every process): with the file cache of the embedded
default, or ``SUMRAK_LINK_CACHE=false``, every poll asks the database.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.db import transaction
from redis.exceptions import NoScriptError

logger = logging.getLogger(__name__)

# The life of a cached answer: the bound of a lag only where a writer could not tell Redis (see above).
LINK_TTL = 60
# A writer's mark outlives any transaction; a cached answer never outlives a mark set after it (LINK_TTL).
PENDING_TTL = 3600
GENERATION_TTL = 7 * 24 * 3600
EVERYTHING = "all"

# The columns a link's answer reads.
CHARACTER_FIELDS = frozenset({"link_token", "link_active", "status", "event", "event_id"})
EVENT_FIELDS = frozenset({"links_expire_after_end", "ends_on"})


def _sha(script: str) -> str:
    return hashlib.sha1(script.encode()).hexdigest()  # Redis names a script by its SHA-1


# Fresh generation, then the writer's own mark taken back (deleted at zero), atomically.
_SETTLE = """
for i = 1, #KEYS, 2 do
  redis.call('SET', KEYS[i], ARGV[(i + 1) / 2], 'EX', ARGV[#ARGV])
  local left = redis.call('DECR', KEYS[i + 1])
  if left <= 0 then redis.call('DEL', KEYS[i + 1]) end
end
return 1
"""
_SETTLE_SHA = _sha(_SETTLE)


def _run(client: Any, script: str, sha: str, numkeys: int, *args: Any) -> Any:
    """``EVALSHA`` (the script's text is sent once per Redis server, not on every call); loaded on ``NOSCRIPT``."""
    try:
        return client.evalsha(sha, numkeys, *args)
    except NoScriptError:
        # A fresh (or restarted, or flushed) Redis: load it once, and every later call finds it.
        client.script_load(script)
        return client.evalsha(sha, numkeys, *args)


def character_scope(character_id: int) -> str:
    return f"c{character_id}"


def event_scope(event_id: int) -> str:
    return f"e{event_id}"


@dataclass(frozen=True)
class Answer:
    """A working link's answer, as cached: whose it is, the event's expiry columns, the generations read."""

    character_id: int
    event_id: int
    expire_after_end: bool
    ends_on: dt.date
    generations: tuple[bytes | None, bytes | None, bytes | None]


def _backend() -> Any:
    """The Redis cache when the link cache may be used (and Redis is not known to be away), else None."""
    if not getattr(settings, "SUMRAK_LINK_CACHE", True):
        return None
    # The backend itself (this thread's), not the ``cache`` proxy: a poll asks it a dozen things.
    backend = caches[DEFAULT_CACHE_ALIAS]
    raw = getattr(backend, "redis_client", None)
    if raw is None:
        return None
    outage = getattr(backend, "outage", None)
    if outage is not None and not outage.should_try():
        return None
    return backend


def enabled() -> bool:
    """Whether polls may take link answers from the cache now (Redis, the setting on, not known away)."""
    return _backend() is not None


def _keys(backend: Any, scope: str) -> tuple[str, str]:
    return backend.make_key(f"sumrak:link-gen:{scope}"), backend.make_key(f"sumrak:link-pending:{scope}")


def answer_key(token: str) -> str:
    # The token itself never goes to Redis: its hash names the entry.
    return "sumrak:link:" + hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()[:40]


# --- writers -------------------------------------------------------------------------------------


def begin(scopes: Iterable[str]) -> list[str]:
    """Mark ``scopes`` pending before a write; returns the scopes to hand to ``settle_after_commit``."""
    scopes = list(dict.fromkeys(scopes))
    backend = _backend()
    if backend is None or not scopes:
        return scopes
    try:
        pipe = backend.redis_client().pipeline(transaction=True)
        for scope in scopes:
            _gen, pending = _keys(backend, scope)
            pipe.incr(pending)
            pipe.expire(pending, PENDING_TTL)
        pipe.execute()
    except Exception:
        logger.warning("could not mark secret links %s as changing: cached answers end within %ss", scopes, LINK_TTL)
    return scopes


def settle_after_commit(scopes: list[str]) -> None:
    """After the write's commit (at once outside a transaction): fresh generations, the marks taken back."""
    if scopes:
        transaction.on_commit(lambda: _settle(scopes))


def _settle(scopes: list[str]) -> None:
    backend = _backend()
    if backend is None:
        return
    keys = [key for scope in scopes for key in _keys(backend, scope)]
    fresh = [str(secrets.randbits(62)) for _ in scopes]
    try:
        _run(backend.redis_client(), _SETTLE, _SETTLE_SHA, len(keys), *keys, *fresh, GENERATION_TTL)
    except Exception:
        # The marks stay (until PENDING_TTL): those links are checked in the database meanwhile.
        logger.warning("could not settle secret links %s", scopes, exc_info=True)


def revoked_everywhere() -> None:
    """For a write outside the ORM: every cached answer stops counting (call it before the write)."""
    settle_after_commit(begin([EVERYTHING]))


# --- readers -------------------------------------------------------------------------------------


def _scopes(character_id: int, event_id: int) -> tuple[str, str, str]:
    return character_scope(character_id), event_scope(event_id), EVERYTHING


# One round trip: the answer, then its scopes' generations and marks and the poll's next key, read
# together. KEYS[1]: the answer; ARGV: key templates with {c} (character) and {e} (event) to fill in.
_CHECK = """
local answer = redis.call('GET', KEYS[1])
if not answer then return false end
local c, e = string.match(answer, '^(%d+)|(%d+)|')
if not c then return false end
local keys = {}
for i = 1, #ARGV do
  keys[i] = string.gsub(string.gsub(ARGV[i], '{c}', c), '{e}', e)
end
local values = redis.call('MGET', unpack(keys))
table.insert(values, 1, answer)
return values
"""
_CHECK_SHA = _sha(_CHECK)


def _encode(answer: Answer) -> str:
    gens = (g.decode("ascii") if g is not None else "" for g in answer.generations)
    flag = int(answer.expire_after_end)
    return "|".join([str(answer.character_id), str(answer.event_id), str(flag), answer.ends_on.isoformat(), *gens])


def _decode(raw: bytes) -> Answer | None:
    parts = raw.decode("ascii").split("|")
    if len(parts) != 7:
        return None
    cid, eid, flag, ends_on, *gens = parts
    generations = tuple(g.encode("ascii") if g else None for g in gens)
    return Answer(int(cid), int(eid), flag == "1", dt.date.fromisoformat(ends_on), generations)  # type: ignore[arg-type]


# The check's key templates, made once per cache configuration (key prefix, version, key function).
_TEMPLATES: dict[tuple[Any, ...], list[str]] = {}


def _templates(backend: Any, also: str) -> list[str]:
    made = (backend.key_prefix, backend.version, backend.key_func, also)
    found = _TEMPLATES.get(made)
    if found is None:
        scopes = (character_scope("{c}"), event_scope("{e}"), EVERYTHING)  # type: ignore[arg-type]
        found = [*(key for scope in scopes for key in _keys(backend, scope)), backend.make_key(also)]
        if len(_TEMPLATES) < 64:  # a test run makes a key prefix per test: keep the table small
            _TEMPLATES[made] = found
    return found


def cached(token: str, also: str) -> tuple[Answer | None, Any]:
    """The link's cached answer if it still counts (else None), and the cache's entry under ``also``.

    ``also`` is a key template with ``{c}`` for the character's id: the poll's next read (its
    fight's meta), fetched in the same round trip (one Lua call: the answer, its scopes'
    generations and marks, and ``also``).
    """
    backend = _backend()
    if backend is None:
        return None, None
    try:
        key = backend.make_key(answer_key(token))
        values = _run(backend.redis_client(), _CHECK, _CHECK_SHA, 1, key, *_templates(backend, also))
    except Exception:
        return None, None
    if not values:
        return None, None
    found = _decode(values[0])
    if found is None:
        return None, None
    generations, marks, extra = tuple(values[1:7:2]), values[2:7:2], values[7]
    if any(marks) or None in generations or generations != found.generations:
        return None, None
    return found, (None if extra is None else backend.decode(extra))


def stamp(character_id: int, event_id: int) -> tuple[bytes | None, bytes | None, bytes | None] | None:
    """Before a database read that may be cached: the scopes' generations (made if missing), None if marked."""
    backend = _backend()
    if backend is None:
        return None
    try:
        pipe = backend.redis_client().pipeline(transaction=False)
        keys = [_keys(backend, scope) for scope in _scopes(character_id, event_id)]
        for gen, _pending in keys:
            pipe.set(gen, str(secrets.randbits(62)), nx=True, ex=GENERATION_TTL)
        pipe.mget([key for pair in keys for key in pair])
        values = pipe.execute()[-1]
    except Exception:
        return None
    if any(values[1::2]):
        return None
    return (values[0], values[2], values[4])


def remember(token: str, answer: Answer) -> None:
    """Keep a working link's answer for ``LINK_TTL`` (plain text: the Lua check reads its ids)."""
    backend = _backend()
    if backend is None:
        return
    try:
        backend.redis_client().set(backend.make_key(answer_key(token)), _encode(answer), ex=LINK_TTL)
    except Exception:
        logger.warning("could not keep a secret link's answer", exc_info=True)


def forget_all() -> None:
    """Every mark, generation and answer gone, as if every write so far had committed. Tests only.

    A test runs in a transaction that is never committed, so the writers' commit
    callbacks never run and the marks of the fixtures' writes would stay (each
    test has a cache key prefix of its own, tests/conftest.py). It scans the cache's keys.
    """
    backend = _backend()
    if backend is None:
        return
    client = backend.redis_client()
    keys = list(client.scan_iter(match=backend.make_key("sumrak:link*"), count=1000))
    if keys:
        client.delete(*keys)

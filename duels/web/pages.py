"""The page registry: what every kind's pages answer, so the shared pages never ask ``if kind == ...``.

Each wing fills one ``KindPages`` (its ``views.py``), registered by
``DuelsConfig.ready`` beside its ``SituationKind``. The shared pages and
paths of ``duels/web/`` and the cross-cutting pages (``duels/views_*.py``:
the tablet poll, submit and undo, the spectator page, the player's live
part, the record, the log and its exports, history, the running-fights
lists, the big screen) ask ``pages_of(situation)`` for the kind's templates
and contexts; they render, cache, answer 304s and refuse the same way for
every kind.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.http import Http404, HttpRequest

from duels.models import LogEntry, Situation
from duels.web.alerts import Alert
from duels.web.log import LogLine
from duels.web.notes import Note


@dataclass(frozen=True)
class Person:
    """One participant as a list shows them: a character and their condition, or an army and its commander."""

    name: str
    note: str = ""  # a condition, a side
    out: bool = False  # can no longer fight (D11), or the side lost


@dataclass(frozen=True)
class FightSummary:
    """One fight as the lists show it (history, running fights, the referee's home), for every kind."""

    kind_label: str
    title: str  # the fight as its pages head it: "Combat situation 12", "Battle 13", ...
    people: tuple[Person, ...]
    # What stands now, a line each: a duel's phase or result, a battle's round and turn, a cycle's stage.
    lines: tuple[str, ...] = ()
    result: str = ""  # the outcome once it ended ("" while it runs)
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Templates:
    """A kind's page templates (templates/duels/<kind>/, the same names in every wing)."""

    tablet: str  # the referee's page; its ``#live`` partial is what polls and taps answer
    watch: str  # the public spectator page; ``#live`` likewise; ``#card`` its part on the big screen
    player: str  # the player's part of their live page (a partial included there)
    record: str  # the fight's public record (extends duels/record_base.html)

    @classmethod
    def of(cls, folder: str) -> Templates:
        """A wing's pages: the same names in its own folder of templates/duels/."""
        return cls(*(f"duels/{folder}/{page}.html" for page in ("tablet", "watch", "player", "record")))


@dataclass(frozen=True)
class Wing:
    """What names a wing's pages: its kind, its templates' folder, its tablet's URL name.

    ``own_urls``: the URL names that stand for this kind alone (its tablet's, its
    actions'); a fight of another kind under one of them is not found there.
    """

    key: str
    folder: str
    tablet_url_name: str
    own_urls: tuple[str, ...] = ()

    @property
    def templates(self) -> Templates:
        return Templates.of(self.folder)


class KindPages(Protocol):
    """One kind's pages, as the shared views ask them. Contexts are plain dicts for the kind's templates."""

    @property
    def key(self) -> str: ...

    @property
    def templates(self) -> Templates: ...

    @property
    def tablet_url_name(self) -> str:
        """The URL name of its referee page (``duels:situation``, ``duels:battle``, ``duels:mass``)."""
        ...

    def tablet_context(
        self,
        situation: Situation,
        state: Any,
        recent: Iterable[LogEntry] | None,
        alert: Alert | None,
        *,
        added: Sequence[LogEntry] | None = None,
    ) -> dict[str, Any]:
        """The referee's page: the state as the referee sees it, the newest log lines, the forms' choices.

        ``added``: a step's own new entries (newest first, the head of ``recent``); then ``log_lines``
        holds only their lines, the ones the step's answer prepends (duels/web/oob.py ``log_part``),
        each the same line the full context would describe for that entry. ``recent`` stays whole for
        whatever else reads it (a note about an earlier step). None: every recent entry's line.
        """
        ...

    def clock_note(self, state: Any, command: Any, err: Exception | None) -> Note | None:
        """Why a tap was refused when only the clock moved the fight on (D8, S2), or None.

        ``state`` is the fresh state; ``command`` the engine command the tap
        carried (None if unknown); ``err`` the refusal, or None for a stale page.
        """
        ...

    def watch_context(self, situation: Situation, state: Any) -> dict[str, Any]:
        """The spectator's view (D4: no unplayed card, no kept magic card, no deck order)."""
        ...

    def player_context(self, character_id: int, situation: Situation, state: Any) -> dict[str, Any]:
        """The player's own part: their hand and what they face (D4: only their own hand)."""
        ...

    def summary(self, situation: Situation, state: Any) -> FightSummary: ...

    def log_lines(self, situation: Situation, state: Any, entries: Iterable[LogEntry], *, whole: bool) -> list[LogLine]:
        """The log's words for ``entries``; ``whole``: the log page and its exports, which may read more."""
        ...

    def record_context(self, situation: Situation, state: Any, page: str | None) -> dict[str, Any]:
        """The fight's public record: finished steps and played cards, paginated (D4: nothing unplayed)."""
        ...


PAGES: dict[str, KindPages] = {}


def register_pages(pages: KindPages) -> KindPages:
    if pages.key in PAGES and type(PAGES[pages.key]) is not type(pages):
        raise ValueError(f"two page sets are registered for {pages.key!r}")
    PAGES[pages.key] = pages
    return pages


def pages_for(kind: str) -> KindPages:
    return PAGES[kind]


def pages_of(situation: Situation) -> KindPages:
    return PAGES[situation.kind]


def refused(kind: str, url_name: str) -> bool:
    """Whether a fight of ``kind`` reached under ``url_name`` is refused: the name stands for another kind alone."""
    return any(pages.key != kind and url_name in getattr(pages, "own_urls", ()) for pages in PAGES.values())


def url_name(request: HttpRequest) -> str:
    """The URL name the request was resolved under ("" before resolving)."""
    match = request.resolver_match
    return match.view_name if match is not None else ""


def refuse_other_kinds(request: HttpRequest, situation: Situation) -> None:
    """404 for a fight reached under a URL name that stands for another kind alone (``Wing.own_urls``)."""
    if refused(situation.kind, url_name(request)):
        raise Http404


def tablet_path(situation: Situation) -> tuple[str, int]:
    """The referee's page of a fight, as ``redirect`` and ``reverse`` take it."""
    return pages_of(situation).tablet_url_name, situation.pk

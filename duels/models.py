"""Combat situations and their append-only log (DESIGN.md §4).

A ``Situation`` row caches the engine's state (``state``) next to the opening
snapshot it started from (``opening``); the truth is the log: replaying the
non-undone ``LogEntry`` rows from ``opening`` gives ``state`` again. Change a
situation only through ``duels.services``: it locks the row, checks the version
the tablet saw, runs the engine and appends to the log in one transaction.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from duels.fields import FastJSONField
from rules import snapshots

# The columns of a situation that may name state snapshots (rules/snapshots.py).
SNAPSHOT_FIELDS = ("opening", "state")


class StateSnapshot(models.Model):
    """The static part of fights' states, stored once by its content (rules/snapshots.py, issue 24).

    ``key`` is the SHA-256 of ``data``'s canonical JSON: the counter rules of a
    catalogue as a fight opened with them, the card faces of a fight's cards.
    A row never changes and is shared by every fight (of any event) whose
    state names its key. None is ever deleted: a row is small, rows are few
    (one per catalogue version and per set of faces), and deleting one a state
    still names would break that fight (docs/performance.md).
    """

    key = models.CharField(_("key"), max_length=64, primary_key=True)
    data = FastJSONField(_("data"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("state snapshot")
        verbose_name_plural = _("state snapshots")

    def __str__(self) -> str:
        return self.key[:12]


def store_snapshots(keys: set[str], carried: dict[str, Any] | None = None) -> None:
    """The rows of ``keys``, written if missing (race-safe: two writers of one key both succeed)."""
    if not keys:
        return
    carried = carried or {}
    rows = []
    for key in sorted(keys):  # one order for every writer: no deadlock between two of them
        data = carried[key] if key in carried else snapshots.known(key)
        if data is None:
            # Neither carried nor registered here: it must be stored already (read from it).
            data = snapshots.fetch([key])[key]
        rows.append(StateSnapshot(key=key, data=data))
    StateSnapshot.objects.bulk_create(rows, ignore_conflicts=True)


def read_snapshots(keys: Any) -> dict[str, Any]:
    """The resolver the engine reads unknown snapshots with (registered in ``DuelsConfig.ready``)."""
    return dict(StateSnapshot.objects.filter(key__in=list(keys)).values_list("key", "data"))


class Situation(models.Model):
    """A combat situation (S2): a stretch of fighting between the same people."""

    class Kind(models.TextChoices):
        # The services keep everything kind-specific behind ``duels.services.kinds``.
        DUEL = "duel", _("duel")
        BATTLE = "battle", _("battle")
        MASS_BATTLE = "mass_battle", _("mass battle")

    event = models.ForeignKey(
        "events.Event", on_delete=models.CASCADE, related_name="situations", verbose_name=_("event")
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.DUEL)
    # Settings and counter rules as they were when the situation opened: replay
    # never depends on later catalogue or event edits.
    opening = FastJSONField(_("opening snapshot"))
    state = FastJSONField(_("current state"))
    # Bumped by every accepted change; a tablet sends the version it saw and a
    # stale one is refused (two referees cannot both answer one step).
    version = models.PositiveIntegerField(_("version"), default=0)
    ended = models.BooleanField(_("ended"), default=False)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    # The earliest pending deadline (answer window D8, situation gap S2): the
    # sweeper's query is "not ended and next_deadline <= now".
    next_deadline = models.DateTimeField(_("next deadline"), null=True, blank=True, db_index=True)
    participants = models.ManyToManyField(
        "events.Character", related_name="situations", blank=True, verbose_name=_("participants")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("combat situation")
        verbose_name_plural = _("combat situations")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["event", "ended"], name="situation_event_ended")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save; first the snapshots the saved states name that the row did not name when read.

        A step names the snapshots the state it changed named: no statement.
        A new row, a new set of faces (an arsenal taken at a round break), a
        state written by a tool: their snapshots are written first.
        """
        stored = self.store_named_snapshots(kwargs.get("update_fields"))
        super().save(*args, **kwargs)
        self._stored_snapshots = stored

    def store_named_snapshots(self, fields: Any = None) -> set[str]:
        """Write the snapshots that ``fields`` (None: every column) name and the row did not; the set named after.

        ``save``'s bookkeeping, apart so that a step's own UPDATE
        (duels/services/rows.py) does the same; set ``_stored_snapshots`` to
        the answer once the row is written.
        """
        named = {
            key
            for name in SNAPSHOT_FIELDS
            if name in self.__dict__ and (fields is None or name in fields)
            for key in snapshots.refs(self.__dict__[name])
        }
        stored: set[str] = getattr(self, "_stored_snapshots", set())
        store_snapshots(named - stored)
        return stored | named

    @classmethod
    def from_db(cls, db: Any, field_names: Any, values: Any, **kwargs: Any) -> Situation:
        row = super().from_db(db, field_names, values, **kwargs)
        row._stored_snapshots = row._snapshots_named()
        return row

    def _snapshots_named(self) -> set[str]:
        return {key for name in SNAPSHOT_FIELDS if name in self.__dict__ for key in snapshots.refs(self.__dict__[name])}


class LogEntry(models.Model):
    """One accepted change of a situation. Never deleted; undo marks entries ``undone``."""

    class Kind(models.TextChoices):
        COMMAND = "command", _("command")
        EXPIRE = "expire", _("deadline passed")
        UNDO = "undo", _("undo")

    situation = models.ForeignKey(Situation, on_delete=models.CASCADE, related_name="log", verbose_name=_("situation"))
    seq = models.PositiveIntegerField(_("number"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    # command: the engine command (command_to_dict); undo: {"undid": [seq, ...]};
    # expire: null.
    command = FastJSONField(_("command"), null=True, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("at"))
    # IA3: the index drawn blind from the victim's hand, recorded for replay.
    draw = models.IntegerField(_("draw"), null=True, blank=True)
    # The page's one-time token: a repeated submission changes nothing.
    nonce = models.CharField(_("request token"), max_length=64, blank=True, default="")
    undone = models.BooleanField(_("undone"), default=False)
    # An override's reason (CR2) or an undo's reason.
    reason = models.TextField(_("reason"), blank=True)
    events = FastJSONField(_("events"), default=list, blank=True)

    class Meta:
        verbose_name = _("log entry")
        verbose_name_plural = _("log entries")
        ordering = ["situation", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["situation", "seq"], name="log_seq_once"),
            models.UniqueConstraint(fields=["nonce"], condition=~models.Q(nonce=""), name="log_nonce_once"),
        ]

    def __str__(self) -> str:
        return f"{self.situation_id}/{self.seq} {self.kind}"

    @property
    def command_type(self) -> str:
        return str((self.command or {}).get("type", "")) if self.kind == self.Kind.COMMAND else self.kind

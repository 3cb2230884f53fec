"""JoinRPG's game API, when the laptop is online before the game (issue 22; docs/import.md).

``manage.py import_joinrpg PROJECT --event ID --login EMAIL`` signs in as a master of the
project (``POST /x-api/token``, password grant), reads the project's fields
(``GET /x-game-api/{project}/metadata/fields``), lists the characters changed since the last
sync (``GET /x-game-api/{project}/characters?modifiedSince=…``) and reads each of them
(``…/characters/{id}/``). Each becomes a row in the characters import's own columns and goes
through the same runner as a file (events/imports/runner.py): checked, written in batches,
all or nothing per batch of characters. JoinRPG's ids are kept (``external_id`` =
``joinrpg:<id>``), so a character renamed there is updated here, never duplicated.

Which Sumrak field a JoinRPG field fills: its ProgrammaticValue (``side``, ``power_level``,
``kind``, ``condition``, ``notes``…), else its name as a file's column would be matched
(«Сторона»); a dropdown's value: the variant's ProgrammaticValue (``light``, ``3``), else its
label, read as the file import reads a choice.

A sync is resumable (``JoinRpgSync``): the changed characters' ids are noted before any is
read, each batch written removes its ids, and only when the list is empty does the sync's
"changed since" move on to the time the list was taken. A network error, a refusal or a
stop half-way leaves the rest of the list for the next run, which reads only those.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.utils.translation import gettext as _

from events.imports.mapping import fold, names_of
from helpers.tables import Table

TIMEOUT = 30.0
BATCH = 50


class JoinRpgError(Exception):
    """JoinRPG could not be reached, refused the login, or answered what no JoinRPG answers."""


@dataclass
class Client:
    """The few calls of JoinRPG's game API a sync needs (JSON over HTTPS, a bearer token)."""

    base_url: str
    project: int
    token: str = ""
    calls: list[str] = field(default_factory=list)

    def _open(self, request: urllib.request.Request) -> Any:
        self.calls.append(request.full_url)
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
                body = answer.read(20 * 1024 * 1024)
        except urllib.error.HTTPError as err:
            if err.code in (400, 401, 403):
                message = _("JoinRPG refused the login or the project (HTTP %(code)d).")
                raise JoinRpgError(message % {"code": err.code}) from None
            raise JoinRpgError(_("JoinRPG answered with an error (HTTP %(code)d).") % {"code": err.code}) from None
        except (urllib.error.URLError, OSError, TimeoutError) as err:
            raise JoinRpgError(_("JoinRPG could not be reached (%(reason)s).") % {"reason": err}) from None
        try:
            return json.loads(body)
        except ValueError:
            raise JoinRpgError(_("JoinRPG's answer was not JSON.")) from None

    def login(self, username: str, password: str) -> None:
        data = urllib.parse.urlencode({"username": username, "password": password, "grant_type": "password"})
        request = urllib.request.Request(
            f"{self.base_url}/x-api/token",
            data=data.encode(),
            headers={"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"},
        )
        answer = self._open(request)
        token = answer.get("access_token") if isinstance(answer, dict) else None
        if not token:
            raise JoinRpgError(_("JoinRPG gave no access token."))
        self.token = str(token)

    def get(self, path: str, **query: str) -> Any:
        url = f"{self.base_url}/x-game-api/{self.project}/{path}"
        if query:
            url += "?" + urllib.parse.urlencode(query)
        request = urllib.request.Request(
            url, headers={"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        )
        return self._open(request)

    def fields(self) -> list[dict[str, Any]]:
        return list((self.get("metadata/fields") or {}).get("fields") or [])

    def changed(self, since: datetime | None) -> list[dict[str, Any]]:
        query = {"modifiedSince": since.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")} if since else {}
        return list(self.get("characters", **query) or [])

    def character(self, character_id: int) -> dict[str, Any]:
        return dict(self.get(f"characters/{character_id}/") or {})


def parse_time(text: str | None) -> datetime | None:
    if not text:
        return None
    moment = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


# What a character with no approved claim is: JoinRPG's BusyStatus (0 HasPlayer, 1 Discussed, 2 NoClaims, 3 NPC).
BUSY_STATUS = {0: "accepted", 1: "pending", 2: "accepted", 3: "accepted"}
TARGETS = ("side", "kind", "power_level", "condition", "arsenal_limit", "notes", "status", "arrived")


@dataclass
class FieldPlan:
    """Where a JoinRPG field goes (a Sumrak column), and how its variants read."""

    column: str
    variants: dict[str, str]  # variant id -> the value to write (its ProgrammaticValue, else its label)


def plan_fields(fields: list[dict[str, Any]], specs: list[Any]) -> dict[int, FieldPlan]:
    """Each JoinRPG field that fills one of our columns: by its ProgrammaticValue, else by its name."""
    by_name = names_of([spec for spec in specs if spec.key in TARGETS])
    plans: dict[int, FieldPlan] = {}
    taken: set[str] = set()
    for item in fields:
        programmatic = str(item.get("programmaticValue") or "").strip()
        column = programmatic if programmatic in TARGETS else by_name.get(fold(item.get("fieldName")), "")
        if not column or column in taken:
            continue
        taken.add(column)
        variants = {
            str(v.get("projectFieldVariantId")): str(v.get("programmaticValue") or v.get("label") or "")
            for v in item.get("valueList") or []
        }
        plans[int(item.get("projectFieldId", 0))] = FieldPlan(column, variants)
    return plans


BASE_COLUMNS = ("external_id", "name", "status", "groups", "player_name", "email", "vk", "telegram")


def columns_of(plans: dict[int, FieldPlan]) -> list[str]:
    """The columns a sync writes: ours always, and those a JoinRPG field fills (no other is touched)."""
    planned = [plan.column for plan in plans.values()]
    return [*BASE_COLUMNS, *(column for column in TARGETS if column in planned and column not in BASE_COLUMNS)]


def character_row(info: dict[str, Any], plans: dict[int, FieldPlan], columns: list[str]) -> list[Any]:
    """One JoinRPG character as a row of the characters import's own columns."""
    values: dict[str, Any] = {
        "external_id": f"joinrpg:{int(info['characterId'])}",
        "name": str(info.get("characterName") or "").strip(),
        "groups": " | ".join(
            str(g.get("characterGroupName") or "") for g in info.get("groups") or [] if g.get("characterGroupName")
        ),
    }
    values["status"] = (
        BUSY_STATUS.get(int(info.get("busyStatus") or 0), "accepted")
        if info.get("isActive", True)
        else (
            "rejected"  # deleted in JoinRPG: kept here (nothing is lost), no longer playing
        )
    )
    player = info.get("playerInfo") or {}
    contacts = player.get("playerContacts") or {}
    values.update(
        player_name=player.get("playerDisplayName") or "",
        email=contacts.get("email") or "",
        vk=contacts.get("vKontakte") or "",
        telegram=contacts.get("telegram") or "",
    )
    for item in info.get("fields") or []:
        plan = plans.get(int(item.get("projectFieldId", 0)))
        if plan is None:
            continue
        raw = str(item.get("value") or "")
        values[plan.column] = plan.variants.get(raw) or item.get("displayString") or raw
    return [values.get(column) for column in columns]


def table_of(infos: list[dict[str, Any]], plans: dict[int, FieldPlan]) -> Table:
    columns = columns_of(plans)
    rows = [character_row(info, plans, columns) for info in infos]
    # Row numbers as a file would have them (the header is row 1), for the errors' words.
    return Table(columns, rows, list(range(2, len(rows) + 2)))


@dataclass
class Report:
    read: int = 0
    created: int = 0
    updated: int = 0
    left: int = 0
    errors: list[str] = field(default_factory=list)


def sync(client: Client, event: Any, *, batch: int = BATCH, user: Any = None) -> Report:
    """Bring the event's characters up to date with the project's (see the module's words on resuming)."""
    from django.utils import timezone

    from events.imports import runner
    from events.imports.kinds import kind_of
    from events.imports.models import JoinRpgSync, TableImport

    state, _created = JoinRpgSync.objects.get_or_create(event=event, project=client.project)
    plans = plan_fields(client.fields(), kind_of("characters").fields(event))
    report = Report()
    if not state.pending:
        started = timezone.now()
        headers = client.changed(state.synced_until)
        state.pending = [int(h["characterId"]) for h in headers]
        stamps = [t for t in (parse_time(h.get("updatedAt")) for h in headers) if t is not None]
        state.target = max([started, *stamps]) if stamps else started
        state.save(update_fields=["pending", "target", "updated_at"])
    while state.pending:
        ids = state.pending[:batch]
        infos = [client.character(character_id) for character_id in ids]
        report.read += len(infos)
        record = runner.start(event, "characters", table_of(infos, plans), user=user, file_name="JoinRPG")
        done = runner.run(record.pk)
        if done.status != TableImport.Status.DONE:
            report.errors = [str(e[2]) if len(e) > 2 else str(e) for e in done.errors] or [done.failure]
            break
        report.created += done.created
        report.updated += done.updated
        state.pending = state.pending[len(ids) :]
        state.save(update_fields=["pending", "updated_at"])
    report.left = len(state.pending)
    if not state.pending:
        state.synced_until = state.target
        state.save(update_fields=["synced_until", "updated_at"])
    return report

"""Read-only admin for fights: they change only through ``duels.services`` (locks, log, timers)."""

import json

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _

from duels.models import LogEntry, Situation
from duels.services.export import export_situation


class LogEntryInline(admin.TabularInline):
    model = LogEntry
    fields = ("seq", "kind", "command", "actor", "at", "draw", "undone", "reason")
    readonly_fields = fields
    ordering = ["seq"]
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Situation | None = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[LogEntry]:
        # Each row shows its actor: one join, not one query per entry of a long fight.
        return super().get_queryset(request).select_related("actor")


@admin.register(Situation)
class SituationAdmin(admin.ModelAdmin):
    list_display = ["id", "event", "kind", "version", "ended", "next_deadline", "created_at"]
    list_filter = ["event", "kind", "ended"]
    readonly_fields = ["event", "kind", "version", "ended", "ended_at", "next_deadline", "created_at", "updated_at"]
    exclude = ["opening", "state", "participants"]
    inlines = [LogEntryInline]
    actions = ["export_json"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Situation | None = None) -> bool:
        # Viewing is allowed through has_view_permission; editing would bypass the log.
        return False

    @admin.action(description=_("Export as JSON"))
    def export_json(self, request: HttpRequest, queryset: QuerySet[Situation]) -> HttpResponse:
        data = [export_situation(s) for s in queryset.select_related("event").order_by("pk")]
        response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json")
        response["Content-Disposition"] = 'attachment; filename="situations.json"'
        return response


@admin.register(LogEntry)
class LogEntryAdmin(admin.ModelAdmin):
    list_display = ["situation", "seq", "kind", "actor", "at", "undone"]
    list_filter = ["kind", "undone"]
    readonly_fields = [f.name for f in LogEntry._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: LogEntry | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: LogEntry | None = None) -> bool:
        # Append-only: undo marks entries, nothing is ever deleted.
        return False

"""Admin for events, their staff and characters.

``CharacterAdmin.inlines`` starts empty on purpose: the cards app appends its
pool and arsenal inlines (in cards/admin.py).
"""

from collections.abc import Sequence
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.widgets import AutocompleteSelect
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from events.forms import EVENT_DETAILS, FIGHT_KINDS, RULE_SETTINGS
from events.models import Character, Event, StaffRole


class KnownLabelsAutocomplete(AutocompleteSelect):
    """An autocomplete whose selected value's label is known in advance.

    Django's autocomplete looks each row's selected object up with its own query;
    an inline of twenty rows would make twenty. The inline loads the labels of
    all its rows at once and hands them over.
    """

    def __init__(self, field: Any, admin_site: admin.AdminSite, labels: dict[str, str]) -> None:
        super().__init__(field, admin_site)
        self.labels = labels

    def optgroups(self, name: str, value: Sequence[str], attr: Any = None) -> list[Any]:
        selected = {str(v) for v in value if str(v) not in self.choices.field.empty_values}
        if not selected <= self.labels.keys():
            return super().optgroups(name, value, attr)
        options = [] if self.is_required else [self.create_option(name, "", "", False, 0)]
        for pk in sorted(selected):
            options.append(self.create_option(name, pk, self.labels[pk], True, len(options)))
        return [(None, options, 0)]


class PickerInline(admin.TabularInline):
    """An inline whose ``picker_field`` is picked by autocomplete, in a fixed number of queries.

    Each row's label (``str(row)``) names its foreign keys, so they are loaded with
    the rows; the picked objects' labels are loaded in one query for all rows.
    """

    picker_field = ""
    extra = 1

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        relations = [f.name for f in self.model._meta.fields if f.many_to_one]
        return super().get_queryset(request).select_related(*relations)

    def get_formset(self, request: HttpRequest, obj: Model | None = None, **kwargs: Any) -> Any:
        field = self.model._meta.get_field(self.picker_field)
        labels: dict[str, str] = {}
        if obj is not None and obj.pk is not None:
            rows = self.get_queryset(request).filter(**{self.fk_name or self._parent_field(): obj})
            picked = field.related_model._default_manager.filter(pk__in=rows.values(self.picker_field))
            labels = {str(item.pk): str(item) for item in picked}
        widgets = {self.picker_field: KnownLabelsAutocomplete(field, self.admin_site, labels)}
        return super().get_formset(request, obj, widgets=widgets, **kwargs)

    def _parent_field(self) -> str:
        return next(f.name for f in self.model._meta.fields if f.is_relation and f.related_model is self.parent_model)


class StaffRoleInline(PickerInline):
    model = StaffRole
    picker_field = "user"


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "starts_on", "ends_on", "place", "registration_open"]
    list_filter = ["registration_open", "duels_on", "battles_on", "mass_battles_on"]
    search_fields = ["name", "place"]
    date_hierarchy = "starts_on"
    inlines = [StaffRoleInline]
    fieldsets = [
        (None, {"fields": EVENT_DETAILS}),
        (_("Rule settings"), {"fields": RULE_SETTINGS}),
        (_("Fights allowed"), {"fields": FIGHT_KINDS}),
    ]


@admin.register(StaffRole)
class StaffRoleAdmin(admin.ModelAdmin):
    list_display = ["user", "role", "event"]
    list_filter = ["role", "event"]
    search_fields = ["user__username", "event__name"]
    list_select_related = ["user", "event"]
    autocomplete_fields = ["user"]


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ["name", "event", "player", "side", "kind", "power_level", "status", "condition", "arrived"]
    list_filter = ["event", "side", "kind", "status", "condition", "arrived"]
    search_fields = ["name", "player__username", "player__first_name", "player__last_name"]
    list_select_related = ["event", "player"]
    autocomplete_fields = ["player", "focus_card"]
    readonly_fields = ["link_token", "created_at", "arrived_at"]
    actions = ["regenerate_links", "revoke_links"]
    inlines = []
    fieldsets = [
        (None, {"fields": ["event", "player", "name", "side", "kind", "power_level"]}),
        (_("Application"), {"fields": ["status", "application", "review_comment", "notes", "created_at"]}),
        (_("In the game"), {"fields": ["condition", "arsenal_limit", "focus_card", "restorable_arsenal"]}),
        (_("Arrival and secret link"), {"fields": ["arrived", "arrived_at", "link_active", "link_token"]}),
    ]

    @admin.action(description=_("Give the selected characters new secret links"))
    def regenerate_links(self, request, queryset):
        for character in queryset:
            character.regenerate_link()
        count = len(queryset)
        self.message_user(
            request,
            ngettext("%(count)d link regenerated.", "%(count)d links regenerated.", count) % {"count": count},
            messages.SUCCESS,
        )

    @admin.action(description=_("Revoke the secret links of the selected characters"))
    def revoke_links(self, request, queryset):
        count = queryset.update(link_active=False)
        self.message_user(
            request,
            ngettext("%(count)d link revoked.", "%(count)d links revoked.", count) % {"count": count},
            messages.SUCCESS,
        )

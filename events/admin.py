"""Admin for events, their staff and characters.

``CharacterAdmin.inlines`` starts empty on purpose: the cards app appends its
pool and arsenal inlines (``CharacterAdmin.inlines += [...]`` in cards/admin.py).
"""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from events.models import Character, Event, StaffRole


class StaffRoleInline(admin.TabularInline):
    model = StaffRole
    extra = 1
    raw_id_fields = ["user"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "starts_on", "ends_on", "place", "registration_open"]
    list_filter = ["registration_open", "duels_on", "battles_on", "mass_battles_on"]
    search_fields = ["name", "place"]
    date_hierarchy = "starts_on"
    inlines = [StaffRoleInline]
    fieldsets = [
        (None, {"fields": ["name", "starts_on", "ends_on", "place", "description", "catalogue", "registration_open"]}),
        (
            _("Rule settings"),
            {
                "fields": [
                    "answer_window_s",
                    "situation_gap_s",
                    "instant_attack_distance_m",
                    "reactions_from_round",
                    "duels_on",
                    "battles_on",
                    "mass_battles_on",
                ]
            },
        ),
    ]


@admin.register(StaffRole)
class StaffRoleAdmin(admin.ModelAdmin):
    list_display = ["user", "role", "event"]
    list_filter = ["role", "event"]
    search_fields = ["user__username", "event__name"]
    list_select_related = ["user", "event"]
    raw_id_fields = ["user"]


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ["name", "event", "player", "side", "kind", "power_level", "status", "condition", "arrived"]
    list_filter = ["event", "side", "kind", "status", "condition", "arrived"]
    search_fields = ["name", "player__username", "player__first_name", "player__last_name"]
    list_select_related = ["event", "player"]
    raw_id_fields = ["player", "focus_card"]
    readonly_fields = ["link_token", "created_at", "arrived_at"]
    actions = ["regenerate_links", "revoke_links"]
    inlines: list = []
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

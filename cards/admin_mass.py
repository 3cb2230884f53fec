"""Admin for mass-battle data: magic cards, the armlist, armies and their warriors."""

from django.contrib import admin

from cards.models_mass import Army, MagicCard, Warrior, WarriorType


@admin.register(MagicCard)
class MagicCardAdmin(admin.ModelAdmin):
    list_display = ["name_ru", "name_en", "deck", "magic_type", "acts_on_protected", "keepable", "copies", "catalogue"]
    list_filter = ["catalogue", "deck", "magic_type", "acts_on_protected", "keepable"]
    search_fields = ["name_ru", "name_en", "text"]
    list_select_related = ["catalogue"]


@admin.register(WarriorType)
class WarriorTypeAdmin(admin.ModelAdmin):
    list_display = ["name_ru", "name_en", "protections", "event"]
    list_filter = ["event"]
    search_fields = ["name_ru", "name_en", "description"]
    list_select_related = ["event"]


class WarriorInline(admin.TabularInline):
    model = Warrior
    extra = 1
    raw_id_fields = ["character"]


@admin.register(Army)
class ArmyAdmin(admin.ModelAdmin):
    list_display = ["name", "commander_name", "commander", "event"]
    list_filter = ["event"]
    search_fields = ["name", "commander_name"]
    list_select_related = ["event", "commander"]
    raw_id_fields = ["commander"]
    inlines = [WarriorInline]


@admin.register(Warrior)
class WarriorAdmin(admin.ModelAdmin):
    list_display = ["name", "army", "warrior_type", "state", "character"]
    list_filter = ["army__event", "army", "state", "warrior_type"]
    search_fields = ["name", "army__name", "character__name"]
    list_select_related = ["army", "warrior_type", "character"]
    raw_id_fields = ["character"]

"""Admin for catalogues, cards, counter rules and arsenals; pool and arsenal inlines in the character admin."""

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from cards.models import ArsenalCard, Card, Catalogue, CounterRule, PoolEntry, PreparedArsenal, PreparedArsenalCard
from events.admin import CharacterAdmin, PickerInline


class CardPickerInline(PickerInline):
    picker_field = "card"


@admin.register(Catalogue)
class CatalogueAdmin(admin.ModelAdmin):
    list_display = ["name", "card_count", "cards_link"]
    search_fields = ["name"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Catalogue]:
        return super().get_queryset(request).annotate(card_total=Count("cards"))

    @admin.display(description=_("cards"), ordering="card_total")
    def card_count(self, obj: Catalogue) -> int:
        return obj.card_total  # type: ignore[attr-defined]

    @admin.display(description=_("list"))
    def cards_link(self, obj: Catalogue) -> str:
        # A catalogue has dozens of cards with long texts: a filtered list reads better than an inline.
        url = reverse("admin:cards_card_changelist") + f"?catalogue__id__exact={obj.pk}"
        return format_html('<a href="{}">{}</a>', url, _("the catalogue's cards"))


class CounterRuleInline(CardPickerInline):
    model = CounterRule
    fk_name = "defence_card"
    picker_field = "attack_card"
    verbose_name = _("counter rule of this defence card")
    verbose_name_plural = _("counter rules of this defence card (CR2)")


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ["name_ru", "name_en", "kind", "category", "magic_type", "full_effect", "tags", "catalogue"]
    list_filter = ["catalogue", "kind", "category", "magic_type", "action_kind"]
    search_fields = ["name_ru", "name_en", "tags", "rules_text"]
    list_select_related = ["catalogue"]
    inlines = [CounterRuleInline]


@admin.register(CounterRule)
class CounterRuleAdmin(admin.ModelAdmin):
    list_display = ["defence_card", "attack_card", "attack_tag", "outcome"]
    list_filter = ["outcome", "defence_card__catalogue"]
    search_fields = ["defence_card__name_ru", "attack_card__name_ru", "attack_tag"]
    list_select_related = ["defence_card", "attack_card"]
    autocomplete_fields = ["defence_card", "attack_card"]


class PreparedArsenalCardInline(CardPickerInline):
    model = PreparedArsenalCard


@admin.register(PreparedArsenal)
class PreparedArsenalAdmin(admin.ModelAdmin):
    list_display = ["name", "character", "event"]
    list_filter = ["character__event"]
    search_fields = ["name", "character__name"]
    list_select_related = ["character", "character__event"]
    autocomplete_fields = ["character"]
    inlines = [PreparedArsenalCardInline]

    @admin.display(description=_("event"), ordering="character__event__name")
    def event(self, obj: PreparedArsenal) -> str:
        return str(obj.character.event)


class PoolInline(CardPickerInline):
    model = PoolEntry
    verbose_name_plural = _("card pool")


class ArsenalInline(CardPickerInline):
    """The admin writes rows as they are, without the rules check; the arsenal builder checks them."""

    model = ArsenalCard
    verbose_name_plural = _("current arsenal (not checked here: use the arsenal builder)")


# Appended, not replaced: the events app owns CharacterAdmin and may have inlines of its own.
if PoolInline not in CharacterAdmin.inlines:
    CharacterAdmin.inlines = [*CharacterAdmin.inlines, PoolInline, ArsenalInline]

# Mass battles' data has its own admin module.
import cards.admin_mass  # noqa: E402, F401

"""Card catalogues, counter rules, and each character's pool and arsenals."""

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from events.models import Character, Condition, same_name_exists
from helpers.history import EditHistory
from helpers.names import NameField, NameKeyField, NameKeyQuerySet
from rules import cards as engine_cards
from rules.conditions import NO_EFFECT


class Catalogue(models.Model):
    name = NameField(_("name"), max_length=200, unique=True)
    description = models.TextField(_("description"), blank=True)

    class Meta:
        verbose_name = _("card catalogue")
        verbose_name_plural = _("card catalogues")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        super().clean()
        if self.name and same_name_exists(Catalogue.objects.exclude(pk=self.pk), self.name):
            raise ValidationError({"name": _("A catalogue with this name (or one that looks the same) exists.")})


class Effect(models.TextChoices):
    """What a card does to its target: a condition, or nothing (CR1)."""

    NONE = NO_EFFECT, _("no effect")
    LIGHTLY_WOUNDED = Condition.LIGHTLY_WOUNDED.value, Condition.LIGHTLY_WOUNDED.label
    HEAVILY_WOUNDED = Condition.HEAVILY_WOUNDED.value, Condition.HEAVILY_WOUNDED.label
    PARALYSED = Condition.PARALYSED.value, Condition.PARALYSED.label
    SUBDUED = Condition.SUBDUED.value, Condition.SUBDUED.label
    HELPLESS = Condition.HELPLESS.value, Condition.HELPLESS.label
    DEAD = Condition.DEAD.value, Condition.DEAD.label


class Card(models.Model):
    NAME_KEYS = {"name_ru": "name_key"}

    class Category(models.TextChoices):
        SPELL = "spell", _("spell")
        ABILITY = "ability", _("ability")

    class Kind(models.TextChoices):
        ATTACK = engine_cards.ATTACK, _("attack")
        DEFENCE = engine_cards.DEFENCE, _("defence")

    class MagicType(models.TextChoices):
        NONE = "", _("—")
        UNIVERSAL = "universal", _("Universal")
        WIND = "wind", _("Wind")
        EARTH = "earth", _("Earth")
        WATER = "water", _("Water")
        FIRE = "fire", _("Fire")

    class ActionKind(models.TextChoices):
        STANDARD = "standard", _("standard action")
        OPPORTUNITY = "opportunity", _("opportunity action")
        INTERRUPT = "interrupt", _("immediate interrupt")
        RESPONSE = "response", _("immediate response")

    class TriggerKind(models.TextChoices):
        """R4: what an immediate card reacts to, so the engine offers it only when that happened."""

        ANY = "", _("the referee decides (the trigger's words)")
        ATTACKED = "attacked", _("you are attacked")
        ALLY_ATTACKED = "ally_attacked", _("an ally of yours is attacked")
        ENEMY_ATTACKS = "enemy_attacks", _("an enemy attacks")
        ENEMY_MOVES = "enemy_moves", _("an enemy moves")
        ENEMY_USES_CARD = "enemy_uses_card", _("an enemy uses a card other than an attack")

    catalogue = models.ForeignKey(
        Catalogue, on_delete=models.CASCADE, related_name="cards", verbose_name=_("catalogue")
    )
    name_ru = NameField(_("name (Russian)"), max_length=120)
    # The one folding of the Russian name (helpers/names.py): the duplicate check reads it, indexed.
    name_key = NameKeyField(_("name, folded"), max_length=120, source="name_ru")
    name_en = NameField(_("name (English)"), max_length=120, blank=True)
    category = models.CharField(_("spell or ability"), max_length=10, choices=Category.choices, default=Category.SPELL)
    kind = models.CharField(_("attack or defence"), max_length=10, choices=Kind.choices)
    magic_type = models.CharField(_("magic type"), max_length=10, choices=MagicType.choices, blank=True, default="")
    full_effect = models.CharField(
        _("full effect"), max_length=20, choices=Effect.choices, blank=True, default=Effect.NONE
    )
    softened_effect = models.CharField(
        _("softened effect"), max_length=20, choices=Effect.choices, blank=True, default=Effect.NONE
    )
    rules_text = models.TextField(_("rules text"), blank=True)
    tags = models.CharField(_("tags"), max_length=200, blank=True, help_text=_("Comma-separated, e.g. fire, mind"))
    action_kind = models.CharField(
        _("action kind in battles"), max_length=20, choices=ActionKind.choices, default=ActionKind.STANDARD
    )
    trigger_text = models.CharField(_("trigger"), max_length=300, blank=True)
    trigger_kind = models.CharField(
        _("trigger kind (R4)"), max_length=20, choices=TriggerKind.choices, blank=True, default=TriggerKind.ANY
    )
    double_attack = models.BooleanField(
        _("grants a double attack (BP2)"),
        default=False,
        help_text=_("Its holder may show two attack cards in one action (R8: a response comes between them)."),
    )

    history = EditHistory()
    objects = NameKeyQuerySet.as_manager()

    class Meta:
        verbose_name = _("card")
        verbose_name_plural = _("cards")
        ordering = ["catalogue", "kind", "name_ru"]
        constraints = [models.UniqueConstraint(fields=["catalogue", "name_ru"], name="card_name_unique_in_catalogue")]
        indexes = [models.Index(fields=["catalogue", "name_key"])]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        super().clean()
        if (
            self.catalogue_id
            and self.name_ru
            and same_name_exists(
                Card.objects.filter(catalogue_id=self.catalogue_id).exclude(pk=self.pk), self.name_ru, "name_ru"
            )
        ):
            raise ValidationError({"name_ru": _("The catalogue already has a card with this name.")})

    @property
    def name(self) -> str:
        if (get_language() or "ru").startswith("en") and self.name_en:
            return self.name_en
        return self.name_ru

    @property
    def tag_list(self) -> list[str]:
        return [t.strip().lower() for t in self.tags.split(",") if t.strip()]

    @property
    def is_attack(self) -> bool:
        return self.kind == self.Kind.ATTACK


class CounterRule(models.Model):
    """CR2: what a defence card does against an attack card, or against every attack card with a tag."""

    class Outcome(models.TextChoices):
        PARRIED = engine_cards.PARRIED, _("parries")
        SOFTENED = engine_cards.SOFTENED, _("softens")
        NOT_PARRIED = engine_cards.NOT_PARRIED, _("does nothing")

    defence_card = models.ForeignKey(
        Card, on_delete=models.CASCADE, related_name="counters", verbose_name=_("defence card")
    )
    attack_card = models.ForeignKey(
        Card,
        on_delete=models.CASCADE,
        related_name="countered_by",
        null=True,
        blank=True,
        verbose_name=_("attack card"),
    )
    attack_tag = models.CharField(_("or attack tag"), max_length=50, blank=True)
    outcome = models.CharField(_("outcome"), max_length=20, choices=Outcome.choices)

    history = EditHistory()

    class Meta:
        verbose_name = _("counter rule")
        verbose_name_plural = _("counter rules")
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(attack_card__isnull=False) & models.Q(attack_tag=""))
                | (models.Q(attack_card__isnull=True) & ~models.Q(attack_tag="")),
                name="counter_rule_card_xor_tag",
            ),
            models.UniqueConstraint(
                fields=["defence_card", "attack_card"],
                condition=models.Q(attack_card__isnull=False),
                name="counter_rule_once_per_card",
            ),
            models.UniqueConstraint(
                fields=["defence_card", "attack_tag"],
                condition=~models.Q(attack_tag=""),
                name="counter_rule_once_per_tag",
            ),
        ]

    def __str__(self) -> str:
        target = self.attack_card or f"#{self.attack_tag}"
        return f"{self.defence_card} → {target}: {self.get_outcome_display()}"


class PoolEntry(models.Model):
    """A card a character may put into an arsenal, and how many copies they own."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="pool", verbose_name=_("character"))
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="+", verbose_name=_("card"))
    copies = models.PositiveSmallIntegerField(_("copies"), default=1, validators=[MinValueValidator(1)])

    history = EditHistory()

    class Meta:
        verbose_name = _("card in pool")
        verbose_name_plural = _("card pool")
        constraints = [models.UniqueConstraint(fields=["character", "card"], name="pool_card_once")]

    def __str__(self) -> str:
        return f"{self.card} ×{self.copies}"


class ArsenalCard(models.Model):
    """The current arsenal: the cards the character holds in hand now."""

    character = models.ForeignKey(
        Character, on_delete=models.CASCADE, related_name="arsenal", verbose_name=_("character")
    )
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="+", verbose_name=_("card"))
    copies = models.PositiveSmallIntegerField(_("copies"), default=1, validators=[MinValueValidator(1)])

    # A fight writes the hand back wholesale when it ends (no history row, helpers/history.py);
    # the arsenal builder's and the players' changes are noted row by row (cards/arsenal.py).
    history = EditHistory(explicit=True)

    class Meta:
        verbose_name = _("card in arsenal")
        verbose_name_plural = _("current arsenal")
        constraints = [models.UniqueConstraint(fields=["character", "card"], name="arsenal_card_once")]

    def __str__(self) -> str:
        return f"{self.card} ×{self.copies}"


class PreparedArsenal(models.Model):
    """A named arsenal prepared earlier, taken whole at the start of a round (D3)."""

    character = models.ForeignKey(
        Character, on_delete=models.CASCADE, related_name="prepared_arsenals", verbose_name=_("character")
    )
    name = models.CharField(_("name"), max_length=100)

    history = EditHistory()

    class Meta:
        verbose_name = _("prepared arsenal")
        verbose_name_plural = _("prepared arsenals")
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["character", "name"], name="prepared_arsenal_name_once")]

    def __str__(self) -> str:
        return self.name


class PreparedArsenalCard(models.Model):
    arsenal = models.ForeignKey(
        PreparedArsenal, on_delete=models.CASCADE, related_name="cards", verbose_name=_("prepared arsenal")
    )
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="+", verbose_name=_("card"))
    copies = models.PositiveSmallIntegerField(_("copies"), default=1, validators=[MinValueValidator(1)])

    history = EditHistory()

    class Meta:
        verbose_name = _("card in prepared arsenal")
        verbose_name_plural = _("cards in prepared arsenal")
        constraints = [models.UniqueConstraint(fields=["arsenal", "card"], name="prepared_card_once")]

    def __str__(self) -> str:
        return f"{self.card} ×{self.copies}"


# Mass battles (M1-M3) live in their own module, imported here so that Django
# registers them in this app. The print run's model is the printing package's
# (cards/printing/models.py); CardsConfig.import_models registers it, so that
# this module never imports the package that reads it.
from cards.models_mass import Army, MagicCard, MagicType, Warrior, WarriorType  # noqa: E402

__all__ = [
    "Army",
    "ArsenalCard",
    "Card",
    "Catalogue",
    "CounterRule",
    "Effect",
    "MagicCard",
    "MagicType",
    "PoolEntry",
    "PreparedArsenal",
    "PreparedArsenalCard",
    "Warrior",
    "WarriorType",
]

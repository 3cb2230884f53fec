"""Mass battles' data (M1-M3): magic cards, armlists (warrior types) and the warriors of each army.

Imported by ``cards.models`` so Django finds the models in the cards app
(DESIGN.md §2). Other apps should import them from here by their obvious
names: ``MagicCard``, ``WarriorType``, ``Army``, ``Warrior``.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

import rules.mass as magic
from events.models import MAGIC_DECKS, Character, Event, SecretLinkHolder, new_link_token, parse_magic_decks

MAX_COPIES = 50


class MagicType(models.TextChoices):
    """M2: the five types of magic; the values are the engine's (rules/mass)."""

    UNIVERSAL = magic.UNIVERSAL, _("Universal")
    WIND = magic.WIND, _("Wind")
    EARTH = magic.EARTH, _("Earth")
    WATER = magic.WATER, _("Water")
    FIRE = magic.FIRE, _("Fire")


def magic_type_of(text: str) -> str:
    """A type of magic from its value or its label in any of the site's languages, any case."""
    wanted = str(text).strip().casefold()
    for value, label in MagicType.choices:
        names = {value}
        for language in ("ru", "en"):
            with translation.override(language):
                names.add(str(label).casefold())
        if wanted in names:
            return str(value)
    raise ValueError(str(text).strip())


def parse_protections(value: str) -> tuple[str, ...]:
    """ "Wind, fire" -> ("fire", "wind"); ValueError naming the first unknown type."""
    found = {magic_type_of(part) for part in value.replace(";", ",").split(",") if part.strip()}
    return tuple(sorted(found))


def validate_protections(value: str) -> None:
    try:
        parse_protections(value)
    except ValueError as err:
        raise ValidationError(
            _("Unknown type of magic: %(name)s. Use Universal, Wind, Earth, Water or Fire."),
            params={"name": str(err)},
        ) from None


class _Named(models.Model):
    name_ru = models.CharField(_("name (Russian)"), max_length=120)
    name_en = models.CharField(_("name (English)"), max_length=120, blank=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        if (get_language() or "ru").startswith("en") and self.name_en:
            return self.name_en
        return self.name_ru


class MagicCard(_Named):
    """One kind of magic card of a catalogue, and how many copies of it lie in its deck (M1)."""

    catalogue = models.ForeignKey(
        "cards.Catalogue", on_delete=models.CASCADE, related_name="magic_cards", verbose_name=_("catalogue")
    )
    deck = models.PositiveSmallIntegerField(_("deck (number on the back)"), choices=[(d, str(d)) for d in MAGIC_DECKS])
    magic_type = models.CharField(_("type of magic"), max_length=10, choices=MagicType.choices)
    text = models.TextField(_("text"), blank=True)
    acts_on_protected = models.BooleanField(
        _("acts on protected warriors too"),
        default=False,
        help_text=_(
            "M3: a warrior protected from this card's type of magic ignores it, helpful or harmful; "
            "tick this only for a card that acts on protected warriors too."
        ),
    )
    keepable = models.BooleanField(
        _("use when you see fit"),
        default=False,
        help_text=_("M5: the side may keep the card and use it in a later cycle."),
    )
    copies = models.PositiveSmallIntegerField(
        _("copies"), default=1, validators=[MinValueValidator(1), MaxValueValidator(MAX_COPIES)]
    )

    class Meta:
        verbose_name = _("magic card")
        verbose_name_plural = _("magic cards")
        ordering = ["catalogue", "deck", "name_ru"]
        constraints = [
            models.UniqueConstraint(fields=["catalogue", "name_ru"], name="magic_card_name_unique_in_catalogue")
        ]

    def clean(self) -> None:
        super().clean()
        if not self.keepable or self.catalogue_id is None:
            return
        # M5: which decks may hold keepable cards is a setting of every event using the catalogue.
        for event in Event.objects.filter(catalogue_id=self.catalogue_id):
            if self.deck not in event.keepable_decks:
                raise ValidationError(
                    {
                        "keepable": _(
                            "In “%(event)s” only decks %(decks)s hold cards to use when you see fit, "
                            "not deck %(deck)s (M5)."
                        )
                        % {
                            "event": event.name,
                            "decks": ", ".join(map(str, event.keepable_decks)) or "—",
                            "deck": self.deck,
                        }
                    }
                )


class WarriorType(_Named):
    """A line of an event's armlist: a type of warrior and its protection from magic (M3)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="warrior_types", verbose_name=_("event"))
    protections = models.CharField(
        _("protection from magic"),
        max_length=60,
        blank=True,
        validators=[validate_protections],
        help_text=_("Types of magic, comma-separated, e.g. “wind, fire”."),
    )
    description = models.TextField(_("description"), blank=True)

    class Meta:
        verbose_name = _("warrior type")
        verbose_name_plural = _("armlist (warrior types)")
        ordering = ["event", "name_ru"]
        constraints = [models.UniqueConstraint(fields=["event", "name_ru"], name="warrior_type_name_once")]

    def save(self, *args: object, **kwargs: object) -> None:
        # Stored as the engine's values ("fire,wind") however it was typed.
        # full_clean reports a bad value; a raw save keeps what it was given.
        with contextlib.suppress(ValueError):
            self.protections = ",".join(parse_protections(self.protections))
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    @property
    def protection_set(self) -> tuple[str, ...]:
        try:
            return parse_protections(self.protections)
        except ValueError:
            return ()

    @property
    def protection_labels(self) -> list[str]:
        return [str(MagicType(value).label) for value in self.protection_set]


class Army(SecretLinkHolder):
    """One side of an event's mass battles: its commander and its warriors."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="armies", verbose_name=_("event"))
    name = models.CharField(_("name"), max_length=120)
    commander = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="armies",
        verbose_name=_("commander (account)"),
    )
    commander_name = models.CharField(_("commander (name)"), max_length=120, blank=True)
    # The commander's phone page without an account, printed as a QR code like a character's link.
    link_token = models.CharField(_("commander's secret link"), max_length=64, unique=True, default=new_link_token)
    link_person = "commander"  # a new or removed commander gets a new link, as a character's player does

    class Meta:
        verbose_name = _("army")
        verbose_name_plural = _("armies")
        ordering = ["event", "name"]
        constraints = [models.UniqueConstraint(fields=["event", "name"], name="army_name_once")]

    def __str__(self) -> str:
        return self.name

    @property
    def commander_label(self) -> str:
        if self.commander_name:
            return self.commander_name
        return self.commander.get_username() if self.commander else ""


class Warrior(models.Model):
    """A warrior of an army, with where they are now: on the field, wounded in hospital, or dead."""

    class State(models.TextChoices):
        FIELD = magic.FIELD, _("on the field")
        HOSPITAL = magic.HOSPITAL, _("wounded, in hospital")
        DEAD = magic.DEAD, _("dead")

    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="warriors", verbose_name=_("army"))
    name = models.CharField(_("name or number"), max_length=120)
    warrior_type = models.ForeignKey(
        WarriorType, on_delete=models.RESTRICT, related_name="warriors", verbose_name=_("warrior type")
    )
    character = models.ForeignKey(
        Character,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="warriors",
        verbose_name=_("character"),
    )
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.FIELD)

    class Meta:
        verbose_name = _("warrior")
        verbose_name_plural = _("warriors")
        ordering = ["army", "name"]
        constraints = [models.UniqueConstraint(fields=["army", "name"], name="warrior_name_once_in_army")]

    def __str__(self) -> str:
        return f"{self.name} ({self.army})"

    def clean(self) -> None:
        super().clean()
        army = getattr(self, "army", None)
        kind = getattr(self, "warrior_type", None)
        if army is not None and kind is not None and kind.event_id != army.event_id:
            raise ValidationError({"warrior_type": _("Choose a warrior type of this event's armlist.")})
        character = getattr(self, "character", None)
        if army is not None and character is not None and character.event_id != army.event_id:
            raise ValidationError({"character": _("Choose a character of this event.")})


def natural_key(name: str) -> tuple[tuple[int, int | str], ...]:
    """Names as people sort them: "2" before "10", "Guard 9" before "Guard 10", case aside."""
    parts = re.split(r"(\d+)", name.casefold())
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in parts if part)


def in_natural_order(warriors: Iterable[Warrior]) -> list[Warrior]:
    """Warriors 1, 2, ..., 10, 11 (issue 20), ties by id."""
    return sorted(warriors, key=lambda w: (natural_key(w.name), w.pk or 0))


def check_keepable_decks(event: Event) -> None:
    """M5: an event may not stop a deck from holding kept cards while its catalogue has some there."""
    if event.catalogue_id is None or event.magic_keepable_decks is None:
        return
    try:
        allowed = parse_magic_decks(event.magic_keepable_decks)
    except ValueError:
        return  # the field's own validator reports it
    stray = (
        MagicCard.objects.filter(catalogue_id=event.catalogue_id, keepable=True)
        .exclude(deck__in=allowed)
        .order_by("deck", "name_ru")
        .first()
    )
    if stray is not None:
        raise ValidationError(
            {
                "magic_keepable_decks": _(
                    "The magic card “%(name)s” in deck %(deck)s is to use when you see fit: "
                    "keep deck %(deck)s in the list, or change the card first (M5)."
                )
                % {"name": stray.name, "deck": stray.deck}
            }
        )

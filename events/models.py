"""Events, their staff, and the characters registered to them."""

import datetime as dt
import secrets
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from events import link_cache
from helpers.history import EditHistory
from helpers.names import NameField, NameKeyField, NameKeyQuerySet, name_key
from rules import conditions
from rules.conditions import CONDITION_SETS, MAX_LENGTH, parts


def condition_set_label(value: str) -> str:
    """All the conditions of a written set (rules.conditions), in words: "paralysed, heavily wounded"."""
    try:
        found = parts(value)
    except ValueError:
        return value
    return ", ".join(str(Condition(c).label) for c in found) if found else str(Condition.FIT.label)


def _condition_set_choices() -> list[tuple[str, Any]]:
    # CR1 reading: a character's condition is a set; every set the rules allow is a choice.
    return [(value, lazy(condition_set_label, str)(value)) for value in CONDITION_SETS]


class Condition(models.TextChoices):
    # The values are the engine's condition names (tests/test_vocabulary.py checks that none is missing).
    FIT = conditions.FIT, _("fit")
    LIGHTLY_WOUNDED = conditions.LIGHTLY_WOUNDED, _("lightly wounded")
    HEAVILY_WOUNDED = conditions.HEAVILY_WOUNDED, _("heavily wounded")
    PARALYSED = conditions.PARALYSED, _("paralysed")
    SUBDUED = conditions.SUBDUED, _("subdued")
    HELPLESS = conditions.HELPLESS, _("helpless")
    DEAD = conditions.DEAD, _("dead")


MAGIC_DECKS = (2, 4, 5, 6)  # M1: the numbers on the backs of the magic decks


def parse_magic_decks(value: str) -> tuple[int, ...]:
    """ "2, 5" -> (2, 5); raises ValueError for anything that is not a list of magic decks."""
    decks = sorted({int(part) for part in value.replace(";", ",").split(",") if part.strip()})
    if any(deck not in MAGIC_DECKS for deck in decks):
        raise ValueError(value)
    return tuple(decks)


def validate_magic_decks(value: str) -> None:
    try:
        parse_magic_decks(value)
    except ValueError:
        raise ValidationError(_("List deck numbers among 2, 4, 5 and 6, separated by commas.")) from None


# Checks other apps add on an event's settings (filled in their AppConfig.ready, as
# DESIGN.md §2 says: events never imports them). Each raises ValidationError.
EVENT_CHECKS: list[Callable[["Event"], None]] = []


# What referees most often write when they override a result, take an action
# back or end a duel early (issue 10: a 15-second window leaves no time to type).
DEFAULT_QUICK_REASONS = (
    _("Wrong button tapped"),
    _("Wrong card recorded"),
    _("The card was played against the rules"),
    _("The fighters agreed"),
    _("Game stop for safety"),
)


class _LinkGuard:
    """``update`` (and so ``bulk_update``) of a link's columns: every cached link answer stops counting.

    A queryset may touch any row, so the whole "everything" scope is marked
    (events/link_cache.py); ``save`` and ``delete`` mark their own row's (events/signals.py).
    """

    link_fields: frozenset[str] = frozenset()

    def update(self, **kwargs: Any) -> int:
        scopes = link_cache.begin([link_cache.EVERYTHING]) if self.link_fields & kwargs.keys() else []
        done: int = super().update(**kwargs)  # type: ignore[misc]
        link_cache.settle_after_commit(scopes)
        return done


class EventQuerySet(_LinkGuard, models.QuerySet["Event"]):
    link_fields = link_cache.EVENT_FIELDS


class CharacterQuerySet(_LinkGuard, NameKeyQuerySet["Character"]):
    link_fields = link_cache.CHARACTER_FIELDS


class Event(models.Model):
    name = NameField(_("name"), max_length=200)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    place = models.CharField(_("place"), max_length=200, blank=True)
    description = models.TextField(_("description"), blank=True)
    catalogue = models.ForeignKey(
        "cards.Catalogue",
        verbose_name=_("card catalogue"),
        on_delete=models.PROTECT,
        related_name="events",
        null=True,
        blank=True,
    )
    registration_open = models.BooleanField(_("registration open"), default=True)
    # Rule settings (RULES.md defaults).
    answer_window_s = models.PositiveSmallIntegerField(
        _("answer window, seconds"), default=15, validators=[MinValueValidator(1), MaxValueValidator(600)]
    )
    situation_gap_s = models.PositiveIntegerField(
        _("situation gap, seconds"), default=180, validators=[MinValueValidator(10), MaxValueValidator(3600)]
    )
    instant_attack_distance_m = models.DecimalField(
        _("instant attack distance, metres"), max_digits=4, decimal_places=1, default=2
    )
    reactions_from_round = models.PositiveSmallIntegerField(
        _("opportunity and immediate actions from round"), default=2, validators=[MinValueValidator(1)]
    )
    every_round_a_bout = models.BooleanField(
        _("every round of a battle is a bout (D3)"),
        default=False,
        help_text=_(
            "Off (the rules): a battle's bout lasts until nobody who can fight holds an attack card; arsenals "
            "change only then. On: arsenals may change after every round of turns."
        ),
    )
    focus_abilities = models.BooleanField(
        _("focus on defence abilities too (F1)"),
        default=False,
        help_text=_("F1 speaks of a defence spell; allow focusing a defence ability as well."),
    )
    physical_draws = models.BooleanField(
        _("draws from real cards (IA3)"),
        default=False,
        help_text=_(
            "IA3: the victim of an instant attack draws from their printed cards and the referee records the card; "
            "off, the server draws."
        ),
    )
    lag_grace_ms = models.PositiveSmallIntegerField(
        _("lag grace, milliseconds (D8)"),
        default=0,
        validators=[MaxValueValidator(3000)],
        help_text=_(
            "D8: an answer tapped inside the window but arriving late over bad Wi-Fi is accepted up to this long "
            "after the deadline (at most 3000 ms; 0: by arrival only)."
        ),
    )
    duels_on = models.BooleanField(_("duels"), default=True)
    battles_on = models.BooleanField(_("battles"), default=True)
    mass_battles_on = models.BooleanField(_("mass battles"), default=False)
    # M5 reading: the decks whose "use when you see fit" cards may be kept.
    magic_keepable_decks = models.CharField(
        _("decks with cards to keep (mass battles)"),
        max_length=20,
        blank=True,
        default="2,5",
        validators=[validate_magic_decks],
        help_text=_("M5: deck numbers, comma-separated (2, 4, 5, 6); the rules say 2,5."),
    )
    # M1 reading: off, the server shuffles virtual decks; on, the decks on the table are the printed ones.
    magic_printed_decks = models.BooleanField(
        _("printed magic decks (mass battles)"),
        default=False,
        help_text=_(
            "M1, M7: the referee records each card drawn from the real deck (its number or its QR code); "
            "the product tracks each deck from the record and prints the order it believes."
        ),
    )
    # Printed QR codes point here when set (events/public_url.py), e.g. a name the game
    # site's router gives the server; empty: the deployment's SUMRAK_PUBLIC_URL.
    public_url = models.URLField(
        _("public address for QR codes"),
        max_length=200,
        blank=True,
        help_text=_(
            "The address phones open when they scan a printed QR code, e.g. http://192.168.1.10:8000. "
            "Leave empty to use the server's own setting."
        ),
    )
    # One-tap reasons the referee's override, undo and end-of-duel forms offer
    # (one per line); empty: the default list in the referee's language.
    quick_reasons = models.TextField(
        _("quick reasons for the referee"),
        blank=True,
        help_text=_(
            "One reason per line, offered as one-tap buttons for override, undo and end of a duel. "
            "Leave empty for the default list."
        ),
    )
    # Issue 13: a printed QR code is a key; after the game it need not open anything.
    links_expire_after_end = models.BooleanField(
        _("secret links stop working after the event"),
        default=False,
        help_text=_("The printed QR codes open nothing from the day after the event's last day."),
    )

    objects = EventQuerySet.as_manager()

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(condition=models.Q(ends_on__gte=models.F("starts_on")), name="event_dates_in_order")
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        super().clean()
        for check in EVENT_CHECKS:
            check(self)

    @property
    def keepable_decks(self) -> tuple[int, ...]:
        """M5: the decks whose "use when you see fit" cards may be kept (validated on save)."""
        try:
            return parse_magic_decks(self.magic_keepable_decks)
        except ValueError:
            return ()

    @property
    def quick_reason_list(self) -> list[str]:
        """The event's own reasons, or the default ones (translated when shown)."""
        own = [line.strip() for line in self.quick_reasons.splitlines() if line.strip()]
        return own or [str(reason) for reason in DEFAULT_QUICK_REASONS]

    @property
    def links_expired(self) -> bool:
        return self.links_expired_by(self.links_expire_after_end, self.ends_on)

    @staticmethod
    def links_expired_by(expire_after_end: bool, ends_on: dt.date) -> bool:
        """The rule itself, for a caller that read only these two columns (events.access.link_holder)."""
        return expire_after_end and timezone.localdate() > ends_on

    @property
    def takes_applications(self) -> bool:
        """Registration is open and the event is not over yet."""
        return self.registration_open and self.ends_on >= timezone.localdate()


class StaffRole(models.Model):
    class Role(models.TextChoices):
        ORGANIZER = "organizer", _("organizer")
        REFEREE = "referee", _("referee")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="staff", verbose_name=_("event"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff_roles", verbose_name=_("person")
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)

    class Meta:
        verbose_name = _("staff role")
        verbose_name_plural = _("staff roles")
        constraints = [models.UniqueConstraint(fields=["event", "user", "role"], name="staff_role_once")]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} ({self.event})"


class Side(models.TextChoices):
    LIGHT = "light", _("Light")
    DARK = "dark", _("Dark")
    INQUISITION = "inquisition", _("Inquisition")
    NEUTRAL = "neutral", _("neutral")


class OtherKind(models.TextChoices):
    MAGE = "mage", _("mage")
    ENCHANTER = "enchanter", _("enchanter")
    VAMPIRE = "vampire", _("vampire")
    WEREWOLF = "werewolf", _("werewolf")
    SHAPESHIFTER = "shapeshifter", _("shapeshifter")
    HEALER = "healer", _("healer")
    SEER = "seer", _("seer")
    OTHER = "other", _("other")


class PowerLevel(models.TextChoices):
    BEYOND = "beyond", _("beyond category")
    L1 = "1", _("level 1")
    L2 = "2", _("level 2")
    L3 = "3", _("level 3")
    L4 = "4", _("level 4")
    L5 = "5", _("level 5")
    L6 = "6", _("level 6")
    L7 = "7", _("level 7")


# Default arsenal size per power level (docs/decisions.md): level 7 is the
# weakest Other, "beyond category" the strongest.
ARSENAL_LIMIT_BY_LEVEL = {"beyond": 12, "1": 11, "2": 10, "3": 9, "4": 8, "5": 7, "6": 6, "7": 5}


def same_name_exists(queryset: models.QuerySet, name: str, field: str = "name") -> bool:
    """Whether a row of ``queryset`` has a name that looks the same as ``name`` (helpers/names.py).

    A model that stores the folded key of ``field`` (its ``NAME_KEYS``) is asked one indexed
    question; the others (catalogues, a handful of rows) are compared in Python.
    """
    key = name_key(name)
    key_field = getattr(queryset.model, "NAME_KEYS", {}).get(field)
    if key_field:
        return queryset.filter(**{key_field: key}).exists()
    return any(name_key(other) == key for other in queryset.values_list(field, flat=True).iterator())


def new_link_token() -> str:
    return secrets.token_urlsafe(24)


HISTORY_EXCLUDED = [
    "condition",
    "focus_card",
    "restorable_arsenal",
    "arrived",
    "arrived_at",
    "link_token",
    "link_active",
]


class SecretLinkHolder(models.Model):
    """A row with a printed secret link (``link_token``) that follows its person (issue 13).

    When the row passes from one person to another (or to nobody), the printed
    link the first one kept stops working: the token is rotated on save. A
    deactivated account's links are rotated too (events/signals.py, for every
    model built on this one). Characters follow their player; an army
    (cards/models_mass.py) follows its commander.
    """

    link_person: str  # the foreign key to the account the link follows

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not kwargs.get("force_insert"):
            column = f"{self.link_person}_id"
            before = type(self)._default_manager.filter(pk=self.pk).values_list(column, flat=True).first()
            if before is not None and before != getattr(self, column):
                self.link_token = new_link_token()
                if kwargs.get("update_fields") is not None:
                    kwargs["update_fields"] = {*kwargs["update_fields"], "link_token"}
        super().save(*args, **kwargs)


class Character(SecretLinkHolder):
    NAME_KEYS = {"name": "name_key"}

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for review")
        ACCEPTED = "accepted", _("accepted")
        REJECTED = "rejected", _("rejected")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="characters", verbose_name=_("event"))
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="characters",
        verbose_name=_("player"),
    )
    # An organizer assigning an account invites it by its user name; the account
    # becomes the player only when its owner accepts. The name is kept as typed,
    # whether or not such an account exists, so no page tells which ones do.
    invited_username = models.CharField(_("invited player (username)"), max_length=150, blank=True)
    # Issue 22: a player named by e-mail (an import from JoinRPG or allrpg.info gives no user
    # names). The account that signs up or logs in with this address sees the invitation.
    invited_email = models.EmailField(_("invited player (e-mail)"), blank=True)
    name = NameField(_("name"), max_length=120)
    # The one folding of the name (helpers/names.py): the duplicate check and search read it, indexed.
    name_key = NameKeyField(_("name, folded"), max_length=120, source="name")
    side = models.CharField(_("side"), max_length=20, choices=Side.choices, default=Side.NEUTRAL)
    kind = models.CharField(_("kind of Other"), max_length=20, choices=OtherKind.choices, default=OtherKind.MAGE)
    power_level = models.CharField(_("power level"), max_length=10, choices=PowerLevel.choices, default=PowerLevel.L7)
    # CR1 reading: a set of conditions, written as rules.conditions writes it ("heavily_wounded+paralysed").
    condition = models.CharField(
        _("condition"), max_length=MAX_LENGTH, choices=_condition_set_choices(), default=Condition.FIT
    )
    arsenal_limit = models.PositiveSmallIntegerField(
        _("arsenal size limit"),
        null=True,
        blank=True,
        help_text=_("Leave empty to use the default for the power level."),
    )
    focus_card = models.ForeignKey(
        "cards.Card",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("focused defence card"),
    )
    # The arsenal as it was when the last combat situation began: "restore to the
    # original" (S2) puts these card ids back in hand.
    restorable_arsenal = models.JSONField(_("original arsenal (to restore)"), default=list, blank=True)
    application = models.TextField(_("application"), blank=True)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.ACCEPTED)
    review_comment = models.TextField(_("organizers' comment"), blank=True)
    notes = models.TextField(_("organizers' private notes"), blank=True)
    arrived = models.BooleanField(_("arrived"), default=False)
    arrived_at = models.DateTimeField(_("arrived at"), null=True, blank=True)
    link_token = models.CharField(_("secret link"), max_length=64, unique=True, default=new_link_token)
    link_person = "player"  # issue 13: the link follows the player (SecretLinkHolder)
    link_active = models.BooleanField(_("secret link works"), default=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    # From the import (issue 22: JoinRPG's «Группы», e-mail, «Телеграм», VK): the print run groups
    # by the first group; the "links for messaging" export lists the contacts.
    groups = models.CharField(
        _("groups"), max_length=500, blank=True, help_text=_("Comma-separated, as JoinRPG lists them.")
    )
    contact_email = models.EmailField(_("e-mail"), blank=True)
    contact_telegram = models.CharField(_("Telegram"), max_length=100, blank=True)
    contact_vk = models.CharField(_("VK"), max_length=200, blank=True)
    # What else an import from another tool brings (issue 22): the player's name there, as that
    # tool had it, and the character's id there (``joinrpg:1234``), which a second import or sync
    # matches on.
    contacts = models.JSONField(_("player's contacts"), default=dict, blank=True)
    external_id = models.CharField(_("id in another tool"), max_length=100, blank=True)
    # A "second role" (issue 22): the character this player played before, who died.
    previous_role = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="next_roles",
        verbose_name=_("second role of"),
    )

    # Organizers' edits (issue 22, docs/history.md). Kept out: what fights and the gate write
    # (condition, focus, the original arsenal, arrival: queryset updates, or ConditionRecord with
    # its reason) and the secret link, which a revert must never bring back once revoked.
    history = EditHistory(excluded_fields=HISTORY_EXCLUDED)

    objects = CharacterQuerySet.as_manager()

    class Meta:
        verbose_name = _("character")
        verbose_name_plural = _("characters")
        ordering = ["name"]
        indexes = [
            models.Index(fields=["event", "status"]),
            models.Index(fields=["event", "name"]),
            models.Index(fields=["event", "name_key"]),
            models.Index(fields=["event", "external_id"]),
        ]

    def __str__(self) -> str:
        return self.name

    def _name_taken(self) -> bool:
        # An import reads the keys of a whole batch in one query and leaves them here
        # ({key: [pk, ...]}, events/resources.py); a form asks the index for this one name.
        taken: dict[str, list[int]] | None = getattr(self, "taken_name_keys", None)
        if taken is not None:
            return any(pk != self.pk for pk in taken.get(name_key(self.name), ()))
        return same_name_exists(Character.objects.filter(event_id=self.event_id).exclude(pk=self.pk), self.name)

    def clean(self) -> None:
        super().clean()
        if self.event_id and self.name and self._name_taken():
            raise ValidationError(
                {"name": _("The event already has a character named “%(name)s” (or one that looks the same).")},
                params={"name": self.name},
            )

    @property
    def effective_arsenal_limit(self) -> int:
        if self.arsenal_limit is not None:
            return self.arsenal_limit
        return ARSENAL_LIMIT_BY_LEVEL.get(self.power_level, 5)

    def regenerate_link(self) -> None:
        """A new printed link: the old token stops working at once."""
        self.link_token = new_link_token()
        self.link_active = True
        self.save(update_fields=["link_token", "link_active"])

    def revoke_link(self) -> None:
        self.link_active = False
        self.save(update_fields=["link_active"])

    @property
    def group_list(self) -> list[str]:
        return [group.strip() for group in self.groups.split(",") if group.strip()]

    @property
    def is_dead(self) -> bool:
        try:
            return conditions.DEAD in parts(self.condition)
        except ValueError:
            return False

    def check_in(self) -> None:
        self.arrived = True
        self.arrived_at = timezone.now()
        self.save(update_fields=["arrived", "arrived_at"])


class ConditionRecord(models.Model):
    """A condition changed by the referee or an organizer outside a step, with the reason (CR1, D11).

    A blow outside a fight step (a finishing blow, a healer's spell after the
    fight) or a condition cleared (healing, the end of a paralysis). Inside a
    fight the same change is also in the fight's own log; ``situation_id``
    names that fight (a plain id: the events app knows nothing of fights).
    """

    character = models.ForeignKey(
        Character, on_delete=models.CASCADE, related_name="condition_records", verbose_name=_("character")
    )
    at = models.DateTimeField(_("when"), default=timezone.now)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, verbose_name=_("recorded by")
    )
    old = models.CharField(_("before"), max_length=MAX_LENGTH)
    new = models.CharField(_("after"), max_length=MAX_LENGTH)
    reason = models.CharField(_("reason"), max_length=500)
    situation_id = models.PositiveBigIntegerField(_("fight"), null=True, blank=True)

    class Meta:
        verbose_name = _("condition record")
        verbose_name_plural = _("condition records")
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.character}: {self.old} → {self.new}"

    @property
    def old_label(self) -> str:
        return condition_set_label(self.old)

    @property
    def new_label(self) -> str:
        return condition_set_label(self.new)


class Handout(models.Model):
    """What the check-in desk hands a character (issue 22): printed for them, then handed out.

    A row is made when a print run (or the magic decks' print, for commanders) prints
    the item for the character (``printed_at``), or when the desk ticks an item that
    was never printed here; ``handed_at`` is set once, by the first tick.
    """

    class Item(models.TextChoices):
        SHEET = "sheet", _("character sheet")
        CARDS = "cards", _("cards")
        QR = "qr", _("QR link")
        DECKS = "decks", _("magic decks")

    character = models.ForeignKey(
        Character, on_delete=models.CASCADE, related_name="handouts", verbose_name=_("character")
    )
    item = models.CharField(_("item"), max_length=10, choices=Item.choices)
    printed_at = models.DateTimeField(_("printed"), null=True, blank=True)
    handed_at = models.DateTimeField(_("handed out"), null=True, blank=True)
    handed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("by"),
    )

    class Meta:
        verbose_name = _("handout")
        verbose_name_plural = _("handouts")
        constraints = [models.UniqueConstraint(fields=["character", "item"], name="handout_once")]

    def __str__(self) -> str:
        return f"{self.character}: {self.get_item_display()}"

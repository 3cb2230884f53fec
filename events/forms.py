"""Forms of the events app: applications, review, characters, filters, staff, import, the event itself."""

from decimal import Decimal
from typing import cast
from urllib.parse import urlsplit

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db.models import Q
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from events.models import Character, Condition, Event, OtherKind, PowerLevel, Side, StaffRole
from events.search import name_matches
from helpers import tables

ANY = [("", _("any"))]


def user_by_username(username: str) -> User | None:
    """The account with this username (case-insensitive), or None if the field was left empty."""
    username = username.strip()
    if not username:
        return None
    matches = list(get_user_model().objects.filter(username__iexact=username))
    exact = [user for user in matches if user.get_username() == username]
    if exact or len(matches) == 1:
        return (exact or matches)[0]
    if not matches:
        raise forms.ValidationError(_("There is no account named “%(name)s”."), params={"name": username})
    # Accounts made outside the sign-up page (the admin) may differ only in letter case.
    raise forms.ValidationError(
        _("Several accounts are named “%(name)s” in different letter cases; type the username exactly."),
        params={"name": username},
    )


class ApplicationForm(forms.ModelForm):
    class Meta:
        model = Character
        fields = ["name", "side", "kind", "power_level", "application"]
        widgets = {"application": forms.Textarea(attrs={"rows": 6})}
        help_texts = {"application": _("Who is your character? Their story, goals and what they can do.")}


class SecondRoleForm(forms.ModelForm):
    """The new character of a player whose character died (events/second_role.py)."""

    class Meta:
        model = Character
        fields = ["name", "side", "kind", "power_level", "notes"]
        widgets = {"notes": forms.Textarea(attrs={"rows": 3})}


class ReviewForm(forms.Form):
    ACCEPT = "accept"
    REJECT = "reject"
    decision = forms.ChoiceField(choices=[(ACCEPT, _("accept")), (REJECT, _("reject"))])
    comment = forms.CharField(
        label=_("Comment for the player"), required=False, widget=forms.Textarea(attrs={"rows": 2}), max_length=2000
    )

    @property
    def status(self) -> str:
        if self.cleaned_data["decision"] == self.ACCEPT:
            return Character.Status.ACCEPTED
        return Character.Status.REJECTED


class CharacterForm(forms.ModelForm):
    """The organizers' full form; ``notes`` stay with the organizers and are never shown to players."""

    field_order = ["name", "player_username", "invited_email"]

    player_username = forms.CharField(
        label=_("Player (username)"),
        required=False,
        max_length=150,
        help_text=_(
            "The account is invited and becomes the player once its owner accepts. "
            "Leave empty for a character without an account: the player then uses the secret link."
        ),
    )

    class Meta:
        model = Character
        fields = [
            "name",
            "invited_email",
            "side",
            "kind",
            "power_level",
            "arsenal_limit",
            "condition",
            "status",
            "review_comment",
            "application",
            "notes",
            "arrived",
            "groups",
            "contact_email",
            "contact_telegram",
            "contact_vk",
        ]
        widgets = {
            "application": forms.Textarea(attrs={"rows": 4}),
            "review_comment": forms.Textarea(attrs={"rows": 2}),
            "notes": forms.Textarea(attrs={"rows": 4}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.invited_username:
            self.fields["player_username"].initial = self.instance.invited_username
        elif self.instance.player_id:
            self.fields["player_username"].initial = self.instance.player.get_username()
        limit = self.fields["arsenal_limit"]
        limit.widget.attrs["min"] = 1
        if self.instance.pk:
            limit.widget.attrs["placeholder"] = str(self.instance.effective_arsenal_limit)

    def clean_invited_email(self) -> str:
        return self.cleaned_data["invited_email"].strip().lower()

    def clean_player_username(self) -> str:
        # Never looked up here: whether the name belongs to an account shows on no page (issue 13).
        return self.cleaned_data["player_username"].strip()

    def clean_arsenal_limit(self) -> int | None:
        limit = self.cleaned_data["arsenal_limit"]
        if limit is not None and limit < 1:
            raise forms.ValidationError(_("An arsenal holds at least one card."))
        return limit

    def save(self, commit: bool = True) -> Character:
        character = super().save(commit=False)
        username = self.cleaned_data["player_username"]
        if not username:
            character.player, character.invited_username = None, ""
        elif character.player is None or username.casefold() != character.player.get_username().casefold():
            character.invited_username = username  # the current player, if any, stays until it is accepted
        else:
            character.invited_username = ""
        if "arrived" in self.changed_data:
            character.arrived_at = timezone.now() if character.arrived else None
        if commit:
            character.save()
        return character


def _yes_no() -> list[tuple[str, str | Promise]]:
    return [*ANY, ("yes", _("yes")), ("no", _("no"))]


class CharacterFilterForm(forms.Form):
    q = forms.CharField(label=_("name"), required=False, max_length=120)
    side = forms.ChoiceField(label=_("side"), required=False, choices=ANY + Side.choices)
    kind = forms.ChoiceField(label=_("kind of Other"), required=False, choices=ANY + OtherKind.choices)
    status = forms.ChoiceField(label=_("status"), required=False, choices=ANY + Character.Status.choices)
    condition = forms.ChoiceField(label=_("condition"), required=False, choices=ANY + Condition.choices)
    arrived = forms.ChoiceField(label=_("arrived"), required=False, choices=_yes_no)
    power_level = forms.ChoiceField(label=_("power level"), required=False, choices=ANY + PowerLevel.choices)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, bound in self.fields.items():
            css = "form-control form-control-sm" if name == "q" else "form-select form-select-sm"
            bound.widget.attrs["class"] = css
        self.fields["q"].widget.input_type = "search"

    def filter(self, queryset):
        """Apply the valid filters; an invalid value (a hand-edited URL) is simply ignored."""
        if not self.is_valid():
            return queryset
        data = self.cleaned_data
        if data["q"]:
            queryset = queryset.filter(name_matches(data["q"]))
        for field in ("side", "kind", "status", "power_level"):
            if data[field]:
                queryset = queryset.filter(**{field: data[field]})
        if data["condition"] == Condition.FIT:
            queryset = queryset.filter(condition=Condition.FIT)
        elif data["condition"]:
            # CR1: a condition is one of a set ("heavily_wounded+paralysed"); no condition name contains another.
            queryset = queryset.filter(condition__contains=data["condition"])
        if data["arrived"]:
            queryset = queryset.filter(arrived=data["arrived"] == "yes")
        return queryset


class StaffForm(forms.Form):
    username = forms.CharField(label=_("username"), max_length=150)
    role = forms.ChoiceField(label=_("role"), choices=StaffRole.Role.choices, initial=StaffRole.Role.REFEREE)

    def __init__(self, *args, event, **kwargs):
        self.event = event
        super().__init__(*args, **kwargs)

    def clean_username(self) -> User | None:
        # The field is required, so an empty value never gets here.
        return user_by_username(self.cleaned_data["username"])

    def clean(self):
        super().clean()
        data = self.cleaned_data
        user, role = data.get("username"), data.get("role")
        if user and role and StaffRole.objects.filter(event=self.event, user=user, role=role).exists():
            raise forms.ValidationError(_("%(name)s already has this role."), params={"name": user.get_username()})
        return data


class ImportForm(forms.Form):
    """A table file for an import through the shared pipeline (helpers/tables.py)."""

    file = forms.FileField(label=_("CSV, XLSX, JSON or .xls (HTML table) file"))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if tables.format_of(upload.name) is None:
            raise forms.ValidationError(_("Upload a .csv, .xlsx, .json or .xls (an HTML table) file."))
        if upload.size > tables.MAX_BYTES:
            raise forms.ValidationError(
                _("The file is too large (at most %(limit)d MB).") % {"limit": tables.MAX_BYTES // (1024 * 1024)}
            )
        return upload

    @property
    def file_format(self) -> str:
        return tables.format_of(self.cleaned_data["file"].name) or "csv"


# An event's fields in three groups: the settings page and the admin show them so.
EVENT_DETAILS = (
    "name",
    "starts_on",
    "ends_on",
    "place",
    "description",
    "catalogue",
    "registration_open",
    "links_expire_after_end",
)
RULE_SETTINGS = (
    "answer_window_s",
    "situation_gap_s",
    "instant_attack_distance_m",
    "reactions_from_round",
    "every_round_a_bout",
    "focus_abilities",
    "physical_draws",
    "lag_grace_ms",
    "quick_reasons",
)
FIGHT_KINDS = ("duels_on", "battles_on", "mass_battles_on", "magic_keepable_decks", "magic_printed_decks")
PRINTING = ("public_url",)


class EventForm(forms.ModelForm):
    """An event's details and rule settings, edited by its organizers (events/views_event.py).

    The catalogue may be one the person already uses as an organizer (or none): an
    organizer edits the cards of their event's catalogue, so offering any
    catalogue would let a stranger edit another event's cards.
    """

    SNAPSHOT_NOTE = _("A fight already running keeps the settings it started with; a change applies to new fights.")

    class Meta:
        model = Event
        fields = [*EVENT_DETAILS, *RULE_SETTINGS, *FIGHT_KINDS, *PRINTING]
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ends_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "description": forms.Textarea(attrs={"rows": 3}),
            "quick_reasons": forms.Textarea(attrs={"rows": 4}),
        }
        help_texts = {
            "registration_open": _("Players may apply with a character on the site."),
            "reactions_from_round": _("R0: opportunity and immediate actions are allowed from this round on."),
            "instant_attack_distance_m": _("IA1: how close an instant attacker must be (the rules say 2 m)."),
        }

    def rule_fields(self) -> list[forms.BoundField]:
        """The rule settings as the page lists them: every one of RULE_SETTINGS, so none is left off the page."""
        return [self[name] for name in RULE_SETTINGS]

    def kind_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in FIGHT_KINDS]

    def __init__(self, *args, user: User, **kwargs):
        super().__init__(*args, **kwargs)
        mine = Q(events__staff__user=user, events__staff__role=StaffRole.Role.ORGANIZER)
        if self.instance.catalogue_id is not None:
            mine |= Q(pk=self.instance.catalogue_id)
        catalogue = cast(forms.ModelChoiceField, self.fields["catalogue"])
        # The field's own queryset: events reaches cards' models only through its relations (no import).
        catalogues = catalogue.queryset
        assert catalogues is not None, "a model form's foreign key field always has a queryset"
        catalogue.queryset = catalogues.filter(mine).distinct().order_by("name")
        catalogue.empty_label = _("none yet")
        catalogue.help_text = _(
            "A catalogue of an event you organize, or none: the event's catalogue page creates a new one."
        )
        # The model allows any decimal here; a distance of zero or less would make IA1 impossible.
        distance = self.fields["instant_attack_distance_m"]
        distance.validators += [MinValueValidator(Decimal("0.1")), MaxValueValidator(Decimal("100"))]
        distance.widget.attrs.update(min="0.1", max="100", step="0.1")
        # Lag grace (D8): empty means none, so a form without the field (an older page) keeps 0.
        grace = self.fields["lag_grace_ms"]
        grace.required = False
        grace.widget.attrs.update(min="0", max="3000", step="100")
        self.fields["answer_window_s"].help_text = _("D8: how long a defender has to answer an attack card.")
        self.fields["situation_gap_s"].help_text = _(
            "S2: a combat situation ends after this long without a combat action."
        )
        # Only these two are copied into a situation when it opens (duels.duel.start).
        for name in ("answer_window_s", "situation_gap_s"):
            field = self.fields[name]
            field.help_text = f"{field.help_text} {self.SNAPSHOT_NOTE}"

    def clean_lag_grace_ms(self) -> int:
        return self.cleaned_data.get("lag_grace_ms") or 0

    def clean_catalogue(self):
        catalogue = self.cleaned_data["catalogue"]
        old = self.instance.catalogue_id
        if self.instance.pk is None or old is None or (catalogue is not None and catalogue.pk == old):
            return catalogue
        # Cards owned or held from the old catalogue would vanish from every catalogue page.
        event = self.instance
        # Pool, arsenal and prepared arsenals, through the cards app's relations to Character.
        characters = Character.objects.filter(event=event)
        held = (
            characters.filter(pool__card__catalogue_id=old).exists()
            or characters.filter(arsenal__card__catalogue_id=old).exists()
            or characters.filter(prepared_arsenals__cards__card__catalogue_id=old).exists()
        )
        if held:
            raise forms.ValidationError(
                _("Characters of this event own or hold cards of the current catalogue; the catalogue cannot change.")
            )
        return catalogue

    def clean_public_url(self) -> str:
        """A base address only: QR codes add their own paths to it (events/public_url.py)."""
        value = (self.cleaned_data.get("public_url") or "").strip()
        if not value:
            return ""
        parts = urlsplit(value)
        if parts.scheme not in {"http", "https"} or parts.path.strip("/") or parts.query or parts.fragment:
            raise forms.ValidationError(
                _("Give only the scheme, host and port, e.g. http://192.168.1.10:8000 (no path).")
            )
        return f"{parts.scheme}://{parts.netloc}"

    def clean(self):
        super().clean()
        data = self.cleaned_data
        starts_on, ends_on = data.get("starts_on"), data.get("ends_on")
        if starts_on and ends_on and ends_on < starts_on:
            self.add_error("ends_on", _("The event cannot end before it starts."))
        return data

"""Forms of the print pages: what an event's print run holds, which magic decks, which armies (issue 14)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cards.models_mass import Army
from cards.printing.models import PrintRun
from cards.printing.runs import printable_characters
from events.models import MAGIC_DECKS, Character, Event
from helpers.ids import MAX_ID


class ChoiceById(forms.ModelMultipleChoiceField):
    """Rows chosen by id; a number past the database's integer range names no row (not a 500)."""

    def clean(self, value: Any) -> Any:
        for pk in value or ():
            if not str(pk).isdigit() or int(pk) > MAX_ID:
                raise forms.ValidationError(
                    self.error_messages["invalid_choice"], code="invalid_choice", params={"value": pk}
                )
        return super().clean(value)


class PrintRunForm(forms.Form):
    everyone = forms.BooleanField(label=gettext_lazy("All accepted characters"), required=False, initial=True)
    characters = ChoiceById(
        label=gettext_lazy("Or only these characters"),
        queryset=Character.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    with_sheets = forms.BooleanField(label=gettext_lazy("Character sheets"), required=False, initial=True)
    with_cards = forms.BooleanField(label=gettext_lazy("Cards (fronts and backs)"), required=False, initial=True)
    with_envelopes = forms.BooleanField(
        label=gettext_lazy("An envelope per character (DL: name, player, QR code), after the rest"), required=False
    )
    group_by = forms.ChoiceField(
        label=gettext_lazy("Group the sheets and cards"), choices=PrintRun.GroupBy.choices, required=False
    )
    with_magic_decks = forms.BooleanField(
        label=gettext_lazy("Magic decks of the mass battles (fronts and backs)"), required=False
    )
    with_rosters = forms.BooleanField(label=gettext_lazy("Army rosters of the mass battles"), required=False)
    as_html = forms.BooleanField(
        label=gettext_lazy("As a web page to print from the browser (instead of a PDF)"), required=False
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["characters"].queryset = Character.objects.filter(  # type: ignore[attr-defined]
            event=event, status=Character.Status.ACCEPTED
        ).order_by("name", "pk")
        # An event with mass battles prints their material too unless the organizer unticks it.
        self.fields["with_magic_decks"].initial = self.fields["with_rosters"].initial = event.mass_battles_on
        self.event = event

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for_characters = data.get("with_sheets") or data.get("with_cards") or data.get("with_envelopes")
        if not for_characters and not data.get("with_magic_decks") and not data.get("with_rosters"):
            raise forms.ValidationError(
                _("Choose what to print: character sheets, cards, envelopes, magic decks or army rosters.")
            )
        chosen: list[Character] = []
        if for_characters:
            chosen = printable_characters(self.event) if data.get("everyone") else list(data.get("characters") or [])
            if not chosen:
                raise forms.ValidationError(_("Choose the characters to print, or all of them."))
        data["chosen"] = chosen
        return data


class MagicDeckForm(forms.Form):
    """``?deck=2&deck=5``: those decks; no ``deck``: all four (M1)."""

    deck = forms.TypedMultipleChoiceField(choices=[(d, str(d)) for d in MAGIC_DECKS], coerce=int, required=False)

    def decks(self) -> tuple[int, ...]:
        return tuple(sorted(self.cleaned_data["deck"])) or MAGIC_DECKS


class ArmyForm(forms.Form):
    """``?army=3``: that army's roster; no ``army``: every army of the event."""

    army = ChoiceById(queryset=Army.objects.none(), required=False)

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["army"].queryset = Army.objects.filter(event=event)  # type: ignore[attr-defined]

    def army_ids(self) -> list[int] | None:
        return [army.pk for army in self.cleaned_data["army"]] or None

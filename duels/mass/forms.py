"""Forms of the mass battle's pages: a request is well-formed or refused; the rules are the engine's."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

import rules.mass as magic
from cards.models_mass import Army
from duels.web.forms import REASON_MAX, UID_MAX, YES_NO, ActionForm

SIDE_CHOICES = [(s, s) for s in magic.SIDES]
PLACE_CHOICES = [(p, p) for p in magic.WARRIOR_PLACES]


class MassActionForm(ActionForm):
    """A request of the mass battle's tablet: well-formed, it becomes one engine command."""

    def command(self) -> Any:
        raise NotImplementedError


class RollServerForm(MassActionForm):
    def command(self) -> Any:
        return magic.RollInitiative(source=magic.SERVER)  # the dice are the server's (MassBattleKind.chance)


class RollEnteredForm(MassActionForm):
    dice_a = forms.IntegerField(min_value=1, max_value=6, label=_("die of the first side"))
    dice_b = forms.IntegerField(min_value=1, max_value=6, label=_("die of the second side"))

    def command(self) -> Any:
        d = self.cleaned_data
        return magic.RollInitiative(source=magic.REFEREE, dice=(d["dice_a"], d["dice_b"]))


class ChooseForm(MassActionForm):
    side = forms.ChoiceField(choices=SIDE_CHOICES)
    starts = forms.ChoiceField(choices=YES_NO)

    def command(self) -> Any:
        return magic.ChooseStarter(side=self.cleaned_data["side"], starts=self.cleaned_data["starts"] == "yes")


CARD_ENTRY_MAX = 300
_QR_CARD = re.compile(r"/magic-cards/(\d{1,9})/?(?:[?#].*)?$")


def recorded_card(text: str) -> int | None:
    """M1: a printed magic card as the referee records it - its number, or its QR code's address
    (``…/magic-cards/<number>/``); ``None`` if nothing is typed; ValueError if it is neither."""
    text = text.strip()
    if not text:
        return None
    digits = text.lstrip("№#").strip()
    if digits.isdigit() and len(digits) <= 9:
        return int(digits)
    found = _QR_CARD.search(text)
    if found is None:
        raise ValueError(text)
    return int(found.group(1))


class PointsForm(MassActionForm):
    side = forms.ChoiceField(choices=SIDE_CHOICES)
    warrior = forms.CharField(max_length=UID_MAX, required=False)
    take = forms.ChoiceField(choices=YES_NO, required=False)
    # Printed decks (M1): the card drawn from the real deck - a tapped one (``card``), or its number typed or
    # its QR code scanned (``card_entry``, which wins when both come).
    card = forms.CharField(max_length=CARD_ENTRY_MAX, required=False)
    card_entry = forms.CharField(max_length=CARD_ENTRY_MAX, required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        text = (cleaned.get("card_entry") or "").strip() or (cleaned.get("card") or "")
        try:
            cleaned["card"] = recorded_card(text)
        except ValueError:
            self.add_error("card_entry", _("Type the number printed on the magic card, or scan its QR code."))
        return cleaned

    def command(self) -> Any:
        d = self.cleaned_data
        return magic.UsePoints(side=d["side"], warrior=d["warrior"] or None, take=d["take"] != "no", card=d["card"])


class KeepForm(MassActionForm):
    side = forms.ChoiceField(choices=SIDE_CHOICES)

    def command(self) -> Any:
        return magic.KeepCard(side=self.cleaned_data["side"])


class CarryOutForm(MassActionForm):
    side = forms.ChoiceField(choices=SIDE_CHOICES)
    targets = forms.MultipleChoiceField(required=False)
    target_side = forms.ChoiceField(choices=[("", "—"), *SIDE_CHOICES], required=False)
    move_to = forms.ChoiceField(choices=[("", "—"), *PLACE_CHOICES], required=False)

    def __init__(self, *args: Any, warriors: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["targets"].choices = [(w, w) for w in warriors or []]  # type: ignore[attr-defined]

    def command(self) -> Any:
        d = self.cleaned_data
        return magic.CarryOut(
            side=d["side"],
            targets=tuple(d["targets"]),
            target_side=d["target_side"] or None,
            move_to=d["move_to"] or None,
        )


class UseKeptForm(MassActionForm):
    side = forms.ChoiceField(choices=SIDE_CHOICES)
    uid = forms.CharField(max_length=UID_MAX)

    def command(self) -> Any:
        return magic.UseKept(side=self.cleaned_data["side"], uid=self.cleaned_data["uid"])


class EndTurnForm(MassActionForm):
    side = forms.ChoiceField(choices=SIDE_CHOICES)

    def command(self) -> Any:
        return magic.EndTurn(side=self.cleaned_data["side"])


class MoveForm(MassActionForm):
    warrior = forms.CharField(max_length=UID_MAX)
    to = forms.ChoiceField(choices=PLACE_CHOICES)

    def command(self) -> Any:
        return magic.MoveWarrior(warrior=self.cleaned_data["warrior"], to=self.cleaned_data["to"])


class NextCycleForm(MassActionForm):
    def command(self) -> Any:
        return magic.NextCycle()


class EndBattleForm(MassActionForm):
    reason = forms.CharField(max_length=REASON_MAX, required=False)
    quick_reason = forms.CharField(max_length=REASON_MAX, required=False)  # a one-tap reason (the event's)

    def command(self) -> Any:
        parts = [self.cleaned_data["quick_reason"].strip(), self.cleaned_data["reason"].strip()]
        return magic.EndBattle(reason=" — ".join(p for p in parts if p)[:REASON_MAX])


MASS_FORMS: dict[str, type[MassActionForm]] = {
    "roll_server": RollServerForm,
    "roll_entered": RollEnteredForm,
    "choose": ChooseForm,
    "points": PointsForm,
    "keep": KeepForm,
    "carry_out": CarryOutForm,
    "use_kept": UseKeptForm,
    "end_turn": EndTurnForm,
    "move": MoveForm,
    "next_cycle": NextCycleForm,
    "end_battle": EndBattleForm,
}


class StartMassForm(forms.Form):
    """The two armies of a new mass battle (M1); the nonce makes a double tap harmless."""

    army_a = forms.ModelChoiceField(queryset=Army.objects.none(), label=_("first side"))
    army_b = forms.ModelChoiceField(queryset=Army.objects.none(), label=_("second side"))
    nonce = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, event_id: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        armies = Army.objects.filter(event_id=event_id).order_by("name")
        self.fields["army_a"].queryset = armies  # type: ignore[attr-defined]
        self.fields["army_b"].queryset = armies  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        a, b = cleaned.get("army_a"), cleaned.get("army_b")
        if a is not None and a == b:
            raise forms.ValidationError(_("Choose two different armies."))
        return cleaned

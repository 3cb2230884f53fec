"""The forms every kind's pages share: a tap's version and nonce, a stated reason, undo, a condition change, F1.

A form checks the request's shape only (a malformed one is a 400 with the
form's own messages); the engine decides everything else.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

import rules
from cards.arsenal import pool_entries
from cards.forms import ArsenalSelectionForm
from events.models import Character, Condition

YES_NO = [("yes", _("yes")), ("no", _("no"))]


REASON_MAX = 500


UID_MAX = 64


def _yes(value: str) -> bool:
    return value == "yes"


class ActionForm(forms.Form):
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    nonce = forms.UUIDField(widget=forms.HiddenInput)
    # D8 lag grace: milliseconds from the tablet receiving the answer window to the tap (static/js/sumrak.js).
    lag_ms = forms.IntegerField(min_value=0, max_value=3_600_000, required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, event_id: int | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.event_id = event_id

    def clean_nonce(self) -> str:
        return self.cleaned_data["nonce"].hex


class ReasonMixin(forms.Form):
    """A reason typed, or one of the event's quick reasons tapped (a submit button), or both.

    The quick buttons submit at once (one tap), so the typed field cannot be
    required in the page; the form requires one of the two instead.
    """

    reason = forms.CharField(max_length=REASON_MAX, label=_("reason"), required=False)
    quick_reason = forms.CharField(max_length=REASON_MAX, label=_("reason"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        parts = [data.get("quick_reason", "").strip(), data.get("reason", "").strip()]
        reason = " — ".join(p for p in parts if p)
        if not reason and "reason" not in self.errors and "quick_reason" not in self.errors:
            self.add_error("reason", _("Give a reason: tap one or type it."))
        elif len(reason) > REASON_MAX:
            self.add_error("reason", _("The reason is too long."))
        data["reason"] = reason
        return data


def picked_cards(data: Any, character: Character) -> list[int]:
    """Card ids of a new arsenal built at a round break, one per copy (D3).

    The ``card_<id>`` fields are read by the arsenal builder's own
    ``ArsenalSelectionForm``; whether they fit the pool and the limit is the
    engine's ``check_arsenal``, called by ``next_round_arsenal``. Duels and
    battles both pick through here.
    """
    selection = ArsenalSelectionForm(data, pool=pool_entries(character), selected={})
    if not selection.is_valid():
        raise forms.ValidationError([m for errors in selection.errors.values() for m in errors])
    ids = sorted(selection.card_ids())
    if not ids:
        # An empty hand is never what "build a new arsenal" means (issue 10).
        raise forms.ValidationError(_("Pick at least one card for the new arsenal, or keep the hand."))
    return ids


class UndoForm(ReasonMixin, ActionForm):
    pass


class ConditionChangeForm(forms.Form):
    """CR1/D11 outside a step: add a condition (a blow) or clear one (a healing), always with a reason."""

    CHANGES = [("add", _("add: a blow outside a fight step")), ("clear", _("clear: healed or worn off"))]

    change = forms.ChoiceField(choices=CHANGES, label=_("change"))
    condition = forms.ChoiceField(choices=[(c, Condition(c).label) for c in rules.CONDITIONS], label=_("condition"))
    reason = forms.CharField(max_length=REASON_MAX, label=_("reason"))


class FocusForm(ActionForm):
    """F1 from the player's page. In a fight ``card`` is a card uid, outside one a catalogue card id."""

    version = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)
    card = forms.CharField(max_length=UID_MAX, required=False)  # empty: drop the focus


class SearchForm(forms.Form):
    q = forms.CharField(label=_("Find a character"), max_length=120, required=False)

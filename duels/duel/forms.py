"""Forms of the fight pages: they check that a request is well-formed, never a rule.

Every state-changing form carries the version of the fight the page showed and
a one-time nonce (DESIGN.md §4); the rules themselves are the engine's.
"""

from __future__ import annotations

import re
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

import rules
from cards.arsenal import next_round_arsenal, prepared_ids
from cards.models import PreparedArsenal
from cards.words import explain
from duels.duel.presenters import OUTCOME_LABELS
from duels.web.forms import UID_MAX, YES_NO, ActionForm, ReasonMixin, _yes, picked_cards
from events.models import Character, Condition
from rules import duel as engine


class DuelActionForm(ActionForm):
    duel = forms.IntegerField(min_value=0)

    def command(self) -> engine.Command:
        raise NotImplementedError


class AttackForm(DuelActionForm):
    fighter = forms.IntegerField()
    card = forms.CharField(max_length=UID_MAX)

    def command(self) -> engine.Attack:
        d = self.cleaned_data
        return engine.Attack(duel=d["duel"], fighter=d["fighter"], card=d["card"])


class AnswerForm(DuelActionForm):
    fighter = forms.IntegerField()
    card = forms.CharField(max_length=UID_MAX, required=False)  # empty: no answer (D7)

    def command(self) -> engine.Answer:
        d = self.cleaned_data
        return engine.Answer(duel=d["duel"], fighter=d["fighter"], card=d["card"] or None)


class ConfirmForm(DuelActionForm):
    def command(self) -> engine.ConfirmResult:
        return engine.ConfirmResult(duel=self.cleaned_data["duel"])


class OverrideForm(ReasonMixin, DuelActionForm):
    outcome = forms.ChoiceField(
        choices=list(OUTCOME_LABELS.items()),
        label=_("result"),
        error_messages={"required": _("Choose the result that applies.")},
    )

    def command(self) -> engine.ConfirmResult:
        d = self.cleaned_data
        return engine.ConfirmResult(duel=d["duel"], outcome=d["outcome"], reason=d["reason"])


class EndDuelForm(ReasonMixin, DuelActionForm):
    def command(self) -> engine.EndDuel:
        return engine.EndDuel(duel=self.cleaned_data["duel"], reason=self.cleaned_data["reason"])


# A printed card's QR code opens its public entry (cards:card-entry, ``/cards/<id>/``).
# Not the "#N" on the card's foot: that is the copy's number in its print run, not the card.
CARD_CODE = re.compile(r"/cards/(?P<id>\d+)/?(?:[?#].*)?$")
ARSENAL_CHOICE = re.compile(r"^(keep|new|prepared-\d+)$")


class RoundChoiceForm(DuelActionForm):
    """D3/D12: go on or not, and with which arsenal: the hand, a prepared one, or one built from the pool.

    A new arsenal's copies (``card_<id>`` fields) are read by the arsenal
    builder's own ``ArsenalSelectionForm``, and any arsenal is checked by
    ``cards.arsenal`` against the pool and the limit, as the builder does.
    """

    fighter = forms.IntegerField()
    go_on = forms.TypedChoiceField(choices=YES_NO, coerce=_yes, label=_("goes on"))
    arsenal = forms.RegexField(regex=ARSENAL_CHOICE, initial="keep", label=_("arsenal"))

    def picked_cards(self, character: Character) -> list[int]:
        return picked_cards(self.data, character)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["faces"], data["label"] = None, ""
        if self.errors or not data["go_on"] or data["arsenal"] == "keep":
            return data
        fighters = Character.objects.filter(event_id=self.event_id) if self.event_id is not None else None
        character = None if fighters is None else fighters.filter(pk=data["fighter"]).first()
        if character is None:
            raise forms.ValidationError(_("This fighter is not in this event."))
        if data["arsenal"].startswith("prepared-"):
            prepared = PreparedArsenal.objects.filter(pk=int(data["arsenal"][9:]), character=character).first()
            if prepared is None:
                raise forms.ValidationError(_("This prepared arsenal does not exist."))
            ids, data["label"] = prepared_ids(prepared), prepared.name
        else:
            ids = self.picked_cards(character)
        try:
            data["faces"] = next_round_arsenal(character, ids)
        except rules.RuleError as err:
            # The rule travels as the code: the fight page shows it to referees as a link.
            raise forms.ValidationError(explain(err), code=err.rule_id) from None
        return data

    def command(self) -> engine.RoundChoice:
        d = self.cleaned_data
        return engine.RoundChoice(
            duel=d["duel"], fighter=d["fighter"], go_on=d["go_on"], arsenal=d["faces"], label=d["label"]
        )


ACTION_FORMS: dict[str, type[DuelActionForm]] = {
    "attack": AttackForm,
    "answer": AnswerForm,
    "confirm": ConfirmForm,
    "override": OverrideForm,
    "end_duel": EndDuelForm,
    "round_choice": RoundChoiceForm,
}


FIT_TO_FIGHT = [c for c in Condition.values if rules.can_fight(c)]
RECENT_MAX = 4


class ChooseFightersForm(forms.Form):
    """Who fights whom: ``a`` declares or strikes, ``b`` is the target or victim.

    Only characters who can fight are offered (D11: not helpless, paralysed, dead...);
    the list shows the referee's last fighters first, then those who arrived, then
    the rest, so the usual pick is near the top at a busy gate.
    """

    a = forms.ModelChoiceField(queryset=Character.objects.none(), label=_("Attacker (declares or strikes)"))
    b = forms.ModelChoiceField(queryset=Character.objects.none(), label=_("Target"))

    def __init__(self, *args: Any, event_id: int, recent: list[int] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        characters = Character.objects.filter(
            event_id=event_id, status=Character.Status.ACCEPTED, condition__in=FIT_TO_FIGHT
        ).order_by("-arrived", "name")
        rows = list(characters.values_list("pk", "name", "arrived"))
        recent_ids = [pk for pk in (recent or []) if any(r[0] == pk for r in rows)][:RECENT_MAX]
        names = {pk: name for pk, name, _arrived in rows}
        groups: list[Any] = [("", "---------")]
        if recent_ids:
            groups.append((_("Recently in your fights"), [(pk, names[pk]) for pk in recent_ids]))
        arrived = [(pk, name) for pk, name, came in rows if came]
        others = [(pk, name) for pk, name, came in rows if not came]
        if arrived:
            groups.append((_("Checked in"), arrived))
        if others:
            groups.append((_("Not checked in"), others))
        for name in ("a", "b"):
            field = cast(forms.ModelChoiceField, self.fields[name])
            field.queryset = characters
            field.widget.choices = groups
            field.error_messages["invalid_choice"] = _(
                "This character cannot be chosen now: not accepted, or unable to fight."
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("a") and data.get("a") == data.get("b"):
            raise forms.ValidationError(_("Choose two different characters."))
        return data


class StartForm(forms.Form):
    """Aggression (AG1) or instant attack (IA1, IA2). ``card`` is a catalogue card id of the attacker's hand."""

    KINDS = [("aggression", _("aggression")), ("instant", _("instant attack"))]

    kind = forms.ChoiceField(choices=KINDS)
    nonce = forms.UUIDField(widget=forms.HiddenInput)
    card = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label=_("Attack card"))
    max_rounds = forms.IntegerField(min_value=1, max_value=99, required=False, label=_("Maximum number of bouts"))
    out_of_sight = forms.TypedChoiceField(choices=YES_NO, coerce=_yes, required=False)
    within_reach = forms.TypedChoiceField(choices=YES_NO, coerce=_yes, required=False)
    # IA3: does the victim try to parry? F1: is the focused card held in front of them?
    # The page offers "yes" checked; a form without them (an older page) means yes (``clean``).
    parry = forms.TypedChoiceField(choices=YES_NO, coerce=_yes, required=False, empty_value=None)
    focus_held = forms.TypedChoiceField(choices=YES_NO, coerce=_yes, required=False, empty_value=None)
    # IA3 "draws from real cards": the card the victim drew, tapped in their hand (a catalogue card id)
    # or typed / scanned from the card's printed QR code (its address) or its catalogue number.
    drawn = forms.IntegerField(required=False, min_value=1)
    drawn_code = forms.CharField(required=False, max_length=500, label=_("or the code of the card's QR"))

    def __init__(self, *args: Any, cards: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.TypedChoiceField, self.fields["card"]).choices = [("", _("spoken declaration, no card")), *cards]
        # A card no longer in hand (a form kept by the Back button) is named in words, not Django's raw choice error.
        self.fields["card"].error_messages["invalid_choice"] = _(
            "The attacker no longer holds this card: the page was out of date. Choose again."
        )

    def clean_nonce(self) -> str:
        return self.cleaned_data["nonce"].hex

    def clean_drawn_code(self) -> int | None:
        """A printed card's QR address (``…/cards/<id>/``, typed or scanned): the catalogue card id."""
        code = self.cleaned_data["drawn_code"].strip()
        if not code:
            return None
        found = CARD_CODE.search(code)
        if found is None:
            raise forms.ValidationError(
                _("This is not the code of a printed card's QR: scan it again, or tap the card.")
            )
        return int(found.group("id"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name in ("parry", "focus_held"):
            if name in data and data[name] is None:
                data[name] = True
        if data.get("kind") == "instant":
            # IA1: the referee must answer both questions; IA2: the card chosen in advance.
            for name in ("out_of_sight", "within_reach"):
                if self.data.get(name) not in ("yes", "no"):
                    self.add_error(name, _("Answer this question."))
            if data.get("card") is None:
                self.add_error("card", _("Choose the attack card the attacker strikes with."))
        # The typed or scanned code wins over a tap: it is the card in the referee's hand now.
        data["drawn_card_id"] = data.get("drawn_code") or data.get("drawn")
        return data

"""Forms of the battle pages: one well-formed request -> one battle command.

The forms check shape only (numbers are numbers, choices are known); the
engine decides every rule, and a refused command changes nothing.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from duels.web.forms import REASON_MAX, UID_MAX, ActionForm, picked_cards
from events.models import Character, Side
from helpers.ids import MAX_ID
from rules import OUTCOMES
from rules import battle as B

SIDES = [(s.value, s.label) for s in Side]
TRIGGER_MAX = 200
MAX_LIST = 40  # more combatants or cards than any battle has is garbage


class IdList(forms.Field):
    """Several integer ids from checkboxes (``getlist``); garbage is refused."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value: Any) -> tuple[int, ...]:
        values = value or []
        if len(values) > MAX_LIST or not all(str(v).isdigit() and len(str(v)) < 10 for v in values):
            raise forms.ValidationError(_("The request was incomplete."))
        return tuple(int(v) for v in values)


class UidList(forms.Field):
    widget = forms.MultipleHiddenInput

    def to_python(self, value: Any) -> tuple[str, ...]:
        values = value or []
        if len(values) > MAX_LIST or not all(0 < len(str(v)) <= UID_MAX for v in values):
            raise forms.ValidationError(_("The request was incomplete."))
        return tuple(str(v) for v in values)


class CharactersField(forms.ModelMultipleChoiceField):
    """Character checkboxes; an id no database row can have is refused before the query (SQLite overflows)."""

    def clean(self, value: Any) -> Any:
        # Django's own clean refuses anything but a list or tuple before it looks the ids up,
        # so only those are checked here, before the query.
        if isinstance(value, (list, tuple)):
            for pk in value:
                if not str(pk).isdigit() or int(pk) > MAX_ID:
                    raise forms.ValidationError(_("The request was incomplete."))
        return super().clean(value)


class BattleActForm(ActionForm):
    """Every button of the referee's battle tablet posts this form; ``action`` says which command."""

    ACTIONS = [
        ("act", "act"),
        ("proceed", "proceed"),
        ("opportunity", "opportunity"),
        ("interrupt", "interrupt"),
        ("response", "response"),
        ("answer", "answer"),
        ("confirm", "confirm"),
        ("next_turn", "next_turn"),
        ("start_round", "start_round"),
        ("leave", "leave"),
        ("end", "end"),
    ]
    action = forms.ChoiceField(choices=ACTIONS)
    frame = forms.IntegerField(min_value=0, required=False)
    who = forms.IntegerField(min_value=0, required=False)  # actor, reactor or defender
    act = forms.ChoiceField(choices=[(a, a) for a in B.state.ACTS], required=False)
    cards = UidList(required=False)
    card = forms.CharField(max_length=UID_MAX, required=False)
    targets = IdList(required=False)
    engaged = IdList(required=False)
    target = forms.IntegerField(min_value=0, required=False)
    negates = forms.TypedChoiceField(choices=[("1", "1"), ("0", "0")], coerce=lambda v: v == "1", required=False)
    outcome = forms.ChoiceField(choices=[(o, o) for o in OUTCOMES], required=False)
    reason = forms.CharField(max_length=REASON_MAX, required=False)
    quick_reason = forms.CharField(max_length=REASON_MAX, required=False)  # a one-tap reason (the event's)
    trigger = forms.CharField(max_length=TRIGGER_MAX, required=False)
    mode = forms.ChoiceField(choices=[(B.INTERRUPT, B.INTERRUPT), (B.RESPONSE, B.RESPONSE)], required=False)
    order = IdList(required=False)
    adjacent = forms.BooleanField(required=False)  # R1: the reactor is next to an out-of-turn provoker

    # The fields each action's command reads (``clean`` and ``command``); every other field is optional.
    USES: dict[str, tuple[str, ...]] = {
        "act": ("who", "act", "cards", "targets", "engaged", "trigger", "mode"),
        "proceed": ("frame",),
        "opportunity": ("frame", "who", "card", "adjacent"),
        "interrupt": ("frame", "who", "card", "target", "negates"),
        "response": ("frame", "who", "card", "target", "negates"),
        "answer": ("frame", "who", "card"),
        "confirm": ("frame", "who", "outcome", "reason", "quick_reason"),
        "next_turn": (),
        "start_round": ("order",),
        "leave": ("who",),
        "end": ("reason", "quick_reason"),
    }
    ALWAYS = ("version", "nonce", "lag_ms", "action")

    def __init__(self, data: Any = None, **kwargs: Any) -> None:
        # Django's form deep-copies every field it declares on each request (~5 % of a battle
        # step, issue 24). A bound form gets only the fields its action reads and those the
        # request carries, in the declared order: a field neither read nor sent is optional
        # and cleans to nothing, so the errors, their order and the message stay what the
        # whole form gave (tests/web/test_battle_act_form.py). The list fields are read with
        # ``getlist`` by their widget (MultipleHiddenInput).
        if data is not None:
            declared = type(self).base_fields
            action = data.get("action")
            uses = self.USES.get(action, tuple(declared)) if isinstance(action, str) else tuple(declared)
            wanted = {*self.ALWAYS, *uses}
            # An instance's own, shadowing the class's: Django's __init__ copies self.base_fields.
            self.base_fields = {k: f for k, f in declared.items() if k in wanted or k in data}  # type: ignore[misc]
        super().__init__(data, **kwargs)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        action = data.get("action")
        need = {
            "act": ("who", "act"),
            "proceed": ("frame",),
            "opportunity": ("frame", "who", "card"),
            "interrupt": ("frame", "who"),
            "response": ("frame", "who"),
            "answer": ("frame", "who"),
            "confirm": ("frame", "who"),
            "leave": ("who",),
        }.get(action or "", ())
        if any(data.get(key) in (None, "") for key in need):
            raise forms.ValidationError(_("The request was incomplete."))
        # As the duel's ReasonMixin: a tapped reason and a typed one make one reason.
        parts = [(data.get("quick_reason") or "").strip(), (data.get("reason") or "").strip()]
        data["reason"] = " — ".join(p for p in parts if p)[:REASON_MAX]
        return data

    def command(self) -> Any:
        d = self.cleaned_data
        card = d.get("card") or None
        match d["action"]:
            case "act":
                return B.Act(
                    actor=d["who"],
                    act=d["act"],
                    cards=d["cards"],
                    targets=d["targets"],
                    engaged=d["engaged"],
                    trigger=d.get("trigger") or "",
                    mode=d.get("mode") or B.INTERRUPT,
                )
            case "proceed":
                return B.Proceed(frame=d["frame"])
            case "opportunity":
                # clean() refused an opportunity without a card, so d["card"] is a uid here.
                return B.Opportunity(
                    reactor=d["who"], frame=d["frame"], card=d["card"], adjacent=bool(d.get("adjacent"))
                )
            case "interrupt" | "response":
                return B.Immediate(
                    reactor=d["who"],
                    frame=d["frame"],
                    mode=d["action"],
                    card=card,
                    target=d.get("target"),
                    negates=bool(d.get("negates")),
                )
            case "answer":
                return B.AnswerAttack(frame=d["frame"], defender=d["who"], card=card)
            case "confirm":
                return B.ConfirmAnswer(
                    frame=d["frame"], defender=d["who"], outcome=d.get("outcome") or None, reason=d.get("reason") or ""
                )
            case "next_turn":
                return B.NextTurn()
            case "start_round":
                return B.StartRound(order=d["order"] or None)
            case "leave":
                return B.Leave(combatant=d["who"])
            case _:
                return B.EndBattle(reason=d.get("reason") or "")


class StartBattleForm(forms.Form):
    """Who fights in a new battle, on which side, and who declared it (D5)."""

    nonce = forms.UUIDField(widget=forms.HiddenInput)
    combatants = CharactersField(
        queryset=Character.objects.none(), widget=forms.CheckboxSelectMultiple, label=_("Combatants (three or more)")
    )
    declarer = forms.ModelChoiceField(queryset=Character.objects.none(), label=_("Who declared the fight (acts first)"))
    max_rounds = forms.IntegerField(min_value=1, max_value=99, required=False, label=_("Maximum rounds (optional)"))

    def __init__(self, *args: Any, event_id: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        people = Character.objects.filter(event_id=event_id, status=Character.Status.ACCEPTED).order_by("name")
        cast(forms.ModelMultipleChoiceField, self.fields["combatants"]).queryset = people
        cast(forms.ModelChoiceField, self.fields["declarer"]).queryset = people

    def clean_nonce(self) -> str:
        return self.cleaned_data["nonce"].hex

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        chosen = data.get("combatants") or []
        if len(chosen) < B.MIN_COMBATANTS:
            raise forms.ValidationError(_("A battle needs at least three combatants on at least two sides."))
        if data.get("declarer") is not None and data["declarer"] not in chosen:
            raise forms.ValidationError(_("The one who declared the fight must be one of the combatants."))
        # Only the chosen have a side field (a 2,000-character event gets no 2,000 fields, issue 20).
        known = {value for value, _label in SIDES}
        sides = {c.pk: self.data.get(f"side_{c.pk}") or c.side for c in chosen}
        if any(side not in known for side in sides.values()):
            raise forms.ValidationError(_("The request was incomplete."))
        data["sides"] = sides
        return data


class JoinBattleForm(ActionForm):
    character = forms.ModelChoiceField(queryset=Character.objects.none(), label=_("Character"))
    side = forms.ChoiceField(choices=SIDES, required=False, label=_("Side"))
    strike = forms.BooleanField(required=False)  # BP4: joins by attacking, strikes at once

    def __init__(self, *args: Any, event_id: int, **kwargs: Any) -> None:
        super().__init__(*args, event_id=event_id, **kwargs)
        cast(forms.ModelChoiceField, self.fields["character"]).queryset = Character.objects.filter(
            event_id=event_id, status=Character.Status.ACCEPTED
        ).order_by("name")


class RoundBreakArsenalForm(ActionForm):
    """D3 between rounds: a combatant takes a prepared arsenal, or a new one built from their pool.

    ``prepared`` names a prepared arsenal; otherwise ``fighter`` names the
    combatant and the ``card_<id>`` fields are read by the duel's round-break
    picker (the arsenal builder's own form). Pool and limit are the engine's
    check, made by the service; this form checks shape only.
    """

    prepared = forms.IntegerField(min_value=1, max_value=MAX_ID, required=False)
    fighter = forms.IntegerField(min_value=1, max_value=MAX_ID, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["character"], data["card_ids"] = None, []
        if self.errors or data.get("prepared"):
            return data
        if not data.get("fighter"):
            raise forms.ValidationError(_("The request was incomplete."))
        assert self.event_id is not None, "RoundBreakArsenalForm is built with the situation's event_id"
        character = Character.objects.filter(pk=data["fighter"], event_id=self.event_id).first()
        if character is None:
            raise forms.ValidationError(_("This fighter is not in this event."))
        data["character"], data["card_ids"] = character, picked_cards(self.data, character)
        return data


class GrowForm(ActionForm):
    """A third Other joins a running duel, which becomes a battle; ``declarer`` acts first (D5)."""

    character = forms.ModelChoiceField(queryset=Character.objects.none(), label=_("The third Other"))
    side = forms.ChoiceField(choices=SIDES, required=False, label=_("Side"))
    # A duellist's id, or "third" for the newcomer.
    declarer = forms.RegexField(regex=r"^(third|[0-9]{1,18})$", label=_("Who declared the fight (acts first)"))

    def __init__(self, *args: Any, event_id: int, **kwargs: Any) -> None:
        super().__init__(*args, event_id=event_id, **kwargs)
        cast(forms.ModelChoiceField, self.fields["character"]).queryset = Character.objects.filter(
            event_id=event_id, status=Character.Status.ACCEPTED
        ).order_by("name")

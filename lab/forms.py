"""The lab's start form: which arsenals, how many duels, how the fighters play."""

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from lab.models import LabRun
from lab.simulate import GREEDY, RANDOM

MAX_DUELS = 100_000


class LabForm(forms.Form):
    label = forms.CharField(label=_("Name of the run"), max_length=120, required=False)
    source = forms.ChoiceField(
        label=_("Arsenals to test"), choices=LabRun.Source.choices, initial=LabRun.Source.PREPARED
    )
    duels = forms.IntegerField(label=_("Duels"), min_value=10, max_value=MAX_DUELS, initial=10_000)
    policy = forms.ChoiceField(
        label=_("How the fighters play"),
        choices=[(GREEDY, _("greedy: the best counter by the counter rules")), (RANDOM, _("random legal play"))],
        initial=GREEDY,
    )
    instant_percent = forms.IntegerField(
        label=_("Instant attacks per 100 duels"), min_value=0, max_value=100, initial=20
    )
    focus_percent = forms.IntegerField(
        label=_("Victims focused on a defence card per 100 instant attacks"), min_value=0, max_value=100, initial=50
    )
    timeout_percent = forms.IntegerField(label=_("Late answers per 100 answers"), min_value=0, max_value=100, initial=5)
    max_rounds = forms.IntegerField(label=_("Bouts at most"), min_value=1, max_value=10, initial=3)
    seed = forms.IntegerField(
        label=_("Seed"),
        min_value=0,
        max_value=2**31 - 1,
        required=False,
        help_text=_("The same seed with the same catalogue gives the same figures; empty: a new one."),
    )


class CompareForm(forms.Form):
    a = forms.ModelChoiceField(queryset=LabRun.objects.none(), label=_("Before"))
    b = forms.ModelChoiceField(queryset=LabRun.objects.none(), label=_("After"))

    def __init__(self, *args: Any, event_id: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        runs = LabRun.objects.filter(event_id=event_id, status=LabRun.Status.DONE)
        cast(forms.ModelChoiceField, self.fields["a"]).queryset = runs
        cast(forms.ModelChoiceField, self.fields["b"]).queryset = runs

"""A lab run as the lab's page queues it (the runner's tests and the event file's, which saves one)."""

from django.urls import reverse

from lab.arsenals import arsenals_of, counters_of
from lab.codec import arsenal_to_dict, counter_to_dict, settings_to_dict
from lab.models import LabRun
from lab.simulate import LabSettings


def queued_run(event, source=LabRun.Source.PREPARED, duels=160, seed=11) -> LabRun:
    settings = LabSettings(duels=duels, seed=seed)
    arsenals = arsenals_of(event, source, seed)
    return LabRun.objects.create(
        event=event,
        source=source,
        settings=settings_to_dict(settings),
        arsenals=[arsenal_to_dict(a) for a in arsenals],
        counters=[counter_to_dict(c) for c in counters_of(event)],
        total=duels,
    )


def start(client, event, **changes):
    """POST the lab page's form to start a run (the form's own fields, changed by ``changes``)."""
    data = {
        "label": "First try",
        "source": "prepared",
        "duels": "60",
        "policy": "greedy",
        "instant_percent": "30",
        "focus_percent": "50",
        "timeout_percent": "5",
        "max_rounds": "3",
        "seed": "42",
    } | changes
    return client.post(reverse("lab:home", args=[event.pk]), data)

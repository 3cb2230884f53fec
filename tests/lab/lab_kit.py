"""A lab run as the lab's page queues it (the runner's tests and the event file's, which saves one)."""

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

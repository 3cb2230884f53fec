"""A lab run on the demo catalogue: worker processes, a reproducible result, progress and cancel (issue 15)."""

import pytest

from lab.arsenals import arsenals_of, catalogue_faces, counters_of
from lab.codec import tally_from_dict
from lab.findings import report
from lab.models import LabRun
from lab.runner import execute
from tests.lab.lab_kit import queued_run

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("source", list(LabRun.Source))
def test_every_source_gives_arsenals_from_the_demo(demo_event, source):
    arsenals = arsenals_of(demo_event, source, seed=1)
    assert len(arsenals) >= 2
    assert all(arsenal.cards for arsenal in arsenals)


def test_a_run_on_the_demo_catalogue_is_reproducible_with_its_seed(demo_event, settings):
    settings.SUMRAK_LAB_PROCESSES = 2
    first = execute(queued_run(demo_event).pk)
    settings.SUMRAK_LAB_PROCESSES = 1  # another split of the duels among processes: the same figures
    again = execute(queued_run(demo_event).pk)
    assert first.status == again.status == LabRun.Status.DONE, first.error + again.error
    assert first.done == first.total == 160
    assert first.tally == again.tally
    other = execute(queued_run(demo_event, seed=12).pk)
    assert other.tally != first.tally
    assert first.tally is not None
    result = report(tally_from_dict(first.tally), catalogue_faces(demo_event), counters_of(demo_event))
    assert result.duels == 160 and result.steps_per_duel > 0


def test_a_cancelled_run_stops_and_reports_nothing(demo_event):
    run = queued_run(demo_event, duels=50_000)
    LabRun.objects.filter(pk=run.pk).update(cancel_requested=True)
    finished = execute(run.pk)
    assert finished.status == LabRun.Status.CANCELLED and finished.tally is None
    assert finished.done < 50_000


def test_a_run_is_played_once_even_if_its_task_comes_twice(demo_event):
    run = execute(queued_run(demo_event, duels=20).pk)
    LabRun.objects.filter(pk=run.pk).update(done=0)
    assert execute(run.pk).done == 0  # not queued any more: the second delivery does nothing

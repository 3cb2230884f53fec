"""The services' one protocol for a refused change: what was applied before the refusal is kept.

``commit_then_refuse`` is what perform, undo_last and the starts share
(DESIGN.md §4): overdue deadlines are applied first, and a refusal that
follows must not take them back.
"""

import datetime as dt

import pytest

import rules as engine
from cards.models import Catalogue
from duels import services
from duels.models import LogEntry, Situation
from duels.services.commands import commit_then_refuse
from tests.services.kit import nonce

pytestmark = pytest.mark.django_db(transaction=True)

T0 = dt.datetime(2026, 12, 5, 21, 0, tzinfo=dt.UTC)


def test_a_refusal_commits_what_the_block_wrote_then_is_raised():
    with pytest.raises(engine.RuleError), commit_then_refuse(engine.RuleError):
        Catalogue.objects.create(name="kept")
        raise engine.RuleError("D8", "late")
    assert Catalogue.objects.filter(name="kept").exists()


def test_any_other_error_rolls_everything_back():
    with pytest.raises(ValueError), commit_then_refuse(engine.RuleError):
        Catalogue.objects.create(name="gone")
        raise ValueError("a bug, not a refusal")
    assert not Catalogue.objects.filter(name="gone").exists()


def test_D8_S2_an_undo_refused_on_a_situation_the_gap_just_ended_keeps_that_expiry(clock, shown, referee):
    """The undo finds the gap over (S2): the expiry is applied and kept, the undo is refused."""
    version = Situation.objects.get(pk=shown.pk).version
    clock.shift(dt.timedelta(seconds=15 + 181))
    with pytest.raises(services.SituationEnded):
        services.undo_last(shown.pk, user=referee, reason="too late", seen_version=version, nonce=nonce())
    situation = Situation.objects.get(pk=shown.pk)
    assert situation.ended and situation.version == version + 1
    assert LogEntry.objects.filter(situation=situation, kind=LogEntry.Kind.EXPIRE).exists()
    assert not LogEntry.objects.filter(situation=situation, kind=LogEntry.Kind.UNDO).exists()

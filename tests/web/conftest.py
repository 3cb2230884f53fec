"""Fixtures of the web tests."""

import pytest

from events.models import StaffRole


@pytest.fixture
def sweep_personas(personas, other_event, django_user_model):
    """The access tests' personas, and three more the bad-input sweeps must also survive."""
    inactive = django_user_model.objects.create_user("inactive")
    inactive.is_active = False
    inactive.save()
    other_referee = django_user_model.objects.create_user("other_referee")
    StaffRole.objects.create(event=other_event, user=other_referee, role=StaffRole.Role.REFEREE)
    superuser = django_user_model.objects.create_superuser("site_root", password="pass-site-root")
    return {**personas, "inactive": inactive, "other_referee": other_referee, "superuser": superuser}

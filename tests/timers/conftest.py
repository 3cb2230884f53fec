"""Timer tests share the armed characters of the services tests."""

from tests.services.conftest import armed, bystander, spark

__all__ = ["armed", "bystander", "spark"]

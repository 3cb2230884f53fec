"""Settings for pytest: the project's settings with what the tests need set first.

DEBUG is off by default (config/settings.py) and then needs a long SECRET_KEY and
ALLOWED_HOSTS; the tests run as a developer's machine does (DEBUG=true at import:
plain static files, the development key; Django's test runner still runs each
test with DEBUG off). Setting the variables here, before the settings are read,
also hands them to the processes the tests start (manage.py, Celery, the launcher).
"""

import os

os.environ.setdefault("DEBUG", "true")

from config.settings import *  # noqa: F403

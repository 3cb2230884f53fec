"""Settings for pytest: the project's settings with what the tests need set first.

DEBUG is off by default (config/settings.py) and then needs a long SECRET_KEY and
ALLOWED_HOSTS; the tests run as a developer's machine does (DEBUG=true at import:
plain static files, the development key; Django's test runner still runs each
test with DEBUG off). Setting the variables here, before the settings are read,
also hands them to the processes the tests start (manage.py, Celery, the launcher).
"""

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

os.environ.setdefault("DEBUG", "true")
# pytest-xdist (scripts/test.sh's SQLite pass): each worker has a database of its own (in memory)
# and needs a var/ of its own too: print runs' files are named by row ids, which both workers hand
# out alike, and the filesystem broker's queue is a folder there. (A process a test starts
# inherits the folder.)
_worker = os.environ.get("PYTEST_XDIST_WORKER")
_var = Path(os.environ.get("SUMRAK_VAR_DIR", Path(__file__).resolve().parent.parent / "var"))
if _worker and _var.name != f"test-{_worker}":
    os.environ["SUMRAK_VAR_DIR"] = str(_var / f"test-{_worker}")
# The PostgreSQL pass's workers (pytest-django names each one's database after it) share one Redis
# server: each takes a Redis database of its own, the next ones after REDIS_URL's, so a test that
# clears its cache (a FLUSHDB on Redis) or reads the broker's queue meets only its own worker's keys.
_redis = os.environ.get("REDIS_URL", "")
if _worker and _redis and "SUMRAK_TEST_REDIS_BASE" not in os.environ:
    os.environ["SUMRAK_TEST_REDIS_BASE"] = _redis
    _url = urlsplit(_redis)
    _db = _url.path.strip("/")
    _number = (int(_db) if _db.isdigit() else 0) + 1 + int(_worker.removeprefix("gw") or 0)
    os.environ["REDIS_URL"] = urlunsplit(_url._replace(path=f"/{_number % 16}"))

from config.settings import *  # noqa: E402, F403

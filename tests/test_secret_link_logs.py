"""Secret character links never reach a log (issue 13, config/log_filters.py).

The token in ``/c/<token>/`` opens a character's hand: Django's request log,
runserver's access log and gunicorn's logs must show ``/c/[secret]`` instead.
"""

import io
import logging
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

from config.log_filters import MaskSecretLinks
from tests.resilience.servers import free_port

# A bound on wall time or real processes: runs alone, never beside an xdist worker (scripts/test.sh).
pytestmark = pytest.mark.serial

TOKEN = "tok3n-THAT-must-not-leak_42"


def masked_handlers(logger: logging.Logger) -> list[logging.Handler]:
    return [h for h in logger.handlers if any(isinstance(f, MaskSecretLinks) for f in h.filters)]


@pytest.mark.django_db
def test_a_404_on_a_secret_link_is_logged_without_its_token(client):
    handler = masked_handlers(logging.getLogger())[0]
    assert isinstance(handler, logging.StreamHandler)
    stream = io.StringIO()
    old = handler.setStream(stream)
    try:
        assert client.get(f"/c/{TOKEN}/").status_code == 404
    finally:
        handler.setStream(old)
    logged = stream.getvalue()
    assert "Not Found: /c/[secret]/" in logged
    assert TOKEN not in logged


def test_runserver_access_lines_are_masked():
    handler = masked_handlers(logging.getLogger("django.server"))[0]
    assert isinstance(handler, logging.StreamHandler)
    stream = io.StringIO()
    old = handler.setStream(stream)
    try:
        logging.getLogger("django.server").info('"%s" %s %s', f"GET /c/{TOKEN}/live/?x=1 HTTP/1.1", 200, 512)
    finally:
        handler.setStream(old)
    assert '"GET /c/[secret]/live/?x=1 HTTP/1.1" 200 512' in stream.getvalue()
    assert TOKEN not in stream.getvalue()


def test_other_paths_are_logged_as_they_are():
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "GET %s", ("/events/3/characters/",), None)
    MaskSecretLinks().filter(record)
    assert record.getMessage() == "GET /events/3/characters/"


def test_gunicorn_access_log_is_masked(tmp_path):
    """The real gunicorn with the project's config file and an access log on."""
    app = tmp_path / "tiny_app.py"
    app.write_text(
        "def application(environ, start_response):\n"
        "    start_response('404 Not Found', [('Content-Type', 'text/plain')])\n"
        "    return [b'no']\n"
    )
    # A port the system hands out as free, not one of 90 fixed ones picked by the clock: another run or
    # service holding that port would answer in gunicorn's stead (or gunicorn could not bind), and the log is empty.
    port = free_port()
    conf = Path(settings.BASE_DIR) / "config" / "gunicorn_conf.py"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            str(conf),
            "--access-logfile",
            "-",
            "--bind",
            f"127.0.0.1:{port}",
            "--chdir",
            str(tmp_path),
            "--pythonpath",
            str(settings.BASE_DIR),
            "tiny_app:application",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/c/{TOKEN}/", timeout=1)
            except urllib.error.HTTPError:
                break
            except OSError:
                time.sleep(0.1)
        time.sleep(0.3)
    finally:
        server.terminate()
        output = server.communicate(timeout=20)[0]
    assert "/c/[secret]/" in output, output
    assert TOKEN not in output

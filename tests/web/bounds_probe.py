"""Read one file through an import's reader in a fresh process, and say what it cost (issue 27).

``python -m tests.web.bounds_probe KIND FILE`` prints one JSON line: ``seconds``, the peak
memory ``growth`` in bytes while reading (the kernel's VmHWM, reset after a warm-up read,
minus VmRSS before) and the refusal's ``message`` (empty if the file was read). A process of
its own keeps the measure clean of what the test run holds (tests/web/test_import_bounds.py).
"""

import json
import os
import sys
import time
from pathlib import Path


def _status(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def main(kind: str, path: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")
    import django

    django.setup()
    from django.utils import translation

    translation.activate("en")
    from events.import_page import read_upload
    from helpers.tables import TableError
    from tests.web.table_bombs import workbook

    content = Path(path).read_bytes()
    name = Path(path).name
    # Warm up: the readers' modules and caches are loaded once, as in a server that has served before.
    for warm_name, warm in (
        ("w.csv", b"name\nOlga\n"),
        ("w.json", b'[{"name": "Olga"}]'),
        ("w.xlsx", workbook([["name"], ["Olga"]])),
    ):
        read_upload(kind, warm, warm_name)
    Path("/proc/self/clear_refs").write_text("5")
    before = _status("VmRSS")
    # CPU seconds of the read, not the wall clock: on a loaded 2-core CI machine other processes take the
    # cores; the hostile files before issue 27 burnt CPU for 25 s to minutes.
    started = time.thread_time()
    message = ""
    try:
        read_upload(kind, content, name)
    except TableError as err:
        message = str(err)
    seconds = time.thread_time() - started
    print(json.dumps({"seconds": seconds, "growth": _status("VmHWM") - before, "message": message}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

"""Hostile files refused quickly, memory flat, each measured in a fresh process (issue 27).

Every case is read by ``events.import_page.read_upload`` (what every import page calls) in a
process of its own (tests/web/bounds_probe.py), which reports the seconds and the peak memory
growth of the read alone; a case passes when the file is refused with its bound's words
within ``MAX_SECONDS`` and ``MAX_GROWTH``. Before issue 27: the 99 KB line ran csv.Sniffer
for minutes (the worker was SIGKILLed), the 150,000-key JSON object read for 203 s, and the
style sheet and shared strings were built whole by openpyxl (25 s, 300 MB).

The same files through the import pages, changing nothing: tests/web/test_import_pages_bounds.py.
"""

import json
import subprocess
import sys
from collections.abc import Callable
from functools import partial

import pytest
from django.conf import settings

from tests.web import table_bombs

# A bound on wall time or real processes: runs alone, never beside an xdist worker (scripts/test.sh).
pytestmark = pytest.mark.serial

MB = 1024 * 1024
MAX_SECONDS = 5.0
MAX_GROWTH = 50 * MB

CASES: dict[str, tuple[Callable[[], bytes], str]] = {
    "sniffer-99KB.csv": (table_bombs.sniffer_csv, "more than 50 columns"),
    "wide-150000-keys.json": (table_bombs.wide_json, "more than 50 keys"),
    "deep-200000.json": (table_bombs.deep_json, "nests more than 3 levels deep"),
    "styles.xlsx": (table_bombs.styles_workbook, "style sheet has more than"),
    "styles-undeclared.xlsx": (lambda: table_bombs.styles_workbook(declared=False), "style sheet has more than"),
    "shared-strings.xlsx": (table_bombs.shared_strings_workbook, "shared texts"),
    "shared-strings-undeclared.xlsx": (lambda: table_bombs.shared_strings_workbook(declared=False), "shared texts"),
    "dimension-4.7KB.xlsx": (table_bombs.dimension_bomb, "The sheet declares 1048576 rows and 16384 columns"),
    "laughs-allrpg.xls": (table_bombs.billion_laughs_html, "XML document"),
    **{
        f"laughs-in-{part.rsplit('/', 1)[-1]}.xlsx": (
            partial(table_bombs.billion_laughs_workbook, part),
            "XML document",
        )
        for part in ("xl/worksheets/sheet1.xml", "xl/sharedStrings.xml", "xl/workbook.xml", "xl/styles.xml")
    },
}


def probe(tmp_path, name: str, content: bytes, kind: str = "characters") -> dict:
    path = tmp_path / name
    path.write_bytes(content)
    done = subprocess.run(
        [sys.executable, "-m", "tests.web.bounds_probe", kind, str(path)],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", CASES)
def test_a_hostile_file_is_refused_within_5_s_and_50_MB(tmp_path, name):
    build, words = CASES[name]
    content = build()
    assert len(content) < 2 * MB  # within the upload limit: only the reader's bounds can stop it
    seen = probe(tmp_path, name, content)
    assert words in seen["message"], seen
    assert seen["seconds"] < MAX_SECONDS, seen
    assert seen["growth"] < MAX_GROWTH, f"memory grew by {seen['growth'] / MB:.1f} MB"


def test_the_probe_measures_a_real_read(tmp_path):
    """The measure can fail: a good 9,000-row CSV is read (not refused) and takes memory."""
    rows = "\n".join(f"Персонаж {n},light,{'x' * 40}" for n in range(9_000))
    seen = probe(tmp_path, "big.csv", ("name,side,notes\n" + rows).encode())
    assert seen["message"] == ""
    assert seen["growth"] > 5 * MB

"""The benchmark's report (bench/report.py) cannot pass a step load that measured something else (issue 24).

A step load whose fights ran out of prepared steps sends wrk's other requests
instead (pings): its latencies are then mostly theirs. The report takes a
step load's p95 from its steps alone, and flags a load whose steps ran out
or were refused, which then never meets its target.
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from argparse import Namespace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

import pytest

from bench import report
from bench.__main__ import _database_url, _redis_url, free_ports
from bench.load import run_wrk


def _wrk(p95_ms: float, rps: float = 1000.0, **more) -> dict:
    """A wrk result as bench/wrk/load.lua writes it (6 s), with the fields run_wrk adds."""
    result = {"requests": int(rps * 6), "duration_us": 6_000_000, "rps": rps, "p95_ms": p95_ms, "codes": {"200": 1}}
    result.update(more)
    result.update(report.steps_of(result, 6.0))
    return result


def _round(**step_post_battle) -> dict:
    return {
        "bare": _wrk(50.0, rps=4000),
        "bare_post": _wrk(60.0, rps=3500),
        "step_post_battle": _wrk(**step_post_battle),
    }


def test_a_step_loads_ratio_is_its_steps_p95_not_wrks():
    # Some requests were fillers (fast pings, while every fight had a step in flight): wrk's p95
    # is 120 ms, the steps' own 900 ms.
    steps = {"steps_sent": 300, "steps_done": 300, "steps_answered": 300, "refused": 0, "ran_out": 0, "filler": 24}
    load = report.median_rounds([_round(p95_ms=120.0, rps=54, step_p95_ms=900.0, **steps)])
    battle = load["step_post_battle"]
    assert battle["p95_vs_bare"] == 15.0  # 900 / the bare POST's 60
    assert battle["steps_per_s"] == 50.0
    assert not battle["steps_ran_out"] and report.flags("step_post_battle", battle) == []
    assert "✗" in report.met("step_post_battle", battle)


def test_a_load_whose_steps_ran_out_is_flagged_and_never_meets_its_target():
    # 120 steps answered quickly, then 5,000 requests were due as steps with none left: pings.
    ran_out = {"steps_sent": 120, "steps_done": 120, "steps_answered": 120, "refused": 0, "ran_out": 5000}
    load = report.median_rounds([_round(p95_ms=40.0, rps=900, step_p95_ms=90.0, **ran_out)])
    battle = load["step_post_battle"]
    assert battle["steps_ran_out"] and battle["step_share"] < 0.05
    assert battle["p95_vs_bare"] <= report.TARGETS["step_post_battle"]  # the figure alone would pass
    assert "✗" in report.met("step_post_battle", battle)
    assert any("RAN OUT" in flag for flag in report.flags("step_post_battle", battle))
    row = next(r for r in report.table({"load": load}).splitlines() if r.startswith("| step_post_battle "))
    assert "RAN OUT" in row and "✗" in row


def test_refused_steps_are_flagged():
    refused = {"steps_sent": 500, "steps_done": 400, "steps_answered": 500, "refused": 100, "ran_out": 0}
    load = report.median_rounds([_round(p95_ms=100.0, rps=85, step_p95_ms=100.0, **refused)])
    assert report.flags("step_post_battle", load["step_post_battle"]) == ["REFUSED 100 steps"]
    assert "✗" in report.met("step_post_battle", load["step_post_battle"])


def test_a_step_load_that_measured_steps_meets_its_target():
    steps = {"steps_sent": 5990, "steps_done": 5990, "steps_answered": 5990, "refused": 0, "ran_out": 0}
    load = report.median_rounds([_round(p95_ms=150.0, rps=1000, step_p95_ms=150.0, **steps)])
    assert report.flags("step_post_battle", load["step_post_battle"]) == []
    assert "✓" in report.met("step_post_battle", load["step_post_battle"])  # 150 / 60 = 2.5


def test_short_names_for_the_database_and_the_redis_db():
    assert _database_url("sumrak_x") == "postgres://postgres@127.0.0.1:5432/sumrak_x"
    assert _database_url("postgres://root@db:5433/other") == "postgres://root@db:5433/other"
    assert _redis_url("6") == "redis://127.0.0.1:6379/6"
    with pytest.raises(SystemExit, match="--database"):
        _database_url("x; DROP")
    with pytest.raises(SystemExit, match="--redis"):
        _redis_url("sixteen")


def test_a_taken_app_port_stops_the_bench_with_a_clear_message():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(SystemExit, match=f"port {port} .* in use"):
            free_ports([port])


class _App(BaseHTTPRequestHandler):
    """A stand-in app for wrk's script: a step answers after 20 ms as the real one does (its regions,
    with the act forms and the new version); fight 4's first step is refused (409, the tablet at the
    same version), then sent again and taken."""

    protocol_version = "HTTP/1.1"
    refused: set[int] = set()

    def do_GET(self):
        self._send(200, b"pong", {})

    def do_POST(self):
        fight = int(self.path.split("/")[2])
        body = parse_qs(self.rfile.read(int(self.headers["Content-Length"])).decode())
        version = int(body["version"][0])
        time.sleep(0.02)
        refuse = fight == 4 and fight not in self.refused
        self.refused.add(fight)
        page = f'<form hx-post="/battles/{fight}/act/"></form><span data-version="{version + (not refuse)}"></span>'
        self._send(409 if refuse else 200, page.encode(), {"X-Sumrak-Base-Version": str(version)})

    def _send(self, status, body, headers):
        # One write (headers and body): two would wait on Nagle and the delayed ACK, 40 ms each.
        head = [f"HTTP/1.1 {status} X", f"Content-Length: {len(body)}", *(f"{k}: {v}" for k, v in headers.items())]
        self.wfile.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)

    def log_message(self, *args):
        pass


@pytest.mark.serial  # a real wrk for 2 s, timing its answers
@pytest.mark.skipif(shutil.which("wrk") is None, reason="Debian's wrk is not installed")
def test_wrks_script_times_the_steps_and_counts_those_that_ran_out_or_were_refused():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _App)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    steps = "\x1e".join(["action=next_turn"] * 3)
    lines = ["H\tX-Forwarded-Proto: https", *(f"S\t{i}\t10\t{steps}\t/battles/{i}/" for i in (1, 2, 3, 4))]
    # A step unanswered for 300 ms is lost (wrk may drop a connection's first request) and sent again.
    lines += ["M\t1", "L\t300", "R\tGET\t/ping/\t\t"]
    try:
        result = run_wrk(port, lines, 2, Namespace(threads=1, connections=4))
    finally:
        server.shutdown()
    assert result["steps_done"] == 12, result  # four fights' three steps each, then none left
    assert result["refused"] == result["codes"]["409"] >= 1
    assert result["steps_ran_out"] and result["ran_out"] > 0
    assert result["step_p50_ms"] >= 20  # the steps' own time (each answered after 20 ms), not the pings'
    assert result["p50_ms"] < result["step_p50_ms"]  # wrk's mixes in the pings sent once the steps ran out
    flagged = report.flags("step_post_battle", result)
    assert any("RAN OUT" in f for f in flagged) and any("REFUSED" in f for f in flagged), flagged


class _Polls(BaseHTTPRequestHandler):
    """Two fights' spectator fragments, each at one version: a 304 for its ETag, else the fragment."""

    protocol_version = "HTTP/1.1"

    def do_GET(self):
        etag = f'"v-{self.path.strip("/").replace("/", "-")}"'
        if self.headers.get("If-None-Match") == etag:
            self._send(304, b"", {"ETag": etag})
        else:
            self._send(200, f'<div id="watch" hx-get="{self.path}">...</div>'.encode(), {"ETag": etag})

    def _send(self, status, body, headers):
        _App._send(self, status, body, headers)  # type: ignore[arg-type]

    def log_message(self, *args):
        pass


@pytest.mark.serial  # a real wrk for 1 s
@pytest.mark.skipif(shutil.which("wrk") is None, reason="Debian's wrk is not installed")
def test_wrks_polls_keep_the_etag_of_their_urls_last_answer_as_a_phone_does():
    """The mixed load's polls (P lines) send the ETag of their URL's last 200, not the one they were
    prepared with: stale at first, each URL is sent its fragment once, then only 304s."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Polls)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    lines = [f'P\t/watch/{i}/\tX-Forwarded-Proto: https\t"stale"' for i in (1, 2)]
    try:
        result = run_wrk(port, lines, 1, Namespace(threads=1, connections=1))
    finally:
        server.shutdown()
    assert result["codes"]["200"] == 2, result
    assert result["codes"]["304"] > 20, result

"""The benchmark's report (bench/report.py) cannot pass a step load that measured something else (issue 24).

A step load whose fights ran out of prepared steps sends wrk's other requests
instead (pings): its latencies are then mostly theirs. The report takes a
step load's p95 from its steps alone, and flags a load whose steps ran out
or were refused, which then never meets its target.
"""

from __future__ import annotations

import socket

import pytest

from bench import report
from bench.__main__ import _database_url, _redis_url, free_ports


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

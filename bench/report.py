"""The benchmark's figures: each load's median round against the bare view, the targets, the tables.

``python -m bench.report [RESULTS]`` prints the tables of a results file
(bench/results/latest.json by default) again: the one ``python -m bench``
prints at its end and the README's (issue 24: every kind).

A step load's p95 is its steps' own (``step_p95_ms``, timed apart from
anything else wrk sends, bench/wrk/load.lua) divided by the bare POST's p95
of the same round. A step load whose fights ran out of prepared steps, or
whose steps the app refused, measured something else: it is flagged
(``steps_ran_out``, ``refused``, ``step_share``) and can never meet its target.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

TARGETS = {
    "spectator_poll_unchanged": 1.3,
    "player_poll_unchanged": 1.3,
    "spectator_poll_changed_10": 2.0,
    "spectator_poll_changed_500": 2.0,
    "player_poll_changed_10": 2.0,
    "player_poll_changed_500": 2.0,
    "step_post": 3.0,
    "step_post_battle": 3.0,
    "step_post_mass": 3.0,
}
TARGET_FIGURES = {
    "poll_unchanged_p95_vs_bare": 1.3,
    "poll_changed_p95_vs_bare": 2.0,
    "step_post_p95_vs_bare_post": 3.0,
    "step_statements": 10,
    "mixed_rps_vs_bare": 0.5,
    "mixed_p95_ms": 100,
    "replay_540_ms": 20,
    "timer_lateness_p99_ms": 1000,
}
MIXED_RPS, MIXED_P95_MS = 0.5, 100
# A step-only load whose answers are less than this share of its requests mostly measured fillers.
STEP_SHARE_MIN = 0.9


def is_step_load(name: str) -> bool:
    return name.startswith("step_post")


def steps_of(result: dict[str, Any], duration_s: float) -> dict[str, Any]:
    """What wrk's script counted of a load's steps, and the flags of one that measured something else."""
    if not result.get("steps_sent") and not result.get("ran_out"):
        return {}
    requests = max(1, result.get("requests", 0))
    return {
        "steps_per_s": round(result.get("steps_done", 0) / duration_s, 1) if duration_s else 0.0,
        "step_share": round(result.get("steps_answered", 0) / requests, 3),
        "steps_ran_out": result.get("ran_out", 0) > 0,
    }


def flags(name: str, result: dict[str, Any]) -> list[str]:
    """Why a load's figure is not what it claims to be: its steps ran out, were refused, or were few."""
    out = []
    if result.get("steps_ran_out"):
        out.append(f"RAN OUT of prepared steps ({result.get('ran_out', 0)} due with none left)")
    if result.get("refused"):
        out.append(f"REFUSED {result['refused']} steps")
    if result.get("lost"):
        out.append(f"LOST {result['lost']} steps (no answer)")
    if is_step_load(name) and "step_share" in result and result["step_share"] < STEP_SHARE_MIN:
        out.append(f"steps only {result['step_share']:.0%} of requests")
    if is_step_load(name) and "steps_answered" in result and not result["steps_answered"]:
        out.append("NO STEPS answered")
    return out


def median_rounds(rounds: list[dict[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Each load's median round, its p95 divided by the bare view's (a step load's: the bare POST's,
    and its steps' own p95) and its req/s by the bare view's, both of the same round."""
    out: dict[str, dict[str, Any]] = {}
    for name in rounds[0]:
        per_round = [r for r in rounds if "error" not in r[name]]
        if not per_round:
            out[name] = rounds[-1][name]
            continue
        key = "step_p95_ms" if is_step_load(name) else "p95_ms"
        measured = sorted(per_round, key=lambda r: r[name].get(key, 0.0))[len(per_round) // 2]
        best = dict(measured[name])
        bare = measured["bare_post" if is_step_load(name) else "bare"]
        if is_step_load(name):
            # Steps only: a filler ping's p95 is not the step's.
            best["p95_vs_bare"] = round(best.get("step_p95_ms", 0.0) / bare["p95_ms"], 2)
            best["p95_of"] = "steps"
        else:
            best["p95_vs_bare"] = round(best["p95_ms"] / bare["p95_ms"], 2)
        if "step_p95_ms" in best and best.get("steps_answered"):
            best["step_p95_vs_bare_post"] = round(best["step_p95_ms"] / measured["bare_post"]["p95_ms"], 2)
        best["rps_vs_bare"] = round(best["rps"] / measured["bare"]["rps"], 3)
        out[name] = best
    return out


def met(name: str, r: dict[str, Any]) -> str:
    """The target's check for a load ('' for none): a flagged load never meets it."""
    bad = flags(name, r)
    if name == "mixed":
        ok = r["rps_vs_bare"] >= MIXED_RPS and r["p95_ms"] <= MIXED_P95_MS and not bad
        return f"≥ {MIXED_RPS:.0%} of bare req/s, p95 ≤ {MIXED_P95_MS} ms {'✓' if ok else '✗'}"
    if name not in TARGETS:
        return ""
    ok = r["p95_vs_bare"] <= TARGETS[name] and not bad
    return f"≤ {TARGETS[name]}× {'✓' if ok else '✗'}"


def table(results: dict[str, Any]) -> str:
    """Every load of the run: req/s, p95 (a step load's: its steps'), the ratio, the target, the codes, flags."""
    rows = [
        "| load | req/s | steps/s | p95 ms | p95 ÷ bare | target | codes | flags |",
        "|---|---:|---:|---:|---:|---|---|---|",
    ]
    for name, r in results["load"].items():
        if "error" in r:
            rows.append(f"| {name} | error | | | | | | |")
            continue
        p95 = r.get("step_p95_ms", r["p95_ms"]) if is_step_load(name) else r["p95_ms"]
        codes = ", ".join(f"{k}: {v}" for k, v in r["codes"].items() if v)
        steps = r.get("steps_per_s", "")
        rows.append(
            f"| {name} | {r['rps']} | {steps} | {p95:.1f} | {r['p95_vs_bare']:.2f} | {met(name, r)} | {codes} "
            f"| {'; '.join(flags(name, r))} |"
        )
    return "\n".join(rows)


README_NAMES = {
    "bare": "bare view `/ping/`",
    "spectator_poll_unchanged": "spectator poll, unchanged (304)",
    "player_poll_unchanged": "player poll, unchanged (304)",
    "step_post": "duel step POST",
    "step_post_battle": "battle step POST",
    "step_post_mass": "mass battle step POST",
}


def _pair(load: dict[str, Any], a: str, b: str) -> tuple[str, str]:
    return f"{load[a]['rps']:,.0f} / {load[b]['rps']:,.0f}", f"{load[a]['p95_vs_bare']} / {load[b]['p95_vs_bare']}"


def readme_table(results: dict[str, Any]) -> str:
    """The README's table of a full run (its Performance section), from the results file."""
    load = results["load"]
    rows = ["| load | req/s | p95 ÷ bare | target |", "|---|---:|---:|---|"]
    for name in ("bare", "spectator_poll_unchanged", "player_poll_unchanged"):
        if name in load and "error" not in load[name]:
            r = load[name]
            rows.append(f"| {README_NAMES[name]} | {r['rps']:,.0f} | {r['p95_vs_bare']} | {met(name, r)} |")
    for who in ("spectator", "player"):
        a, b = f"{who}_poll_changed_10", f"{who}_poll_changed_500"
        if a in load and b in load and "error" not in load[a] and "error" not in load[b]:
            rps, p95 = _pair(load, a, b)
            ok = "✓" if "✓" in met(a, load[a]) and "✓" in met(b, load[b]) else "✗"
            rows.append(f"| {who} poll, changed, 10 / 500 entries | {rps} | {p95} | ≤ 2× {ok} |")
    for name in ("step_post", "step_post_battle", "step_post_mass"):
        r = load.get(name)
        if r is None or "error" in r:
            continue
        flagged = "; ".join(flags(name, r))
        ratio = f"{r['p95_vs_bare']} (step p95 {r.get('step_p95_ms', 0):.0f} ms)"
        rows.append(f"| {README_NAMES[name]} | {r.get('steps_per_s', 0)} steps/s | {ratio} | {met(name, r)}"
                    f"{' ' + flagged if flagged else ''} |")  # fmt: skip
    if "mixed" in load and "error" not in load["mixed"]:
        r = load["mixed"]
        rows.append(
            f"| mixed, 1 step (every kind) : 20 polls | {r['rps']:,.0f} ({r['rps_vs_bare']:.0%} of bare), p95 "
            f"{r['p95_ms']:.0f} ms (steps {r.get('step_p95_ms', 0):.0f} ms) | {r['p95_vs_bare']} | {met('mixed', r)} |"
        )
    out = results.get("scale_out")
    if out and "error" not in out.get("mixed", {"error": 1}):
        e = out["exactness"]
        exact = e["lock_one_winner"] == e["lock_pairs"] and e["nonce_moved_once"] == e["nonce_pairs"]
        rows.append(
            f"| scale-out: 2 servers behind nginx | mixed {out['mixed']['rps']:,.0f} req/s; "
            f"{e['lock_one_winner']}/{e['lock_pairs']} locks one winner, {e['nonce_moved_once']}/{e['nonce_pairs']} "
            f"nonces once | | exact {'✓' if exact else '✗'} |"
        )
    return "\n".join(rows)


def summary(results: dict[str, Any]) -> str:
    """What ``python -m bench`` prints at its end."""
    lines = ["", table(results), ""]
    labels = {"replay": "replay (ms)", "timers": "timers", "queries": "statements per request", "rss": "RSS"}
    lines += [f"{label}: {results[name]}" for name, label in labels.items() if name in results]
    out = results.get("scale_out")
    if out:
        for name in ("bare", "mixed"):
            r = out.get(name, {})
            line = f"scale-out {name}: {r.get('rps')} req/s, p95 {r.get('p95_ms')} ms, "
            line += f"{r.get('rps_vs_bare')} of bare req/s"
            if name == "mixed":
                line += f", steps p95 {r.get('step_p95_ms')} ms"
                bad = flags(name, r)
                line += f" - {'; '.join(bad)}" if bad else ""
            lines.append(line)
        lines.append(f"scale-out exactness: {out.get('exactness')}")
        lines.append(f"scale-out timers: {out.get('timers')}")
    return "\n".join(lines)


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent / "results" / "latest.json"
    results = json.loads(path.read_text())
    print(summary(results))
    print()
    print(readme_table(results))


if __name__ == "__main__":
    main()

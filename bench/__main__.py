"""Sumrak's benchmark: ``python -m bench`` (or ``bench/run.sh``). See bench/README.md.

Starts the app in production mode on loopback - gunicorn (3 workers x 4
threads), PostgreSQL (database ``sumrak_bench``), Redis (db 9), a Celery
worker and beat - generates the game (bench/game.py), drives load with wrk
from its own processes, and writes bench/results/latest.json. Every load
figure is compared with the bare view (/ping/) measured in the same round.
The database and the Redis db it uses are wiped at the start.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import report, scale
from bench.load import Load, run_wrk

ROOT = Path(__file__).resolve().parent.parent
PY = str(ROOT / ".venv" / "bin" / "python")
RESULTS = ROOT / "bench" / "results"
DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/sumrak_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/9"


def _env(args: argparse.Namespace) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DEBUG="false",
        SECRET_KEY="bench-" + "x" * 50,
        ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
        DATABASE_URL=args.database,
        REDIS_URL=args.redis,
        SUMRAK_VAR_DIR=str(ROOT / "bench" / "var"),
        LOG_LEVEL="WARNING",
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONPATH=str(ROOT),
    )
    return env


def _run(cmd: list[str], env: dict[str, str], **kw: Any) -> str:
    done = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True, check=False, **kw)
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}")
    return str(done.stdout)


def _database_url(value: str) -> str:
    """``--database``: a full URL, or only the database's name on the default server."""
    if "://" in value:
        return value
    if not re.fullmatch(r"\w+", value):
        sys.exit("--database takes a database name (letters, digits, _) or a postgres:// URL")
    return f"{DEFAULT_DATABASE.rsplit('/', 1)[0]}/{value}"


def _redis_url(value: str) -> str:
    """``--redis``: a full URL, or only the db number on the default server."""
    if "://" in value:
        return value
    if not value.isdigit() or int(value) > 15:
        sys.exit("--redis takes a db number (0-15) or a redis:// URL")
    return f"{DEFAULT_REDIS.rsplit('/', 1)[0]}/{value}"


def _node_ports(value: str) -> list[int]:
    try:
        ports = [int(p) for p in value.split(",")]
    except ValueError:
        sys.exit("--node-ports takes two port numbers, e.g. 18472,18473")
    if len(ports) != 2 or len(set(ports)) != 2 or not all(1024 <= p < 65536 for p in ports):
        sys.exit("--node-ports takes two different port numbers from 1024 on, e.g. 18472,18473")
    return ports


def free_ports(ports: list[int]) -> None:
    """Stop with a clear message if an app port is taken (another bench or app server): not a hang later."""
    for port in ports:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            # As gunicorn and nginx bind: the last load's closed connections (TIME_WAIT) do not count.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                sys.exit(
                    f"bench: port {port} on 127.0.0.1 is in use (another benchmark or app server?); "
                    "choose others with --port and --node-ports"
                )


def _reset(args: argparse.Namespace, env: dict[str, str]) -> None:
    """A fresh bench database and Redis db (both the benchmark's own)."""
    url = re.match(r"postgres://([^@]+)@([^:/]+):?(\d*)/(\w+)", args.database)
    if not url:
        sys.exit("--database must look like postgres://user@host:port/name")
    user, host, port, name = url.groups()
    psql = ["psql", "-h", host, "-p", port or "5432", "-U", user, "-d", "postgres", "-qc"]
    _run([*psql, f"DROP DATABASE IF EXISTS {name}"], env)
    _run([*psql, f"CREATE DATABASE {name}"], env)
    db = args.redis.rsplit("/", 1)[-1]
    _run(["redis-cli", "-n", db, "FLUSHDB"], env)
    _run([PY, "manage.py", "migrate", "--noinput", "-v", "0"], env)
    _run([PY, "manage.py", "collectstatic", "--noinput", "-v", "0"], env)


class Services:
    """The app's processes, each in its own session so that it is stopped with all its children."""

    def __init__(self, env: dict[str, str], port: int, node_ports: list[int] | None = None) -> None:
        self.env, self.port = env, port
        self.node_ports = node_ports or [port + 1, port + 2]
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.logs = Path(tempfile.mkdtemp(prefix="sumrak-bench-"))

    def start(self, name: str, cmd: list[str]) -> None:
        log = open(self.logs / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        self.procs[name] = subprocess.Popen(cmd, env=self.env, cwd=ROOT, stdout=log, stderr=log, start_new_session=True)

    def up(self, nodes: int = 1) -> list[int]:
        """gunicorn on ``port`` - or, with ``nodes`` > 1, one per node on ``node_ports`` behind nginx
        on ``port`` (bench/scale.py) - and a Celery worker and beat. Returns the app servers' ports."""
        bin_ = ROOT / ".venv" / "bin"
        ports = [self.port] if nodes == 1 else self.node_ports[:nodes]
        free_ports(sorted({self.port, *ports}))
        for i, port in enumerate(ports):
            self.start(
                f"gunicorn-{i}" if i else "gunicorn",
                [str(bin_ / "gunicorn"), "config.wsgi:application", "--bind", f"127.0.0.1:{port}",
                 "--workers", "3", "--threads", "4", "--worker-class", "gthread", "--log-level", "warning"],
            )  # fmt: skip
        if nodes > 1:
            self.start("nginx", scale.nginx_command(scale.nginx_conf(scale.new_folder(), self.port, ports)))
        self.start("worker", [str(bin_ / "celery"), "-A", "config", "worker", "-l", "WARNING", "-c", "2"])
        self.start(
            "beat", [str(bin_ / "celery"), "-A", "config", "beat", "-l", "WARNING", "-s", str(self.logs / "beat")]
        )
        # Production mode sits behind a TLS proxy: scale.wait_for says the request came through it.
        if all(scale.wait_for(port) for port in [*ports, self.port]):
            return ports
        self.down()
        sys.exit(f"gunicorn (or nginx) did not answer; see {self.logs}")

    def rss_mb(self) -> dict[str, Any]:
        """Resident memory of gunicorn's workers (and the Celery worker), from /proc."""

        def rss(pid: int) -> float:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
            return 0.0

        def children(pid: int) -> list[int]:
            found = Path(f"/proc/{pid}/task/{pid}/children")
            return [int(p) for p in found.read_text().split()] if found.exists() else []

        master = self.procs["gunicorn"].pid
        return {
            "gunicorn_workers_mb": [rss(p) for p in children(master)],
            "gunicorn_master_mb": rss(master),
            "celery_worker_mb": rss(self.procs["worker"].pid),
        }

    def down(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)


def _probe(what: str, data: Any, env: dict[str, str]) -> Any:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(data, handle)
    try:
        return json.loads(_run([PY, "-m", "bench.probe", what, handle.name], env).strip().splitlines()[-1])
    finally:
        os.unlink(handle.name)


def _versions(env: dict[str, str]) -> dict[str, str]:
    def first_line(cmd: list[str]) -> str:
        try:
            return (
                subprocess.run(cmd, capture_output=True, text=True, check=False, env=env).stdout.strip().splitlines()[0]
            )
        except (OSError, IndexError):
            return "?"

    code = "import django, celery, gunicorn; print(django.get_version(), celery.__version__, gunicorn.__version__)"
    django_v, celery_v, gunicorn_v = first_line([PY, "-c", code]).split()
    return {
        "python": platform.python_version(),
        "django": django_v,
        "celery": celery_v,
        "gunicorn": gunicorn_v,
        "postgresql": first_line(["psql", "--version"]),
        "redis": first_line(["redis-server", "--version"]),
        "wrk": first_line(["wrk", "--version"]),
    }


def _count(game: dict[str, Any], kind: str) -> int:
    return sum(1 for f in game["fights"] if f.get("kind", "duel") == kind)


def _least(game: dict[str, Any]) -> int:
    """The fewest steps prepared for a battle or mass battle of the game."""
    return min((len(f["steps"]) for f in game["fights"] if f.get("kind", "duel") != "duel"), default=0)


def _said(name: str, result: dict[str, Any]) -> None:
    """One load's line as it finishes; a step load's steps apart, and what makes it not count."""
    line = f"  {name}: {result.get('rps')} req/s, p95 {result.get('p95_ms')} ms"
    if result.get("steps_answered"):
        line += f"; {result.get('steps_per_s')} steps/s, steps' p95 {result.get('step_p95_ms')} ms"
    flagged = report.flags(name, result)
    print(line + (f" - FLAGGED: {'; '.join(flagged)}" if flagged else ""), flush=True)


def _windows(args: argparse.Namespace, env: dict[str, str], seconds: float) -> list[dict[str, Any]]:
    """The timer test: D8 windows closing while a load of ``seconds`` runs (from 8 s on)."""
    first = 8.0
    cmd = [PY, "-m", "bench.game", "windows", str(args.windows), str(first), str(seconds - first - 4)]
    return json.loads(_run(cmd, env).strip().splitlines()[-1])  # type: ignore[no-any-return]


def _scale_out(game: dict[str, Any], args: argparse.Namespace, env: dict[str, str]) -> dict[str, Any]:
    """Two app servers behind nginx (bench/scale.py): the bare view and the mixed load through nginx,
    the timer test during the mixed load, and the exactness counts against the two servers directly."""
    print("bench: scale-out - two app servers behind nginx", flush=True)
    services = Services(env, args.port, args.node_ports)
    ports = services.up(nodes=2)
    out: dict[str, Any] = {"nodes": len(ports), "balancer": "nginx round-robin, no sticky sessions"}
    try:
        load = Load(game, args)
        run_wrk(args.port, load.bare(), 3, args)  # warm the workers
        out["bare"] = run_wrk(args.port, load.bare(), args.seconds, args)
        print(f"  bare: {out['bare'].get('rps')} req/s, p95 {out['bare'].get('p95_ms')} ms", flush=True)
        windows = _windows(args, env, args.mixed_seconds)
        out["mixed"] = run_wrk(args.port, load.step_loads()["mixed"], args.mixed_seconds, args)
        _said("mixed", out["mixed"])
        exact = scale.exactness(ports, game["fights"], load.cookie[len("Cookie: ") :])
        time.sleep(3)
        nonces = exact.pop("nonces")
        exact["nonce_log_entries"] = _probe("nonces", nonces, env)
        out["exactness"] = exact
        out["timers"] = _probe("lateness", windows, env)
    finally:
        services.down()
    for name in ("bare", "mixed"):
        if "error" not in out[name] and "error" not in out["bare"]:
            out[name]["p95_vs_bare"] = round(out[name]["p95_ms"] / out["bare"]["p95_ms"], 2)
            out[name]["rps_vs_bare"] = round(out[name]["rps"] / out["bare"]["rps"], 3)
    if "error" not in out["mixed"] and report.flags("mixed", out["mixed"]):
        print(f"  mixed FLAGGED: {'; '.join(report.flags('mixed', out['mixed']))}", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--seconds", type=float, default=6, help="length of each load in a round (default 6)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of all loads, interleaved (default 2)")
    parser.add_argument("--mixed-seconds", type=float, default=30, help="the last round's mixed load (timers)")
    parser.add_argument("--windows", type=int, default=200, help="pending D8 windows for the timer test")
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--port", type=int, default=18471, help="the app's port (default 18471)")
    parser.add_argument(
        "--node-ports", type=_node_ports, default=None, help="--scale-out's two app servers, e.g. 18472,18473"
    )
    parser.add_argument(
        "--database", default=DEFAULT_DATABASE, help="a database name (e.g. sumrak_x) or a postgres:// URL; dropped!"
    )
    parser.add_argument("--redis", default=DEFAULT_REDIS, help="a Redis db number (e.g. 6) or a redis:// URL; flushed!")
    parser.add_argument("--out", default=str(RESULTS / "latest.json"))
    parser.add_argument(
        "--scale-out",
        action="store_true",
        help="then the mixed load again against two app servers behind nginx, with exactness counts",
    )
    parser.add_argument(
        "--setup-only",
        action="store_true",
        help="reset the bench database and build the game, then stop (bench/cost.py)",
    )
    args = parser.parse_args()
    args.database, args.redis = _database_url(args.database), _redis_url(args.redis)
    if not args.setup_only:
        free_ports([args.port, *(args.node_ports or [args.port + 1, args.port + 2] if args.scale_out else [])])
    env = _env(args)
    started = time.time()
    print("bench: resetting the bench database and Redis db, migrating…", flush=True)
    _reset(args, env)
    print("bench: generating the game…", flush=True)
    game = json.loads(_run([PY, "-m", "bench.game", "build"], env).strip().splitlines()[-1])
    # Kept for a later look at the same game (python -m bench.probe queries bench/var/game.json).
    (ROOT / "bench" / "var").mkdir(exist_ok=True)
    (ROOT / "bench" / "var" / "game.json").write_text(json.dumps(game))
    if args.setup_only:
        print("bench: the game is in bench/var/game.json; python -m bench.cost measures its requests")
        return
    load_before = os.getloadavg()
    services = Services(env, args.port, args.node_ports)
    services.up()
    results: dict[str, Any] = {"load": {}}
    try:
        load = Load(game, args)
        run_wrk(args.port, load.scenarios()["bare"], 3, args)  # warm the workers
        rounds: list[dict[str, dict[str, Any]]] = []
        windows: list[dict[str, Any]] = []
        for number in range(args.rounds):
            last = number == args.rounds - 1
            print(f"bench: round {number + 1} of {args.rounds}", flush=True)
            measured: dict[str, dict[str, Any]] = {}
            scenarios = load.scenarios()
            # The taps alone, per kind (issue 24), then the mixed load.
            step_names = ["step_post", *(f"step_post_{k}" for k in ("battle", "mass") if load.of_kind(k))]
            for name in [*scenarios, *step_names, "mixed"]:
                # The step loads read each fight's version just before they run: the one before moved them.
                lines = scenarios[name] if name in scenarios else load.step_loads()[name]
                seconds = args.seconds
                if name == "mixed" and last:
                    # The timer test: D8 windows closing while the mixed load runs.
                    windows = _windows(args, env, args.mixed_seconds)
                    seconds = args.mixed_seconds
                measured[name] = run_wrk(args.port, lines, seconds, args)
                _said(name, measured[name])
            rounds.append(measured)
        time.sleep(3)
        results["rss"] = services.rss_mb()
        results["timers"] = _probe("lateness", windows, env) if windows else {}
        results["queries"] = _probe("queries", game, env)
        results["replay"] = _probe("replay", game, env)
    finally:
        services.down()
    if args.scale_out:
        results["scale_out"] = _scale_out(game, args, env)
    # Each figure: the median over rounds; ratios against the bare view of the same round (bench/report.py).
    results["load"] = report.median_rounds(rounds)
    results["machine"] = {
        "cores": os.cpu_count(),
        "platform": platform.platform(),
        # Load average (1, 5, 15 min) when the loads began and ended: other work on the machine shows here.
        "loadavg_before": [round(x, 2) for x in load_before],
        "loadavg_after": [round(x, 2) for x in os.getloadavg()],
        **_versions(env),
    }
    results["setup"] = {
        "gunicorn": "3 workers x 4 threads (gthread)",
        "celery": "worker -c 2 + beat",
        "wrk": f"-t{args.threads} -c{args.connections}, {args.seconds} s per load, {args.rounds} rounds interleaved",
        "game": "2,000 characters, 300 cards, ~450 counter rules, 100 running duels of 10/100/500 entries,"
        f" {_count(game, 'battle')} battles of four (60/200 entries), {_count(game, 'mass')} mass battles"
        f" (40/150 entries), each with at least {_least(game)} steps prepared",
        "note": "2 cores shared by the app, PostgreSQL, Redis, Celery and wrk (and other work on the machine)",
    }
    results["targets"] = report.TARGET_FIGURES
    results["seconds"] = round(time.time() - started)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print(report.summary(results))
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()

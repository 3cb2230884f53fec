"""The launcher behind ./scripts/start.sh (launcher.py): supervise, restart, stop with no orphans.

The supervisor's cases use small stand-in programs that fork a child of their
own, as runserver's reloader and Celery's pool do; the last case starts the
real launcher (web server, worker, beat on the embedded SQLite and filesystem
broker) and stops it with Ctrl-C's signal.
"""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import launcher

# A bound on wall time or real processes: runs alone, never beside an xdist worker (scripts/test.sh).
pytestmark = pytest.mark.serial

ROOT = Path(__file__).resolve().parent.parent
# A program that forks a child (same process group) and then both sleep.
FORKING = [sys.executable, "-c", "import os, time; os.fork(); time.sleep(300)"]


def group_alive(pgid: int) -> bool:
    return bool(members(pgid))


def members(pgid: int) -> list[int]:
    """The live (non-zombie) processes of a process group, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_for(condition, seconds: float, message: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(message)


@pytest.fixture
def supervisor():
    programs = [launcher.Program(name, FORKING, dict(os.environ)) for name in ("worker", "beat")]
    sup = launcher.Supervisor(programs, stop_seconds=5)
    sup.start_all()
    for program in programs:
        wait_for(lambda p=program: len(members(p.pid)) == 2, 10, "the stand-in did not fork")
    yield sup
    sup.stop_all()


@pytest.mark.parametrize("victim", [0, 1], ids=["worker", "beat"])
def test_a_killed_program_is_restarted_and_what_it_forked_is_killed(supervisor, victim):
    program = supervisor.programs[victim]
    other = supervisor.programs[1 - victim]
    old, other_pid = program.pid, other.pid
    os.kill(old, signal.SIGKILL)
    wait_for(lambda: program.process.poll() is not None, 5, "SIGKILL did not stop it")
    assert members(old)  # its forked child is still there: an orphan unless someone kills it
    supervisor.check()
    wait_for(lambda: not group_alive(old), 5, "the killed program's child was left behind")
    assert program.pid != old and program.process.poll() is None
    assert other.pid == other_pid  # the other program was left alone
    wait_for(lambda: len(members(program.pid)) == 2, 10, "the restarted stand-in did not fork")


def test_stop_all_leaves_no_process_behind(supervisor):
    groups = [p.pid for p in supervisor.programs]
    supervisor.stop_all()
    assert not any(group_alive(g) for g in groups)


def test_a_program_that_keeps_dying_stops_everything_with_a_message():
    dying = launcher.Program("worker", [sys.executable, "-c", "raise SystemExit(3)"], dict(os.environ))
    sleeping = launcher.Program("beat", FORKING, dict(os.environ))
    sup = launcher.Supervisor([dying, sleeping], stop_seconds=5)
    sup.start_all()
    try:
        with pytest.raises(launcher.LaunchError, match="the worker keeps stopping; giving up"):
            for _ in range(launcher.MAX_RESTARTS + 2):
                wait_for(lambda: dying.process is not None and dying.process.poll() is not None, 10, "it did not die")
                sup.check()
        assert len(dying.restarts) == launcher.MAX_RESTARTS + 1
    finally:
        group = sleeping.pid
        sup.stop_all()
        assert group is not None and not group_alive(group)


def test_the_modes_set_debug_and_the_lan_key(tmp_path, monkeypatch):
    """Only the local mode turns DEBUG on; LAN mode keeps one generated key in var/ (issue 13)."""
    monkeypatch.setattr(launcher, "lan_addresses", lambda: ["192.168.1.20", "[fd00::5]"])
    local, _ = launcher.environment(launcher.Options(var_dir=tmp_path), {"SUMRAK_LAN": "true"})
    assert local["DEBUG"] == "true" and "SUMRAK_LAN" not in local
    options = launcher.Options(lan=True, var_dir=tmp_path)
    lan, addresses = launcher.environment(options, {"ALLOWED_HOSTS": "game.example"})
    assert (lan["DEBUG"], lan["SUMRAK_LAN"], "SUMRAK_TLS" in lan) == ("false", "true", False)
    assert len(lan["SECRET_KEY"]) >= 50 and (tmp_path / "secret_key").stat().st_mode & 0o077 == 0
    assert launcher.environment(options, {})[0]["SECRET_KEY"] == lan["SECRET_KEY"]  # kept, not regenerated
    assert lan["ALLOWED_HOSTS"].split(",")[-3:] == ["192.168.1.20", "[fd00::5]", "game.example"]
    assert addresses == ["192.168.1.20", "[fd00::5]"]


def test_tls_runs_gunicorn_with_the_certificate_and_the_beat_on_its_own(tmp_path):
    cert, key = tmp_path / "lan.crt", tmp_path / "lan.key"
    cert.write_text("x")
    key.write_text("x")
    options = launcher.parse(["--lan", "--tls", str(cert), str(key), "--port", "8443"])
    env, _ = launcher.environment(options, {})
    assert env["SUMRAK_TLS"] == "true"
    web, worker, beat = launcher.programs(options, env)
    assert "gunicorn" in web.argv[0] and web.argv[web.argv.index("--certfile") + 1] == str(cert.resolve())
    assert web.argv[web.argv.index("--bind") + 1] == "0.0.0.0:8443"
    # The request head is bounded by gunicorn; the body by config/limits.py (gunicorn has no body limit).
    assert {"--limit-request-line", "--limit-request-fields", "--limit-request-field_size"} <= set(web.argv)
    assert web.argv[web.argv.index("-c") + 1].endswith("config/gunicorn_conf.py")  # the secret-link log mask
    assert "--beat" not in worker.argv and beat.argv[3] == "beat"
    with pytest.raises(SystemExit):
        launcher.parse(["--tls", str(cert), str(key)])  # TLS only with --lan


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _children(pid: int) -> dict[str, int]:
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                cmdline = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if ppid == pid:
                words = [w.decode() for w in cmdline]
                name = "web" if "runserver" in words else "worker" if "worker" in words else "beat"
                found[name] = int(entry.name)
    return found


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "term"])
def test_the_launcher_stops_web_worker_and_beat_with_no_orphans(tmp_path, signum):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env |= {"SUMRAK_VAR_DIR": str(tmp_path / "var"), "SUMRAK_WORKER_LOGLEVEL": "INFO"}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"  # what start.sh runs, not pytest's settings
    env.pop("DEBUG", None)  # the launcher's local mode sets it
    log = tmp_path / "launcher.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "launcher", "--no-setup", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        text = lambda: log.read_text(errors="replace")  # noqa: E731
        wait_for(lambda: "Sumrak is running." in text() and "ready." in text(), 50, f"no start:\n{text()}")
        wait_for(lambda: "beat: Starting" in text(), 20, f"no beat:\n{text()}")
        children = _children(proc.pid)
        assert set(children) == {"web", "worker", "beat"}
        everyone = {pid for child in children.values() for pid in members(child)}
        assert len(everyone) > 3  # runserver's reloader and the worker's pool are in there too
        proc.send_signal(signum)
        assert proc.wait(45) == 128 + signum
        left = [pid for pid in everyone if alive(pid)]
        assert not left, f"orphans: {left}"
        assert "Stopped." in text()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            for child in _children(proc.pid).values():
                os.killpg(child, signal.SIGKILL)


@pytest.mark.parametrize(
    ("argv", "demo_call", "public"),
    [
        ([], ["load_demo"], True),
        (["--no-demo"], None, False),
        (["--lan"], ["load_demo", "--random-passwords", "--secure-only"], False),
        (["--lan", "--demo"], ["load_demo", "--random-passwords"], False),
    ],
    ids=["local", "local-no-demo", "lan", "lan-demo"],
)
def test_only_the_local_mode_loads_the_public_demo_password(monkeypatch, tmp_path, argv, demo_call, public):
    """start.sh --lan never creates demo logins on the public password (issue 13)."""
    calls: list[list[str]] = []
    monkeypatch.setattr(launcher, "_manage", lambda env, *args: calls.append(list(args)))
    options = launcher.parse(argv)
    options.var_dir = tmp_path
    assert launcher.setup(options, {}) is public
    assert [c for c in calls if c[0] == "load_demo"] == ([demo_call] if demo_call else [])
    assert (["collectstatic", "--noinput", "-v0"] in calls) is ("--lan" in argv)
    shown = launcher.banner(options, ["192.168.1.20"], public)
    assert ("sumrak-demo" in shown) is public


def test_printed_qr_codes_point_to_the_lan_address_the_banner_gives(tmp_path, monkeypatch):
    """Issue 10: SUMRAK_PUBLIC_URL defaults to the first address for tablets and phones (LAN mode),
    to this machine only in the local mode, and a deployer's own value is kept."""
    monkeypatch.setattr(launcher, "lan_addresses", lambda: ["192.168.1.20", "[fd00::5]"])
    local, _ = launcher.environment(launcher.Options(var_dir=tmp_path, port=8001), {})
    assert local["SUMRAK_PUBLIC_URL"] == "http://127.0.0.1:8001"
    lan, addresses = launcher.environment(launcher.Options(lan=True, var_dir=tmp_path), {})
    assert lan["SUMRAK_PUBLIC_URL"] == "http://192.168.1.20:8000"
    options = launcher.Options(lan=True, var_dir=tmp_path, tls=(tmp_path / "c", tmp_path / "k"))
    assert launcher.environment(options, {})[0]["SUMRAK_PUBLIC_URL"] == "https://192.168.1.20:8000"
    mine = launcher.environment(options, {"SUMRAK_PUBLIC_URL": "https://game.example"})[0]
    assert mine["SUMRAK_PUBLIC_URL"] == "https://game.example"
    shown = launcher.banner(launcher.Options(lan=True), addresses, False, lan["SUMRAK_PUBLIC_URL"])
    assert "For tablets and phones: http://192.168.1.20:8000/" in shown
    assert "Printed QR codes point to http://192.168.1.20:8000" in shown


def test_a_declined_demo_does_not_stop_the_start(monkeypatch, tmp_path):
    """load_demo refuses beside a real event without a yes: the launcher starts without the demo."""

    def manage(env, *args):
        if args[0] == "load_demo":
            raise launcher.LaunchError("manage.py load_demo failed (exit code 1)")

    monkeypatch.setattr(launcher, "_manage", manage)
    options = launcher.parse([])
    options.var_dir = tmp_path
    assert launcher.setup(options, {}) is False  # no public logins announced

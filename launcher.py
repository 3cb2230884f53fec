"""The launcher behind ``./scripts/start.sh``: prepare, start, supervise and stop Sumrak.

    python -m launcher [--lan] [--port N] [--demo | --no-demo] [--tls CERT KEY]
                              [--no-web] [--no-setup]

It runs three programs, each in its own session (process group) so that Ctrl-C
reaches only the launcher and a stop reaches every process a program forked:

- the web server: Django's runserver on 127.0.0.1 (local mode, DEBUG on) or
  gunicorn on 0.0.0.0 (``--lan``: DEBUG off, HTTPS with ``--tls``);
- the Celery worker (fight timers);
- the Celery beat, its own process (it sends the sweeper that applies overdue
  deadlines, whatever happened to a timer): a worker crash no longer takes the
  beat with it, and a beat crash no longer needs the worker restarted.

A program that dies is restarted, after what is left of its process group is
killed (a SIGKILLed worker leaves its pool children behind otherwise) and, for
the beat, its stale pid file removed. One that keeps dying (more than
``MAX_RESTARTS`` in ``RESTART_WINDOW`` seconds) stops everything with a message.
SIGINT, SIGTERM and SIGHUP stop every group: TERM first (to the worker's main
process only, which stops its pool itself), KILL to the whole group after
``STOP_SECONDS``. Each program also gets SIGTERM if the launcher itself is
killed (Linux's parent-death signal), so nothing is left orphaned.

It also watches what it does not run (launcher_watch.py): Redis and PostgreSQL named by
``REDIS_URL`` and ``DATABASE_URL``, and the free space of var/'s disk, and says when one is
away or low, and when it is back (docs/deployment.md, "When Redis, PostgreSQL or the disk goes away").

No Django import here: the launcher decides the environment (DEBUG, the secret
key, the allowed hosts) that the programs' settings then read.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import ipaddress
import os
import secrets
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from launcher_watch import Watch, tick_all, watches

ROOT = Path(__file__).resolve().parent
PYTHON = sys.executable
BIN = Path(PYTHON).parent
MAX_RESTARTS = 5
RESTART_WINDOW = 60.0
STOP_SECONDS = 25.0  # Celery's soft shutdown may take its whole 10 s (config/settings.py)


def say(message: str) -> None:
    bold = ("\033[1m", "\033[0m") if sys.stderr.isatty() else ("", "")
    print(f"{bold[0]}[sumrak]{bold[1]} {message}", file=sys.stderr, flush=True)


class LaunchError(Exception):
    """Sumrak cannot start or keep running; the message says why."""


# --- supervision -------------------------------------------------------------------------


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    """The program gets SIGTERM if the launcher dies, even by SIGKILL (Linux's PR_SET_PDEATHSIG)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)


@dataclass
class Program:
    name: str
    argv: list[str]
    env: dict[str, str]
    before_start: Callable[[], None] | None = None
    # TERM to the whole group (runserver's reloader and its server child), or to the leader only:
    # Celery's worker stops its own pool, and a TERM to the pool processes makes it wait for them.
    term_group: bool = True
    process: subprocess.Popen[bytes] | None = None
    restarts: list[float] = field(default_factory=list)

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None


def _group_alive(pgid: int) -> bool:
    """Does any process of the group still run? Zombies do not count: in a container whose
    init reaps nothing, a killed grandchild stays a zombie for ever."""
    proc = Path("/proc")
    if not proc.is_dir():  # pragma: no cover - not Linux
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    for entry in proc.iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
                return True
    return False


def _kill_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


class Supervisor:
    def __init__(
        self, programs: Sequence[Program], *, stop_seconds: float = STOP_SECONDS, watches: Sequence[Watch] = ()
    ) -> None:
        self.programs = list(programs)
        self.stop_seconds = stop_seconds
        self.stop_signal: int | None = None
        # What it does not run but says about: Redis, PostgreSQL, the free disk (launcher_watch.py).
        self.watches = list(watches)

    def install_signals(self) -> None:
        def stop(signum: int, _frame: object) -> None:
            self.stop_signal = signum

        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, stop)
        # A closed output pipe (./start.sh | tee log, then Ctrl-C) must not kill us before the children.
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)

    def start(self, program: Program) -> None:
        if program.before_start:
            program.before_start()
        program.process = subprocess.Popen(
            program.argv,
            cwd=ROOT,
            env=program.env,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=_die_with_parent,  # no threads in the launcher: preexec_fn is safe here
        )

    def start_all(self) -> None:
        for program in self.programs:
            self.start(program)

    def check(self) -> None:
        """Restart what died; raise ``LaunchError`` for a program that keeps dying."""
        for program in self.programs:
            process = program.process
            if process is None or process.poll() is None:
                continue
            _kill_group(process.pid, signal.SIGKILL)  # what is left of it (pool children, reloader)
            now = time.monotonic()
            program.restarts = [t for t in program.restarts if now - t < RESTART_WINDOW] + [now]
            if len(program.restarts) > MAX_RESTARTS:
                raise LaunchError(f"the {program.name} keeps stopping; giving up (see the messages above)")
            code = process.returncode
            how = f"signal {-code}" if code < 0 else f"exit code {code}"
            say(f"The {program.name} stopped unexpectedly ({how}); restarting it.")
            self.start(program)

    def stop_all(self) -> None:
        running = [p.process for p in self.programs if p.process is not None]
        if not running:
            return
        say("Stopping…")
        for program in self.programs:
            if program.process is None:
                continue
            if program.term_group:
                _kill_group(program.process.pid, signal.SIGTERM)
            else:
                with contextlib.suppress(ProcessLookupError):
                    program.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + self.stop_seconds
        for process in running:
            while time.monotonic() < deadline:
                process.poll()  # reap the leader, or the group never looks empty
                if not _group_alive(process.pid):
                    break
                time.sleep(0.1)
            _kill_group(process.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):  # a process in uninterruptible sleep
                process.wait(5)
        for program in self.programs:
            program.process = None
        say("Stopped.")

    def supervise(self, poll_seconds: float = 0.5) -> int:
        """Keep everything running until a signal; the exit status of the launcher."""
        try:
            while self.stop_signal is None:
                self.check()
                tick_all(self.watches, say)
                time.sleep(poll_seconds)
        except LaunchError as err:
            say(f"ERROR: {err}")
            self.stop_all()
            return 1
        self.stop_all()
        return 128 + self.stop_signal


# --- the game site's network --------------------------------------------------------------


def _route_address() -> list[str]:
    """The address of the default route; a UDP "connect" sends nothing."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            return [str(probe.getsockname()[0])]
    except OSError:
        return []  # no default route: a laptop that is itself the game's hotspot


# Interfaces phones do not reach: containers' and VMs' bridges, VPN tunnels (as helpers/addresses.py).
_VIRTUAL = ("docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "lxc", "lxdbr", "cni", "flannel", "podman")
_TUNNELS = ("tun", "tap", "wg", "tailscale", "zt", "utun", "ppp")


def _read_interfaces() -> tuple[Mapping[str, Sequence[Any]], Mapping[str, Any]]:
    try:
        import psutil

        return psutil.net_if_addrs(), psutil.net_if_stats()
    except (ImportError, OSError):
        return {}, {}


def interface_addresses(addrs: Mapping[str, Sequence[Any]], stats: Mapping[str, Any]) -> list[str]:
    """The usable addresses of the interfaces that are up (issue 23): IPv4 of real interfaces first,
    then their IPv6, then tunnels and virtual bridges; never loopback, link-local or multicast.
    The same as helpers/addresses.py, which the launcher does not import (no project package here)."""
    ranked: list[tuple[int, int, str]] = []
    for name, entries in addrs.items():
        state = stats.get(name)
        if state is not None and not state.isup:
            continue
        lowered = name.lower()
        kind = 2 if lowered.startswith(_VIRTUAL) else 1 if lowered.startswith(_TUNNELS) else 0
        for entry in entries:
            if entry.family not in (socket.AF_INET, socket.AF_INET6):
                continue
            text = str(entry.address).split("%")[0]
            try:
                ip = ipaddress.ip_address(text)
            except ValueError:
                continue
            if ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_unspecified:
                continue
            ranked.append((kind * 2 + (ip.version == 6), len(ranked), text))
    return [text for _, _, text in sorted(ranked)]


def _named_addresses() -> list[str]:
    try:
        return [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None)]
    except OSError:
        return []


def lan_addresses(
    route: Callable[[], list[str]] | None = None,
    interfaces: Callable[[], tuple[Mapping[str, Sequence[Any]], Mapping[str, Any]]] | None = None,
    named: Callable[[], list[str]] | None = None,
) -> list[str]:
    """This machine's non-loopback addresses (IPv6 bracketed, as ALLOWED_HOSTS and URLs want them):
    the default route's first, then the interface list's, then what the host name resolves to."""
    route, interfaces, named = route or _route_address, interfaces or _read_interfaces, named or _named_addresses
    found = [*route(), *interface_addresses(*interfaces()), *named()]
    addresses: list[str] = []
    for addr in found:
        if addr.startswith(("127.", "fe80:")) or addr in ("::1", "0.0.0.0"):
            continue
        shown = f"[{addr}]" if ":" in addr else addr
        if shown not in addresses:
            addresses.append(shown)
    return addresses


def port_free(port: int, lan: bool) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # TIME_WAIT is not "taken"
        try:
            probe.bind(("0.0.0.0" if lan else "127.0.0.1", port))
        except OSError:
            return False
    return True


def secret_key(var_dir: Path) -> str:
    """The LAN mode's key, generated once into var/secret_key, so sessions survive a restart."""
    path = var_dir / "secret_key"
    if not path.exists() or len(path.read_text().strip()) < 50:
        old = os.umask(0o077)
        try:
            path.write_text(secrets.token_urlsafe(50) + "\n")
        finally:
            os.umask(old)
        say("Generated a secret key in var/secret_key")
    return path.read_text().strip()


# --- what to run ---------------------------------------------------------------------------


@dataclass
class Options:
    lan: bool = False
    port: int = 8000
    demo: bool | None = None  # None: the mode's default (local: yes; LAN: no)
    tls: tuple[Path, Path] | None = None
    web: bool = True
    setup: bool = True
    organizer: str = ""  # --organizer NAME: the site's first event creator, made at start
    var_dir: Path = field(default_factory=lambda: Path(os.environ.get("SUMRAK_VAR_DIR", str(ROOT / "var"))))


def environment(options: Options, base: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """The programs' environment, and the LAN addresses to announce."""
    env = dict(base)
    addresses: list[str] = []
    if not options.lan:
        env["DEBUG"] = "true"  # the local mode, and only it, turns DEBUG on
        env.pop("SUMRAK_LAN", None)
        # Printed QR codes point here (events/public_url.py): this machine only, so the QR pages warn.
        env.setdefault("SUMRAK_PUBLIC_URL", f"http://127.0.0.1:{options.port}")
        return env, addresses
    addresses = lan_addresses()
    if addresses:
        # ... and in LAN mode the first address the banner gives tablets and phones.
        scheme = "https" if options.tls else "http"
        env.setdefault("SUMRAK_PUBLIC_URL", f"{scheme}://{addresses[0]}:{options.port}")
    env |= {"DEBUG": "false", "SUMRAK_LAN": "true", "SECRET_KEY": secret_key(options.var_dir)}
    if options.tls:
        env["SUMRAK_TLS"] = "true"
    host = socket.gethostname() or "localhost"
    hosts = ["localhost", "127.0.0.1", "[::1]", host, f"{host}.local", *addresses]
    # Extra names (e.g. a DNS name of the game site's router) come on top.
    env["ALLOWED_HOSTS"] = ",".join(hosts + [h for h in base.get("ALLOWED_HOSTS", "").split(",") if h.strip()])
    return env, addresses


def programs(options: Options, env: dict[str, str]) -> list[Program]:
    loglevel = env.get("SUMRAK_WORKER_LOGLEVEL", "WARNING")
    found: list[Program] = []
    if options.web:
        if options.lan:
            # config/gunicorn_conf.py: its logs go through the secret-link mask (config/log_filters.py).
            web = [str(BIN / "gunicorn"), "-c", str(ROOT / "config" / "gunicorn_conf.py"), "config.wsgi:application"]
            web += ["--bind", f"0.0.0.0:{options.port}"]
            web += ["--workers", "2", "--threads", "4", "--graceful-timeout", "5", "--log-level", "warning"]
            # gunicorn has no body limit (config/limits.py caps bodies); these bound the request head.
            web += ["--limit-request-line", "4094", "--limit-request-fields", "100"]
            web += ["--limit-request-field_size", "8190"]
            if options.tls:
                web += ["--certfile", str(options.tls[0]), "--keyfile", str(options.tls[1])]
        else:
            web = [PYTHON, "manage.py", "runserver", f"127.0.0.1:{options.port}"]
        found.append(Program("web server", web, env))
    worker_env = dict(env)
    if env.get("REDIS_URL"):
        # With Redis, TERM becomes Celery's cold stop, whose soft shutdown hands held ETA
        # timers back to the broker (config/settings.py).
        worker_env["REMAP_SIGTERM"] = "SIGQUIT"
    celery = [str(BIN / "celery"), "-A", "config"]
    worker = [*celery, "worker", "--concurrency", "2", "--loglevel", loglevel]
    found.append(Program("worker", worker, worker_env, term_group=False))
    pidfile = options.var_dir / "celerybeat.pid"
    beat = [*celery, "beat", "--loglevel", loglevel, "--schedule", str(options.var_dir / "celerybeat-schedule")]
    beat += ["--pidfile", str(pidfile)]
    # A killed beat leaves its pid file; a new beat refuses to start if that pid now names another process.
    found.append(Program("beat", beat, env, before_start=lambda: pidfile.unlink(missing_ok=True)))
    return found


def _manage(env: dict[str, str], *args: str) -> None:
    result = subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env)
    if result.returncode != 0:
        raise LaunchError(f"manage.py {' '.join(args)} failed (exit code {result.returncode})")


def setup(options: Options, env: dict[str, str]) -> bool:
    """Migrate, the demo, the static files. True if the demo game is there with the public password."""
    say("Applying database migrations")
    _manage(env, "migrate", "--noinput", "-v0")
    public_demo = False
    try:
        if options.lan:
            # Never the public demo password on a network: --demo gives random ones, and demo
            # accounts left with the public one from a local start get random ones too.
            _manage(env, "load_demo", "--random-passwords", *([] if options.demo else ["--secure-only"]))
        elif options.demo is not False:
            _manage(env, "load_demo")
            public_demo = True
    except LaunchError:
        # Declined beside a real event (or no terminal to ask on): the game starts without it.
        say("Starting without the demo game.")
        public_demo = False
    if options.lan:
        say("Collecting static files for whitenoise")
        _manage(env, "collectstatic", "--noinput", "-v0")
    return public_demo


def first_hour(options: Options, env: dict[str, str], public_demo: bool) -> bool:
    """--organizer NAME, and whether the demo's public password still opens its logins (issue 23).

    The organizer's account is made (or allowed) by ``manage.py create_organizer``,
    which prints a new password once. A demo loaded here before may have been given
    random passwords by a --lan start: the banner names the public one only if it works.
    """
    if options.organizer:
        _manage(env, "create_organizer", options.organizer)
    if public_demo:
        check = [PYTHON, "manage.py", "load_demo", "--check-public-password"]
        public_demo = subprocess.run(check, cwd=ROOT, env=env).returncode == 0
    return public_demo


def wait_until_answering(url: str, program: Program, supervisor: Supervisor, seconds: float = 60.0) -> None:
    context = ssl._create_unverified_context() if url.startswith("https") else None  # a LAN's own certificate
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and supervisor.stop_signal is None:
        try:
            urllib.request.urlopen(url, timeout=2, context=context)
            return
        except urllib.error.HTTPError:
            return  # it answered
        except OSError:
            if program.process is None or program.process.poll() is not None:
                raise LaunchError(f"the web server did not start on port {url.split(':')[2].split('/')[0]}") from None
            time.sleep(0.2)
    if supervisor.stop_signal is None:
        raise LaunchError("the web server did not answer within a minute")


def banner(options: Options, addresses: list[str], public_demo: bool, public_url: str = "") -> str:
    scheme = "https" if options.tls else "http"
    lines = ["", "  Sumrak is running."]
    if options.lan:
        lines.append(f"  On this machine:        {scheme}://127.0.0.1:{options.port}/")
        lines += [f"  For tablets and phones: {scheme}://{addr}:{options.port}/" for addr in addresses]
        if not addresses:
            lines.append("  (no LAN address found: is the network up?)")
        if not options.tls:
            lines.append("  Plain HTTP: anyone on this Wi-Fi can read the traffic (docs/deployment.md, --tls).")
    else:
        lines.append(f"  Open http://127.0.0.1:{options.port}/")
    if public_url:
        lines.append(f"  Printed QR codes point to {public_url} (SUMRAK_PUBLIC_URL changes it)")
    if public_demo:
        lines += ["", "  Demo logins (password sumrak-demo for all):"]
        lines += ["    organizer  — organizer of «Ночной Дозор: Сумрак»", "    referee    — referee"]
        lines += ["    anton      — player (Антон Городецкий, Light)", "    zavulon    — player (Завулон, Dark)"]
    lines += ["", "  Press Ctrl-C to stop.", ""]
    return "\n".join(lines)


def parse(argv: Sequence[str]) -> Options:
    parser = argparse.ArgumentParser(prog="start.sh", description="Start Sumrak (docs/deployment.md).")
    parser.add_argument("--lan", action="store_true", help="the game site: DEBUG off, gunicorn on 0.0.0.0")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    demo = parser.add_mutually_exclusive_group()
    demo.add_argument("--demo", dest="demo", action="store_true", default=None, help="load the demo game")
    demo.add_argument("--no-demo", dest="demo", action="store_false", help="do not load the demo game")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"), help="with --lan: HTTPS with this certificate")
    parser.add_argument("--no-web", dest="web", action="store_false", help="only the worker and the beat")
    parser.add_argument("--no-setup", dest="setup", action="store_false", help="no migrate, demo or collectstatic")
    parser.add_argument("--organizer", metavar="NAME", default="", help="create the site's event creator NAME")
    args = parser.parse_args(argv)
    if not 0 < args.port < 65536:
        parser.error(f"--port must be a port number, not {args.port}")
    tls = None
    if args.tls:
        if not args.lan:
            parser.error("--tls goes with --lan (the local mode is for this machine only)")
        tls = (Path(args.tls[0]).resolve(), Path(args.tls[1]).resolve())
        for path in tls:
            if not path.is_file() or not os.access(path, os.R_OK):
                parser.error(f"cannot read {path}")
    return Options(
        lan=args.lan, port=args.port, demo=args.demo, tls=tls, web=args.web, setup=args.setup, organizer=args.organizer
    )


def main(argv: Sequence[str] | None = None) -> int:
    options = parse(sys.argv[1:] if argv is None else argv)
    options.var_dir.mkdir(parents=True, exist_ok=True)
    try:
        env, addresses = environment(options, dict(os.environ))
        if options.web and not port_free(options.port, options.lan):
            raise LaunchError(f"port {options.port} is taken (another Sumrak running?); try --port {options.port + 1}")
        public_demo = first_hour(options, env, setup(options, env) if options.setup else False)
    except LaunchError as err:
        say(f"ERROR: {err}")
        return 1
    supervisor = Supervisor(programs(options, env), watches=watches(options.var_dir, env))
    supervisor.install_signals()
    supervisor.start_all()
    try:
        if options.web:
            scheme = "https" if options.tls else "http"
            url = f"{scheme}://127.0.0.1:{options.port}/accounts/login/"
            wait_until_answering(url, supervisor.programs[0], supervisor)
    except LaunchError as err:
        say(f"ERROR: {err}")
        supervisor.stop_all()
        return 1
    if supervisor.stop_signal is None:
        shown = banner(options, addresses, public_demo, env.get("SUMRAK_PUBLIC_URL", ""))
        print(shown, file=sys.stderr, flush=True)
    return supervisor.supervise()


if __name__ == "__main__":
    sys.exit(main())

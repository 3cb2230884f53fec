"""The scale-out run of the benchmark (``bench/run.sh --scale-out``): two app servers behind nginx.

Two gunicorn servers on their own ports share PostgreSQL and Redis; Debian's
nginx, run as the current user from a configuration written to a temporary
folder, spreads the requests over them round-robin - no sticky sessions -
and the load goes to nginx. Besides the loads (the bare view and the mixed
load, through nginx both), ``exactness`` sends conflicting requests to the
two servers directly and counts what the database kept: a lock, a nonce and
a session know nothing of which server answered.
"""

from __future__ import annotations

import os
import pwd
import re
import secrets
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

NGINX = "/usr/sbin/nginx"

CONF = """\
{user}worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    # Round-robin, no stickiness: any request may reach any server (docs/deployment.md).
    upstream sumrak {{
{servers}
        keepalive 32;
    }}
    server {{
        listen 127.0.0.1:{port};
        client_max_body_size 3m;
        location / {{
            proxy_pass http://sumrak;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            # The bench's client says https, as the TLS terminator in front would.
            proxy_set_header X-Forwarded-Proto $http_x_forwarded_proto;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        }}
    }}
}}
"""


def nginx_conf(folder: Path, port: int, upstreams: list[int]) -> Path:
    # Run as the current user: as root, nginx would hand its workers to "nobody" otherwise.
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""
    servers = "\n".join(f"        server 127.0.0.1:{p};" for p in upstreams)
    conf = folder / "nginx.conf"
    conf.write_text(CONF.format(user=user, tmp=folder, servers=servers, port=port))
    return conf


def nginx_command(conf: Path) -> list[str]:
    if not Path(NGINX).exists():
        raise SystemExit("--scale-out needs Debian's nginx (apt-get install nginx-light)")
    return [NGINX, "-p", str(conf.parent), "-c", str(conf), "-e", str(conf.parent / "error.log"), "-g", "daemon off;"]


def new_folder() -> Path:
    return Path(tempfile.mkdtemp(prefix="sumrak-bench-nginx-"))


# --- exactness: conflicting requests to the two servers, counted -----------------------------------


class Client:
    def __init__(self, cookie: str) -> None:
        self.cookie = cookie

    def _request(self, port: int, path: str, body: dict[str, Any] | None = None) -> tuple[int, str]:
        headers = {"HX-Request": "true", "Cookie": self.cookie, "X-Forwarded-Proto": "https"}
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body).encode()
            headers.update(
                {
                    "X-CSRFToken": "c" * 32,
                    "Origin": f"https://127.0.0.1:{port}",
                    "Content-Type": "application/x-www-form-urlencoded",
                }
            )
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode()

    def version(self, port: int, fight: int) -> int:
        _status, html = self._request(port, f"/fights/{fight}/")
        found = re.search(r'data-version="(\d+)"', html)
        return int(found.group(1)) if found else -1

    def step(self, port: int, fight: dict[str, Any], version: int, nonce: str) -> tuple[int, int]:
        """(status, version the returned page shows) of the fight's next prepared step."""
        body = {**fight["steps"][version - fight["version"]], "version": version, "nonce": nonce}
        status, html = self._request(port, f"/fights/{fight['id']}/act/", body)
        found = re.search(r'data-version="(\d+)"', html)
        return status, int(found.group(1)) if found else -1


def exactness(ports: list[int], fights: list[dict[str, Any]], cookie: str, rounds: int = 10) -> dict[str, Any]:
    """Per fight, twice over: one version tapped on both servers at once (the lock: one wins, one 409),
    then one nonce sent to both servers at once (a repeat: applied once). Returns the counts and the
    nonces sent, for the database's own count (bench.probe nonces)."""
    client = Client(cookie)
    a, b = ports[:2]
    out: dict[str, Any] = {"lock_pairs": 0, "lock_one_winner": 0, "nonce_pairs": 0, "nonce_moved_once": 0}
    nonces: list[str] = []
    usable = [f for f in fights if len(f["steps"]) >= 2 * rounds // 5 + 4]
    with ThreadPoolExecutor(2) as pool:
        for fight in usable[:5]:
            for _ in range(rounds // 5):
                version = client.version(a, fight["id"])
                if version - fight["version"] + 1 >= len(fight["steps"]):
                    break
                # Lock: the same version, different nonces, both servers at once.
                tries = [pool.submit(client.step, port, fight, version, secrets.token_hex(16)) for port in (a, b)]
                statuses = sorted(t.result()[0] for t in tries)
                out["lock_pairs"] += 1
                after = client.version(b, fight["id"])
                out["lock_one_winner"] += statuses == [200, 409] and after == version + 1
                # Nonce: the same submission (version and nonce) to both servers at once.
                nonce = secrets.token_hex(16)
                nonces.append(nonce)
                twice = [pool.submit(client.step, port, fight, after, nonce) for port in (a, b)]
                results = [t.result() for t in twice]
                out["nonce_pairs"] += 1
                final = client.version(a, fight["id"])
                out["nonce_moved_once"] += all(s == 200 for s, _v in results) and final == after + 1
    out["nonces"] = nonces
    return out


def wait_for(port: int, limit_s: float = 60) -> bool:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        try:
            ping = urllib.request.Request(f"http://127.0.0.1:{port}/ping/", headers={"X-Forwarded-Proto": "https"})
            urllib.request.urlopen(ping, timeout=2)
            return True
        except (urllib.error.URLError, ConnectionError, OSError):
            time.sleep(0.5)
    return False


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()

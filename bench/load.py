"""The loads of the benchmark: wrk data files for every page, and running wrk on them (see bench/README.md)."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from bench import report

LUA = Path(__file__).resolve().parent / "wrk" / "load.lua"

HX = "HX-Request: true"
CSRF_COOKIE = "Cookie: csrftoken=" + "c" * 32


def _headers(*pairs: str) -> str:
    return "\x1f".join(["X-Forwarded-Proto: https", *pairs])


def _etag(port: int, path: str, headers: dict[str, str]) -> str:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.headers["ETag"] or ""


def _drain(port: int, limit_s: float = 20) -> None:
    """Wait until the requests wrk left queued are answered: the next load must not start behind them."""
    ping = urllib.request.Request(f"http://127.0.0.1:{port}/ping/", headers={"X-Forwarded-Proto": "https"})
    deadline = time.monotonic() + limit_s
    quick = 0
    while time.monotonic() < deadline and quick < 3:
        start = time.monotonic()
        with urllib.request.urlopen(ping, timeout=limit_s) as response:
            response.read()
        quick = quick + 1 if time.monotonic() - start < 0.05 else 0
        time.sleep(0.2)


def run_wrk(port: int, lines: list[str], seconds: float, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as data:
        data.write("\n".join(lines) + "\n")
    cmd = ["wrk", "-t", str(args.threads), "-c", str(args.connections), "-d", f"{round(seconds)}s", "--timeout", "10s",
           "-s", str(LUA), f"http://127.0.0.1:{port}", "--", data.name, str(args.threads)]  # fmt: skip
    out = subprocess.run(cmd, capture_output=True, text=True, check=False).stdout
    os.unlink(data.name)
    _drain(port)
    found = re.search(r"^BENCH (.*)$", out, re.M)
    if not found:
        return {"error": out[-1000:]}
    result: dict[str, Any] = json.loads(found.group(1))
    result["rps"] = round(result["requests"] / (result["duration_us"] / 1e6), 1)
    result.update(report.steps_of(result, result["duration_us"] / 1e6))
    return result


def _path(fight: dict[str, Any]) -> str:
    """The referee's page of a fight (its form posts to ``act/`` under it)."""
    return str(fight.get("path") or f"/fights/{fight['id']}/")


class Load:
    def __init__(self, game: dict[str, Any], args: argparse.Namespace) -> None:
        self.game, self.args, self.port = game, args, args.port
        self.cookie = f"Cookie: sessionid={game['session']}; csrftoken={'c' * 32}"
        self.post = _headers(
            HX, self.cookie, "X-CSRFToken: " + "c" * 32, f"Origin: https://127.0.0.1:{args.port}",
            "Content-Type: application/x-www-form-urlencoded",
        )  # fmt: skip
        self.fights = game["fights"]

    @staticmethod
    def bare() -> list[str]:
        return [f"R\tGET\t/ping/\t{_headers()}\t"]

    def by_length(self, length: int, kind: str = "duel") -> list[dict[str, Any]]:
        return [f for f in self.of_kind(kind) if f["length"] == length]

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.fights if f.get("kind", "duel") == kind]

    def urls(self, fights: list[dict[str, Any]], role: str) -> list[tuple[str, str]]:
        """(path, headers) of the live fragment of each fight for one role."""
        # A browser polls with the CSRF cookie its page load set (base.html's hx-headers needs it).
        if role == "spectator":
            return [(f.get("watch", f"/watch/{f['id']}/"), _headers(HX, CSRF_COOKIE)) for f in fights]
        if role == "player":
            return [(f"/c/{t}/live/", _headers(HX, CSRF_COOKIE)) for f in fights for t in f["tokens"]]
        return [(_path(f), _headers(HX, self.cookie)) for f in fights]

    def unchanged(self, urls: list[tuple[str, str]]) -> list[str]:
        lines = []
        for path, headers in urls:
            plain = dict(h.split(": ", 1) for h in headers.split("\x1f"))
            lines.append(f"R\tGET\t{path}\t{headers}\x1fIf-None-Match: {_etag(self.port, path, plain)}\t")
        return lines

    @staticmethod
    def changed(urls: list[tuple[str, str]]) -> list[str]:
        # An ETag from an older version: the fragment is sent (from the shared cache after its first render).
        return [f'R\tGET\t{path}\t{headers}\x1fIf-None-Match: "older"\t' for path, headers in urls]

    def steps(self, kinds: tuple[str, ...] = ("duel",)) -> list[str]:
        """Each fight's next steps through the real form (its version read just now), for fights of ``kinds``."""
        lines = [f"H\t{self.post}"]
        for fight in self.fights:
            if not fight["steps"] or fight.get("kind", "duel") not in kinds:
                continue
            request = urllib.request.Request(
                f"http://127.0.0.1:{self.port}{_path(fight)}",
                headers={"HX-Request": "true", "Cookie": self.cookie[8:], "X-Forwarded-Proto": "https"},
            )
            with urllib.request.urlopen(request, timeout=30) as response:
                found = re.search(rb'data-version="(\d+)"', response.read())
            version = int(found.group(1)) if found else fight["version"]
            done = version - fight["version"]
            left = fight["steps"][done:]
            bodies = "\x1e".join(urllib.parse.urlencode(s, doseq=True) for s in left)
            lines.append(f"S\t{fight['id']}\t{version}\t{bodies}\t{_path(fight)}")
        return lines

    def scenarios(self) -> dict[str, list[str]]:
        """Every load of one round, in the order run; each a wrk data file (the polls: the duels', as before)."""
        fights = self.of_kind("duel")
        short, long_ = self.by_length(10), self.by_length(500)
        event = self.game["event"]
        listing = f"/events/{event}/referee/"
        list_headers = _headers(HX, self.cookie, "HX-Target: running")
        plain_list = {
            "HX-Request": "true",
            "HX-Target": "running",
            "Cookie": self.cookie[8:],
            "X-Forwarded-Proto": "https",
        }
        list_etag = _etag(self.port, listing, plain_list)
        spectator, player, referee = (self.urls(fights, r) for r in ("spectator", "player", "referee"))
        polls = self.unchanged(spectator + player + referee)
        out = {
            "bare": self.bare(),
            "bare_post": [f"R\tPOST\t/ping/\t{self.post}\tx=1"],
            "spectator_poll_unchanged": polls[: len(spectator)],
            "player_poll_unchanged": polls[len(spectator) : len(spectator) + len(player)],
            "referee_poll_unchanged": polls[len(spectator) + len(player) :],
            "spectator_poll_changed_10": self.changed(self.urls(short, "spectator")),
            "spectator_poll_changed_500": self.changed(self.urls(long_, "spectator")),
            "player_poll_changed_10": self.changed(self.urls(short, "player")),
            "player_poll_changed_500": self.changed(self.urls(long_, "player")),
            "referee_poll_changed_500": self.changed(self.urls(long_, "referee")),
            "referee_page_10": [f"R\tGET\t/fights/{f['id']}/\t{_headers(self.cookie)}\t" for f in short],
            "referee_page_500": [f"R\tGET\t/fights/{f['id']}/\t{_headers(self.cookie)}\t" for f in long_],
            "referee_list_unchanged": [f"R\tGET\t{listing}\t{list_headers}\x1fIf-None-Match: {list_etag}\t"],
            "referee_list_changed": [f'R\tGET\t{listing}\t{list_headers}\x1fIf-None-Match: "older"\t'],
        }
        return out

    def tracked(self, urls: list[tuple[str, str]]) -> list[str]:
        """Polls that keep the ETag of their URL's last 200, as a phone does (load.lua's P lines).

        A poll is then a 304 until a step moves its fight on, and one 200 after: the share of
        changed polls is the game's own, not one fixed when the load was prepared (whose ETags
        went stale as soon as the steps began: 89 % 200s in the 2026-12-05 run).
        """
        lines = []
        for path, headers in urls:
            plain = dict(h.split(": ", 1) for h in headers.split("\x1f"))
            lines.append(f"P\t{path}\t{headers}\t{_etag(self.port, path, plain)}")
        return lines

    def step_loads(self) -> dict[str, list[str]]:
        """The referee's taps alone, per kind, and the mixed load: every kind's steps among the polls."""
        # The mixed poll traffic: every spectator's and player's poll keeps its last answer's ETag.
        mix = self.tracked(self.urls(self.fights, "spectator") + self.urls(self.fights, "player"))
        ping = f"R\tGET\t/ping/\t{_headers()}\t"
        out = {"step_post": [*self.steps(), "M\t1", ping]}
        for kind in ("battle", "mass"):
            if self.of_kind(kind):
                out[f"step_post_{kind}"] = [*self.steps((kind,)), "M\t1", ping]
        out["mixed"] = [*self.steps(("duel", "battle", "mass")), f"M\t{1 / 21:.5f}", *mix]
        return out

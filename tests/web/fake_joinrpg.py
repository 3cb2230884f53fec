"""A fake JoinRPG game API on the loopback, answering as joinrpg-net's XGameApi controllers do.

Shapes from JoinRpg.XGameApi.Contract (camelCase JSON, as ASP.NET Core writes it):
``POST /x-api/token`` (form: username, password, grant_type=password) -> ``{access_token,
token_type, expires_in}``, 403 on a wrong password; ``GET /x-game-api/{p}/metadata/fields``
-> ``{projectId, projectName, fields: [{projectFieldId, fieldName, fieldType, isActive,
programmaticValue, valueList: [{projectFieldVariantId, label, isActive, programmaticValue}]}]}``;
``GET /x-game-api/{p}/characters[?modifiedSince=]`` -> ``[{characterId, updatedAt, isActive,
characterLink}]``; ``GET …/characters/{id}/`` -> the CharacterInfo. Without the bearer
token, 401. ``drop_after`` details cuts the connection of the next ones (a network error).
"""

from __future__ import annotations

import json
import threading
import urllib.parse
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PROJECT = 1234
LOGIN, PASSWORD, TOKEN = "master@example.org", "a-master-password", "token-8f2c"
T0 = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)

FIELDS = [
    {
        "projectFieldId": 101,
        "fieldName": "Сторона",
        "fieldType": "Dropdown",
        "isActive": True,
        "programmaticValue": "side",
        "valueList": [
            {"projectFieldVariantId": 1, "label": "Свет", "isActive": True, "programmaticValue": "light"},
            {"projectFieldVariantId": 2, "label": "Тьма", "isActive": True, "programmaticValue": "dark"},
        ],
    },
    {
        # No ProgrammaticValue: matched by its name, its variants by their labels.
        "projectFieldId": 102,
        "fieldName": "Уровень силы",
        "fieldType": "Dropdown",
        "isActive": True,
        "programmaticValue": None,
        "valueList": [
            {"projectFieldVariantId": 7, "label": "вне категорий", "isActive": True, "programmaticValue": None},
            {"projectFieldVariantId": 8, "label": "3", "isActive": True, "programmaticValue": None},
        ],
    },
    {"projectFieldId": 103, "fieldName": "Легенда", "fieldType": "Text", "isActive": True, "valueList": None},
]


def character(
    cid: int,
    name: str,
    *,
    side: int,
    level: int,
    updated: datetime,
    email: str = "",
    busy: int = 0,
    active: bool = True,
) -> dict[str, Any]:
    player = None
    if email:
        contacts = {"email": email, "phone": None, "vKontakte": f"id{cid}", "telegram": f"player{cid}"}
        player = {
            "playerUserId": 9000 + cid,
            "paidInFull": True,
            "playerDisplayName": f"Игрок {cid}",
            "playerContacts": contacts,
        }
    return {
        "characterId": cid,
        "updatedAt": updated.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        "isActive": active,
        "inGame": False,
        "busyStatus": busy,
        "groups": [{"characterGroupId": 11, "characterGroupName": "Ночной Дозор"}],
        "allGroups": [{"characterGroupId": 11, "characterGroupName": "Ночной Дозор"}],
        "fields": [
            {"projectFieldId": 101, "value": str(side), "displayString": "Свет" if side == 1 else "Тьма"},
            {"projectFieldId": 102, "value": str(level), "displayString": "вне категорий" if level == 7 else "3"},
            {"projectFieldId": 103, "value": "Давняя история", "displayString": "Давняя история"},
        ],
        "playerUserId": player["playerUserId"] if player else None,
        "characterName": name,
        "characterDescription": "",
        "playerInfo": player,
    }


class FakeJoinRpg:
    def __init__(self) -> None:
        self.characters: dict[int, dict[str, Any]] = {
            5678: character(5678, "Антон Городецкий", side=1, level=8, updated=T0, email="anton@example.org"),
            5679: character(5679, "Завулон", side=2, level=7, updated=T0 + timedelta(minutes=1)),
            5680: character(5680, "Ольга", side=1, level=8, updated=T0 + timedelta(minutes=2), busy=2),
        }
        self.requests: list[str] = []
        self.drop_after: int | None = None
        self.details = 0
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _json(self, status: int, body: Any) -> None:
                data = json.dumps(body, ensure_ascii=False).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                fake.requests.append(f"POST {self.path}")
                length = int(self.headers.get("Content-Length") or 0)
                form = urllib.parse.parse_qs(self.rfile.read(length).decode())
                if self.path != "/x-api/token":
                    return self._json(404, {})
                if form.get("grant_type") != ["password"]:
                    return self._json(400, {"error": "unsupported_grant_type"})
                if form.get("username") != [LOGIN] or form.get("password") != [PASSWORD]:
                    return self._json(403, {})
                return self._json(200, {"access_token": TOKEN, "token_type": "bearer", "expires_in": 3600})

            def do_GET(self) -> None:
                fake.requests.append(f"GET {self.path}")
                if self.headers.get("Authorization") != f"Bearer {TOKEN}":
                    return self._json(401, {})
                url = urllib.parse.urlparse(self.path)
                prefix = f"/x-game-api/{PROJECT}/"
                if not url.path.startswith(prefix):
                    return self._json(404, {})
                rest = url.path[len(prefix) :].strip("/")
                if rest == "metadata/fields":
                    return self._json(200, {"projectId": PROJECT, "projectName": "Дозоры", "fields": FIELDS})
                if rest == "characters":
                    since = urllib.parse.parse_qs(url.query).get("modifiedSince")
                    limit = datetime.fromisoformat(since[0].replace("Z", "+00:00")) if since else None
                    headers = [
                        {
                            "characterId": c["characterId"],
                            "updatedAt": c["updatedAt"],
                            "isActive": c["isActive"],
                            "characterLink": f"https://joinrpg.ru/{PROJECT}/character/{c['characterId']}/",
                        }
                        for c in fake.characters.values()
                        if limit is None or datetime.fromisoformat(c["updatedAt"].replace("Z", "+00:00")) > limit
                    ]
                    return self._json(200, headers)
                if rest.startswith("characters/") and rest.split("/")[1].isdigit():
                    fake.details += 1
                    if fake.drop_after is not None and fake.details > fake.drop_after:
                        self.connection.shutdown(2)  # the line drops: no answer at all
                        return None
                    found = fake.characters.get(int(rest.split("/")[1]))
                    return self._json(200, found) if found else self._json(404, {})
                return self._json(404, {})

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}"

    def detail_requests(self) -> list[int]:
        return [int(r.split("/")[-2]) for r in self.requests if "/characters/" in r and r.endswith("/")]

    def __enter__(self) -> FakeJoinRpg:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

"""Every URL of the project, what it reads and who may use it (``test_no_server_errors.py``).

A ``Spec`` names the scope for the real ids of ``event`` (``SCOPES``), the query
parameters the view reads, and well-formed POST bodies; the test derives the
garbage from those bodies, one field at a time.
"""

from __future__ import annotations

from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile

from duels.models import Situation
from tests.services.kit import nonce
from tests.web.no_server_errors_kit import HUGE, Spec, mass_warrior, uid_in_hand


def _version(w: Any) -> int:
    return Situation.objects.get(pk=w.running.pk).version


def _fight(w: Any, **fields: Any) -> dict[str, Any]:
    return {"version": _version(w), "nonce": nonce(), "duel": "0", **fields}


def _shield_uid(w: Any) -> str:
    return uid_in_hand(Situation.objects.get(pk=w.running.pk), w.rival, w.defence)


def _event_form(w: Any) -> dict[str, Any]:
    return {
        "name": "Renamed",
        "starts_on": "2026-12-05",
        "ends_on": "2026-12-07",
        "place": "Forest",
        "description": "",
        "catalogue": w.event.catalogue_id,
        "registration_open": "on",
        "answer_window_s": "15",
        "situation_gap_s": "180",
        "instant_attack_distance_m": "2",
        "reactions_from_round": "2",
        "duels_on": "on",
    }


def _character_form(w: Any) -> dict[str, Any]:
    return {
        "name": "Anton",
        "player_username": "player",
        "side": "light",
        "kind": "mage",
        "power_level": "5",
        "arsenal_limit": "7",
        "condition": "fit",
        "status": "accepted",
        "arrived": "on",
    }


def _card_form(w: Any) -> dict[str, Any]:
    return {
        "name_ru": "Новая карта",
        "name_en": "New card",
        "category": "spell",
        "kind": "attack",
        "magic_type": "fire",
        "full_effect": "lightly_wounded",
        "softened_effect": "",
        "tags": "fire",
        "action_kind": "standard",
        "add_another": "1",
    }


def _mass(w: Any, **fields: Any) -> dict[str, Any]:
    return {"version": Situation.objects.get(pk=w.mass.pk).version, "nonce": nonce(), **fields}


def _army(w: Any, name: str) -> int:
    from cards.models_mass import Army

    return Army.objects.get(event=w.event, name=name).pk


def _magic_cards_csv() -> SimpleUploadedFile:
    body = "name_ru,deck,magic_type,keepable\nЛивень,6,water,no\n".encode()
    return SimpleUploadedFile("magic.csv", body, "text/csv")


def _warrior_types_csv() -> SimpleUploadedFile:
    return SimpleUploadedFile("types.csv", 'name_ru,protections\nСильф,"wind, fire"\n'.encode(), "text/csv")


def _characters_csv() -> SimpleUploadedFile:
    return SimpleUploadedFile("characters.csv", b"name,side,power_level\nNewcomer,light,5\n", "text/csv")


def _event_file(w: Any) -> SimpleUploadedFile:
    """The world's own event as a file: its ids are taken here, so the import refuses it."""
    from duels.archive import dumps, export_event

    return SimpleUploadedFile("event.json", dumps(export_event(w.event)).encode(), "application/json")


def _cards_csv() -> SimpleUploadedFile:
    return SimpleUploadedFile("cards.csv", "name_ru,kind\nНовая,attack\n".encode(), "text/csv")


def _arsenals_csv() -> SimpleUploadedFile:
    # Boris is in no fight: his prepared arsenal gets past the D3 guard to the arsenal check.
    body = b"character,list,card,copies\nBoris,Morning,Spark,1\nBoris,pool,Spark,2\n"
    return SimpleUploadedFile("arsenals.csv", body, "text/csv")


def _rules_json() -> SimpleUploadedFile:
    body = b'[{"defence_card": "Mage Shield", "attack_card": "", "attack_tag": "spark", "outcome": "softened"}]'
    return SimpleUploadedFile("rules.json", body, "application/json")


def _start(kind: str) -> Any:
    def payload(w: Any) -> dict[str, Any]:
        data = {"a": w.character.pk, "b": w.rival.pk, "kind": kind, "nonce": nonce(), "card": w.attack.pk}
        if kind == "instant":
            data.update(out_of_sight="yes", within_reach="no", max_rounds="3")
        return data

    return payload


GET_ONLY, POST_ONLY = "GET", "POST"

SPECS: dict[str, Spec] = {
    # Everyone's pages and Django's account pages.
    "home": Spec("public", login=False),
    "ping": Spec("public", login=False, lookups=False, posts=[lambda w: {}]),
    "help": Spec("public", login=False),
    "help-role": Spec("public", login=False),
    "signup": Spec(
        "public",
        strict=("password1", "password2"),
        login=False,
        posts=[lambda w: {"username": "newcomer", "password1": "Xy-12345-long", "password2": "Xy-12345-long"}],
    ),
    "login": Spec(
        "public", login=False, get={"next": "/"}, posts=[lambda w: {"username": "player", "password": "wrong"}]
    ),
    "logout": Spec("public", login=False, methods=POST_ONLY, posts=[lambda w: {"next": "/"}]),
    "password_change": Spec(
        "signed_in",
        posts=[lambda w: {"old_password": "wrong", "new_password1": "Ab-34567-long", "new_password2": "Ab-34567-long"}],
    ),
    "password_change_done": Spec("signed_in"),
    # Events: players.
    "events:apply": Spec(
        "signed_in",
        strict=("side", "kind", "power_level"),
        posts=[lambda w: {"name": "Newcomer", "side": "light", "kind": "mage", "power_level": "5", "application": ""}],
    ),
    "events:my-character": Spec("owner"),
    "events:character-link": Spec("token", login=False),
    # Events: organizers.
    "events:event-create": Spec(
        "signed_in",
        strict=(
            "starts_on",
            "ends_on",
            "catalogue",
            "answer_window_s",
            "situation_gap_s",
            "instant_attack_distance_m",
            "reactions_from_round",
        ),
        posts=[_event_form],
    ),
    "events:event-settings": Spec(
        "organizer",
        strict=(
            "starts_on",
            "ends_on",
            "catalogue",
            "answer_window_s",
            "situation_gap_s",
            "instant_attack_distance_m",
            "reactions_from_round",
        ),
        posts=[_event_form],
    ),
    "events:organizer-home": Spec("organizer"),
    "events:registration-toggle": Spec(
        "organizer", strict=("open",), methods=POST_ONLY, posts=[lambda w: {"open": "0"}]
    ),
    "events:applications": Spec("organizer", get={"show": "rejected"}),
    "events:application-review": Spec(
        "organizer", strict=("decision",), methods=POST_ONLY, posts=[lambda w: {"decision": "reject", "comment": "no"}]
    ),
    "events:staff": Spec(
        "organizer", strict=("username", "role"), posts=[lambda w: {"username": "outsider", "role": "referee"}]
    ),
    "events:staff-remove": Spec("organizer", methods=POST_ONLY),
    "events:characters": Spec(
        "organizer",
        get={
            "q": "An",
            "side": "light",
            "kind": "mage",
            "status": "accepted",
            "condition": "fit",
            "arrived": "no",
            "power_level": "5",
            "page": "1",
        },
    ),
    "events:character-create": Spec(
        "organizer",
        strict=("side", "kind", "power_level", "arsenal_limit", "condition", "status"),
        posts=[_character_form],
    ),
    "events:character-edit": Spec(
        "organizer",
        strict=("side", "kind", "power_level", "arsenal_limit", "condition", "status"),
        posts=[_character_form],
    ),
    # The world invites the player to play their own character again: only they may answer.
    "events:invitation-answer": Spec(
        "owner", methods=POST_ONLY, strict=("answer",), posts=[lambda w: {"answer": "decline"}]
    ),
    "events:link-revoke": Spec("organizer", methods=POST_ONLY),
    "events:link-regenerate": Spec("organizer", methods=POST_ONLY),
    "events:character-qr": Spec("organizer"),
    "events:qr-sheet": Spec("organizer", get={"ids": lambda w: f"{w.character.pk}"}),
    "events:characters-bulk": Spec(
        "organizer",
        methods=POST_ONLY,
        strict=("id", "action"),
        posts=[
            lambda w: {"action": "check_in", "id": [w.character.pk], "back": "status=accepted"},
            lambda w: {"action": "accept", "id": [w.character.pk, w.rival.pk]},
            lambda w: {"action": "print", "id": [w.character.pk]},
        ],
    ),
    # Prints (issue 14); a card's public entry is read by anyone who scans a printed card.
    "cards:card-entry": Spec("public", login=False, methods="GET"),
    "cards:print-cards": Spec("organizer", get={"format": "html"}),
    "cards:print-sheet": Spec("organizer", get={"format": "html"}),
    "cards:print-event": Spec(
        "organizer",
        get={"characters": "1"},
        strict=("characters",),
        posts=[lambda w: {"characters": [w.character.pk], "with_sheets": "on", "as_html": "on"}],
    ),
    "cards:magic-card-entry": Spec("public", login=False, methods="GET"),
    "cards:print-magic-decks": Spec("organizer", methods=GET_ONLY, get={"deck": "2", "format": "html"}),
    "cards:print-armies": Spec(
        "organizer", methods=GET_ONLY, get={"army": lambda w: _army(w, "Red"), "format": "html"}
    ),
    "cards:print-run": Spec("organizer", params={"run_id": "print_run"}),
    "cards:print-run-download": Spec("organizer", params={"run_id": "print_run"}),
    "events:check-in": Spec("organizer", get={"q": "An"}, htmx_targets=("check-in-list",)),
    "events:check-in-set": Spec(
        "organizer", strict=("arrived",), methods=POST_ONLY, posts=[lambda w: {"arrived": "1", "q": "An"}]
    ),
    # A second role (issue 22): the sweep's character is alive, so every POST is refused.
    "events:second-role": Spec(
        "organizer",
        strict=("side", "kind", "power_level"),
        posts=[lambda w: {"name": "Second", "side": "light", "kind": "mage", "power_level": "6", "notes": ""}],
    ),
    "events:handout-set": Spec(
        "organizer",
        strict=("item", "handed"),
        methods=POST_ONLY,
        posts=[lambda w: {"item": "sheet", "handed": "1", "q": "An"}],
    ),
    "cards:event-workbook": Spec("organizer", methods=GET_ONLY),
    "cards:messaging-links": Spec("organizer", methods=GET_ONLY),
    # The history of organizers' edits (issue 22): a revert of a change not on the page changes nothing.
    "cards:character-history": Spec("organizer", methods=GET_ONLY),
    "cards:character-revert": Spec(
        "organizer", methods=POST_ONLY, posts=[lambda w: {"change": "character:0", "reason": "typo"}]
    ),
    "cards:card-history": Spec("organizer", methods=GET_ONLY),
    "cards:card-revert": Spec("organizer", methods=POST_ONLY, posts=[lambda w: {"change": "card:0", "reason": "x"}]),
    "events:characters-import": Spec("organizer", strict=("file",), posts=[lambda w: {"file": _characters_csv}]),
    "events:characters-export": Spec("organizer", get={"format": "xlsx"}),
    "events:import-progress": Spec("organizer", methods=GET_ONLY),
    "events:import-correct": Spec("organizer", methods=POST_ONLY, posts=[lambda w: {"use": ["2:name"]}]),
    "events:import-mapping": Spec(
        "organizer",
        strict=("action",),
        posts=[lambda w: {"action": "preview", "column-0": "name"}, lambda w: {"action": "import", "column-0": "name"}],
    ),
    # Cards: the catalogue.
    "cards:catalogue": Spec(
        "staff", get={"q": "fire", "kind": "attack", "category": "spell", "magic_type": "fire", "tag": "fire"}
    ),
    "cards:catalogue-create": Spec(
        "organizer", methods=POST_ONLY, posts=[lambda w: {"name": "New", "description": ""}]
    ),
    "cards:card-new": Spec(
        "organizer",
        strict=("category", "kind", "magic_type", "full_effect", "softened_effect", "action_kind"),
        posts=[_card_form],
    ),
    "cards:card-edit": Spec(
        "staff",
        strict=("category", "kind", "magic_type", "full_effect", "softened_effect", "action_kind"),
        post_scope="organizer",
        posts=[_card_form],
    ),
    "cards:card-delete": Spec("organizer", methods=POST_ONLY),
    "cards:counter-matrix": Spec(
        "staff",
        post_scope="organizer",
        posts=[
            lambda w: {f"c-{w.defence.pk}-{w.attack.pk}": "softened", f"t-{w.defence.pk}-fire": "parried"},
            lambda w: {f"c-{w.defence.pk}-{w.o_attack.pk}": "parried", f"t-{w.o_attack.pk}-fire": ""},
            lambda w: {f"c-{HUGE}-{HUGE}": "parried", f"t-{HUGE}-fire": "parried", "c--": "", "t-": ""},
        ],
    ),
    "cards:catalogue-import": Spec(
        "organizer",
        strict=("what", "file"),
        posts=[
            lambda w: {"what": "cards", "file": _cards_csv, "file_format": ""},
            lambda w: {"what": "rules", "file": _rules_json, "file_format": "json"},
        ],
    ),
    "cards:catalogue-export": Spec("organizer", get={"what": "rules", "file_format": "json"}),
    "cards:arsenals-import": Spec("organizer", strict=("file",), posts=[lambda w: {"file": _arsenals_csv}]),
    "cards:arsenals-export": Spec("organizer", get={"format": "xlsx"}),
    # Cards: the arsenal builder (Anton is in a running fight: arsenal changes are refused, D3).
    "cards:arsenal-builder": Spec("organizer"),
    "cards:arsenal-select": Spec(
        "organizer",
        strict=("action",),
        methods=POST_ONLY,
        posts=[
            lambda w: {f"card_{w.attack.pk}": "1", "name": "Saved", "action": "save"},
            lambda w: {f"card_{w.defence.pk}": "1", f"card_{w.o_attack.pk}": "1", "action": "build"},
            lambda w: {f"card_{HUGE}": "1", "card_-1": "1", "card_": "1"},
        ],
    ),
    "cards:pool-add": Spec(
        "organizer", strict=("card", "copies"), methods=POST_ONLY, posts=[lambda w: {"card": w.spark.pk, "copies": "2"}]
    ),
    "cards:pool-copies": Spec(
        "organizer", strict=("copies",), methods=POST_ONLY, posts=[lambda w: {"copies": "3"}, lambda w: {"remove": "1"}]
    ),
    "cards:prepared-take": Spec("organizer", methods=POST_ONLY),
    "cards:prepared-delete": Spec("organizer", methods=POST_ONLY),
    "cards:arsenal-restore": Spec("organizer", methods=POST_ONLY),
    "cards:arsenal-focus": Spec(
        "organizer", strict=("card",), methods=POST_ONLY, posts=[lambda w: {"card": w.defence.pk}]
    ),
    "cards:my-arsenal-restore": Spec("owner", methods=POST_ONLY),
    "cards:my-prepared-take": Spec("owner", methods=POST_ONLY),
    "cards:my-arsenal-build": Spec("owner", methods=POST_ONLY, posts=[lambda w: {f"card_{w.defence.pk}": "1"}]),
    "cards:player-arsenal-restore": Spec("token", login=False, methods=POST_ONLY),
    "cards:player-prepared-take": Spec("token", login=False, methods=POST_ONLY),
    "cards:player-arsenal-build": Spec(
        "token", login=False, methods=POST_ONLY, posts=[lambda w: {f"card_{w.defence.pk}": "1"}]
    ),
    # Fights: referees.
    "duels:referee-home": Spec("staff", get={"q": "An"}, htmx_targets=("search-results", "running")),
    "duels:start": Spec(
        "staff",
        strict=("a", "b", "kind", "nonce", "card", "max_rounds", "out_of_sight", "within_reach"),
        get={"a": lambda w: w.character.pk, "b": lambda w: w.rival.pk, "with": lambda w: w.rival.pk},
        posts=[_start("aggression"), _start("instant")],
    ),
    "duels:situation": Spec("staff", methods=GET_ONLY),
    "duels:act": Spec(
        "staff",
        strict=("action", "version", "nonce", "duel", "fighter", "card", "outcome", "go_on", "arsenal"),
        methods=POST_ONLY,
        posts=[
            lambda w: _fight(w, action="answer", fighter=w.rival.pk, card=_shield_uid(w)),
            lambda w: _fight(w, action="attack", fighter=w.character.pk, card=f"{w.character.pk}:{w.attack.pk}:1"),
            lambda w: _fight(w, action="confirm"),
            lambda w: _fight(w, action="override", outcome="parried", reason="seen"),
            lambda w: _fight(w, action="end_duel", reason="stopped"),
            lambda w: _fight(
                w,
                action="round_choice",
                fighter=w.character.pk,
                go_on="yes",
                arsenal="new",
                **{f"card_{w.attack.pk}": 1},
            ),
            lambda w: _fight(w, action="round_choice", fighter=w.character.pk, go_on="yes", arsenal="prepared-1"),
            # Ids no database row can have, where the form takes them apart itself.
            lambda w: _fight(w, action="attack", fighter=w.character.pk, card=f"{w.character.pk}:{HUGE}:0"),
            lambda w: _fight(
                w, action="round_choice", fighter=HUGE, go_on="yes", arsenal=f"prepared-{HUGE}", **{f"card_{HUGE}": 1}
            ),
            lambda w: _fight(w, action="round_choice", fighter=w.character.pk, go_on="yes", **{f"card_{HUGE}": 1}),
        ],
    ),
    "duels:undo": Spec(
        "staff", strict=("version", "nonce"), methods=POST_ONLY, posts=[lambda w: _fight(w, reason="mistake")]
    ),
    "duels:log": Spec("staff", methods=GET_ONLY, get={"page": "2"}),
    # Battles: the world's situations are duels, so these pages answer 404 for them (a battle
    # has its own page); tests/web/test_battle_pages.py runs them on a real battle.
    "duels:battle-start": Spec(
        "staff",
        strict=("nonce", "combatants", "declarer", "max_rounds"),
        posts=[
            lambda w: {
                "nonce": nonce(),
                "combatants": [w.character.pk, w.rival.pk],
                "declarer": w.character.pk,
                "max_rounds": "2",
            }
        ],
    ),
    "duels:battle": Spec("staff", methods=GET_ONLY),
    "duels:battle-act": Spec(
        "staff", methods=POST_ONLY, posts=[lambda w: _fight(w, action="next_turn"), lambda w: _fight(w, action="end")]
    ),
    "duels:battle-arsenal": Spec(
        "staff",
        methods=POST_ONLY,
        strict=("prepared",),
        posts=[
            lambda w: {**_fight(w), "prepared": w.prepared.pk},
            # D3: a new arsenal built from the pool, and ids no database row can have.
            lambda w: {**_fight(w), "fighter": w.character.pk, f"card_{w.attack.pk}": 1},
            lambda w: {**_fight(w), "fighter": HUGE, f"card_{HUGE}": 1},
            lambda w: {**_fight(w), "fighter": w.character.pk, f"card_{HUGE}": 1},
            lambda w: {**_fight(w), "fighter": w.character.pk, f"card_{w.attack.pk}": "many"},
        ],
    ),
    "duels:battle-grow": Spec(
        "staff",
        strict=("version", "nonce", "character", "declarer"),
        posts=[lambda w: {**_fight(w), "character": w.prepared.character_id, "declarer": "third", "side": "dark"}],
    ),
    "duels:battle-undo": Spec("staff", methods=POST_ONLY, posts=[lambda w: _fight(w, reason="mistake")]),
    "duels:battle-join": Spec(
        "staff", methods=POST_ONLY, posts=[lambda w: {**_fight(w), "character": w.character.pk, "side": "light"}]
    ),
    "duels:export": Spec("staff", methods=GET_ONLY),
    "duels:condition": Spec(
        "staff",
        strict=("change", "condition"),
        posts=[lambda w: {"change": "add", "condition": "lightly_wounded", "reason": "a blow outside a step"}],
    ),
    "duels:fight-condition": Spec(
        "staff",
        methods=POST_ONLY,
        strict=("version", "nonce", "character", "change", "condition"),
        posts=[
            lambda w: _fight(
                w, character=w.rival.pk, change="add", condition="lightly_wounded", reason="a blow outside a step"
            ),
            lambda w: _fight(w, character=HUGE, change="clear", condition="paralysed", reason="not in the fight"),
        ],
    ),
    "duels:log-export-csv": Spec("staff", methods=GET_ONLY),
    "duels:log-export-xlsx": Spec("staff", methods=GET_ONLY),
    "duels:event-export": Spec("organizer", methods=GET_ONLY),
    # The balance lab and the post-game report.
    "lab:home": Spec(
        "organizer",
        strict=("source", "duels", "policy", "instant_percent", "focus_percent", "timeout_percent", "max_rounds"),
        posts=[
            lambda w: {
                "label": "Run",
                "source": "current",
                "duels": "100",
                "policy": "greedy",
                "instant_percent": "20",
                "focus_percent": "50",
                "timeout_percent": "5",
                "max_rounds": "3",
                "seed": "1",
            }
        ],
    ),
    "lab:compare": Spec("organizer", methods=GET_ONLY, get={"a": lambda w: w.lab_run.pk, "b": lambda w: w.lab_run.pk}),
    "lab:run": Spec("organizer", methods=GET_ONLY),
    "lab:cancel": Spec("organizer", methods=POST_ONLY),
    "lab:postgame": Spec("staff", methods=GET_ONLY, get={"download": "kinds", "format": "csv"}),
    "duels:event-import": Spec("signed_in", strict=("file",), posts=[lambda w: {"file": _event_file(w)}]),
    # Fights: players and spectators.
    "duels:player-live": Spec("owner", login=False, methods=GET_ONLY),
    "duels:player-focus": Spec(
        "owner",
        strict=("nonce",),
        login=False,
        methods=POST_ONLY,
        posts=[
            lambda w: {"card": "", "version": _version(w), "nonce": nonce()},
            lambda w: {"card": f"{w.character.pk}:{HUGE}:0", "version": _version(w), "nonce": nonce()},
            lambda w: {"card": HUGE, "nonce": nonce()},
        ],
    ),
    "duels:player-live-token": Spec("token", login=False, methods=GET_ONLY),
    "duels:player-focus-token": Spec(
        "token",
        strict=("nonce",),
        login=False,
        methods=POST_ONLY,
        posts=[lambda w: {"card": "", "version": _version(w), "nonce": nonce()}],
    ),
    "duels:watch": Spec("public", login=False, methods=GET_ONLY),
    # Mass battles (M1-M8).
    "cards:mass-data": Spec(
        "organizer",
        strict=("what", "file"),
        posts=[
            lambda w: {"what": "magic_cards", "file": _magic_cards_csv},
            lambda w: {"what": "warrior_types", "file": _warrior_types_csv},
        ],
    ),
    "cards:army-new-link": Spec("organizer", methods=POST_ONLY, posts=[lambda w: {}]),
    "cards:mass-export": Spec("organizer", get={"what": "warriors", "file_format": "json"}),
    "duels:mass-start": Spec(
        "staff",
        strict=("army_a", "army_b", "nonce"),
        posts=[lambda w: {"army_a": _army(w, "Red"), "army_b": _army(w, "Blue"), "nonce": nonce()}],
    ),
    "duels:mass": Spec("staff", methods=GET_ONLY, params={"situation_id": "mass_tablet"}),
    "duels:mass-act": Spec(
        "staff",
        strict=("action", "version", "nonce", "dice_a", "dice_b", "to", "side", "starts", "take", "move_to"),
        methods=POST_ONLY,
        params={"situation_id": "mass"},
        posts=[
            lambda w: _mass(w, action="roll_entered", dice_a="5", dice_b="2"),
            lambda w: _mass(w, action="roll_server"),
            lambda w: _mass(w, action="move", warrior=mass_warrior(w), to="hospital"),
            lambda w: _mass(w, action="points", side="a", warrior=mass_warrior(w), take="no"),
            lambda w: _mass(w, action="carry_out", side="a", targets=mass_warrior(w), target_side="b", move_to="dead"),
            lambda w: _mass(w, action="end_battle", reason="dusk"),
        ],
    ),
    "duels:mass-undo": Spec(
        "staff",
        strict=("version", "nonce"),
        methods=POST_ONLY,
        params={"situation_id": "mass"},
        posts=[lambda w: _mass(w, reason="mistake")],
    ),
    "duels:mass-log": Spec("staff", methods=GET_ONLY, params={"situation_id": "mass"}, get={"page": "2"}),
    "duels:mass-decks": Spec("staff", methods=GET_ONLY, params={"situation_id": "mass"}),
    "duels:mass-commander": Spec("staff", methods=GET_ONLY, params={"situation_id": "mass"}),
    "duels:mass-army-link": Spec("public", login=False, methods=GET_ONLY, params={"token": "army_token"}),
    "duels:mass-watch": Spec("public", login=False, methods=GET_ONLY, params={"situation_id": "mass"}),
    "duels:event-fights": Spec("public", login=False, methods=GET_ONLY),
    "duels:big-screen": Spec("public", login=False, methods=GET_ONLY),
    "duels:history": Spec("staff", methods=GET_ONLY, get={"page": "2"}),
    "duels:character-history": Spec("staff", methods=GET_ONLY, get={"page": "2"}),
    "duels:record": Spec("public", login=False, methods=GET_ONLY),
}

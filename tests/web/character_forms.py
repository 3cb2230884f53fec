"""The organizers' character form as a test posts it (tests/web/test_names.py, test_name_folding.py)."""


def character_form(**changes) -> dict[str, str]:
    data = {
        "name": "Svetlana",
        "player_username": "",
        "side": "light",
        "kind": "healer",
        "power_level": "4",
        "arsenal_limit": "",
        "condition": "fit",
        "status": "accepted",
        "review_comment": "",
        "application": "",
        "notes": "",
    }
    data.update(changes)
    return data

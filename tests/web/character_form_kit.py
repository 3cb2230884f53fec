"""The organizers' character form as a test posts it (character create and edit pages).

Shared by tests/web/test_names.py, test_name_folding.py, test_events_characters.py and
test_secret_links_and_invitations.py; a test names only the fields it changes."""


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

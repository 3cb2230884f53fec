"""The event form's well-formed POST, for the tests that create or configure events."""


def event_data(**changes) -> dict[str, str]:
    data = {
        "name": "Twilight Patrol",
        "starts_on": "2027-06-10",
        "ends_on": "2027-06-13",
        "place": "Moscow region",
        "description": "A night game.",
        "catalogue": "",
        "registration_open": "on",
        "answer_window_s": "15",
        "situation_gap_s": "180",
        "instant_attack_distance_m": "2.0",
        "reactions_from_round": "2",
        "duels_on": "on",
        "battles_on": "on",
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}

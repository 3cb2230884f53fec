from django.urls import path

from events import (
    import_page,
    views_bulk,
    views_characters,
    views_checkin,
    views_event,
    views_import,
    views_organizer,
    views_player,
    views_transfer,
)

app_name = "events"

urlpatterns = [
    # Players
    path("events/<int:event_id>/apply/", views_player.apply, name="apply"),
    path("characters/<int:character_id>/", views_player.my_character, name="my-character"),
    path("c/<str:token>/", views_player.character_link, name="character-link"),
    path("invitations/<int:character_id>/", views_player.invitation_answer, name="invitation-answer"),
    # Organizers: the event
    path("events/new/", views_event.event_create, name="event-create"),
    path("events/<int:event_id>/settings/", views_event.event_settings, name="event-settings"),
    path("events/<int:event_id>/organize/", views_organizer.organizer_home, name="organizer-home"),
    path("events/<int:event_id>/registration/", views_organizer.registration_toggle, name="registration-toggle"),
    path("events/<int:event_id>/applications/", views_organizer.applications, name="applications"),
    path("organize/characters/<int:character_id>/review/", views_organizer.review, name="application-review"),
    path("events/<int:event_id>/staff/", views_organizer.staff, name="staff"),
    path("events/<int:event_id>/staff/<int:role_id>/remove/", views_organizer.staff_remove, name="staff-remove"),
    # Organizers: characters
    path("events/<int:event_id>/characters/", views_characters.characters, name="characters"),
    path("events/<int:event_id>/characters/bulk/", views_bulk.characters_bulk, name="characters-bulk"),
    path("events/<int:event_id>/characters/new/", views_characters.character_create, name="character-create"),
    path("organize/characters/<int:character_id>/", views_characters.character_edit, name="character-edit"),
    path("organize/characters/<int:character_id>/second-role/", views_characters.second_role, name="second-role"),
    path("organize/characters/<int:character_id>/link/revoke/", views_characters.link_revoke, name="link-revoke"),
    path(
        "organize/characters/<int:character_id>/link/regenerate/",
        views_characters.link_regenerate,
        name="link-regenerate",
    ),
    path("organize/characters/<int:character_id>/qr/", views_characters.character_qr, name="character-qr"),
    path("events/<int:event_id>/qr-codes/", views_characters.qr_sheet, name="qr-sheet"),
    # Organizers: check-in, import and export
    path("events/<int:event_id>/check-in/", views_checkin.check_in, name="check-in"),
    path("organize/characters/<int:character_id>/arrived/", views_checkin.check_in_set, name="check-in-set"),
    path("organize/characters/<int:character_id>/handout/", views_checkin.handout_set, name="handout-set"),
    path("events/<int:event_id>/characters/import/", views_transfer.import_page, name="characters-import"),
    path("events/<int:event_id>/characters/export/", views_transfer.export, name="characters-export"),
    path("events/<int:event_id>/imports/<int:import_id>/", import_page.import_progress, name="import-progress"),
    path("events/<int:event_id>/imports/<int:import_id>/columns/", views_import.import_mapping, name="import-mapping"),
    path("events/<int:event_id>/imports/<int:import_id>/correct/", views_import.correct, name="import-correct"),
]

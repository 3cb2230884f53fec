from django.urls import path

from cards import (
    views,
    views_arsenal,
    views_exports,
    views_history,
    views_mass,
    views_matrix,
    views_player,
    views_public,
    views_transfer,
)
from cards.printing import views as views_print

app_name = "cards"

urlpatterns = [
    # A card's public entry, opened by the QR code printed on the card (no login, no hidden information).
    path("cards/<int:card_id>/", views_public.card_entry, name="card-entry"),
    path("magic-cards/<int:magic_card_id>/", views_public.magic_card_entry, name="magic-card-entry"),
    path("events/<int:event_id>/catalogue/", views.catalogue, name="catalogue"),
    path("events/<int:event_id>/catalogue/create/", views.catalogue_create, name="catalogue-create"),
    path("events/<int:event_id>/catalogue/cards/new/", views.card_new, name="card-new"),
    path("events/<int:event_id>/catalogue/cards/<int:card_id>/", views.card_edit, name="card-edit"),
    path("events/<int:event_id>/catalogue/cards/<int:card_id>/delete/", views.card_delete, name="card-delete"),
    path(
        "events/<int:event_id>/catalogue/cards/<int:card_id>/history/", views_history.card_history, name="card-history"
    ),
    path(
        "events/<int:event_id>/catalogue/cards/<int:card_id>/history/revert/",
        views_history.card_revert,
        name="card-revert",
    ),
    path("organize/characters/<int:character_id>/history/", views_history.character_history, name="character-history"),
    path(
        "organize/characters/<int:character_id>/history/revert/",
        views_history.character_revert,
        name="character-revert",
    ),
    path("events/<int:event_id>/catalogue/counter-rules/", views_matrix.counter_matrix, name="counter-matrix"),
    path("events/<int:event_id>/catalogue/import/", views_transfer.catalogue_import, name="catalogue-import"),
    path("events/<int:event_id>/catalogue/export/", views_transfer.catalogue_export, name="catalogue-export"),
    path("events/<int:event_id>/mass-battles/data/", views_mass.mass_data, name="mass-data"),
    path("events/<int:event_id>/mass-battles/data/export/", views_mass.mass_export, name="mass-export"),
    path(
        "events/<int:event_id>/mass-battles/armies/<int:army_id>/new-link/",
        views_mass.army_new_link,
        name="army-new-link",
    ),
    path("events/<int:event_id>/export/all-lists/", views_exports.event_workbook, name="event-workbook"),
    path("events/<int:event_id>/export/messaging-links/", views_exports.messaging_links, name="messaging-links"),
    path("events/<int:event_id>/arsenals/import/", views_transfer.arsenal_import, name="arsenals-import"),
    path("events/<int:event_id>/arsenals/export/", views_transfer.arsenal_export, name="arsenals-export"),
    path("organize/characters/<int:character_id>/arsenal/", views_arsenal.arsenal_builder, name="arsenal-builder"),
    path("organize/characters/<int:character_id>/arsenal/select/", views_arsenal.arsenal_select, name="arsenal-select"),
    path("organize/characters/<int:character_id>/arsenal/pool/", views_arsenal.pool_add, name="pool-add"),
    path(
        "organize/characters/<int:character_id>/arsenal/pool/<int:entry_id>/",
        views_arsenal.pool_copies,
        name="pool-copies",
    ),
    path(
        "organize/characters/<int:character_id>/arsenal/prepared/<int:prepared_id>/take/",
        views_arsenal.prepared_take,
        name="prepared-take",
    ),
    path(
        "organize/characters/<int:character_id>/arsenal/prepared/<int:prepared_id>/delete/",
        views_arsenal.prepared_delete,
        name="prepared-delete",
    ),
    path(
        "organize/characters/<int:character_id>/arsenal/restore/", views_arsenal.arsenal_restore, name="arsenal-restore"
    ),
    path("organize/characters/<int:character_id>/arsenal/focus/", views_arsenal.arsenal_focus, name="arsenal-focus"),
    # Players, between fights (S2, D3): their own account, or the secret link (POST only).
    path("characters/<int:character_id>/arsenal/restore/", views_player.my_arsenal_restore, name="my-arsenal-restore"),
    path(
        "characters/<int:character_id>/arsenal/prepared/<int:prepared_id>/take/",
        views_player.my_prepared_take,
        name="my-prepared-take",
    ),
    path("characters/<int:character_id>/arsenal/build/", views_player.my_arsenal_build, name="my-arsenal-build"),
    path("c/<str:token>/arsenal/restore/", views_player.player_arsenal_restore, name="player-arsenal-restore"),
    path(
        "c/<str:token>/arsenal/prepared/<int:prepared_id>/take/",
        views_player.player_prepared_take,
        name="player-prepared-take",
    ),
    path("c/<str:token>/arsenal/build/", views_player.player_arsenal_build, name="player-arsenal-build"),
    # Prints (organizers): a character's cards and sheet, the event's print run.
    path("organize/characters/<int:character_id>/print/cards/", views_print.character_cards, name="print-cards"),
    path("organize/characters/<int:character_id>/print/sheet/", views_print.character_sheet, name="print-sheet"),
    path("events/<int:event_id>/print/", views_print.event_print, name="print-event"),
    path("events/<int:event_id>/print/runs/<int:run_id>/", views_print.run_status, name="print-run"),
    path("events/<int:event_id>/print/magic-decks/", views_print.magic_decks, name="print-magic-decks"),
    path("events/<int:event_id>/print/armies/", views_print.army_rosters, name="print-armies"),
    path(
        "events/<int:event_id>/print/runs/<int:run_id>/download/", views_print.run_download, name="print-run-download"
    ),
]

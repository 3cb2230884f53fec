from django.urls import path

from duels import views_archive, views_conditions, views_log, views_player, views_public, views_referee
from duels.battle import views as battle
from duels.duel import views as duel
from duels.mass import live as mass_live
from duels.mass import views as mass
from duels.web import submit

app_name = "duels"

# The URL names stay as they were when each kind had its own copy of these pages: the tablet, undo,
# the spectator page and the log are one view for every kind now, reached under each kind's old name.
urlpatterns = [
    # First, the live pages' polls and the referee's steps - most of the traffic on a game day: Django
    # tries patterns in order, and these ~100 cost ~80 µs a request when tried last (bench/cost.py).
    path("watch/<int:situation_id>/", views_public.watch, name="watch"),
    path("c/<str:token>/live/", views_player.player_live_token, name="player-live-token"),
    path("fights/<int:situation_id>/", submit.tablet, name="situation"),
    path("fights/<int:situation_id>/act/", duel.act, name="act"),
    path("battles/<int:situation_id>/", submit.tablet, name="battle"),
    path("battles/<int:situation_id>/act/", battle.battle_act, name="battle-act"),
    path("mass/<int:situation_id>/", submit.tablet, name="mass"),
    path("mass/<int:situation_id>/act/", mass.act, name="mass-act"),
    path("mass/<int:situation_id>/decks/", mass.deck_order, name="mass-decks"),
    path("characters/<int:character_id>/live/", views_player.player_live, name="player-live"),
    # Referees (and organizers) of an event
    path("events/<int:event_id>/referee/", views_referee.referee_home, name="referee-home"),
    path("events/<int:event_id>/fights/start/", duel.start, name="start"),
    path("fights/<int:situation_id>/undo/", submit.undo, name="undo"),
    path("battles/<int:situation_id>/undo/", submit.undo, name="battle-undo"),
    path("mass/<int:situation_id>/undo/", submit.undo, name="mass-undo"),
    path("fights/<int:situation_id>/log/", views_log.log_page, name="log"),
    path("mass/<int:situation_id>/log/", views_log.log_page, name="mass-log"),
    path("fights/<int:situation_id>/export.json", views_log.export, name="export"),
    path("fights/<int:situation_id>/log.csv", views_log.log_table, {"file_format": "csv"}, name="log-export-csv"),
    path("fights/<int:situation_id>/log.xlsx", views_log.log_table, {"file_format": "xlsx"}, name="log-export-xlsx"),
    path("characters/<int:character_id>/condition/", views_conditions.character_condition, name="condition"),
    path("fights/<int:situation_id>/condition/", views_conditions.fight_condition, name="fight-condition"),
    # Mass battles (M1-M8): starting one, a commander's phone, the army's secret link
    path("events/<int:event_id>/mass-battles/", mass.start, name="mass-start"),
    path("mass/<int:situation_id>/side/<str:side>/", mass_live.commander, name="mass-commander"),
    path("mass/<int:situation_id>/watch/", views_public.watch, name="mass-watch"),
    path("c/<str:token>/army/", mass_live.commander_link, name="mass-army-link"),
    # Battles (R0-R8, BP): starting one, adding a combatant, a break's arsenals, a duel growing into one
    path("events/<int:event_id>/battles/start/", battle.battle_start, name="battle-start"),
    path("battles/<int:situation_id>/join/", battle.battle_join, name="battle-join"),
    path("battles/<int:situation_id>/arsenal/", battle.battle_arsenal, name="battle-arsenal"),
    path("fights/<int:situation_id>/battle/", battle.grow, name="battle-grow"),
    # A whole event as a file (organizers; the import for those allowed to create events)
    path("events/<int:event_id>/export.json", views_archive.event_export, name="event-export"),
    path("events/import/", views_archive.event_import, name="event-import"),
    # Players: their own fight, by account or by the secret link
    path("characters/<int:character_id>/focus/", views_player.player_focus, name="player-focus"),
    path("c/<str:token>/focus/", views_player.player_focus_token, name="player-focus-token"),
    # Spectators: public, never an unplayed card (D4)
    path("events/<int:event_id>/fights/", views_public.event_fights, name="event-fights"),
    path("events/<int:event_id>/fights/screen/", views_public.big_screen, name="big-screen"),
    # History of fights, for the event's staff
    path("events/<int:event_id>/fights/history/", views_public.event_history, name="history"),
    path("characters/<int:character_id>/fights/", views_public.character_history, name="character-history"),
    path("watch/<int:situation_id>/record/", views_public.record, name="record"),
]

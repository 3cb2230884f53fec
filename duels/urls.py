from django.urls import path

from duels import views_archive, views_conditions, views_log_table, views_public, views_referee
from duels.battle import views as views_battle
from duels.duel import live as views_live
from duels.duel import views as views_fight
from duels.mass import live as views_mass_live
from duels.mass import views as views_mass

app_name = "duels"

urlpatterns = [
    # First, the live pages' polls and the referee's steps - most of the traffic on a game day: Django
    # tries patterns in order, and these ~100 cost ~80 µs a request when tried last (bench/cost.py).
    path("watch/<int:situation_id>/", views_live.watch, name="watch"),
    path("c/<str:token>/live/", views_live.player_live_token, name="player-live-token"),
    path("fights/<int:situation_id>/", views_fight.situation_page, name="situation"),
    path("fights/<int:situation_id>/act/", views_fight.act, name="act"),
    path("characters/<int:character_id>/live/", views_live.player_live, name="player-live"),
    # Referees (and organizers) of an event
    path("events/<int:event_id>/referee/", views_referee.referee_home, name="referee-home"),
    path("events/<int:event_id>/fights/start/", views_referee.start, name="start"),
    path("fights/<int:situation_id>/undo/", views_fight.undo, name="undo"),
    path("fights/<int:situation_id>/log/", views_fight.log_page, name="log"),
    path("fights/<int:situation_id>/export.json", views_fight.export, name="export"),
    # Mass battles (M1-M8): the referee's tablet, a commander's phone, spectators
    path("events/<int:event_id>/mass-battles/", views_mass.start, name="mass-start"),
    path("mass/<int:situation_id>/", views_mass.battle, name="mass"),
    path("mass/<int:situation_id>/act/", views_mass.act, name="mass-act"),
    path("mass/<int:situation_id>/undo/", views_mass.undo, name="mass-undo"),
    path("mass/<int:situation_id>/log/", views_mass.log_page, name="mass-log"),
    path("mass/<int:situation_id>/side/<str:side>/", views_mass_live.commander, name="mass-commander"),
    path("mass/<int:situation_id>/watch/", views_mass_live.watch, name="mass-watch"),
    path("c/<str:token>/army/", views_mass_live.commander_link, name="mass-army-link"),
    path("characters/<int:character_id>/condition/", views_conditions.character_condition, name="condition"),
    path("fights/<int:situation_id>/log.csv", views_log_table.log_table, {"file_format": "csv"}, name="log-export-csv"),
    path(
        "fights/<int:situation_id>/log.xlsx", views_log_table.log_table, {"file_format": "xlsx"}, name="log-export-xlsx"
    ),
    # Battles (issue 11): the same situation core, their own tablet page
    path("events/<int:event_id>/battles/start/", views_battle.battle_start, name="battle-start"),
    path("battles/<int:situation_id>/", views_battle.battle_page, name="battle"),
    path("battles/<int:situation_id>/act/", views_battle.battle_act, name="battle-act"),
    path("battles/<int:situation_id>/undo/", views_battle.battle_undo, name="battle-undo"),
    path("battles/<int:situation_id>/join/", views_battle.battle_join, name="battle-join"),
    path("battles/<int:situation_id>/arsenal/", views_battle.battle_arsenal, name="battle-arsenal"),
    path("fights/<int:situation_id>/battle/", views_battle.grow, name="battle-grow"),
    # A whole event as a file (organizers; the import for those allowed to create events)
    path("events/<int:event_id>/export.json", views_archive.event_export, name="event-export"),
    path("events/import/", views_archive.event_import, name="event-import"),
    # Players: their own fight, by account or by the secret link
    path("characters/<int:character_id>/focus/", views_live.player_focus, name="player-focus"),
    path("c/<str:token>/focus/", views_live.player_focus_token, name="player-focus-token"),
    # Spectators: public, never an unplayed card (D4)
    path("events/<int:event_id>/fights/", views_public.event_fights, name="event-fights"),
    path("events/<int:event_id>/fights/screen/", views_public.big_screen, name="big-screen"),
    # History of fights, for the event's staff
    path("events/<int:event_id>/fights/history/", views_public.event_history, name="history"),
    path("characters/<int:character_id>/fights/", views_public.character_history, name="character-history"),
    path("watch/<int:situation_id>/record/", views_live.record, name="record"),
]

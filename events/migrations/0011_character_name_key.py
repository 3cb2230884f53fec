"""The folded key of every character's name (issue 22: one folding for search and duplicates), filled in."""

from django.db import migrations, models

import helpers.names


def fill_keys(apps, schema_editor):
    Character = apps.get_model("events", "Character")
    changed = []
    for character in Character.objects.only("pk", "name").iterator(chunk_size=1000):
        character.name_key = helpers.names.name_key(character.name)
        changed.append(character)
        if len(changed) >= 1000:
            Character.objects.bulk_update(changed, ["name_key"])
            changed = []
    Character.objects.bulk_update(changed, ["name_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0010_character_groups_and_contacts"),
    ]

    operations = [
        migrations.AddField(
            model_name="character",
            name="name_key",
            field=helpers.names.NameKeyField(max_length=120, source="name", verbose_name="name, folded"),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="character",
            index=models.Index(fields=["event", "name_key"], name="events_char_event_i_92305a_idx"),
        ),
    ]

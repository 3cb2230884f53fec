"""The folded key of every card's Russian name (issue 22: one folding for duplicates), filled in."""

from django.db import migrations, models

import helpers.names


def fill_keys(apps, schema_editor):
    Card = apps.get_model("cards", "Card")
    changed = []
    for card in Card.objects.only("pk", "name_ru").iterator(chunk_size=1000):
        card.name_key = helpers.names.name_key(card.name_ru)
        changed.append(card)
        if len(changed) >= 1000:
            Card.objects.bulk_update(changed, ["name_key"])
            changed = []
    Card.objects.bulk_update(changed, ["name_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("cards", "0007_print_run_groups_and_envelopes"),
    ]

    operations = [
        migrations.AddField(
            model_name="card",
            name="name_key",
            field=helpers.names.NameKeyField(max_length=120, source="name_ru", verbose_name="name, folded"),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="card",
            index=models.Index(fields=["catalogue", "name_key"], name="cards_card_catalog_34a836_idx"),
        ),
    ]

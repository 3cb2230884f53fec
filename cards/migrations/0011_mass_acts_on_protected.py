"""M3: the magic card's flag "negative" becomes what it decides, "acts on protected warriors too".

Data kept: a card that was not negative acted on protected warriors, so it
now says ``acts_on_protected=True``; a negative card is covered by protection
(``False``), as every new card is by default (seed 002).
"""

from django.db import migrations, models


def invert(apps, schema_editor):
    MagicCard = apps.get_model("cards", "MagicCard")
    # Before this runs the column holds "negative": a card acts on protected warriors when it was not.
    for card in MagicCard.objects.all().only("pk", "acts_on_protected"):
        MagicCard.objects.filter(pk=card.pk).update(acts_on_protected=not card.acts_on_protected)


class Migration(migrations.Migration):
    dependencies = [("cards", "0010_battle_double_attack_and_trigger_kind")]

    operations = [
        migrations.RenameField("magiccard", "negative", "acts_on_protected"),
        migrations.RunPython(invert, invert),
        migrations.AlterField(
            model_name="magiccard",
            name="acts_on_protected",
            field=models.BooleanField(
                default=False,
                help_text=(
                    "M3: a warrior protected from this card's type of magic ignores it, helpful or harmful; "
                    "tick this only for a card that acts on protected warriors too."
                ),
                verbose_name="acts on protected warriors too",
            ),
        ),
    ]

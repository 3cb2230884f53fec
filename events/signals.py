"""Secret links follow their people (issue 13): a deactivated account's links stop working."""

from typing import Any

from django.conf import settings
from django.db.models.signals import pre_save
from django.dispatch import receiver

from events.models import Character, new_link_token


@receiver(pre_save, sender=settings.AUTH_USER_MODEL)
def rotate_links_of_a_deactivated_account(sender: Any, instance: Any, **kwargs: Any) -> None:
    if instance.pk is None or instance.is_active:
        return
    was_active = sender.objects.filter(pk=instance.pk).values_list("is_active", flat=True).first()
    if not was_active:
        return
    # Whoever kept the printed codes of a person who left (a lost phone, a player sent
    # home) can no longer open the characters; the organizers print new ones.
    for character_id in Character.objects.filter(player_id=instance.pk).values_list("pk", flat=True):
        Character.objects.filter(pk=character_id).update(link_token=new_link_token())

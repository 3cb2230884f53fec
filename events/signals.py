"""Secret links follow their people (issue 13): a deactivated account's links stop working.

Every model built on ``SecretLinkHolder`` (characters, and the armies of cards/models_mass.py)
is found through the app registry, so events imports none of the apps above it.
"""

from typing import Any

from django.apps import apps
from django.conf import settings
from django.db.models.signals import pre_save
from django.dispatch import receiver

from events.models import SecretLinkHolder, new_link_token


@receiver(pre_save, sender=settings.AUTH_USER_MODEL)
def rotate_links_of_a_deactivated_account(sender: Any, instance: Any, **kwargs: Any) -> None:
    if instance.pk is None or instance.is_active:
        return
    was_active = sender.objects.filter(pk=instance.pk).values_list("is_active", flat=True).first()
    if not was_active:
        return
    # Whoever kept the printed codes of a person who left (a lost phone, a player sent
    # home) can no longer open the characters; the organizers print new ones.
    for model in apps.get_models():
        if not issubclass(model, SecretLinkHolder):
            continue
        # Any: each holder model declares its own link_token; the abstract one has none to type.
        manager: Any = model._default_manager
        for pk in manager.filter(**{f"{model.link_person}_id": instance.pk}).values_list("pk", flat=True):
            manager.filter(pk=pk).update(link_token=new_link_token())

"""Secret links follow their people (issue 13): a deactivated account's links stop working.

Every model built on ``SecretLinkHolder`` (characters, and the armies of cards/models_mass.py)
is found through the app registry, so events imports none of the apps above it.
"""

from typing import Any

from django.apps import apps
from django.conf import settings
from django.db.models.signals import post_delete, post_save, pre_delete, pre_save
from django.dispatch import receiver

from events import link_cache
from events.models import Character, Event, SecretLinkHolder, new_link_token


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


# --- issue 24: a secret link's cached answer stops counting when its columns change (events/link_cache.py) ---

_SCOPES = "_sumrak_link_scopes"


def _link_scopes(instance: Any, update_fields: Any) -> list[str]:
    if instance.pk is None:
        return []  # a new row: no answer about it was ever cached
    if isinstance(instance, Character):
        fields, scope = link_cache.CHARACTER_FIELDS, link_cache.character_scope(instance.pk)
    else:
        fields, scope = link_cache.EVENT_FIELDS, link_cache.event_scope(instance.pk)
    if update_fields is not None and not fields & set(update_fields):
        return []
    return [scope]


@receiver(pre_save, sender=Character)
@receiver(pre_save, sender=Event)
def mark_link_changing(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    setattr(instance, _SCOPES, link_cache.begin(_link_scopes(instance, update_fields)))


@receiver(pre_delete, sender=Character)
@receiver(pre_delete, sender=Event)
def mark_link_going(sender: Any, instance: Any, **kwargs: Any) -> None:
    setattr(instance, _SCOPES, link_cache.begin(_link_scopes(instance, None)))


@receiver(post_save, sender=Character)
@receiver(post_save, sender=Event)
@receiver(post_delete, sender=Character)
@receiver(post_delete, sender=Event)
def settle_link(sender: Any, instance: Any, **kwargs: Any) -> None:
    link_cache.settle_after_commit(instance.__dict__.pop(_SCOPES, []))

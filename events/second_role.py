"""A "second role" (issue 22, JoinRPG #601, #613): a player whose character died plays a new one.

The dead character stays, dead, in the event and in the player's list; its
secret link stops working (a printed QR code of the dead must not open the new
character's page, nor the old one's); the new character is accepted with a new
link, the same player (or the same invitation) and ``previous_role`` naming the
dead one. Its pool and arsenals start empty: the organizers give it its cards.
"""

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from events.models import Character


class SecondRoleRefused(Exception):
    """The message says why; nothing was changed."""


@transaction.atomic
def give_second_role(dead: Character, new: Character, by: User) -> Character:
    """Save ``new`` (name, side, kind, power level filled in) as ``dead``'s player's next character."""
    locked = Character.objects.select_for_update().get(pk=dead.pk)
    if not locked.is_dead:
        raise SecondRoleRefused(
            _("%(name)s is not dead: a second role is for a player whose character died.") % {"name": locked.name}
        )
    if locked.status != Character.Status.ACCEPTED:
        raise SecondRoleRefused(_("%(name)s was not an accepted character.") % {"name": locked.name})
    if locked.next_roles.exists():
        raise SecondRoleRefused(_("%(name)s already has a second role.") % {"name": locked.name})
    if locked.player_id is None and not locked.invited_username:
        raise SecondRoleRefused(_("%(name)s has no player to give a second role to.") % {"name": locked.name})
    new.event_id = locked.event_id
    new.player_id = locked.player_id
    new.invited_username = locked.invited_username
    new.status = Character.Status.ACCEPTED
    new.previous_role = locked
    try:
        new.full_clean()
    except ValidationError as error:
        raise SecondRoleRefused(" ".join(error.messages)) from None
    new.save(force_insert=True)
    if locked.link_active:
        locked.revoke_link()
    return new

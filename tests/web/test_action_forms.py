"""Every state-changing form of the duel, battle and mass-battle pages opens the same way
(templates/duels/_action_form.html): it posts through htmx into the page's live part, is disabled while
it is sent, and carries the CSRF token, the version it was drawn from and a one-time nonce (the nonce is
what lets static/js/sumrak.js send a tap again after a lost connection without applying it twice).

Each page is walked through the states that show its forms, and every POST form met is checked, so a
copy-pasted form that forgets one of these fails here."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from rules import battle as B
from tests.services.battle_kit import battle_state, begin, buid, passes, top
from tests.services.kit import nonce
from tests.services.mass_kit import armies, in_catalogue_order, start, wid
from tests.web.duels_kit import drive, post_action, uid_of

pytestmark = pytest.mark.django_db

# The site-wide forms of base.html (not fight commands).
SITE_FORMS = {"/i18n/setlang/", "/accounts/logout/"}


@dataclass
class Form:
    attrs: dict[str, str]
    hidden: list[tuple[str, str]] = field(default_factory=list)
    buttons: list[tuple[str, str]] = field(default_factory=list)
    fieldsets: int = 0


class FightPage(HTMLParser):
    """The live part's id and version, and every POST form of the page."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.live: dict[str, str] = {}
        self.forms: list[Form] = []
        self._form: Form | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if "data-live" in a and not self.live:
            self.live = a
        if tag == "form" and a.get("method") == "post" and a.get("action") not in SITE_FORMS:
            self._form = Form(a)
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag == "fieldset":
            self._form.fieldsets += 1
        elif tag == "input" and a.get("type") == "hidden":
            self._form.hidden.append((a["name"], a.get("value", "")))
        elif tag == "button" and "name" in a:
            self._form.buttons.append((a["name"], a.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None


def checked_forms(client, url: str) -> list[Form]:
    """The page's POST forms, each checked to open the one way; an empty list fails."""
    page = FightPage(client.get(url).content.decode())
    live, version = page.live["id"], page.live["data-version"]
    assert page.forms, f"no action form on {url}"
    for form in page.forms:
        a, hidden = form.attrs, dict(form.hidden)
        where = f"{url}: form {a}"
        assert a["action"] and a.get("hx-post") == a["action"], where
        assert a.get("hx-target") == f"#{live}" and a.get("hx-sync") == f"#{live}:replace", where
        assert a.get("hx-swap") == "outerHTML" and a.get("hx-disabled-elt") == "find fieldset", where
        assert form.fieldsets >= 1, f"{where}: nothing to disable while the tap is sent"
        assert "data-keep-tap" in a, f"{where}: a tap made offline would not survive a reload (issue 23)"
        assert "action-form" in a.get("class", "").split(), where
        assert hidden.get("csrfmiddlewaretoken") and hidden.get("version") == version, where
        assert re.fullmatch(r"[0-9a-f]{32}", hidden.get("nonce", "")), where
        names = [name for name, _ in form.hidden + form.buttons]
        assert all(names.count(one) == 1 for one in ("csrfmiddlewaretoken", "version", "nonce")), where
        # The command is one hidden field, named on the form for the page's scripts and tests.
        assert names.count("action") <= 1 and ("action" not in dict(form.buttons)), where
        assert a.get("data-action", "") == hidden.get("action", ""), where
    return page.forms


def seen(forms: list[Form]) -> set[str]:
    """What the forms do: their command and their id, or where they post if they have neither."""
    names: set[str] = set()
    for f in forms:
        names |= {n for n in (f.attrs.get("data-action"), f.attrs.get("id")) if n} or {f.attrs["action"]}
    return names


def test_every_form_of_the_duel_page_opens_the_one_way(as_user, referee, shown, armed, defence_card):
    client, url = as_user(referee), reverse("duels:situation", args=[shown.pk])
    _anton, zavulon = armed
    done = seen(checked_forms(client, url))
    post_action(
        client, shown, action="answer", duel=0, fighter=zavulon.pk, card=uid_of(shown, zavulon.pk, defence_card)
    )
    done |= seen(checked_forms(client, url))
    post_action(client, shown, action="confirm", duel=0)
    done |= seen(checked_forms(client, url))
    assert done >= {"answer", "end_duel", reverse("duels:undo", args=[shown.pk]), "confirm", "override", "attack"}


def test_every_form_of_the_battle_page_opens_the_one_way(as_user, referee, event, people, bystander):
    anna, _boris, vera, _gleb = people
    event.every_round_a_bout = True  # [D3] a round of passes reaches the bout break and its forms
    event.save()
    battle = begin(event, people, referee)
    client, url = as_user(referee), reverse("duels:battle", args=[battle.pk])

    act_url = reverse("duels:battle-act", args=[battle.pk])

    def act(**data):
        battle.refresh_from_db()
        response = client.post(act_url, {"version": battle.version, "nonce": nonce(), **data})
        assert response.status_code == 302, response.content.decode()

    done = seen(checked_forms(client, url))
    act(action="act", who=anna.pk, act="attack", cards=[buid(battle, anna, "Blade")], targets=[vera.pk])
    done |= seen(checked_forms(client, url))
    frame = top(battle).number
    act(action="answer", frame=frame, who=vera.pk, card=buid(battle, vera, "Shield"))
    done |= seen(checked_forms(client, url))
    act(action="confirm", frame=frame, who=vera.pk)
    done |= seen(checked_forms(client, url))
    while battle_state(battle).phase != B.BETWEEN_ROUNDS:
        st = battle_state(battle)
        drive(battle, referee, *([] if st.stack else [passes(st)]), B.NextTurn())
    done |= seen(checked_forms(client, url))
    drive(battle, referee, B.StartRound())
    act(
        action="act",
        who=anna.pk,
        act="attack",
        cards=[buid(battle, anna, "Bolt")],
        targets=[vera.pk],
        engaged=[vera.pk],
    )
    done |= seen(checked_forms(client, url))
    assert done >= {"act", "turn-form", "undo-form", "end-form", "join-form", "answer", "confirm", "next_turn"}
    assert done >= {"start_round", reverse("duels:battle-arsenal", args=[battle.pk]), "opportunity"}
    assert act_url not in done  # every form posting a command names it


def test_every_form_of_the_mass_battle_page_opens_the_one_way(as_user, referee, event, cards, monkeypatch):
    in_catalogue_order(monkeypatch, cards["Wind Ward"])
    battle = start(event, referee, *armies(event))
    client, url = as_user(referee), reverse("duels:mass", args=[battle.pk])

    def act(**data):
        battle.refresh_from_db()
        response = client.post(
            reverse("duels:mass-act", args=[battle.pk]), {"version": battle.version, "nonce": nonce(), **data}
        )
        assert response.status_code == 302, response.content.decode()
        return seen(checked_forms(client, url))

    done = seen(checked_forms(client, url))
    done |= act(action="roll_entered", dice_a="2", dice_b="5")
    done |= act(action="choose", side="b", starts="no")
    done |= act(action="points", side="a")
    done |= act(action="keep", side="a")
    done |= act(action="end_turn", side="a")
    done |= act(action="points", side="b", take="yes")
    done |= act(action="carry_out", side="b", targets=[wid(battle, "Red salamander")], move_to="")
    done |= act(action="end_turn", side="b")
    assert done >= {"roll_server", "roll_entered", "choose", "points", "keep", "carry_out", "end_turn"}
    assert done >= {"next_cycle", "end_battle", "move", "undo-form"}  # "Take back", as on the battle's page

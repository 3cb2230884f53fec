"""``{% qr url "extra-class" %}``: a printed QR code, a data URI in the browser, ``qr:`` in a PDF (content.qr_image)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from cards.printing.content import qr_image

register = template.Library()


@register.simple_tag(takes_context=True)
def qr(context: Any, url: str, css: str = "") -> SafeString:
    return qr_image(url, css=f"qr {css}".strip(), for_pdf=bool(context.get("for_pdf")))

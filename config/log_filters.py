"""Keep secret character links out of every log (issue 13).

A secret link (``/c/<token>/``) is a password printed as a QR code: whoever reads
it in a log can open the character's hand. Django's request log ("Not Found:
/c/…/"), runserver's access log and gunicorn's logs all pass their lines through
this filter (config/settings.py LOGGING, config/gunicorn_conf.py); the documented
nginx configuration uses a log format without the path of those URLs.
"""

import logging
import re

SECRET_LINK = re.compile(r"/c/[^/\s?#\"']+")
MASK = "/c/[secret]"


def mask_secret_links(text: str) -> str:
    return SECRET_LINK.sub(MASK, text)


class MaskSecretLinks(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string is the logging module's to report
            return True
        masked = mask_secret_links(message)
        if masked != message:
            record.msg, record.args = masked, ()
        # Django's request logger also attaches the request: its path must not leak via a formatter.
        request = getattr(record, "request", None)
        if request is not None and "/c/" in getattr(request, "path", ""):
            record.request = None
        return True

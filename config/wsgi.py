import os

from django.core.wsgi import get_wsgi_application

from config.early import EarlyPolls

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# An unchanged spectator's or player's poll is answered before Django's handler (config/early.py).
application = EarlyPolls(get_wsgi_application())

"""gunicorn's settings for the game site (``gunicorn -c config/gunicorn_conf.py``).

Its error and access logs go to standard error through the secret-link mask
(config/log_filters.py): a request to ``/c/<token>/`` is logged as ``/c/[secret]``.
"""

logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"mask_secret_links": {"()": "config.log_filters.MaskSecretLinks"}},
    "formatters": {"generic": {"format": "%(asctime)s [%(process)d] [%(levelname)s] %(message)s"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "generic",
            "filters": ["mask_secret_links"],
            "stream": "ext://sys.stderr",
        },
    },
    "loggers": {
        "gunicorn.error": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "gunicorn.access": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}

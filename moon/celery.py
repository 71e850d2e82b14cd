"""The Celery app. Configured from Django settings (CELERY_* names).

The worker logs through Django's LOGGING (one JSON object per line, moon/logs.py) instead of
Celery's own format: the `setup_logging` signal below replaces Celery's logging setup.
"""

import logging.config
import os
from typing import Any

from celery import Celery
from celery.signals import setup_logging

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "moon.settings")

app = Celery("moon")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@setup_logging.connect
def configure_worker_logging(**kwargs: Any) -> None:
    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)

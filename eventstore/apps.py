from django.apps import AppConfig


class EventStoreConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "eventstore"
    verbose_name = "Event store"

    def ready(self) -> None:
        # a Celery worker starts the follow-up sweeper when it is ready (eventstore/sweeper.py)
        from eventstore import sweeper  # noqa: F401

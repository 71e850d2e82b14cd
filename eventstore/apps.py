from django.apps import AppConfig
from django.db.models.signals import post_migrate


class EventStoreConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "eventstore"
    verbose_name = "Event store"

    def ready(self) -> None:
        # a Celery worker starts the follow-up sweeper when it is ready (eventstore/sweeper.py)
        from eventstore import sweeper  # noqa: F401
        from eventstore.kinds import forget

        # A flush (a transactional test's end) empties the table of kind codes, then says so
        # with post_migrate, as migrate does: the codes this process met may not hold any more.
        post_migrate.connect(forget, dispatch_uid="eventstore.kinds.forget")

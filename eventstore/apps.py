from django.apps import AppConfig


class EventStoreConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "eventstore"
    verbose_name = "Event store"

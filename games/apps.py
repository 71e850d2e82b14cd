from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # Registers the follow-ups of appended events (games.followups) in every process.
        from games import tasks  # noqa: F401

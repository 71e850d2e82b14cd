from django.apps import AppConfig


class PlayConfig(AppConfig):
    """The web table: a front end served as static files at /play/, talking to the API only."""

    name = "play"

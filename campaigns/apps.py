from django.apps import AppConfig
from django.db.models.signals import post_migrate


class CampaignsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "campaigns"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        from campaigns import library, simulation
        from games.management.commands import simulate

        # The content packs are checked at start-up: a bad pack stops the server, naming why.
        library.load_offered()
        simulate.CAMPAIGN_RUNNERS[:] = [simulation.command_lines]
        post_migrate.connect(_record_packs, sender=self)


def _record_packs(**kwargs: object) -> None:
    """After migrate: store the offered packs, so that the admin lists them."""
    from campaigns import library

    library.record_offered()

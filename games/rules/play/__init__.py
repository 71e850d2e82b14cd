"""Whole games: legal-move players (``bots``), self-play statistics (``simulation``) and the
check of a log that comes from outside (``audit``)."""

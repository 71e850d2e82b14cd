"""The campaign's rules: content packs, the effect vocabulary, the campaign log and its decider.

Pure Python like ``games.rules`` (which it builds on): nothing here touches Django, the
database or Celery.
"""

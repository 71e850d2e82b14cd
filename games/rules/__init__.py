"""The rules engine of Welcome to the Moon: pure Python, no Django, no I/O beyond reading
its own data files. The public surface is in :mod:`games.rules.engine`."""

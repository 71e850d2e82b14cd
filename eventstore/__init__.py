"""The one event store of every event-sourced stream (games, campaigns): the abstract stored
event, its hash chain, the append-only triggers, append/lock/load, the command path with its
idempotency keys, and the table of what follows committed events."""

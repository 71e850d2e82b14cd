"""The turn played, for every adventure: the common turn (``turn``: setup, options, commands,
phases 5 and 6, the end of a turn) and the solo turn against ASTRA (``solo``), which the common
turn calls where a solo game differs."""

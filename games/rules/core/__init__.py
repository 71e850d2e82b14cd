"""The core: what a game is made of and how its log folds into its state, needing no rules.

Cards and the solo deck (``cards``), marks on sheet elements (``sheet``), the state
(``state``), the events and ``evolve`` (``events``, their kinds declared as every event stream
declares them: ``kinds``), a sheet's layout read from its data file
(``layout``, drawn as a ``schematic``), the data files (``data``), the state as JSON
(``snapshots``) and the rules' error (``errors``).
"""

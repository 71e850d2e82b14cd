"""Adventure 3, The Colony (adventure-3-colony.md):
its rules (``rules``), its sheet read from its data file (``layout``)."""

"""Adventure 4, The Mine (adventure-4-mine.md):
its rules (``rules``), its sheet read from its data file (``layout``)."""

"""Adventure 2, The Journey (adventure-2-journey.md):
its rules (``rules``), its sheet read from its data file (``layout``)."""

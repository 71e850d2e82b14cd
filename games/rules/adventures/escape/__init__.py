"""Adventure 7, The Escape (adventure-7-escape.md):
its rules (``rules``), its sheet read from its data file (``layout``)."""

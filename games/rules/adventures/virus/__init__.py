"""Adventure 6, The Virus (adventure-6-virus.md):
its rules (``rules``), its sheet read from its data file (``layout``)."""

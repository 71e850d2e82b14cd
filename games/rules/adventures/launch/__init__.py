"""Adventure 1, The Launch (adventure-1-launch.md):
its rules (``rules``), its sheet read from its data file (``layout``)."""

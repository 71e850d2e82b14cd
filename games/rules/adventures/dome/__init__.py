"""Adventure 5, The Dome (adventure-5-dome.md):
its rules (``rules``), its sheet read from its data file (``layout``)."""

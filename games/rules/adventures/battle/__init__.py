"""Adventure 8, The Battle (adventure-8-battle.md): its rules (``rules``), its sheet read from
its data file (``layout``) and its solo part against ASTRA (``solo``)."""

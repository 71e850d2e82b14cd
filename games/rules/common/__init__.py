"""The common rules (common.md) every adventure builds on: the base ``Adventure`` and its turn
(``base``), missions and phase 6 (``missions``), setup modifiers (``modifiers``), wild actions
(``wilds``), ASTRA's cards and score (``astra``), and what a seat may do now (``options``)."""

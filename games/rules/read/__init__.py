"""How the rest of the world reads a game: what a viewer may see (``views``), events told in
words (``narration``) and stored events of older versions read as current (``upcasting``)."""

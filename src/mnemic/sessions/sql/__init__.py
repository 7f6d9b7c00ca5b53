"""The one SQL session store: statements written once, a small dialect per database."""

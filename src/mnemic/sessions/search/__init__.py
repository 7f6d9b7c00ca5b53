"""``session_search``: the tool, its shapes, the retrieval modes, ranking and summaries."""

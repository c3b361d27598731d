"""Shared widgets every screen reuses; each module has its ``.kv`` beside it."""

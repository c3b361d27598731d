"""Dicetopia (All or None Games)."""

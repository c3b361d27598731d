"""Physical inputs for Tabletop Companion: dice hubs over serial, GPIO buttons and token
slots, and a simulated hub, all turned into typed input events.

This package never imports ``rules`` or ``companion``: it knows devices, not games.
"""

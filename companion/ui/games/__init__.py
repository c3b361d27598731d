"""One package per game: ``<game_id>/__init__.py`` (GAME_ID, SCREEN), ``screen.py`` + its
``.kv``, ``presenter.py`` (no Kivy). Found by :mod:`companion.ui.registry`."""

"""A game plug-in that lives only in the tests: Stepping Stones (engine.py), its card
(plugin.json), its screen and presenter, its join form, and how it is installed
(install.py: an entry point in a distribution's metadata put on ``sys.path``). Nothing
outside this folder knows it: the tests here show the app lists it, plays it, resumes it,
joins it in progress, shows it on a phone and exports it."""
from .engine import GAME

__all__ = ["GAME"]

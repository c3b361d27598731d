"""The Kivy app (Kivy 2.3): an App with a ScreenManager, shared screens (home, setup,
devices, settings, end), shared table widgets, and one folder per game under ``games/``.
Only this package imports Kivy; the logic lives in Kivy-free presenters.
See ``companion/ui/README.md`` for how to add a game screen."""

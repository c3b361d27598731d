"""The shared screens: home, setup wizard, devices panel, settings, end of game."""

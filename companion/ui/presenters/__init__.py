"""Presenters: the UI's logic without Kivy. Each turns Table state into plain values the
Kivy widgets show, and turns taps into Table calls, so it is unit-tested without a window."""

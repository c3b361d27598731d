"""Outrage!'s part of the setup wizard (``SETUP`` in this package's ``__init__``): the
Queen's Birthday set from the device's date (21 April doubles that Raven card: RULINGS
R-05), once per setup so a table may still change it, and a word on the board: the app's
is RECONSTRUCTED, and a table whose printed board differs plays with moves unchecked."""
from __future__ import annotations

import datetime
from typing import Any

from ...widgets.base import TCLabel
from .words import birthday_today, setup_words


def add_notes(screen: Any, box: Any) -> None:
    model = screen.model
    if not model.__dict__.get("outrage_birthday_set"):
        model.__dict__["outrage_birthday_set"] = True
        model.options["birthday_today"] = birthday_today(datetime.date.today())
        screen._check()
    for line in setup_words(bool(model.options.get("birthday_today")), str(model.options.get("movement", "checked"))):
        box.add_widget(TCLabel(text=line))

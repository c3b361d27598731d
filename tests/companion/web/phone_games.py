"""Each seed game's table-screen presenter (Kivy-free), as the app hands it to the phones'
server: its ``physical_draws(seat)`` and ``card_texts(seat)``."""
from __future__ import annotations

import importlib
from typing import Any

PRESENTERS = {
    "tyranny": "companion.ui.games.tyranny.presenter:TyrannyPresenter",
    "liberation": "companion.ui.games.liberation.presenter:LiberationPresenter",
    "outrage": "companion.ui.games.outrage.presenter:OutragePresenter",
    "dicetopia": "companion.ui.games.dicetopia.presenter:DicetopiaPresenter",
    "against_all_tyrants": "companion.ui.games.against_all_tyrants.presenter:AatPresenter",
}


def presenter_for(table: Any) -> Any:
    module, _, name = PRESENTERS[table.game_id].partition(":")
    return getattr(importlib.import_module(module), name)(table)

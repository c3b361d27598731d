"""One package per game: ``screen.py`` + its ``.kv``, ``presenter.py`` (no Kivy), its UI data
files (``position_form.json``, ``palette.json``, ``tour.json``) and any file formats of its
own (Liberation's maps, Against All Tyrants' card sets). The game's plugin card
(``rules/<game>/plugin.json``) names the package and its screen; see rules/README.md
"Writing a game"."""

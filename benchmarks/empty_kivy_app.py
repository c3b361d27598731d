"""The baseline for ``bench_ui``: the smallest Kivy app (one empty Widget), with the same
first-frame hook as the real app, loaded from its file so no project module is imported.

Run by ``benchmarks/bench_ui.py`` as ``python benchmarks/empty_kivy_app.py`` with
``TC_BENCH_FIRST_FRAME=1``.
"""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

HOOKS = Path(__file__).resolve().parents[1] / "companion" / "ui" / "bench_hooks.py"


def main() -> None:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from kivy.app import App
    from kivy.uix.widget import Widget

    spec = importlib.util.spec_from_file_location("bench_hooks", HOOKS)
    assert spec and spec.loader
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)

    class EmptyApp(App):
        def build(self) -> Widget:
            return Widget()

    hooks.install()
    EmptyApp().run()


if __name__ == "__main__":
    main()

"""Runs an Outrage! UI scenario with the shared driver (tests/ui/driver.py):

    python -m tests.ui.outrage.run SCENARIO --size 800x480 --journal PATH --out DIR --result FILE

The shared driver looks scenarios up on ``tests.ui.scenarios``; ours live in this folder
and are added there for this process only."""
from __future__ import annotations

import sys

from tests.ui import driver, scenarios as shared
from tests.ui.outrage import scenarios

for name in dir(scenarios):
    if name.startswith("outrage_"):
        setattr(shared, name, getattr(scenarios, name))

if __name__ == "__main__":
    sys.exit(driver.main())

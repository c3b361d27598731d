"""Runs a Liberation UI scenario with the shared driver (tests/ui/driver.py):

    python -m tests.ui.liberation.run SCENARIO --size 800x480 --journal PATH --out DIR --result FILE

The shared driver looks scenarios up on ``tests.ui.scenarios``; ours live in this folder
and are added there for this process only."""
from __future__ import annotations

import sys

from tests.ui import driver, scenarios as shared
from tests.ui.liberation import card_scenarios, map_scenarios, scenarios

for module in (scenarios, map_scenarios, card_scenarios):
    for name in dir(module):
        if name.startswith("liberation_"):
            setattr(shared, name, getattr(module, name))

if __name__ == "__main__":
    sys.exit(driver.main())

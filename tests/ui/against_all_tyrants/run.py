"""Runs an Against All Tyrants UI scenario with the shared driver (tests/ui/driver.py):

    python -m tests.ui.against_all_tyrants.run SCENARIO --size 800x480 --journal PATH --out DIR --result FILE
"""
from __future__ import annotations

import sys

from tests.ui import driver, scenarios as shared
from tests.ui.against_all_tyrants import scenarios

for name in dir(scenarios):
    if name.startswith("aat_"):
        setattr(shared, name, getattr(scenarios, name))

if __name__ == "__main__":
    sys.exit(driver.main())

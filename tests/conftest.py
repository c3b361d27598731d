"""Suite-wide options.

Long fuzz and soak runs are bounded by default so the whole suite stays well under
15 minutes on a 2-core machine; ``--long`` (or ``TC_LONG=1``) scales them up.
"""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

# Under pytest-xdist each worker keeps its own Kivy home: two processes creating one
# config.ini at the same moment could each read the other's half-written file.
if os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get("KIVY_HOME"):
    os.environ["KIVY_HOME"] = os.path.join(os.environ["KIVY_HOME"], os.environ["PYTEST_XDIST_WORKER"])
    os.makedirs(os.environ["KIVY_HOME"], exist_ok=True)  # Kivy needs it to exist (a fresh clone has none)

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=100
)
settings.register_profile(
    "long", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=2000
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--long",
        action="store_true",
        default=False,
        help="run fuzz, soak and random-playout tests at full length (×20)",
    )


def pytest_configure(config: pytest.Config) -> None:
    long = config.getoption("--long") or os.environ.get("TC_LONG") == "1"
    config._tc_long = long  # type: ignore[attr-defined]
    settings.load_profile("long" if long else "default")


@pytest.fixture(scope="session")
def soak_factor(request: pytest.FixtureRequest) -> int:
    """Multiplier for bounded loops: 1 by default, 20 with ``--long``."""
    return 20 if request.config._tc_long else 1  # type: ignore[attr-defined]

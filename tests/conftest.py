import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "tests" / "models"
DSP = frozenset({"dsp"})  # what the emulated Cortex-M4 boards have: the DSP kernel variants
sys.path.insert(0, str(Path(__file__).parent))
# Kernel and harness objects, compiled once per test run and reused by every host C build.
OBJECT_CACHE = Path(tempfile.mkdtemp(prefix="mcugen-objects-"))

settings.register_profile("fast", max_examples=12, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fast"))


@pytest.fixture(scope="session")
def models() -> Path:
    """The models the tests run (tests/models/README.md: provenance and licences)."""
    return MODELS

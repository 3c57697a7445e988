"""A few seeds of the false-alarm measurement (scripts/false_alarms.py runs hundreds)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "false_alarms.py"


def load_script():
    spec = importlib.util.spec_from_file_location("false_alarms", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_true_claims_survive_other_seeds(registry):
    script = load_script()
    statistical = [s for s in registry if s.statistical_tests > 0]
    assert statistical
    for seed in (1, 2, 3):
        assert script.checks_for_seed(statistical, seed) == [], f"seed {seed}"


def test_the_upper_bound_reported_for_zero_rejections():
    script = load_script()
    assert abs(script._clopper_pearson_upper(0, 200, 0.05) - (1 - 0.05 ** (1 / 200))) < 1e-9

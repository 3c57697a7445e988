"""Drawn parameters: every parameter whose domain has a value off its edge values takes one.

A check that only ever ran on its edge grid would pass a value that equals the truth there and
nowhere else (issue 24, item 6a). The property is tested on generated domains (seeded cases,
property style) and on the domains every built-in claim declares.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tmath.defaults import DEFAULT_SEED
from tmath.engine import experiment as experiment_module
from tmath.engine.parameters import Choice, Integers, Reals, as_record, draw
from tmath.engine import results


def _inside_values(domain: Any) -> bool:
    """Whether ``domain`` has a value strictly inside its range and none of its edges
    (computed here independently of the drawing code)."""
    edges = set(domain.edge_values())
    if isinstance(domain, Integers):
        return any(v not in edges for v in range(domain.low + 1, domain.high))
    if isinstance(domain, Reals):
        return domain.low < domain.high
    options = getattr(domain, "options", ())
    return any(o not in edges for o in options)


def _is_inside(domain: Any, value: Any) -> bool:
    if value in set(domain.edge_values()):
        return False
    if isinstance(domain, (Integers, Reals)):
        return domain.low < value < domain.high
    return True


def _assert_off_edge_point(domains: dict, points: list, where: str) -> None:
    for key, domain in domains.items():
        values = [p[key] for p in points]
        if isinstance(domain, (Integers, Reals)):
            assert all(domain.low <= v <= domain.high or v in domain.edge_values()
                       for v in values), (where, key, values)
        if _inside_values(domain):
            assert any(_is_inside(domain, v) for v in values), (where, key, domain, values)


def _random_domain(rng: np.random.Generator) -> Any:
    """An Integers, Reals or Choice domain with a random range and random edges."""
    kind = rng.integers(3)
    if kind == 0:
        low = int(rng.choice([0, 1, 2, 5]))
        high = low + int(rng.choice([0, 1, 2, 3, 5, 60, 2000]))
        pool = list(range(low, min(high, low + 6) + 1)) + [high]
        edges = tuple(int(e) for e in rng.choice(pool, size=rng.integers(1, 4)))
        return Integers(low, high, edges if rng.random() < 0.7 else None,
                        log=None if rng.random() < 0.5 else bool(rng.random() < 0.5))
    if kind == 1:
        low = float(rng.choice([0.001, 0.5, 1.0]))
        high = low * float(rng.choice([1.0, 2.0, 1000.0]))
        edges = (low, high) if rng.random() < 0.5 else (high, (low + high) / 2)
        return Reals(low, high, edges, log=bool(rng.random() < 0.5))
    return Choice(tuple(range(int(rng.integers(1, 4)))))


CASES = 400


def test_every_parameter_with_room_takes_a_value_off_its_edges():
    for case in range(CASES):
        rng = np.random.default_rng([case, 24])
        domains = {f"p{i}": _random_domain(rng) for i in range(int(rng.integers(1, 5)))}
        count = int(rng.integers(1, 6))
        points = draw(np.random.default_rng(case), domains, count)
        assert len(points) == count
        _assert_off_edge_point(domains, points, f"case {case}: {domains}, count {count}")


def test_edge_points_come_first_when_there_is_room_for_a_random_one():
    domains = {"d_k": Integers(1, 1024, (1, 1024, 64)), "T": Integers(1, 512, (512, 2))}
    points = draw(np.random.default_rng(0), domains, 4)
    assert [(p["d_k"], p["T"]) for p in points[:3]] == [(1, 512), (1024, 2), (64, 512)]
    assert points[3]["d_k"] not in (1, 64, 1024) and 2 < points[3]["T"] < 512


def test_with_no_room_for_a_random_point_the_last_edge_point_moves_inside():
    domains = {"L": Integers(1, 12), "d": Integers(1, 6), "law": Choice(("a", "b", "c"))}
    points = draw(np.random.default_rng(0), domains, 3)
    assert [(p["L"], p["d"]) for p in points[:2]] == [(1, 1), (12, 6)]
    assert 1 < points[2]["L"] < 12 and 1 < points[2]["d"] < 6
    assert [p["law"] for p in points] == ["a", "b", "c"]  # every option still drawn in turn


def test_a_domain_with_no_value_off_its_edges_is_drawn_as_before():
    assert [p["n"] for p in draw(np.random.default_rng(0), {"n": Integers(4, 4)}, 2)] == [4, 4]
    choice = {"law": Choice(("x", "y"))}
    assert [p["law"] for p in draw(np.random.default_rng(0), choice, 2)] == ["x", "y"]


# -- the domains of the built-in claims -----------------------------------------------------------

def _declared_draws() -> list[tuple[str, dict, int, list]]:
    """(claim, domains, count, points) of every ``experiment.draw`` of the built-in checks at
    the default seed. Only the draws are inspected, so the statistical tests are replaced by
    stubs that draw no samples (the checks then run in seconds)."""
    from tmath.engine.registry import load
    from tmath.engine.runner import run_check

    seen: list[tuple[str, dict, int, list]] = []
    current = [""]
    original = experiment_module.Experiment.draw

    def spy(self, domains, count=3):
        points = original(self, domains, count)
        seen.append((current[0], dict(domains), count, points))
        return points

    def stub(self, sampler, expected, label, *args, at=None, **kwargs):
        self._take_alpha()
        result = results.TestResult(label, "statistical", True, "not run", parameters=as_record(at))
        self.results.append(result)
        return result

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(experiment_module.Experiment, "draw", spy)
        for name in ("mean", "variance", "frequencies"):
            patch.setattr(experiment_module.Experiment, name, stub)
        for spec in load():
            if spec.info.has_check:
                current[0] = spec.id
                run_check(spec, spec.statement.value, DEFAULT_SEED)
    return seen


def test_every_builtin_claims_drawn_parameters_leave_their_edges():
    declared = _declared_draws()
    assert len({claim for claim, *_ in declared}) >= 50
    for claim, domains, count, points in declared:
        _assert_off_edge_point(domains, points, claim)
        for seed in range(10):  # and at other seeds, with the same declared domains
            again = draw(np.random.default_rng(seed), domains, count)
            _assert_off_edge_point(domains, again, f"{claim}, seed {seed}")

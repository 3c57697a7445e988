"""``point.value(value, data={x: values})`` evaluates a value written over an IndexedBase on
drawn entries (numbered from 1), and a foil that asks for an entry there is not gives NaN,
so its test fails instead of raising; ``experiment.rng`` is the claim's seeded stream."""

from __future__ import annotations

import math

import numpy as np
import sympy as sp

from tmath.engine.experiment import Experiment, Integers, Reals, tolerance
from tmath.engine.runner import claim_rng, run_check

x = sp.IndexedBase("x", real=True)
i = sp.Symbol("i", integer=True, positive=True)
n = sp.Symbol("n", integer=True, positive=True)
m = sp.Symbol("m", real=True)
SHIFTED = m + sp.log(sp.Sum(sp.exp(x[i] - m), (i, 1, n)))
SHIFTED_INDEX = m + sp.log(sp.Sum(sp.exp(x[i + 1] - m), (i, 1, n)))


def experiment(seed: int = 0) -> Experiment:
    return Experiment(np.random.default_rng(seed), alpha_per_test=1e-5, tests_declared=0)


def test_a_value_over_entries_is_evaluated_on_the_drawn_data():
    ex = experiment()
    for point in ex.draw({n: Integers(1, 12), m: Reals(-4.0, 4.0)}, count=4):
        values = ex.rng.normal(size=point[n])
        direct = math.log(np.exp(values).sum())
        assert math.isclose(point.value(SHIFTED, data={x: values}), direct, rel_tol=1e-12)


def test_entries_are_numbered_from_one():
    (point,) = experiment().draw({n: Integers(3, 3)}, count=1)
    assert point.value(x[1] + 10 * x[n], data={x: np.array([1.0, 2.0, 3.0])}) == 31.0


def test_a_tuple_keeps_its_parts_and_plain_parameters_still_evaluate():
    (point,) = experiment().draw({n: Integers(2, 2), m: Reals(1.5, 1.5)}, count=1)
    total = sp.Sum(x[i], (i, 1, n))
    assert point.value((m, total), data={x: [4.0, 5.0]}) == (1.5, 9.0)


def test_a_foil_asking_for_an_entry_not_drawn_is_nan_and_fails_its_test():
    ex = experiment()
    (point,) = ex.draw({n: Integers(5, 5), m: Reals(0.0, 0.0)}, count=1)
    values = ex.rng.normal(size=5)
    foil = point.value(SHIFTED_INDEX, data={x: values})
    assert math.isnan(foil)
    direct = math.log(np.exp(values).sum())
    assert not ex.close(direct, foil, tolerance(30, 1.0), "shifted index", at=point).passed


CLAIM = '''
import math
import numpy as np
import sympy as sp
from tmath import Foil, Statement, claim
from tmath.engine.experiment import Integers, Reals, tolerance

x = sp.IndexedBase("x", real=True)
i, n = sp.symbols("i n", integer=True, positive=True)
m = sp.Symbol("m", real=True)
LSE = sp.log(sp.Sum(sp.exp(x[i]), (i, 1, n)))
SHIFTED = sp.Sum(sp.exp(x[i] - m), (i, 1, n))


@claim(id="shift", title="log-sum-exp is unchanged by a shift", section="1",
       statement=Statement("shift", m + sp.log(SHIFTED), lhs=LSE), premises=(),
       foils=(Foil("forgot m", sp.log(SHIFTED)),))
class Shift:
    def prove(self, value, proof):
        chain = (proof.chain(LSE).equals(sp.log(sp.exp(m) * SHIFTED), "out", method="doit")
                 .equals(m + sp.log(SHIFTED), "log", method="expand_log"))
        proof.conclude(value, chain)

    def check(self, value, experiment):
        for point in experiment.draw({n: Integers(1, 8), m: Reals(-5.0, 5.0)}, count=3):
            values = experiment.rng.normal(0.0, 3.0, size=point[n])
            direct = math.log(np.exp(values).sum())
            experiment.close(direct, point.value(value, data={x: values}),
                             tolerance(4 * point[n] + 10, abs(direct) + abs(point[m])),
                             "direct", at=point)
'''


def test_an_automatic_foil_with_a_shifted_index_fails_the_check_instead_of_erroring(claims_dir):
    from tmath.engine.registry import load
    from tmath.engine.runner import perturbations

    spec = load([claims_dir({"shift.py": CLAIM})], builtin=False).get("shift")
    assert run_check(spec, spec.statement.value, seed=1).status == "passed"
    shifted = [v for text, v in perturbations(spec) if "index shifted" in text]
    assert shifted
    for value in shifted:
        assert run_check(spec, value, seed=1).status == "failed"
    assert run_check(spec, spec.foils[0].value, seed=1).status == "failed"


def test_experiment_rng_is_the_claims_stream_of_the_seed(claims_dir):
    """The same seed gives the same data; another claim id, other data."""
    first = claim_rng(7, "shift").normal(size=3)
    assert np.array_equal(first, claim_rng(7, "shift").normal(size=3))
    assert not np.array_equal(first, claim_rng(8, "shift").normal(size=3))
    assert not np.array_equal(first, claim_rng(7, "other").normal(size=3))

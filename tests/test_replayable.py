"""The random points the gate evaluates a document's relations at are replayable: the same
document gives the same printed values in every process, whatever Python's hash seed (which
orders sets of names, so a draw must never follow a set's order).

The document is written for this test: a norm expanded with a slip of sign, and a coupling
map whose inverse has one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

DOCUMENT = textwrap.dedent(r"""
    # Two derivations, each with a slip

    A kernel score written out:

    $$
    s(\mathbf{u}, \mathbf{v}) = -\frac{1}{2} \|\mathbf{u} - \mathbf{v}\|^2 = \mathbf{u}^\top \mathbf{v} + \frac{1}{2} \|\mathbf{v}\|^2 - \frac{1}{2} \|\mathbf{u}\|^2
    $$

    A coupling layer maps the halves:

    $$
    b_1 = a_1 + F(a_2),\; b_2 = a_2 + G(b_1)
    $$

    and undoing it gives

    $$
    a_2 = b_2 - G(b_1), \; a_1 = b_1 + F(a_2)
    $$
    """).lstrip()

PROBE = """
import json, sys
from tmath.gate.document import parse_as
from tmath.gate.inverses import failed_inverses
from tmath.gate.steps import false_steps
from tmath.meaning.recognise import relations_of
document = parse_as(".md", sys.stdin.read(), "doc.md")
print(json.dumps({"steps": [list(false_steps(relations_of(m.latex))) for m in document.formulas],
                  "inverses": [list(f.sides) for f in failed_inverses(document)]}))
"""


def _values(hash_seed: str) -> dict:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-c", PROBE], input=DOCUMENT, capture_output=True,
                          text=True, env=env, timeout=300, check=True)
    return json.loads(done.stdout)


def test_the_points_printed_are_the_same_under_any_hash_seed():
    first = _values("1")
    assert first["steps"][0] and first["inverses"]      # both slips are found
    for seed in ("2", "3", "4"):
        assert _values(seed) == first

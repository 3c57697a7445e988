"""Weights normalised by a sum of other terms than their own.

The formulas are written for these tests: a masked softmax over a window, with the mask a
function the document defines, kept above and dropped below; a temperature on one side only;
and weights that are right, or are not softmax-like, which are never reported.
"""

from __future__ import annotations

import json
import textwrap

import pytest
from typer.testing import CliRunner

from tmath.gate.normalised import unnormalised
from tmath.meaning.recognise import relations_of


def _found(latex: str) -> list[int]:
    return [index for index, *_ in unnormalised(relations_of(latex))]


@pytest.mark.parametrize("latex", [
    r"\alpha_{ij} = \frac{\exp(e_{ij})}{\sum_{k=1}^{T} \exp(e_{ik})}",
    r"\gamma_{k} = \frac{\pi_k \exp(x_k)}{\sum_{j} \pi_j \exp(x_j)}",
    r"w = \frac{\exp(a)}{\sum_{j} \exp(b_j)}",                     # no index of the sum's terms
    r"p_i = \frac{x_i}{\sum_j |x_j|}",                              # not an exponential weight
    r"p_i = \frac{\exp(x_i)}{1 + \sum_j \exp(x_j)}",                # a sum plus a term
])
def test_weights_over_the_sum_of_their_own_terms_or_not_softmax_like_are_not_reported(latex):
    assert _found(latex) == []


def test_a_weight_over_another_sum_is_reported():
    assert _found(r"\alpha_{ij} = \frac{\exp(e_{ij}/\tau)}{\sum_{k=1}^{T} \exp(e_{ik})}") == [0]


WINDOW = textwrap.dedent(r"""
    # A soft window

    The mask is a function of the distance:

    $$m_z(x) = \min(1, \max(0, (R + z - x)/R))$$

    and it weighs each exponential:

    $$a_{ij} = \frac{m_z(i-j)\exp(s_{ij})}{\sum_{r=i-w}^{i-1} m_z(i-r)\exp(s_{ir})}$$
    """).lstrip()


def test_a_function_the_document_defines_is_applied_and_a_dropped_mask_found(tmp_path):
    """``m_z(i-j)`` reads as m_z applied to i − j because the document defines m_z(x): the
    right window has no finding; with the mask dropped below, the weights do not sum to 1."""
    from conftest import CHECK_APP

    path = tmp_path / "doc.md"

    def errors(text):
        path.write_text(text, encoding="utf-8")
        run = CliRunner().invoke(CHECK_APP, ["check", str(path), "-f", "json"])
        return [f["line"] for f in json.loads(run.stdout)["findings"]
                if f["status"] == "contradicts"]

    assert errors(WINDOW) == []
    assert errors(WINDOW.replace(r"}^{i-1} m_z(i-r)\exp", r"}^{i-1} \exp")) == [9]

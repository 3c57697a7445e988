"""Self-attention's cost stated in big-O, held to claim attention-cost-table.

Every sentence here is written for these tests: the cost of self-attention in the common
letters is recognised, a wrong power contradicts the claim on its line, and the cost of
anything else (a recurrent layer, a sparse variant, a table row) is never judged.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tmath.gate.complexity import costs_said, judged
from tmath.gate.document import parse_as


def _judged(sentence: str) -> list[str | None]:
    document = parse_as(".md", f"# Cost\n\n{sentence}\n", "t.md")
    return [getattr(judged(document, cost), "status", None) for cost in costs_said(document)]


@pytest.mark.parametrize("sentence, status", [
    ("Every query meets every key, so self-attention costs $O(n^2 d)$ time.", "recognised"),
    ("Self-attention has a $\\mathcal{O}(n^2d)$ computational complexity.", "recognised"),
    ("The attention matrix needs $O(L^2)$ memory and time.", "recognised"),
    ("Every query meets every key, so self-attention costs $O(n d^2)$ time.", "contradicts"),
    ("Self-attention has a $\\mathcal{O}(nd^2)$ computational complexity.", "contradicts"),
    ("The attention matrix needs $O(L)$ memory.", "contradicts"),
])
def test_the_cost_of_self_attention_is_held_to_the_claim(sentence, status):
    assert _judged(sentence) == [status]


@pytest.mark.parametrize("sentence", [
    "A recurrent layer has a computational complexity of $O(n d^2)$.",
    "Sparse attention reduces the cost of self-attention to $O(n \\sqrt{n})$.",
    "Self-attention costs $O(n^2 d)$ while a convolution costs $O(k n d^2)$.",
    "Self-attention needs $O(1)$ sequential operations.",
    "Self-Attention & $O(n^2 \\cdot d)$ & $O(1)$ \\\\",
    "Self-attention with a window of $r$ costs $O(r n d)$ time.",
    "The attention matrix stores $O(n^2 d)$ numbers in memory.",   # an upper bound, not its order
])
def test_what_is_not_self_attentions_own_cost_is_never_judged(sentence):
    assert [s for s in _judged(sentence) if s == "contradicts"] == []


def test_a_wrong_cost_is_an_error_of_the_gate(tmp_path):
    from conftest import CHECK_APP

    text = ("# Cost\n\nFor $n$ tokens of width $d$, self-attention has a\n"
            "computational complexity of $O(n^2 d)$.\n")
    path = tmp_path / "doc.md"
    for body, code in ((text, 0), (text.replace("n^2 d", "n d^2"), 1)):
        path.write_text(body, encoding="utf-8")
        run = CliRunner().invoke(CHECK_APP, ["check", str(path), "-f", "json"])
        found = [(f["status"], f["line"], f["claim"]) for f in json.loads(run.stdout)["findings"]
                 if f["claim"] == "attention-cost-table"]
        assert run.exit_code == code
        assert found == [("recognised" if code == 0 else "contradicts", 4,
                          "attention-cost-table")]


def _layer(sentence: str) -> list[str]:
    from tmath.gate.complexity import layer_costs_said, layer_judged

    document = parse_as(".md", f"# Cost\n\n{sentence}\n", "t.md")
    return [getattr(layer_judged(document, said), "status", "as published")
            for said in layer_costs_said(document)]


@pytest.mark.parametrize("sentence, found", [
    ("The computational complexity of a recurrent layer is $O(n d^2)$.", ["as published"]),
    ("A convolutional layer with kernel size $k$ costs $\\mathcal{O}(knd^2)$ time.",
     ["as published"]),
    ("A convolutional layer costs $O(n d^2)$ time for a fixed kernel.", ["as published"]),
    ("The computational complexity of a recurrent layer is $O(n^2 d)$.", ["contradicts"]),
    ("A convolutional layer with kernel size $k$ costs $\\mathcal{O}(knd)$ time.",
     ["contradicts"]),
    ("Each step of an RNN has a computational complexity of $O(d^2)$.", []),    # no length
    ("A recurrent layer runs in $O(n)$ time for a fixed width.", ["as published"]),
    ("A recurrent layer with $h$ hidden units costs $O(n h^2)$ time.", []),   # other letters
    ("A recurrent layer needs $O(n)$ sequential operations.", []),
    ("Self-attention costs $O(n^2 d)$ time, like no recurrent layer.", []),
])
def test_recurrent_and_convolutional_costs_are_held_to_the_papers_table(sentence, found):
    assert _layer(sentence) == found


@pytest.mark.parametrize("sentence, wrong", [
    ("Self-attention layers are faster than recurrent layers when the length $n$ is smaller "
     "than the width $d$.", False),
    ("Self-attention layers are faster than recurrent layers when the length $n$ is larger "
     "than the width $d$.", True),
    ("Self-attention is slower than a recurrent layer if $n$ is greater than $d$.", False),
    ("Self-attention is slower than a recurrent layer if $n$ is less than $d$.", True),
    ("A recurrent layer is cheaper when training is short.", None),     # not a comparison by n, d
])
def test_when_self_attention_beats_a_recurrent_layer(sentence, wrong):
    from tmath.gate.complexity import crossover_judged, crossover_said

    document = parse_as(".md", f"# Cost\n\n{sentence}\n", "t.md")
    said = crossover_said(document)
    if wrong is None:
        assert said == []
        return
    assert [crossover_judged(document, s) is not None for s in said] == [wrong]


LAYER_TABLE = """# Layers

| Layer | Time per layer | Sequential steps |
| --- | --- | --- |
| Recurrent | $O(n d^2)$ | $O(n)$ |
| Convolutional | $O(k n d^2)$ | $O(1)$ |
| Recurrent (gated, sparse) | $O(n d)$ | $O(n)$ |
"""


@pytest.mark.parametrize("old, new, found", [
    ("", "", ["as published", "as published"]),
    ("| $O(n d^2)$ | $O(n)$ |\n| Conv", "| $O(n^2 d)$ | $O(n)$ |\n| Conv",
     ["contradicts", "as published"]),                       # the recurrent row's time
    ("| $O(k n d^2)$", "| $O(k n d)$", ["as published", "contradicts"]),
])
def test_layer_costs_in_a_table_row_are_held_to_the_papers_table(old, new, found):
    """The row labelled with the layer alone, under a time column, is read; the sequential
    column and a row naming a variant are not."""
    from tmath.gate.complexity import layer_costs_in_tables, layer_judged

    document = parse_as(".md", LAYER_TABLE.replace(old, new), "layers.md")
    judged = [layer_judged(document, said) for said in layer_costs_in_tables(document)]
    assert [getattr(f, "status", "as published") for f in judged] == found
    assert all("table row" in f.detail for f in judged if f is not None)


@pytest.mark.parametrize("sentence, wrong", [
    ("Hashing reduces the complexity from $O(L^2)$ to $O(L \\log L)$.", False),
    ("Hashing reduces the complexity from $O(L^2)$ to $O(L^2 \\log L)$.", True),
    ("Chunking cuts the memory from $O(n^2 d)$ to $O(n d)$.", False),
    ("Chunking cuts the memory from $O(n d)$ to $O(n^2)$.", True),
    ("The cost is lowered from $O(n^2)$ to $O(n^2)$ by a constant.", True),   # not smaller
    ("It grows from $O(n)$ to $O(n^2)$.", None),                            # not a reduction
    ("We reduce the width from $O(d)$ to $O(k)$.", None),                    # no length letter
    ("It reduces the time from $O(n^2)$ to $O(\\frac{n}{0})$.", None),        # undefined
])
def test_a_reduction_must_grow_more_slowly(sentence, wrong):
    from tmath.gate.complexity import reduction_judged, reductions_said

    document = parse_as(".md", f"# Cost\n\n{sentence}\n", "t.md")
    found = [reduction_judged(document, said) for said in reductions_said(document)]
    if wrong is None:
        assert all(f is None for f in found)
    else:
        assert len(found) == 1 and (found[0] is not None) == wrong


ORDERS_TEXT = """# Layers

A recurrent layer updates its state once per position.
There are $O(n)$ sequential operations and the maximum path length is also $O(n)$.

In self-attention every position sees every other one.
So there are $O(1)$ sequential operations and the maximum path length is $O(1)$.

| Layer | Sequential operations | Maximum path length |
| --- | --- | --- |
| Convolutional | $O(1)$ | $O(n/k)$ |
| Self-attention (restricted) | $O(1)$ | $O(n/r)$ |
"""


@pytest.mark.parametrize("old, new, line", [
    ("", "", None),
    ("maximum path length is $O(1)$", "maximum path length is $O(n)$", 7),
    ("also $O(n)$", "also $O(1)$", 4),
    ("| $O(1)$ | $O(n/k)$ |", "| $O(n^2)$ | $O(n/k)$ |", 11),
    ("$O(n/r)$", "$O(r/n)$", 12),
])
def test_sequential_operations_and_path_lengths_are_held_to_table_1(old, new, line):
    """The layer is the one the sentence names, else the only one its paragraph names; a
    table row labelled with one layer of Table 1 is read under such a column."""
    from tmath.gate.complexity import order_judged, orders_said

    document = parse_as(".md", ORDERS_TEXT.replace(old, new), "t.md")
    said = orders_said(document)
    assert len(said) == 8
    wrong = [f.line for s in said for f in [order_judged(document, s)] if f is not None]
    assert wrong == ([] if line is None else [line])


def test_a_restricted_self_attention_row_is_held_to_its_cost():
    from tmath.gate.complexity import layer_costs_in_tables, layer_judged

    table = ("# T\n\n| Layer | Complexity per layer |\n| --- | --- |\n"
             "| Recurrent | $O(n d^2)$ |\n| Self-attention (restricted) | $O(r n d)$ |\n")
    document = parse_as(".md", table, "t.md")
    assert [layer_judged(document, s) for s in layer_costs_in_tables(document)] == [None, None]
    document = parse_as(".md", table.replace("O(r n d)", "O(r n^2 d)"), "t.md")
    assert [getattr(layer_judged(document, s), "status", None)
            for s in layer_costs_in_tables(document)] == [None, "contradicts"]


@pytest.mark.parametrize("sentence, found", [
    ("Self-attention could be restricted to a neighbourhood of size $r$. That would increase "
     "the maximum path length to $O(n/r)$.", [None]),
    ("Self-attention could be restricted to a neighbourhood of size $r$. That would reduce "
     "the maximum path length to $O(n/r)$.", ["contradicts"]),
    ("Restricting self-attention to a window would reduce the maximum path length to "
     "$O(1)$.", [None]),   # no growth in n: nothing to say
    ("A deeper stack would reduce the maximum path length to $O(n/r)$.", []),  # no restriction
])
def test_restricting_self_attention_lengthens_its_paths(sentence, found):
    from tmath.gate.complexity import path_change_judged, path_changes_said

    document = parse_as(".md", f"# Paths\n\n{sentence}\n", "t.md")
    judged_ = [path_change_judged(document, s) for s in path_changes_said(document)]
    assert [f.status if f else None for f in judged_] == found


@pytest.mark.parametrize("sentence, found", [
    ("Convolutional layers are generally more expensive than recurrent layers, by a factor of "
     "$k$.", [None]),
    ("Convolutional layers are generally cheaper than recurrent layers, by a factor of $k$.",
     ["contradicts"]),
    ("Convolutional layers are generally more expensive than recurrent layers, by a factor of "
     "$k^2$.", ["contradicts"]),
    ("Recurrent layers are cheaper than convolutional ones.", [None]),
    ("Recurrent layers are slower than recurrent layers.", []),
])
def test_a_convolutional_layer_costs_k_recurrent_ones(sentence, found):
    from tmath.gate.complexity import comparison_judged, comparisons_said

    document = parse_as(".md", f"# Costs\n\n{sentence}\n", "t.md")
    judged_ = [comparison_judged(document, s) for s in comparisons_said(document)]
    assert [f.status if f else None for f in judged_] == found

"""Tables: their cells placed in the text, the settings and costs they state.

The tables are written for these tests: a LaTeX tabular of model variants (rules, comments,
multirow headers) and a complexity table; a Markdown pipe table of settings. A changed cell is
found on its line; rows that name no configuration and columns no quantity are not read.
"""

from __future__ import annotations

import textwrap

from tmath.gate.complexity import costs_in_tables, judged
from tmath.gate.document import parse_as
from tmath.gate.settings import table_settings
from tmath.gate.tables import tables_in

VARIANTS = textwrap.dedent(r"""
    \title{Notes on Attention Is All You Need}
    \section{Sizes}
    \begin{tabular}{c|cccc|c}
    \hline
     & \multirow{2}{*}{$N$} & \multirow{2}{*}{$d_{model}$} & \multirow{2}{*}{$h$} &
    \multirow{2}{*}{$P_{drop}$} & train \\
     & & & & & steps \\
    % a row the author left out
    \hline
    base & 6 & 512 & 8 & 0.1 & 100K \\
    (X) & & & 4 & & \\
    big & 6 & 1024 & 16 & 0.3 & 300K \\
    \end{tabular}

    \begin{tabular}{lcc}
    Layer Type & Complexity per Layer & Sequential Operations \\
    \hline
    Self-Attention & $O(n^2 \cdot d)$ & $O(1)$ \\
    Recurrent & $O(n \cdot d^2)$ & $O(n)$ \\
    \end{tabular}
    """).lstrip()


def _tex(text: str):
    return parse_as(".tex", text, "t.tex")


def test_a_tabular_is_read_into_a_header_and_placed_rows():
    document = _tex(VARIANTS)
    first = tables_in(document)[0]
    assert first.header[1:5] == ("$N$", "$d_{model}$", "$h$", "$P_{drop}$")
    assert [row[0].text for row in first.rows] == ["base", "(X)", "big"]
    assert document.line_of(first.rows[0][3].start) == 10


def test_settings_in_a_table_row_of_a_configuration():
    found = [(f.line, f.status, f.printed) for f in table_settings(_tex(VARIANTS))]
    assert found == [(10, "accurate", "6"), (10, "accurate", "512"), (10, "accurate", "8"),
                     (10, "accurate", "0.1"), (12, "accurate", "1024"), (12, "accurate", "16")]
    broken = [(f.line, f.status, f.printed) for f in
              table_settings(_tex(VARIANTS.replace("base & 6 & 512 & 8", "base & 6 & 512 & 16")))]
    assert [f for f in broken if f[1] == "inaccurate"] == [(10, "inaccurate", "16")]


def test_a_table_about_another_document_is_not_a_setting():
    other = VARIANTS.replace("Attention Is All You Need", "a small model")
    assert table_settings(_tex(other)) == []


def test_the_cost_of_self_attention_in_a_table():
    document = _tex(VARIANTS)
    assert [getattr(judged(document, c), "status", None) for c in costs_in_tables(document)] \
        == ["recognised"]
    broken = _tex(VARIANTS.replace(r"Self-Attention & $O(n^2 \cdot d)$", r"Self-Attention & $O(n \cdot d^2)$"))
    assert [(judged(broken, c).status, judged(broken, c).line) for c in costs_in_tables(broken)] \
        == [("contradicts", 18)]


def test_a_markdown_pipe_table_of_settings():
    text = textwrap.dedent("""
        # Models

        | model | $N$ | $h$ |
        |---|---|---|
        | BERT-base | 12 | 12 |
        | a toy | 2 | 2 |
        """).lstrip()
    found = [(f.line, f.status, f.printed) for f in table_settings(parse_as(".md", text, "t.md"))]
    assert found == [(5, "accurate", "12"), (5, "accurate", "12")]


HEADS = textwrap.dedent(r"""
    \section{Variants}
    \begin{tabular}{c|ccc|c}
     & $d_{model}$ & $h$ & $d_k$ & BLEU \\
    \hline
    base & 512 & 8 & 64 & 25.8 \\
    (A) & & 4 & 128 & 25.5 \\
        & & 16 & 32 & 25.8 \\
    (B) & & & 16 & 25.1 \\
    (C) & 256 & 4 & 64 & 24.5 \\
    \end{tabular}
    """).lstrip()


def test_a_rows_head_width_is_held_to_d_model_over_h():
    """Rows that print h and d_k themselves: h·d_k must be their d_model (else the first
    row's); row (B) changes d_k alone (narrower keys on purpose) and is not judged."""
    from tmath.gate.head_widths import widths_judged

    assert widths_judged(_tex(HEADS)) == []
    broken = widths_judged(_tex(HEADS.replace("& 4 & 128 &", "& 4 & 64 &")))
    assert [(f.line, f.status, f.claim) for f in broken] == [(6, "contradicts", "multi-head-shapes")]
    own = widths_judged(_tex(HEADS.replace("256 & 4 & 64", "256 & 4 & 32")))
    assert [f.line for f in own] == [9]


def test_a_markdown_tables_header_is_the_rows_above_its_delimiter():
    """A row of values without a digit (``O(n)``) is a row, not more header: Markdown says
    where the header ends."""
    text = ("# T\n\n| Layer | Steps |\n| --- | --- |\n| Recurrent | $O(n)$ |\n"
            "| Convolutional | $O(1)$ |\n")
    (table,) = tables_in(parse_as(".md", text, "t.md"))
    assert table.header == ("Layer", "Steps")
    assert [row[0].text for row in table.rows] == ["Recurrent", "Convolutional"]


SCORES = textwrap.dedent(r"""
    \title{Reading Attention Is All You Need}
    \section{Scores}
    \begin{tabular}{lcc}
    \multirow{2}{*}{Model} & \multicolumn{2}{c}{BLEU} \\
    & EN-DE & EN-FR \\
    \hline
    Some earlier system & 25.16 & 40.46 \\
    Transformer (base model) & 27.3 & 38.1 \\
    Transformer (big) & \textbf{28.4} & \textbf{41.8} \\
    \end{tabular}
    """).lstrip()


def test_bleu_columns_are_held_to_the_papers_scores():
    found = [(f.line, f.status, f.printed) for f in table_settings(_tex(SCORES))]
    assert found == [(8, "accurate", "27.3"), (8, "accurate", "38.1"), (9, "accurate", "28.4"),
                     (9, "accurate", "41.8")]
    broken = table_settings(_tex(SCORES.replace("& 27.3 &", "& 25.3 &")))
    assert [(f.line, f.printed) for f in broken if f.status == "inaccurate"] == [(8, "25.3")]

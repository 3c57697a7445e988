"""The readers of tmath.gate.readers: Markdown, LaTeX and notebooks become one Document whose
formulas sit exactly where the file has them, and whose code is never read."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tmath.errors import UsageError
from tmath.gate.document import parse_as, read_document


def exact(document) -> None:
    """Every formula placed exactly: its LaTeX is the text at ``inner``, on its lines."""
    for m in document.formulas:
        assert m.inner >= 0, m
        assert document.text[m.inner:m.inner + len(m.latex)] == m.latex
        assert document.line_of(m.start) == m.line
        assert m.start <= m.inner and m.inner + len(m.latex) <= m.end
    for m in document.inline:
        assert m.inner < 0 or document.text[m.inner:m.inner + len(m.latex)] == m.latex, m
    assert len(document.masked) == len(document.text)


def md(text: str):
    document = parse_as(".md", textwrap.dedent(text), "t.md")
    exact(document)
    return document


# -- Markdown ----------------------------------------------------------------------------------

def test_markdown_display_blocks_and_their_lines():
    doc = md("""\
        # Springs

        ## Hooke

        The force grows with the stretch:

        $$
        F = k x
        $$

        \\[ E = \\tfrac12 k x^2 \\]

        \\begin{align*}
        a &= b \\\\
        c &= d
        \\end{align*}
        """)
    assert [m.latex for m in doc.formulas] == [
        "F = k x", "E = \\tfrac12 k x^2", "\\begin{align*}\na &= b \\\\\nc &= d\n\\end{align*}"]
    assert [(m.line, m.end_line) for m in doc.formulas] == [(7, 9), (11, 11), (13, 16)]
    assert [(s.number, s.title) for s in doc.sections] == [(None, "Springs"), ("1", "Hooke")]


def test_kramdown_inline_double_dollars_are_inline_math():
    doc = md("""\
        A spring of stiffness $$k$$ stretched by $$x$$ pulls back with $$F = kx$$ newtons.

        Text just before
        $$F = k x$$
        and just after: a formula on a line of its own is displayed.
        """)
    assert [m.latex for m in doc.formulas] == ["F = k x"]
    assert doc.formulas[0].line == 4


def test_inline_formulas_come_from_the_reader_and_never_from_code():
    doc = md("""\
        A $x$ and `$y$` and kramdown $$z = 1$$ and \\(w\\); prices $5 and $6.

        ```
        $fenced$
        ```
        """)
    assert [m.latex for m in doc.inline] == ["x", "z = 1", "w"]
    assert not any(m.display for m in doc.inline)
    tex = parse_as(".tex", "A $x$ and \\(w\\) % $c$\n\\verb|$v$|\n", "t.tex")
    assert [m.latex for m in tex.inline] == ["x", "w"]


def test_mathjax_delimiters():
    doc = md("""\
        Inline \\(a + b\\) is not displayed, and neither is \\[c\\] amid prose.

        \\[
        y = m x + c
        \\]

        A paragraph line
        \\[ u = v \\]
        """)
    assert [m.latex for m in doc.formulas] == ["y = m x + c", "u = v"]


def test_mathjax_delimiters_escaped_for_markdown():
    """A post whose Markdown writes ``\\\\(`` so that the page shows MathJax's ``\\(``: read
    as inline math, placed exactly, beside the single-backslash form and dollars."""
    doc = md(r"""
        Inline \\(\theta = 10\\) and \(c\) and \\[x^2\\] and $d$; a lone \\\\ is text.
        """)
    assert [m.latex for m in doc.inline] == [r"\theta = 10", "c", "x^2", "d"]


def test_glued_and_labelled_display_formulas():
    doc = md("$$a = 1$$$$b = 2$$\n\n$$ c = 3 $$ (eq1)\n")
    assert [m.latex for m in doc.formulas] == ["a = 1", "b = 2", "c = 3"]


def test_code_is_never_read():
    doc = md("""\
        Prose with 1.5 in it and `inline 7.25 $$p = q$$` code.

        ```python
        x = 3.75  # $$r = s$$
        ```

            indented 8.125 $$t = u$$

        <div>
        html 9.5 $$v = w$$
        </div>

        $$real = 1$$
        """)
    assert [m.latex for m in doc.formulas] == ["real = 1"]
    for number in ("7.25", "3.75", "8.125", "p = q", "r = s"):
        assert number not in doc.masked and number in doc.text
    assert "1.5" in doc.masked
    assert "9.5" in doc.masked and "<div>" not in doc.masked   # a caption's words are prose


def test_html_blocks_hide_their_markup_code_and_tables_but_not_their_words():
    doc = md("""\
        <figure><img src="x.png"/>
        <figcaption>Each token becomes a vector of size 512 &amp; more.</figcaption>
        <pre>y = 2.25</pre><script>var z = 4.5;</script>
        <table><tr><td>heads</td><td>16</td></tr></table>
        </figure>
        """)
    assert "vector of size 512" in doc.masked
    for hidden in ("<figcaption>", "img", "2.25", "4.5", "16", "&amp;"):
        assert hidden not in doc.masked


def test_pins_in_comments_but_not_in_code():
    doc = md("""\
        ## One

        <!-- tmath: dot-product-variance -->
        Pinned prose.

        ```
        <!-- tmath: not-a-pin -->
        ```

        Inline <!-- tmath: softmax-saturation --> pin.
        """)
    assert [p.claims for p in doc.pins] == [("dot-product-variance",), ("softmax-saturation",)]
    assert "tmath:" not in doc.masked


def test_setext_headings_and_stated_numbers():
    doc = md("""\
        2 Scores
        ========

        2.1 Their spread
        ----------------

        text
        """)
    assert [(s.number, s.title) for s in doc.sections] == [("2", "2 Scores"),
                                                           ("2.1", "2.1 Their spread")]
    assert "2.1" not in doc.masked.splitlines()[3]


def test_prices_and_unclosed_math():
    doc = md("It costs $5 and $6 today.\n\nNever closed $$x + y\n\nEnd.\n")
    assert doc.formulas == ()
    assert doc.unclosed_math == (3,)


def test_many_unclosed_delimiters_read_quickly():
    """Lines of unclosed ``$$``, ``\\[`` and environments: every block rule gives up at once
    (no timing asserted: the test would hang if a rule scanned to the end each time)."""
    text = "$$x\n\\[ y\n\\begin{align}\nz\n" * 5_000
    doc = parse_as(".md", text, "t.md")
    assert doc.formulas == ()
    paragraph = "a \\( b \\[ c $d\n" * 20_000  # one paragraph, nothing closed
    doc = parse_as(".md", paragraph, "t.md")
    assert doc.formulas == () and doc.inline == ()


def test_front_matter_and_link_definitions_are_not_prose():
    doc = md("""\
        ---
        title: 2.5 reasons
        ---
        # Notes

        See [the paper][1] for 4.5.

        [1]: https://example.org/3.75
        """)
    assert [s.title for s in doc.sections] == ["Notes"]
    assert "2.5" not in doc.masked and "3.75" not in doc.masked and "4.5" in doc.masked


def test_markdown_keeps_plain_text_headings():
    doc = md("三、甲\n\n3.1 子节\n\n正文 $$a = 1$$ 里\n")
    assert [(s.number, s.title) for s in doc.sections] == [("3", "甲"), ("3.1", "子节")]
    assert doc.formulas == ()


@pytest.mark.parametrize("suffix", [".md", ".tex"])
def test_a_text_too_long_to_parse_is_read_as_plain_text_and_says_so(monkeypatch, suffix):
    import tmath.gate.document as document

    monkeypatch.setattr(document, "MAX_PARSED", 100)
    monkeypatch.setattr(document, "MAX_PARSED_LATEX", 100)
    doc = parse_as(suffix, "Prose 1.5.\n\n$$a = 1$$\n" * 20, "long" + suffix)
    assert doc.kind == "text" and len(doc.formulas) == 20
    assert "read as plain text" in doc.notes[0]


# -- LaTeX -------------------------------------------------------------------------------------

LATEX = r"""\documentclass{article}
\usepackage{amsmath}
\title{Version 2.5}
\begin{document}
\section{Energy}
% tmath: dot-product-variance
A mass $m$ at speed \(v\) carries
$$ E = \tfrac12 m v^2 $$
and \[ p = m v \] as in \cite[p.~12]{landau1976} and \eqref{eq:w} at \url{http://x.org/3.5}.
\begin{equation}
W = F d \label{eq:w}
\end{equation}
\subsection{Rows}
\begin{align*}
a &= b \\
c &= d
\end{align*}
\begin{gather} g = h \end{gather}
\begin{multline*} i = j \end{multline*}
\begin{eqnarray} k &=& l \end{eqnarray}
\begin{displaymath} n = o \end{displaymath}
\begin{verbatim}
$$ q = 4.75 $$
\end{verbatim}
\begin{lstlisting}
code 6.5 $$r = s$$
\end{lstlisting}
Inline \verb|7.125| and \href{http://y.org/8.5}{a 9 page link}.
\subsection*{Unnumbered}
\section{Second}
\input{chapter2}
\begin{thebibliography}{9}
\bibitem{landau1976} L. Landau, 1976.
\end{thebibliography}
\end{document}
"""


def test_latex_formulas_sections_and_pins():
    doc = parse_as(".tex", LATEX, "t.tex")
    exact(doc)
    assert [m.latex.split("\n")[0] for m in doc.formulas] == [
        "E = \\tfrac12 m v^2", "p = m v", "\\begin{equation}", "\\begin{align*}",
        "\\begin{gather} g = h \\end{gather}", "\\begin{multline*} i = j \\end{multline*}",
        "\\begin{eqnarray} k &=& l \\end{eqnarray}", "\\begin{displaymath} n = o \\end{displaymath}"]
    assert [(s.number, s.title) for s in doc.sections] == [
        ("1", "Energy"), ("1.1", "Rows"), (None, "Unnumbered"), ("2", "Second")]
    assert [p.claims for p in doc.pins] == [("dot-product-variance",)]
    assert any("\\input{chapter2} is not followed" in n for n in doc.notes)


def test_latex_non_prose_is_blanked():
    doc = parse_as(".tex", LATEX, "t.tex")
    for gone in ("2.5", "p.~12", "landau1976", "eq:w", "3.5", "4.75", "6.5", "7.125", "8.5",
                 "tmath:", "usepackage", "1976"):
        assert gone not in doc.masked, gone
    assert "a 9 page link" in doc.masked


@pytest.mark.parametrize("source", ["Text $$ a\n\nmore 3.5\n", "Text \\[ a\n\nmore 3.5\n",
                                    "A \\begin{equation} a\n\nmore 3.5\n"])
def test_unclosed_latex_math_is_noted_not_read(source):
    doc = parse_as(".tex", source, "t.tex")
    assert doc.formulas == () and doc.unclosed_math == (1,)


@pytest.mark.parametrize("source", [
    "\\begin{document}\\section{Open $x", "}}}{{{\\begin{align} a", "\\verb", "$$ a",
    "\\begin{equation}\\end{align}", "\\" * 50, "{" * 3000 + "x"])
def test_malformed_latex_never_raises(source):
    doc = parse_as(".tex", source, "bad.tex")
    assert len(doc.masked) == len(doc.text)


# -- notebooks ---------------------------------------------------------------------------------

def notebook(cells: list[tuple[str, str]]) -> str:
    import nbformat

    nb = nbformat.v4.new_notebook()
    make = {"markdown": nbformat.v4.new_markdown_cell, "code": nbformat.v4.new_code_cell,
            "raw": nbformat.v4.new_raw_cell}
    nb.cells = [make[kind](source) for kind, source in cells]
    return nbformat.writes(nb) + "\n"


NOTEBOOK = [("markdown", "# Pendulum\n\nSmall swings:"),
            ("code", "period = 2.006  # $$T = 3$$"),
            ("raw", "$$raw = 1$$ 4.5"),
            ("markdown", "## Period\n\n<!-- tmath: dot-product-variance -->\n$$\nT = 2\\pi"
                         "\\sqrt{L/g}\n$$\nat L = 1 m it is 2.006 s.")]


def test_notebook_cells_and_lines(tmp_path: Path):
    path = tmp_path / "p.ipynb"
    path.write_text(notebook(NOTEBOOK), encoding="utf-8")
    doc = read_document(path)
    exact(doc)
    assert doc.kind == "notebook" and doc.raw == path.read_text(encoding="utf-8")
    assert [m.latex for m in doc.formulas] == ["T = 2\\pi\\sqrt{L/g}"]
    assert doc.where(doc.formulas[0].line) == "cell 4, line 4"
    assert [doc.where(s.line) for s in doc.sections] == ["cell 1, line 1", "cell 4, line 1"]
    for code in ("period", "T = 3", "raw = 1", "4.5"):  # code and raw cells are never read
        assert code not in doc.text
    assert [p.claims for p in doc.pins] == [("dot-product-variance",)]


@pytest.mark.parametrize("content", ['{"cells": 3', "[]", '{"nbformat": 4}', "not json"])
def test_a_malformed_notebook_is_a_usage_error(tmp_path: Path, content: str):
    path = tmp_path / "bad.ipynb"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        read_document(path)
    assert "\n" not in str(caught.value)


def test_notebook_fix_writes_the_cell_back(tmp_path: Path):
    from tmath.gate.fix import Fix, apply

    path = tmp_path / "p.ipynb"
    path.write_text(notebook(NOTEBOOK), encoding="utf-8")
    doc = read_document(path)
    at = doc.text.rindex("2.006")
    fixed = apply(doc, [Fix(str(path), doc.line_of(at), at, at + 5, "2.006", "2.007", "c", "T")])
    before, after = json.loads(doc.raw), json.loads(fixed)
    assert after["cells"][3]["source"][-1].endswith("it is 2.007 s.")
    after["cells"][3]["source"] = before["cells"][3]["source"]
    assert before == after  # nothing else changed: code, raw cells, metadata


def test_notebook_fix_refuses_a_file_jupyter_would_lay_out_otherwise(tmp_path: Path):
    from tmath.gate.fix import Fix, apply

    path = tmp_path / "p.ipynb"
    path.write_text(json.dumps(json.loads(notebook(NOTEBOOK)), indent=4), encoding="utf-8")
    doc = read_document(path)
    at = doc.text.rindex("2.006")
    with pytest.raises(UsageError, match="cannot write this notebook"):
        apply(doc, [Fix(str(path), doc.line_of(at), at, at + 5, "2.006", "2.007", "c", "T")])


# -- dispatch ----------------------------------------------------------------------------------

def test_plain_text_is_read_as_before(tmp_path: Path):
    text = "Notes\n```\n$$a=1$$\n```\n$$b = 2$$\n"
    path = tmp_path / "n.txt"
    path.write_text(text, encoding="utf-8")
    doc = read_document(path)
    assert doc.kind == "text" and [m.latex for m in doc.formulas] == ["b = 2"]


def test_lazy_imports():
    import subprocess
    import sys

    code = ("import sys, tmath.gate.document, tmath.gate; "
            "print(any(m in sys.modules for m in ('mdit_py_plugins', 'pylatexenc', 'nbformat')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- properties --------------------------------------------------------------------------------

PROSE = st.sampled_from(["Some words 1.5 here.", "A line with $x$ inline.", "Costs $3 or $4.",
                         "Kramdown $$k = 1$$ inline.", "", "> quoted 2.5", "- item 3.5"])
CODE = st.sampled_from(["`span 7.77 $$c = 1$$`", "``double ` 7.77 $$c = 2$$``"])
FENCE = st.sampled_from(["```\n7.77 $$c = 3$$\n```", "~~~\n$$c = 4$$ 7.77\n~~~",
                         "Code:\n\n    indented 7.77 $$c = 5$$"])  # not inside a list item
MATH = st.sampled_from(["$$\nm = 1\n$$", "$$m = 2$$", "\\[ m = 3 \\]",
                        "\\begin{equation}\nm = 4\n\\end{equation}"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(PROSE, CODE.map(lambda c: f"Prose {c} prose."), FENCE, MATH),
                max_size=12))
def test_formulas_never_come_from_code(blocks):
    text = "\n\n".join(blocks) + "\n"
    doc = parse_as(".md", text, "p.md")
    exact(doc)
    assert all(m.latex.startswith(("m =", "\\begin{equation}")) or m.latex == "m = 2"
               for m in doc.formulas), doc.formulas
    assert "7.77" not in doc.masked
    assert len(doc.formulas) == sum(b in MATH_BLOCKS for b in blocks)


MATH_BLOCKS = {"$$\nm = 1\n$$", "$$m = 2$$", "\\[ m = 3 \\]",
               "\\begin{equation}\nm = 4\n\\end{equation}"}


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="$\\[]()`{}<>!-# \nabc12.%\\", max_size=200))
def test_any_text_reads_without_error(text):
    for suffix in (".md", ".tex"):
        doc = parse_as(suffix, text, "any" + suffix)
        assert len(doc.masked) == len(doc.text)
        for m in doc.formulas:
            if m.inner >= 0:
                assert doc.text[m.inner:m.inner + len(m.latex)] == m.latex


LATEX_PROSE = st.sampled_from(["Words 1.5 here.", "Inline $x$ and \\(y\\).", "", "% a comment 7.77",
                               "A \\verb|7.77 $$c = 1$$| span.", "See \\cite{k7.77} and \\ref{s7.77}."])
LATEX_CODE = st.sampled_from(["\\begin{verbatim}\n7.77 $$c = 2$$\n\\end{verbatim}",
                              "\\begin{lstlisting}\n\\[ c = 3 \\] 7.77\n\\end{lstlisting}"])
LATEX_MATH = st.sampled_from(["$$ m = 1 $$", "\\[ m = 2 \\]", "\\begin{equation}\nm = 3\n\\end{equation}",
                              "\\begin{align*}\nm &= 4 \\\\\nn &= 5\n\\end{align*}"])


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(LATEX_PROSE, LATEX_CODE, LATEX_MATH), max_size=10))
def test_latex_formulas_never_come_from_code_or_comments(blocks):
    text = "\\begin{document}\n" + "\n\n".join(blocks) + "\n\\end{document}\n"
    doc = parse_as(".tex", text, "p.tex")
    exact(doc)
    assert len(doc.formulas) == sum(b.startswith(("$$", "\\[", "\\begin{eq", "\\begin{al"))
                                    for b in blocks)
    assert "7.77" not in doc.masked


def test_blockquote_markers_are_hidden_so_a_quoted_sentence_reads_as_one():
    text = "# Notes\n\n> The mask keeps each word\n> > from the future words.\n\nAfter.\n"
    document = parse_as(".md", text, "q.md")
    quoted = document.masked[text.index("The mask"):text.index("After")]
    assert ">" not in quoted
    assert " ".join(quoted.split()) == "The mask keeps each word from the future words."
    assert len(document.masked) == len(document.text)   # offsets still hold

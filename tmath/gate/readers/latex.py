"""LaTeX sources, read with pylatexenc's ``LatexWalker`` (nodes keep their offsets).

* display formulas: ``$$…$$``, ``\\[…\\]`` and the environments of :data:`DISPLAY` (the
  formula is the environment as written, ``\\begin{align}`` … ``\\end{align}``); ``$…$`` and
  ``\\(…\\)`` are inline;
* ``\\section`` and ``\\subsection`` open sections, numbered in order (starred: unnumbered);
* not prose (blanked where figures are read): the preamble and what follows
  ``\\end{document}``, comments (``% tmath: claim-id`` pins), code (:data:`CODE`, ``\\verb``),
  the arguments of references, labels, links and graphics (:data:`NOT_PROSE`), the
  bibliography;
* ``\\input`` and ``\\include`` are not followed: a note says so.

A source pylatexenc cannot walk raises :class:`UnreadableSource` (the caller reads it as plain
text and says so).
"""

from __future__ import annotations

from typing import Any

from tmath.gate.readers.regions import Display, Heading, PinComment, Regions, line_of, line_starts

DISPLAY = {f"{name}{star}" for name in ("equation", "align", "gather", "multline", "eqnarray",
                                        "flalign", "alignat") for star in ("", "*")} \
    | {"displaymath"}
CODE = {"verbatim", "verbatim*", "Verbatim", "lstlisting", "minted", "comment", "alltt"}
NOT_PROSE = {"cite", "citep", "citet", "citealp", "citeauthor", "citeyear", "nocite", "ref",
             "eqref", "pageref", "autoref", "cref", "Cref", "label", "url", "bibitem",
             "includegraphics", "bibliography", "bibliographystyle", "input", "include",
             "documentclass", "usepackage", "verb", "setcounter", "addtocounter", "vspace",
             "hspace", "newcommand", "renewcommand", "DeclareMathOperator"}
"""Macros whose arguments are never prose (``\\href``'s URL, its first argument, too)."""
GROUPS_AFTER = {"href": 1, "bibitem": 1}
"""Macros pylatexenc does not know the arguments of: how many ``{…}`` after them to blank."""
SECTIONS = {"section": 1, "subsection": 2}
BIBLIOGRAPHY = {"thebibliography"}


class UnreadableSource(ValueError):
    """pylatexenc could not walk the source."""


def read_latex(text: str) -> Regions:
    """The sections, display formulas, comments, pins and non-prose spans of a LaTeX source."""
    from pylatexenc.latexwalker import LatexWalker

    try:
        nodes, _, _ = LatexWalker(text, tolerant_parsing=True).get_latex_nodes()
    except Exception as exc:  # pylatexenc raises many kinds on malformed input
        raise UnreadableSource(f"{type(exc).__name__}: {exc}".splitlines()[0][:200]) from None
    walk = _Walk(text)
    body = next((n for n in nodes if _environment(n) == "document"), None)
    if body is not None:
        walk.regions.hidden.append((0, body.pos))
        walk.regions.hidden.append((body.pos + body.len, len(text)))
        walk.nodes(body.nodelist or [])
    else:
        walk.nodes(nodes)
    return walk.regions


def _environment(node: Any) -> str | None:
    return getattr(node, "environmentname", None)


class _Walk:
    """One pass over the nodes, filling :class:`Regions`."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = line_starts(text)
        self.regions = Regions()
        self.counters = [0, 0]

    def nodes(self, nodes: list[Any]) -> None:
        skip_groups = 0
        for node in nodes:
            if node is None:
                continue
            kind = type(node).__name__
            if skip_groups and kind == "LatexGroupNode":
                self.hide(node)
                skip_groups -= 1
                continue
            skip_groups = 0
            if kind == "LatexCommentNode":
                self.comment(node)
            elif kind == "LatexMathNode":
                self.math(node, node.displaytype == "display")
            elif kind == "LatexEnvironmentNode":
                self.environment(node)
            elif kind == "LatexMacroNode":
                skip_groups = self.macro(node)
            elif kind == "LatexGroupNode":
                self.nodes(node.nodelist or [])

    def hide(self, node: Any) -> None:
        self.regions.hidden.append((node.pos, node.pos + node.len))

    def comment(self, node: Any) -> None:
        self.hide(node)
        inner = node.comment.strip()
        if inner.startswith("tmath:"):
            ids = tuple(p for p in inner[len("tmath:"):].replace(",", " ").split() if p)
            if ids:
                self.regions.pins.append(PinComment(ids, line_of(self.starts, node.pos),
                                                    node.pos, node.pos + node.len))

    def math(self, node: Any, display: bool) -> None:
        opening, closing = node.delimiters
        start, end = node.pos, node.pos + node.len
        if end - start < len(opening) + len(closing) or \
                self.text[end - len(closing):end] != closing:
            self.regions.unclosed.append(start)  # pylatexenc ran it to the end of the text
            return
        content = self.text[start + len(opening):end - len(closing)]
        if content.strip():
            inner = start + len(opening) + len(content) - len(content.lstrip())
            formula = Display(start, end, inner, content.strip())
            if display:
                self.add(formula)
            else:
                self.regions.add_inline(formula)

    def add(self, formula: Display) -> None:
        self.regions.add(formula)
        first, last = line_of(self.starts, formula.start), line_of(self.starts, formula.end)
        self.regions.skip_lines.update(range(first, last + 1))

    def environment(self, node: Any) -> None:
        name = _environment(node)
        if name in DISPLAY:
            latex = self.text[node.pos:node.pos + node.len]
            if not latex.endswith(f"\\end{{{name}}}"):
                self.regions.unclosed.append(node.pos)
                return
            self.add(Display(node.pos, node.pos + node.len, node.pos, latex))
            for inside in node.nodelist or []:  # \label{eq:1} is no figure of the formula
                if getattr(inside, "macroname", None) in NOT_PROSE:
                    self.hide(inside)
        elif name in CODE or name in BIBLIOGRAPHY:
            self.hide(node)
        else:
            self.nodes(node.nodelist or [])

    def macro(self, node: Any) -> int:
        """Read a macro; return how many ``{…}`` groups after it are not prose."""
        name = node.macroname
        args = [a for a in (node.nodeargd.argnlist if node.nodeargd else []) if a is not None]
        if name in NOT_PROSE:
            self.hide(node)
            if name in ("input", "include"):
                self.regions.notes.append(
                    f"line {line_of(self.starts, node.pos) + 1}: "
                    f"{self.text[node.pos:node.pos + node.len]} is not followed; check that file "
                    "on its own")
            return GROUPS_AFTER.get(name, 0)
        if name in SECTIONS:
            self.section(node, name, args)
        elif name in GROUPS_AFTER:
            self.hide(node)
            return GROUPS_AFTER[name]
        for arg in args:  # \emph{…}, \textbf{…}: prose that may hold math or comments
            if type(arg).__name__ == "LatexGroupNode":
                self.nodes(arg.nodelist or [])
        return 0

    def section(self, node: Any, name: str, args: list[Any]) -> None:
        groups = [a for a in args if type(a).__name__ == "LatexGroupNode"]
        if not groups:
            return
        title_node = groups[-1]
        title = self.text[title_node.pos + 1:title_node.pos + title_node.len - 1].strip()
        starred = any(type(a).__name__ == "LatexCharsNode" and a.chars == "*" for a in args)
        level = SECTIONS[name]
        number = None
        if not starred:
            if level == 1:
                self.counters = [self.counters[0] + 1, 0]
                number = str(self.counters[0])
            elif self.counters[0]:
                self.counters[1] += 1
                number = f"{self.counters[0]}.{self.counters[1]}"
        line = line_of(self.starts, node.pos)
        column = title_node.pos + 1 - self.starts[line]
        self.regions.headings.append(Heading(line, level, " ".join(title.split()),
                                             column, number, not starred))

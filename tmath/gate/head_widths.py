"""Head widths printed in a table, held to claim ``multi-head-shapes``.

The claim proves that splitting d_model features into h heads gives heads of width
d_k = d_model/h. Tables of model variants (the paper's Table 3) print h, d_k, d_v and d_model
in columns headed by those symbols, and leave a cell empty where a row keeps the first
(base) row's value. A row that prints both h and d_k (or d_v) itself must have
h·d_k = d_model, with its own d_model or else the base row's; a row that changes d_k alone (an
experiment with narrower keys) is not judged. A row that breaks it contradicts the claim, on
the d_k (or d_v) cell.
"""

from __future__ import annotations

import re

from tmath.gate.document import Document
from tmath.gate.findings import Finding

CLAIM = "multi-head-shapes"
_NUMBER = re.compile(r"\d+")


def widths_judged(document: Document) -> list[Finding]:
    """A finding for each table row whose printed h and head width do not make d_model."""
    from tmath.gate.readers.macros import expand, macros
    from tmath.gate.settings import _column_quantity
    from tmath.gate.tables import tables_in

    defined = macros(document.raw) if document.kind == "latex" else {}
    found = []
    for table in tables_in(document):
        columns = {_column_quantity(expand(head, defined)): k for k, head in enumerate(table.header)}
        if "heads" not in columns or "d_model" not in columns or \
                not ({"d_k", "d_v"} & set(columns)):
            continue
        base = None
        for row in table.rows:
            values = {q: _value(row, k) for q, k in columns.items() if q}
            if base is None:
                if all(values.get(q) for q in ("heads", "d_model")):
                    base = values
                continue
            heads, width = values.get("heads"), values.get("d_model") or base["d_model"]
            for quantity in ("d_k", "d_v"):
                if heads and values.get(quantity) and heads * values[quantity] != width:
                    cell = row[columns[quantity]]
                    found.append(_finding(document, cell.start, cell.text, quantity, heads,
                                          values[quantity], width))
                    break
    return found


def _value(row, k: int) -> int | None:
    text = row[k].text.strip("$ {}") if k < len(row) else ""
    return int(text) if _NUMBER.fullmatch(text) else None


def _finding(document: Document, at: int, printed: str, quantity: str, heads: int, width: int,
             model: int) -> Finding:
    section = document.section_at(at)
    symbol = "d_k" if quantity == "d_k" else "d_v"
    return Finding(
        kind="formula", status="contradicts", meaning="contradicts", document=document.path,
        section=section.number if section else None, line=document.line_of(at),
        column=document.column_of(at), formula=printed.strip(), claim=CLAIM, claims=(CLAIM,),
        compared_with=("statement",), recorded="d_k = d_{model}/h",
        detail=f"claim {CLAIM} proves {symbol} = d_model/h: with h = {heads} and d_model = "
               f"{model} (the row's, else the first row's) it is {model / heads:g}; the row "
               f"prints {width}")

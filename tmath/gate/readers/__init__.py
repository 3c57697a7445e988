"""Readers: one per format people write mathematics in, each finding the regions of a text.

A reader never builds the document itself: it returns :class:`~tmath.gate.readers.regions.
Regions` (headings, display formulas, spans that are not prose, claim pins), and
:mod:`tmath.gate.document` assembles the one document model from them, so every format keeps
the same limits, numbering and masking. Each reader imports its parser only when a document of
its format is read.

* :mod:`~tmath.gate.readers.markdown`: CommonMark with ``$``/``$$``, ``\\( \\)``/``\\[ \\]``
  and amsmath environments (markdown-it-py and mdit-py-plugins);
* :mod:`~tmath.gate.readers.latex`: LaTeX sources (pylatexenc);
* :mod:`~tmath.gate.readers.notebook`: Jupyter notebooks' Markdown cells (nbformat);
* plain text (anything else) is read by :func:`tmath.gate.document.parse_document`.
"""

"""The shapes a document declares, held to the products its formulas take.

Claim ``multi-head-shapes`` proves the shapes of attention: Q⁽ⁱ⁾, K⁽ⁱ⁾, V⁽ⁱ⁾ and head_i are
T×d_k, the concatenated heads feed W_O exactly. A document declares shapes
(``W^K_i \\in \\mathbb{R}^{d_{model} \\times d_k}``, ``\\mathbf V\\in\\mathbb R^{m\\times v}``)
and writes products of the names (``\\mathrm{Attention}(QW^Q_i, KW^K_i, VW^V_i)``,
``\\mathrm{softmax}(QK^\\top/\\sqrt{d})V``); the two must fit. Shapes are carried through a
formula one operation at a time:

* a product needs the columns of each factor to be the rows of the next; a sum equal shapes;
  a transpose swaps; a scalar factor, a division by one and softmax (or another function of
  one matrix) keep the shape; the products inside the arguments of a function of the
  document's own (``f(\\mathbf W^{(q)}_i \\mathbf q, …)``) must fit, its value is not known;
* ``Attention(Q, K, V)`` needs Q and K to have as many columns, K and V as many rows, and is
  rows(Q)×cols(V); ``Concat(head_1, …, head_h)`` has h times the columns of one head, and a
  column ``[h_1; ⋮; h_h]`` h times the rows of one;
* a name without a declaration in force has an unknown shape, fixed by the first product it
  takes part in (Q in ``QW^Q_i`` has the rows of W^Q_i as its columns), and a name the
  document defines (``head_i = …``) has the shape of its definition;
* a batch ``[Q_1, Q_2, \\ldots, Q_n] \\in \\mathbb{R}^{n \\times a \\times b}`` declares each member
  a×b; a batch of products ``[Q_1 K_1, \\ldots, Q_n K_n]`` is n times the shape of one
  (members numbered 1 to n); no other operation is taken of a batch;
* ``X \\in \\mathbb{R}^{a \\times b}`` of an expression (``\\mathrm{softmax}(…)V \\in …``)
  states its shape: it must be the one carried; so must the definition of a declared name
  (``\\mathbf A \\in \\mathbb{R}^{L \\times L}``, then ``\\mathbf A = \\mathrm{softmax}(…)``).

Two sizes disagree when they are different expressions of the document's names (``d_k`` and
``d_{model}``, ``m`` and ``n``): a product then needs a size equal to another that the
document keeps apart. A number against a name is never a disagreement (the document may
mean that value). A declaration is in force from where it is printed (the nearest above in
the section, else the first in the few lines after the formula, as in "where W^O ∈ …").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import sympy as sp

from tmath.latex.operators import Attention, Concat, Dots, RealSpace, Rows, Stack, Transpose

Shape = tuple  # (rows, cols), or (count, rows, cols) of a batch; each a SymPy expression


class Mismatch(Exception):
    """Two sizes a formula's products need equal that the document keeps apart."""

    def __init__(self, what: str, a: sp.Basic, b: sp.Basic, names: set[str]) -> None:
        super().__init__(what)
        self.what, self.a, self.b, self.names = what, a, b, names
        self.index = 0   # which relation of the formula


def key(expr: sp.Basic) -> str | None:
    """The name of a matrix as declared and used: ``W^Q_i`` (read as a power of a family
    member) is ``W[·]**Q``; a family's members are one name (``head_1``, ``head_i``), and
    ``W_i^{(q)}`` and ``W_i^{(k)}`` are two (``W[·,q]``, ``W[·,k]``); a document function's
    value at given arguments (``sublayer(x)``) is named by that application."""
    if isinstance(expr, sp.Symbol):
        match = re.fullmatch(r"([A-Za-z]+)_([A-Za-z0-9])", expr.name)
        return f"{match.group(1)}[·]" if match and len(match.group(1)) > 1 else expr.name
    if isinstance(expr, sp.core.function.AppliedUndef):   # sublayer(x) ∈ ℝ^d: that value
        return str(expr)
    if isinstance(expr, sp.Indexed):   # W_i^{(q)} is W[i, q]: after the member, a label
        labels = ",".join(str(i) for i in expr.indices[1:])
        return f"{expr.base}[·{',' + labels if labels else ''}]"
    if isinstance(expr, sp.Pow) and isinstance(expr.exp, sp.Symbol) and \
            (len(expr.exp.name) == 1 or not expr.exp.is_commutative) and \
            (not expr.base.is_commutative or not expr.exp.is_commutative
             or expr.exp.name.isupper()):
        base = key(expr.base)   # W^q of a matrix W, W^Q: a label, not a power
        return f"{base}**{expr.exp.name}" if base else None
    return None


def _defined_name(lhs: sp.Basic) -> str | None:
    """The name a relation ``name = …`` defines: a matrix's (``head_i``), never a function's
    value (``MultiHead(Q, K, V) = …`` states what the function gives)."""
    return None if isinstance(lhs, sp.core.function.AppliedUndef) else key(lhs)


def declared(relation) -> tuple[sp.Basic, Shape] | None:
    """``X ∈ ℝ^{a×b}``: the expression and its shape (a vector ℝ^a is a×1; ℝ^{n×a×b} is a
    batch)."""
    if relation.op != "in" or not isinstance(relation.rhs, RealSpace) or \
            len(relation.rhs.args) not in (1, 2, 3):
        return None
    dims = tuple(relation.rhs.args) + ((sp.S.One,) if len(relation.rhs.args) == 1 else ())
    return relation.lhs, dims


@dataclass
class Carrier:
    """Carries shapes through one formula: the declarations and definitions in force, and the
    unknown sizes fixed so far."""

    shapes: Mapping[str, Shape]
    defined: Mapping[str, sp.Basic] = field(default_factory=dict)
    fixed: dict = field(default_factory=dict)
    unknown: dict = field(default_factory=dict)
    used: set = field(default_factory=set)
    expanding: set = field(default_factory=set)
    known: dict = field(default_factory=dict)

    def of(self, expr: sp.Basic) -> Shape | None:
        """The shape of ``expr`` (None for a scalar); raises :class:`Mismatch`."""
        name = key(expr)
        undeclared = isinstance(expr, sp.core.function.AppliedUndef) and name not in self.shapes
        if name is not None and not undeclared:   # f(W q, …) undeclared: its arguments below
            if expr.is_commutative and name not in self.shapes and name not in self.defined:
                return None   # a number's name (d_k), unless declared a matrix
            if isinstance(expr, sp.core.function.AppliedUndef):
                for argument in expr.args:   # declared f(W^q q, …): its products must fit too
                    self.of(argument)
            return self._named(name)
        if expr.is_commutative and not isinstance(expr, sp.Function) and not (
                isinstance(expr, sp.Add) and any(key(a) in self.shapes for a in expr.args)):
            return None   # a number (a sum with a declared vector, x + f(x), is carried)
        if isinstance(expr, Transpose):
            inner = self.of(expr.args[0])
            return None if inner is None or len(inner) != 2 else (inner[1], inner[0])
        if isinstance(expr, Stack):
            return self._stack(expr)
        if isinstance(expr, sp.Mul):
            matrices = [a for a in expr.args if not a.is_commutative]
            if not matrices:   # SymPy has put the factors in its own order: not known
                return self._fresh() if any(self.of(a) for a in expr.args) else None
            carried = self._product([self._joined_heads(m) if k == 0 and len(matrices) > 1
                                     else m for k, m in enumerate(matrices)])
            if all(_scalar(a) for a in expr.args if a.is_commutative):
                return carried
            return self._fresh()   # a factor read as a number may be a vector (∂L/∂h_t)
        if isinstance(expr, sp.Add):
            shapes = [s for s in map(self.of, expr.args) if s is not None]
            if len({len(s) for s in shapes}) > 1:
                return None   # a batch and a matrix: broadcasting is not followed
            for other in shapes[1:]:
                self._same(shapes[0], other, "the terms of a sum")
            return shapes[0] if shapes else None
        if isinstance(expr, Attention) and len(expr.args) == 3:
            q, k, v = (self.of(a) or self._fresh() for a in expr.args)
            if len(q) != 2 or len(k) != 2 or len(v) != 2:
                return None
            self._equal(q[1], k[1], "Attention needs queries and keys of one width")
            self._equal(k[0], v[0], "Attention needs as many keys as values")
            return (q[0], v[1])
        if isinstance(expr, Concat):
            return self._concat(expr)
        if isinstance(expr, Rows):
            return self._rows(expr)
        if isinstance(expr, sp.Function) and len(expr.args) == 1:
            return self.of(expr.args[0])   # softmax, exp, …: entry by entry
        if isinstance(expr, sp.core.function.AppliedUndef):
            for argument in expr.args:   # f(W^q q, W^k k, W^v v): each product must fit
                self.of(argument)
        return None

    def _named(self, name: str) -> Shape:
        if name in self.shapes:
            self.used.add(name)
            return tuple(self._resolve(d) for d in self.shapes[name])
        if name in self.defined and name not in self.expanding:
            if name not in self.known:
                self.expanding.add(name)   # a definition that uses itself is not followed
                self.known[name] = self.of(self.defined[name])
                self.expanding.discard(name)
            if self.known[name] is not None:
                return self.known[name]
        if name not in self.unknown:
            self.unknown[name] = self._fresh()
        return tuple(self._resolve(d) for d in self.unknown[name])

    def _product(self, factors: list) -> Shape | None:
        shapes = [self.of(f) for f in factors]
        if all(s is None for s in shapes):
            return None
        shapes = [s if s is not None else self._fresh() for s in shapes]   # not read: unknown
        if any(len(s) != 2 for s in shapes):
            return None   # a product of batches is not read
        for left, right in zip(shapes, shapes[1:]):
            self._equal(left[1], right[0], "a product needs the columns of each factor to be "
                                           "the rows of the next")
        return (self._resolve(shapes[0][0]), self._resolve(shapes[-1][1]))

    def _joined_heads(self, expr: sp.Basic) -> sp.Basic:
        """``[head_1; …; head_h] W^O``: attention heads (members the document defines as
        ``Attention(…)``) listed and then projected are joined feature-wise, as claim
        ``multi-head-shapes`` proves; any other list times a matrix stays a batch (not read)."""
        if not isinstance(expr, Stack) or len(expr.args) != 1 or \
                not isinstance(expr.args[0], Dots):
            return expr
        members = [*expr.args[0].args[0], *expr.args[0].args[1]]
        if members and all(isinstance(self.defined.get(key(m)), Attention) for m in members):
            return Concat(expr.args[0])
        return expr

    def _concat(self, expr: Concat) -> Shape | None:
        parts = list(expr.args)
        if len(parts) == 1 and isinstance(parts[0], Dots):
            before, after = parts[0].args
            first, last = (_member(items[0]) if len(items) == 1 else None
                           for items in (before, after))
            if first is None or last is None or first[0] != last[0] or first[1] != 1:
                return None
            one = self.of(before[0])
            return None if one is None else (one[0], last[1] * one[1])
        shapes = [s for s in map(self.of, parts) if s is not None]
        if len(shapes) != len(parts) or not shapes or any(len(s) != 2 for s in shapes):
            return None
        for other in shapes[1:]:
            self._equal(shapes[0][0], other[0], "concatenated matrices need as many rows")
        return (shapes[0][0], sp.Add(*[s[1] for s in shapes]))

    def _rows(self, expr: Rows) -> Shape | None:
        """A column ``h_1; ⋮; h_n`` of one family numbered 1 to n: n times the rows of one
        (a number counts as one row)."""
        before, after = expr.args[0].args
        first, last = (_member(items[0] if items is before else items[-1], shortest=1)
                       for items in (before, after))
        if first is None or last is None or first[0] != last[0] or first[1] != 1:
            return None
        one = self.of(before[0])
        if one is None:
            return (last[1], sp.S.One)
        return None if len(one) != 2 else (last[1] * self._resolve(one[0]), self._resolve(one[1]))

    def _stack(self, expr: Stack) -> Shape | None:
        """A batch of members numbered 1 to n, all of one shape: (n, rows, cols)."""
        if len(expr.args) != 1 or not isinstance(expr.args[0], Dots):
            return None
        before, after = expr.args[0].args
        members = [*before, *after]
        numbers = [_number_of(m) for m in members]
        if not after or numbers[0] != 1 or None in numbers or \
                numbers[:len(before)] != list(range(1, len(before) + 1)):
            return None
        shapes = [self.of(m) for m in members]
        if any(s is None or len(s) != 2 for s in shapes):
            return None
        for other in shapes[1:]:
            self._same(shapes[0], other, "the members of a batch")
        return (numbers[-1], self._resolve(shapes[0][0]), self._resolve(shapes[0][1]))

    def _fresh(self) -> Shape:
        return (sp.Dummy("r"), sp.Dummy("c"))

    def _resolve(self, size: sp.Basic) -> sp.Basic:
        for _ in range(8):
            if isinstance(size, sp.Dummy) and size in self.fixed:
                size = self.fixed[size]
            else:
                break
        return size

    def _same(self, a: Shape, b: Shape, what: str) -> None:
        if len(a) != len(b):
            return   # a batch against a matrix: how the document broadcasts is not read
        for x, y in zip(a, b):
            self._equal(x, y, what)

    def _equal(self, a: sp.Basic, b: sp.Basic, what: str) -> None:
        a, b = self._resolve(a), self._resolve(b)
        if a == b:
            return
        if isinstance(a, sp.Dummy):
            self.fixed[a] = b
            return
        if isinstance(b, sp.Dummy):
            self.fixed[b] = a
            return
        if a.has(sp.Dummy) or b.has(sp.Dummy) or a.is_Number or b.is_Number:
            return   # a number may be the value a name has: never a disagreement
        if sp.simplify(_split(a, b) - _split(b, a)) != 0:
            raise Mismatch(what, a, b, set(self.used))


def _scalar(expr: sp.Basic) -> bool:
    """A factor that is surely a number: numbers and plain names, powers and roots of them
    (a derivative, a family member, a function's value may be a vector)."""
    return not expr.atoms(sp.Function, sp.Derivative, sp.Indexed, sp.Integral, sp.Sum) and \
        not any(isinstance(a, sp.Symbol) and not a.is_commutative for a in expr.atoms())


def _member(expr: sp.Basic, shortest: int = 2) -> tuple[str, sp.Basic] | None:
    """``head_1``, ``head[h]``: the family and the index (a number or a name); a family name
    of one letter (``h_1``, ``h_h``) only with ``shortest=1``."""
    if isinstance(expr, sp.Indexed) and len(expr.indices) == 1:
        return str(expr.base), expr.indices[0]
    match = re.fullmatch(rf"([A-Za-z]{{{shortest},}})_(\d+|[A-Za-z])", getattr(expr, "name", ""))
    if match is None:
        return None
    index = match.group(2)
    return match.group(1), sp.Integer(index) if index.isdigit() else sp.Symbol(index)


def _number_of(member: sp.Basic) -> sp.Basic | None:
    """The one index all the family members in a batch's member share (``Q_2 K_2`` → 2)."""
    indices = {m.indices for m in member.atoms(sp.Indexed)}
    if len(indices) != 1:
        return None
    (index,) = indices
    return index[0] if len(index) == 1 else None


def _split(size: sp.Basic, other: sp.Basic) -> sp.Basic:
    """``hd_v`` read as one name is h·d_v where the other side spells ``h`` and ``d_v``."""
    names = {s.name for s in other.free_symbols}
    swaps = {}
    for symbol in size.free_symbols:
        parts = _parts(symbol.name, names)
        if parts and len(parts) > 1:
            swaps[symbol] = sp.Mul(*[sp.Symbol(p, positive=True) if p not in
                                     {s.name for s in other.free_symbols} else
                                     next(s for s in other.free_symbols if s.name == p)
                                     for p in parts])
    return size.xreplace(swaps)


def _parts(name: str, known: set[str]) -> list[str] | None:
    """``name`` as a run of ``known`` names, longest first; None if it is not one."""
    if not name:
        return []
    for cut in sorted((n for n in known if name.startswith(n)), key=len, reverse=True):
        rest = _parts(name[len(cut):], known)
        if rest is not None:
            return [cut, *rest]
    return None


def mismatch(relations: Sequence, shapes: Mapping[str, Shape],
             defined: Mapping[str, sp.Basic]) -> Mismatch | None:
    """The first disagreement in a formula's relations (its products, the shape it states for
    an expression, the two sides of an equation), or None."""
    carrier = Carrier(shapes, dict(defined))
    index = 0
    order = sorted(range(len(relations)), key=lambda k: _defined_name(relations[k].lhs) is None)
    try:   # a definition first (head_i = …): a disagreement inside it is on its row
        for index in order:
            _check(carrier, relations[index])
    except Mismatch as found:
        found.index = index
        found.names = _culprits(relations, shapes, defined, found.names)
        return found
    return None


def _culprits(relations: Sequence, shapes: Mapping[str, Shape],
              defined: Mapping[str, sp.Basic], names: set[str]) -> set[str]:
    """The declarations the disagreement rests on: those without which it is gone (all of
    them, when no single one is)."""
    alone = set()
    for name in names:
        rest = {k: v for k, v in shapes.items() if k != name}
        if _first(relations, rest, defined) is None:
            alone.add(name)
    return alone or names


def _first(relations: Sequence, shapes: Mapping[str, Shape],
           defined: Mapping[str, sp.Basic]) -> Mismatch | None:
    carrier = Carrier(shapes, dict(defined))
    try:
        for relation in relations:
            _check(carrier, relation)
    except Mismatch as found:
        return found
    return None


def _check(carrier: Carrier, relation) -> None:
    """One relation's products, its stated shape (``… ∈ ℝ^{a×b}``), its sides' shapes."""
    if relation.op == "in":
        found = declared(relation)
        if found is not None and key(found[0]) is None:   # a product's stated shape
            carried = carrier.of(found[0])
            if carried is not None:
                carrier._same(carried, found[1], "the shape stated for it")
        return
    if relation.op != "=":
        return
    sides = [s for s in (relation.lhs, relation.rhs)
             if isinstance(s, sp.Basic) and not isinstance(s, RealSpace)]
    carried = [carrier.of(s) for s in sides]
    named = key(relation.lhs)
    defines = named in carrier.shapes and not relation.rhs.has(relation.lhs)   # not A = Aᵀ
    if len(carried) == 2 and None not in carried and (named is None or defines):
        carrier._same(carried[0], carried[1], "the two sides of an equation")


def facts_of(relations: Sequence) -> tuple[tuple, tuple, bool]:
    """What a formula gives the document-wide check: the shapes it declares for names
    (key, which relation, then the sizes as ``srepr``: rows, cols, or count, rows, cols of a
    batch, whose members are declared rows×cols), the matrices it defines (key, which relation); and
    whether it has something to check (a product of matrices, an operator of them, a stated
    shape)."""
    declares, defines, checkable = [], [], False
    for index, relation in enumerate(relations):
        found = declared(relation)
        chained = found is not None and index and relations[index - 1].op == "=" and \
            relations[index - 1].rhs == found[0] and key(relations[index - 1].lhs)
        if found is not None and key(found[0]) is not None and not (
                chained and isinstance(found[0], sp.core.function.AppliedUndef)):
            # h_i = f(…) ∈ ℝ^p states h_i's shape; f(…) alone (sublayer(x) ∈ ℝ^d) its own
            declares.append((key(found[0]), str(index), *(sp.srepr(d) for d in found[1])))
            if _defined_name(found[0]) is not None:
                continue   # a function's value (h_j = f(…) ∈ ℝ^p) may also state h_j's
        if chained:   # ``Q = XW^q ∈ ℝ^{L×d_k}``: the chain states the shape of Q as well
            declares.append((key(relations[index - 1].lhs), str(index),
                             *(sp.srepr(d) for d in found[1])))
        if found is not None and isinstance(found[0], Stack) and len(found[1]) == 3 and \
                all(isinstance(a, Dots) for a in found[0].args):
            members = {key(m) for dots in found[0].args for part in dots.args for m in part}
            declares.extend((name, str(index), *(sp.srepr(d) for d in found[1][1:]))
                            for name in sorted(members - {None}))
        checkable = checkable or found is not None
        for side in (relation.lhs, relation.rhs):
            if isinstance(side, sp.Basic) and not isinstance(side, RealSpace) and \
                    (side.has(Attention, Concat, Transpose, Stack, Rows) or any(
                        isinstance(m, sp.Mul) and sum(not a.is_commutative for a in m.args) > 1
                        for m in sp.preorder_traversal(side))):
                checkable = True
        if relation.op == "=" and _defined_name(relation.lhs) is not None and \
                isinstance(relation.rhs, sp.Basic) and (not relation.rhs.is_commutative
                                                        or isinstance(relation.rhs, Concat)):
            defines.append((key(relation.lhs), str(index)))
    return tuple(declares), tuple(defines), checkable

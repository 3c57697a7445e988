"""Recursive-descent reader of one LaTeX expression (or relation chain) into SymPy.

SymPy objects are built from tokens: no ``eval``, no ``sympify`` of document text. Whatever
has two readings (``a(b)``, ``a/b c``, ``\\log a b``) or is outside the grammar raises
:class:`Unreadable` with what to write instead.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp
from sympy.core.function import AppliedUndef

from tmath.latex import operators as op
from tmath.latex.limits import MAX_EXACT_POWER, MAX_TOWER, Unreadable
from tmath.latex.notation import CONSTANTS, Notation
from tmath.latex.tokens import Token, split_at, tokenize

GREEK = frozenset("""alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa
lambda mu nu xi rho varrho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi
Sigma Upsilon Phi Psi Omega ell""".split())
ELEMENTARY = {"sin": sp.sin, "cos": sp.cos, "tan": sp.tan, "exp": sp.exp, "log": sp.log,
              "ln": sp.log, "sinh": sp.sinh, "cosh": sp.cosh, "tanh": sp.tanh,
              "arcsin": sp.asin, "arccos": sp.acos, "arctan": sp.atan}
RELATIONS = {"=": "=", "<": "<", ">": ">", "le": "<=", "leq": "<=", "leqslant": "<=",
             "ge": ">=", "geq": ">=", "geqslant": ">=", "neq": "!=", "ne": "!=",
             "approx": "approx", "propto": "propto", "to": "to", "rightarrow": "to",
             "in": "in", "coloneqq": ":=", "equiv": "equiv"}
SAME_SYMBOL = frozenset({"mathbf", "boldsymbol", "bm", "vec", "mathit", "mathbfit"})
VECTOR_STYLES = frozenset({"mathbf", "boldsymbol", "bm", "vec", "mathbfit"})
"""Styles that mark a lowercase letter as a vector: ``\\mathbf{q} \\cdot \\mathbf{k}`` is qᵀk."""
VARIANT = {"hat": "hat", "widehat": "hat", "tilde": "tilde", "widetilde": "tilde",
           "bar": "bar", "overline": "bar", "dot": "dot", "ddot": "ddot"}
BOLD = frozenset({"mathbf", "boldsymbol", "bm", "mathbfit"})
TRANSPOSE = frozenset({"T", "top", "intercal", "mathsf{T}"})
ELLIPSIS = frozenset({"ldots", "dots", "cdots", "dotsc"})
FRACTIONS = frozenset({"frac", "dfrac", "tfrac"})
MATRIX_ENVS = frozenset({"bmatrix", "pmatrix", "matrix", "Bmatrix"})


@dataclass(frozen=True)
class Name:
    """A name before its subscript and application decide what it is."""

    text: str
    upright: bool = False


@dataclass(frozen=True)
class Applied:
    """A resolved name that may apply to parentheses: an operator class or a function name."""

    name: str
    operator: type | None = None


class Parser:
    """Reads tokens[i:].

    ``matrices_seen`` collects names printed with ^T and names multiplied by a matrix (shared by
    sub-parsers): the formula is read again with them declared matrices. ``bound`` holds the
    indices of enclosing sums, which are indices wherever they are subscripts.
    """

    def __init__(self, tokens: tuple[Token, ...] | list[Token], notation: Notation,
                 matrices_seen: set[str] | None = None, tower: int = 0,
                 bound: frozenset[str] = frozenset(), listing: bool = False) -> None:
        self.tokens, self.i, self.notation = list(tokens), 0, notation
        self.matrices_seen = set() if matrices_seen is None else matrices_seen
        self.tower, self.bound, self.listing = tower, bound, listing
        self.vector_factor = False   # the last factor read was a styled vector (\mathbf{q})

    # -- token helpers ---------------------------------------------------------------------
    def peek(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.tokens[j] if j < len(self.tokens) else None

    def at(self, kind: str, value: str | None = None, k: int = 0) -> bool:
        tok = self.peek(k)
        return tok is not None and tok.kind == kind and (value is None or tok.value == value)

    def take(self) -> Token:
        tok = self.peek()
        if tok is None:
            raise Unreadable("the formula ends too early (a missing argument or closing bracket)")
        self.i += 1
        return tok

    def expect(self, kind: str, value: str) -> None:
        tok = self.take()
        if tok.kind != kind or tok.value != value:
            raise Unreadable(f"expected {value!r}, found {tok.value!r}")

    def done(self) -> bool:
        return self.i >= len(self.tokens)

    def child(self, tokens: list[Token], deeper: bool = False) -> "Parser":
        tower = self.tower + 1 if deeper else self.tower
        if tower > MAX_TOWER:
            raise Unreadable(f"superscripts nested more than {MAX_TOWER} deep: not read")
        return Parser(tokens, self.notation, self.matrices_seen, tower, self.bound, self.listing)

    def whole(self, tokens: list[Token], deeper: bool = False) -> sp.Basic:
        """Parse ``tokens`` as exactly one expression."""
        sub = self.child(tokens, deeper)
        value = sub.expr()
        sub.finish()
        return value

    def finish(self) -> None:
        if not self.done():
            raise Unreadable(f"unexpected {self.peek().value!r} (the reader's grammar ends here)")

    def group(self) -> list[Token]:
        """The tokens of a {…} group, or of the single next token."""
        tok = self.take()
        if not (tok.kind == "sym" and tok.value == "{"):
            return [tok]
        return self.until("}")

    def until(self, close: str) -> list[Token]:
        """Tokens up to the bracket ``close`` matching an opening already taken."""
        start, depth = self.i, 0
        while True:
            tok = self.take()
            if tok.kind == "sym" and tok.value in "([{":
                depth += 1
            elif tok.kind == "sym" and tok.value in ")]}":
                if depth == 0:
                    if tok.value != close:
                        raise Unreadable(f"{tok.value!r} closes a group opened with another bracket")
                    return self.tokens[start:self.i - 1]
                depth -= 1

    # -- relations -------------------------------------------------------------------------
    def relation_op(self) -> str | None:
        tok = self.peek()
        if tok is None:
            return None
        if tok.kind == "sym" and tok.value == ":" and self.at("sym", "=", 1):
            self.i += 2
            return ":="
        if (tok.kind == "sym" or tok.kind == "cmd") and tok.value in RELATIONS:
            self.i += 1
            return RELATIONS[tok.value]
        return None

    def chain(self, first: sp.Basic | None = None) -> tuple[list[sp.Basic], list[str]]:
        """``e0 op1 e1 op2 e2 …`` (``first`` continues an aligned row that starts with op)."""
        exprs = [self.expr() if first is None else first]
        ops: list[str] = []
        while (relation := self.relation_op()) is not None:
            ops.append(relation)
            exprs.append(self.expr())
        return exprs, ops

    # -- expressions -----------------------------------------------------------------------
    def expr(self) -> sp.Basic:
        sign = 1
        if self.at("sym", "+") or self.at("sym", "-"):
            sign = -1 if self.take().value == "-" else 1
        total = sign * self.term() if sign == -1 else self.term()
        while self.at("sym", "+") or self.at("sym", "-"):
            minus = self.take().value == "-"
            value = self.term()
            total = total - value if minus else total + value
        if self.at("cmd", "oplus"):   # a ⊕ b: joined (summed or concatenated), never evaluated
            self.i += 1
            return op.Joined(total, self.expr())
        if self.at("cmd", "pm") or self.at("cmd", "mp"):
            raise Unreadable("± is two formulas: write each sign separately")
        return total

    def term(self, shape: bool = False) -> sp.Basic:
        value = self.factor()
        vector = self.vector_factor   # the term so far is one styled vector
        while True:
            tok = self.peek()
            if tok is None:
                return value
            if (tok.kind == "cmd" and tok.value in ("cdot", "times") and not
                    (shape and tok.value == "times")) or (tok.kind == "sym" and tok.value == "*") \
                    or self.at_dot_product():
                self.i += 1
                right = self.factor()
                if tok.value in ("cdot", ".") and vector and self.vector_factor:
                    value = op.Inner(value, right)   # 𝐪·𝐤 of two vectors: a number
                else:
                    value = self.product(value, right)
                vector = False
            elif tok.kind == "sym" and tok.value == "/":
                self.i += 1
                value = value / self.factor()
                vector = False
                if self.starts_factor():
                    raise Unreadable("a/b c has two readings: write \\frac{a}{b} c or a/(b c)")
            elif self.starts_factor():
                value = self.product(value, self.factor())
                vector = False
            else:
                return value

    def at_dot_product(self) -> bool:
        """A period between two factors, ``\\omega_k . t``, is read as ``\\cdot`` (of two
        vectors, their inner product); a period that ends the formula is punctuation."""
        tok = self.peek()
        if tok is None or tok.kind != "sym" or tok.value != ".":
            return False
        self.i += 1
        try:
            return self.starts_factor()
        finally:
            self.i -= 1

    def product(self, left: sp.Basic, right: sp.Basic) -> sp.Basic:
        """left·right, in that order; a name multiplied by a matrix is a matrix too; ``a^T b``
        of two lowercase names (vectors) is their inner product, a number."""
        if isinstance(left, op.Transpose) and _vector(left.args[0]) and _vector(right):
            return op.Inner(left.args[0], right)
        if isinstance(right, op.Transpose) and isinstance(left, sp.Indexed) and \
                isinstance(right.args[0], sp.Indexed) and _vector(left) and _vector(right.args[0]):
            return op.Inner(left, right.args[0])   # q_i k_jᵀ of two rows: a number
        if isinstance(left, sp.Mul) and isinstance(left.args[-1], op.Transpose) \
                and _vector(left.args[-1].args[0]) and _vector(right):   # c·qᵀ k
            return sp.Mul(*left.args[:-1]) * op.Inner(left.args[-1].args[0], right)
        for one, other in ((left, right), (right, left)):
            if isinstance(other, op.Transpose) and _vector(other.args[0]):
                continue   # c·qᵀ: a number times a row vector (qᵀk may follow)
            if other.is_commutative is False and one.is_commutative:
                if isinstance(one, sp.Symbol):
                    self.matrices_seen.add(one.name.split("_")[0])
                elif isinstance(one, sp.Indexed):
                    self.matrices_seen.add(str(one.base.label))
        return left * right

    def starts_factor(self) -> bool:
        tok = self.peek()
        if tok is None:
            return False
        if tok.kind in ("letter", "number", "text"):
            return True
        if tok.kind == "sym":
            return tok.value in "([{"
        return tok.value not in RELATIONS and tok.value not in ELLIPSIS and tok.value not in (
            "cdot", "times", "\\\\", "end", "quad", "qquad", "pm", "mp", "rVert", "forall",
            "oplus")

    def factor(self) -> sp.Basic:
        if self.at("sym", "-"):
            self.i += 1
            return -self.factor()
        start = self.i
        value = self.postfix(self.primary())
        first = self.tokens[start]
        self.vector_factor = (first.kind == "cmd" and first.value in VECTOR_STYLES
                              and isinstance(value, (sp.Symbol, sp.Indexed)) and _vector(value))
        return value

    def scripts(self) -> tuple[list[Token] | None, list[Token] | None]:
        """A subscript and a superscript, in either order, each at most once."""
        sub = sup = None
        for _ in range(2):
            if self.at("sym", "_") and sub is None:
                self.i += 1
                sub = self.group()
            elif self.at("sym", "^") and sup is None:
                self.i += 1
                sup = self.group()
        return sub, sup

    def postfix(self, base) -> sp.Basic:
        sub, sup = self.scripts()
        if self.at("sym", "'"):
            base = self.primed(base)
            if sub is None and sup is None:
                sub, sup = self.scripts()
        if isinstance(base, Name) and self.subscript_arguments(base, sub):
            inner = sub[1:-1]
            return self.superscript(sp.Function(base.text)(*self.arguments(inner)), sup) \
                if sup is not None else sp.Function(base.text)(*self.arguments(inner))
        if isinstance(base, Name):
            base = self.resolve(base, sub)
        elif sub is not None:
            raise Unreadable("a subscript on an expression (not on a name) is not read")
        if isinstance(base, Applied):
            base = self.apply(base)
            if sub is None and self.at("sym", "_"):
                base = self.entry_of(base)
            if sup is None and self.at("sym", "^"):
                self.i += 1
                sup = self.group()
        return base if sup is None else self.superscript(base, sup)

    def primed(self, base) -> Name:
        """``δ'``: a name with primes that nothing applies is another name (δ' beside δ);
        ``f'(x)``, a derivative, is not read."""
        primes = 0
        while self.at("sym", "'"):
            self.i, primes = self.i + 1, primes + 1
        n = self.notation
        if not isinstance(base, Name) or self.at("sym", "(") or self.at("cmd", "left") \
                or base.text in n.operators or base.text in n.functions:
            raise Unreadable("a prime (f') is not read: write the derivative out")
        return Name(base.text + "'" * primes, base.upright)

    # -- names -----------------------------------------------------------------------------
    def resolve(self, name: Name, sub: list[Token] | None):
        """A name and its subscript → operator/function (Applied), Symbol or Indexed."""
        n, base, indices = self.notation, name.text, ()
        full = base
        if sub is not None:
            word = _word(sub)
            if word is not None and self.subscript_is_name(base, word):
                full = f"{base}_{word}"
            else:
                indices = self.indices(sub, word)
        if full in n.operators:
            return Applied(full, n.operators[full])
        if base in n.operators and base != full or (indices and base in n.operators):
            raise Unreadable(f"a subscripted operator ({base}_…) is not read")
        matrix = base in n.matrices
        if indices:
            rows = matrix and len(indices) == 1     # q_i: the i-th row (a vector); M_ij: an entry
            return sp.IndexedBase(base, commutative=not rows)[indices]
        if full in n.functions or (full != base and base in n.functions and self.at("sym", "(")) \
                or name.upright and self.at("sym", "("):
            return Applied(full)
        if full == "e":
            return sp.E
        if full in CONSTANTS:
            return CONSTANTS[full]
        if full in ELEMENTARY and self.at("sym", "(") and not matrix:
            return self.elementary(full)   # sin(x) typed without the backslash: still sine
        if self.at("sym", "(") and not matrix:
            if self.has_comma():
                return Applied(full)
            if not self.peek().spaced:
                raise Unreadable(f"{full}(…) is a product or a function: declare {full!r} among the "
                                 "notation's functions, or write a space or \\cdot for a product")
        return sp.Symbol(full, commutative=not matrix)

    def entry_of(self, applied: sp.Basic) -> sp.Basic:
        """``softmax(z)_i``, entry i of an operator's value on a vector z: written
        ``softmax(z_i)``, as the claims write it (the entry's own formula says which)."""
        self.i += 1
        index = self.group()
        if not (len(applied.args) == 1 and isinstance(applied.args[0], sp.Symbol)
                and getattr(applied, "is_Function", False)):
            raise Unreadable("a subscript on an expression (not on a name) is not read")
        entry = self.whole([*tokenize(applied.args[0].name), Token("sym", "_"), Token("sym", "{"),
                            *index, Token("sym", "}")])
        return applied.func(entry)

    def subscript_arguments(self, name: Name, sub: list[Token] | None) -> bool:
        """``PE_{(pos, 2i)}``: a declared function's arguments written as its subscript."""
        return (sub is not None and len(sub) >= 5 and name.text in self.notation.functions
                and sub[0].value == "(" and sub[-1].value == ")" and not self.at("sym", "(")
                and any(t.kind == "sym" and t.value == "," for t in sub))

    def subscript_is_name(self, base: str, word: str) -> bool:
        letters = self.notation.index_letters | self.bound
        if self.listing and (len(word) == 1 or word.isdigit()):
            return False
        if base in self.notation.matrices:   # W_Q, W_1, K_enc name matrices; q_i, k_j index rows
            return not (len(word) <= 3 and all(c in letters for c in word))
        if word.isdigit():
            return False
        return not (len(word) <= 3 and all(c in letters for c in word))

    def indices(self, sub: list[Token], word: str | None) -> tuple:
        if word is not None and word.isalpha() and len(word) > 1:
            return tuple(sp.Symbol(c) for c in word)
        parts, current, depth = [], [], 0
        for tok in sub:
            if tok.kind == "sym" and tok.value in "([{":
                depth += 1
            elif tok.kind == "sym" and tok.value in ")]}":
                depth -= 1
            if tok.kind == "sym" and tok.value == "," and depth == 0:
                parts.append(current)
                current = []
            else:
                current.append(tok)
        parts.append(current)
        return tuple(self.whole(part) for part in parts)

    def has_comma(self) -> bool:
        depth = 0
        for tok in self.tokens[self.i:]:
            if tok.kind == "sym" and tok.value in "([{":
                depth += 1
            elif tok.kind == "sym" and tok.value in ")]}":
                depth -= 1
                if depth == 0:
                    return False
            elif depth == 1 and tok.kind == "sym" and tok.value in ",;":
                return True
        return False

    def apply(self, applied: Applied) -> sp.Basic:
        if not (self.at("sym", "(") or (applied.operator is not None and self.at("sym", "["))):
            return sp.Symbol(applied.name,
                             commutative=applied.name.split("_")[0] not in self.notation.matrices)
        close = ")" if self.take().value == "(" else "]"
        args = self.arguments(self.until(close), applied.name in self.notation.divergences)
        function = applied.operator or sp.Function(applied.name)
        return function(*args)

    def arguments(self, tokens: list[Token], divergence: bool = False) -> tuple:
        """Arguments separated by , or ; (or \\| for a divergence); an ellipsis makes a Dots."""
        parts, current, depth = [], [], 0
        for tok in tokens:
            if tok.kind == "sym" and tok.value in "([{":
                depth += 1
            elif tok.kind == "sym" and tok.value in ")]}":
                depth -= 1
            separator = (tok.kind == "sym" and tok.value in ",;") or (
                divergence and tok.kind == "cmd" and tok.value == "|")
            if separator and depth == 0:
                parts.append(current)
                current = []
            else:
                current.append(tok)
        parts.append(current)
        if any(not part for part in parts):
            raise Unreadable("an empty argument")
        return items(self, parts)

    # -- superscripts ----------------------------------------------------------------------
    def superscript(self, base, sup: list[Token]) -> sp.Basic:
        spelled = "".join(t.value for t in sup)
        if spelled in TRANSPOSE or (len(sup) == 1 and sup[0].value in TRANSPOSE
                                    and sup[0].kind in ("letter", "cmd")):
            return self.transpose(base)
        if len(sup) >= 3 and sup[0].value == "(" and sup[-1].value == ")" and isinstance(
                base, sp.Symbol):
            label = self.whole(sup[1:-1])
            return sp.Symbol(f"{base.name}^({label})", commutative=base.is_commutative)
        if len(sup) == 3 and sup[0].value == "(" and sup[-1].value == ")" and \
                sup[1].kind in ("letter", "number") and (
                    isinstance(base, sp.Indexed) or isinstance(base, AppliedUndef)):
            # p_t^{(i)}, f(t)^{(i)}: the i-th entry of the vector p_t, f(t), not a power
            label = self.whole(sup[1:2])
            return base.base[(*base.indices, label)] if isinstance(base, sp.Indexed) \
                else base.func(*base.args, label)
        exponent = self.whole(sup, deeper=True)
        if getattr(base, "is_Number", False) and exponent.is_Number:
            if abs(exponent) > MAX_EXACT_POWER:
                raise Unreadable(f"a number to a power above {MAX_EXACT_POWER}: not read")
        return base ** exponent

    def transpose(self, base) -> sp.Basic:
        if isinstance(base, sp.Symbol):
            self.matrices_seen.add(base.name.split("_")[0])
        elif isinstance(base, sp.Indexed):
            self.matrices_seen.add(str(base.base.label))
        elif not isinstance(base, sp.Basic) or base.is_commutative and not (
                {str(n).split("_")[0] for n in base.free_symbols}
                & (self.matrices_seen - self.notation.matrices)):
            # of numbers (φ(q)ᵀφ(k) is an inner product, not read); a name just seen to be a
            # matrix (a bold capital) makes it one on the re-read
            raise Unreadable("the transpose of an expression of numbers (not of a name) is not "
                             "read")
        return op.Transpose(base)   # of a name, or of a matrix expression ((xW)ᵀ, {W^k}ᵀ)

    # -- primaries -------------------------------------------------------------------------
    def primary(self):
        tok = self.take()
        if tok.kind == "number":
            return _number(tok.value)
        if tok.kind == "letter":
            return self.letters(tok)
        if tok.kind == "text":
            return _text_name(tok.value)
        if tok.kind == "sym":
            return self.bracketed(tok.value)
        return self.command(tok.value)

    def letters(self, first: Token) -> Name:
        run = first.value
        j = self.i
        while j < len(self.tokens) and not self.tokens[j].spaced and (
                self.tokens[j].kind == "letter" or (self.tokens[j].kind == "cmd"
                                                    and self.tokens[j].value == "_")):
            run += "_" if self.tokens[j].value == "_" else self.tokens[j].value
            j += 1
        n = self.notation
        declared = run in n.operators or run in n.functions
        if len(run) == 1:
            return Name(run)
        if declared or (n.lowercase_words and run.replace("_", "").islower()):
            self.i = j
            return Name(run)
        if len(run.rstrip("_")) == 2 and run[0].islower() and run[1].isupper():
            return Name(run[0])   # xW_1: a row vector times a matrix, as papers print it
        if "_" in run or (n.lowercase_words and not run.isupper()):
            raise Unreadable(f"{run!r} is not a declared name: write \\text{{{run}}} for a name, "
                             "or spaces between letters for a product")
        return Name(run[0])

    def bracketed(self, value: str):
        if value == "(":
            inner = self.until(")")
        elif value == "[":
            inner = self.until("]")
        elif value == "{":
            inner = self.until("}")
            if len(inner) == 1 and inner[0].kind in ("letter", "cmd") and (
                    inner[0].kind == "letter" or inner[0].value in GREEK):
                return Name(inner[0].value)
        elif value == "|":
            start = self.i
            while not self.at("sym", "|"):
                self.take()
            inner = self.tokens[start:self.i]
            self.i += 1
            return sp.Abs(self.whole(inner))
        else:
            raise Unreadable(f"unexpected {value!r}")
        if _top_comma(inner):
            listed = self.arguments(inner) if value == "[" else ()
            if len(listed) == 1 and isinstance(listed[0], op.Dots):
                return op.Stack(*listed)   # [A_1, A_2, …, A_n]: a batch of its members
            raise Unreadable("a bracketed list (a, b) is not an expression: not read")
        return self.whole(inner)

    def command(self, name: str):
        if name in GREEK:
            return Name(name)
        if name in ("pi", "infty"):
            return CONSTANTS[name]
        if name in FRACTIONS:
            return self.fraction()
        if name == "sqrt":
            return self.root()
        if name in ("sum", "prod"):
            return self.big(name)
        if name in ELEMENTARY:
            return self.elementary(name)
        if name in ("min", "max"):
            return self.extremum(name)
        if name in ("arg", "argmin", "argmax"):
            return self.arg(name)
        if name in ("|", "lVert", "Vert"):
            return self.norm()
        if name in ("mathbb", "mathcal", "mathscr", "mathfrak") or name in SAME_SYMBOL \
                or name in VARIANT:
            return self.styled(name)
        if name == "begin":
            return self.environment()
        if name == "partial":
            raise Unreadable("∂ outside \\frac{\\partial …}{\\partial x} is not read")
        if name in ELLIPSIS:
            raise Unreadable("an ellipsis outside a comma list (a_1, \\dots, a_n) is not read")
        if name == "cdot":
            raise Unreadable("a placeholder (·) is not a formula")
        if name == "{":
            return self.set_of()
        raise Unreadable(f"\\{name} is not in the reader's LaTeX: rewrite it, or leave the formula "
                         "unread")

    def set_of(self):
        """``\\{ … \\}``: a set, or an indexed family ``\\{W_i\\}``, of its items."""
        start, depth = self.i, 0
        while True:
            tok = self.take()
            if tok.kind == "cmd" and tok.value == "{":
                depth += 1
            elif tok.kind == "cmd" and tok.value == "}":
                if depth == 0:
                    break
                depth -= 1
        inner = self.tokens[start:self.i - 1]
        if not inner:
            return op.SetOf()
        return op.SetOf(*(self.whole(part) for part in split_at(inner, {","})))

    def styled(self, style: str):
        inner = self.group()
        if style in VARIANT and len(inner) == 4 and inner[0].value in SAME_SYMBOL and \
                inner[1].value == "{" and inner[3].value == "}":
            inner = inner[2:3]   # \hat{\mathbf{y}}: the bold y, hatted, is the name ŷ
        if len(inner) != 1 or not (inner[0].kind == "letter" or inner[0].value in GREEK):
            if style in BOLD and len(inner) >= 2 and all(t.kind == "letter" and t.value.isupper()
                                                         for t in inner):
                # \mathbf{PQ}^\top is printed P Qᵀ: read its capitals one by one, so a
                # superscript after the group belongs to the last of them, as it is typeset
                self.tokens[self.i:self.i] = [t._replace(spaced=True) for t in inner[1:]]
                self.matrices_seen.update(t.value for t in inner)
                return Name(inner[0].value)
            if style in SAME_SYMBOL and len(inner) >= 1:
                return self.whole(inner)
            raise Unreadable(f"\\{style}{{…}} of more than one letter is not read")
        letter = inner[0].value
        if style == "mathbb":
            if letter == "E" and "E" in self.notation.operators:
                return Name("E", upright=True)
            if letter == "R":
                return self.real_space()
            raise Unreadable(f"\\mathbb{{{letter}}} is not declared")
        if style in SAME_SYMBOL:
            if style in BOLD and letter.isupper() and len(letter) == 1:
                self.matrices_seen.add(letter)   # a bold capital is a matrix: \\mathbf{A}\\mathbf{B}
            return Name(letter)
        if style in VARIANT:
            return Name(letter + VARIANT[style])
        return Name(letter + {"mathcal": "cal", "mathscr": "scr", "mathfrak": "frak"}[style])

    def real_space(self) -> sp.Basic:
        if not self.at("sym", "^"):
            return op.RealSpace()
        self.i += 1
        sup = self.group()
        sub = self.child(sup, deeper=True)
        dims = [sub.term(shape=True)]
        while sub.at("cmd", "times"):
            sub.i += 1
            dims.append(sub.term(shape=True))
        sub.finish()
        return op.RealSpace(*dims)

    def fraction(self) -> sp.Basic:
        top, bottom = self.group(), self.group()
        if top and top[0].value == "partial":
            return self.derivative(top[1:], bottom)
        if _leibniz(top) and len(bottom) > 1 and _leibniz(bottom):
            raise Unreadable("d/dx (Leibniz notation) is not read: write \\frac{\\partial …}{\\partial x}")
        return self.whole(top) / self.whole(bottom)

    def derivative(self, top: list[Token], bottom: list[Token]) -> sp.Basic:
        if not bottom or bottom[0].value != "partial" or len(bottom) < 2:
            raise Unreadable("a \\partial fraction whose denominator is not ∂x is not read")
        variable = self.whole(bottom[1:])
        if not isinstance(variable, (sp.Symbol, sp.Indexed)):
            raise Unreadable("a derivative with respect to an expression is not read")
        body = self.whole(top) if top else self.term()
        return sp.Derivative(body, variable)

    def root(self) -> sp.Basic:
        degree = None
        if self.at("sym", "["):
            self.i += 1
            degree = self.whole(self.until("]"))
        radicand = self.whole(self.group())
        return sp.sqrt(radicand) if degree is None else sp.root(radicand, degree)

    def big(self, kind: str) -> sp.Basic:
        sub, sup = self.scripts()
        if sub is None:
            raise Unreadable(f"\\{kind} without an index below it is not read")
        member = next((k for k, t in enumerate(sub) if t.kind == "cmd" and t.value == "in"), None)
        if member is not None and kind == "sum":   # Σ_{r ∈ S}: over a set, its range unprinted
            sub, sup = sub[:member], None
        eq = next((k for k, t in enumerate(sub) if t.kind == "sym" and t.value == "="), None)
        if eq is not None and sup is None and kind == "sum":   # Σ_{j=1}: the end unprinted
            sub, eq = sub[:eq], None
        variable = self.whole(sub if eq is None else sub[:eq])
        if not isinstance(variable, sp.Symbol):
            raise Unreadable(f"the index of \\{kind} must be one name")
        variable = sp.Symbol(variable.name)     # an index is a number, even if a matrix shares it
        outer = self.bound
        self.bound = outer | {variable.name}
        try:
            body = self.term()
        finally:
            self.bound = outer
        if eq is None:
            if sup is not None or kind == "prod":
                raise Unreadable(f"\\{kind} with an upper bound and no lower bound is not read")
            return op.SumOver(body, variable)
        if sup is None:
            raise Unreadable(f"\\{kind}_{{i=a}} without an upper bound is not read")
        limits = (variable, self.whole(sub[eq + 1:]), self.whole(sup))
        return (sp.Sum if kind == "sum" else sp.Product)(body, limits)

    def elementary(self, name: str) -> sp.Basic:
        power = base = None
        for _ in range(2):
            if self.at("sym", "^") and power is None:
                self.i += 1
                power = self.whole(self.group(), deeper=True)
            elif self.at("sym", "_") and base is None and name in ("log",):
                self.i += 1
                base = self.whole(self.group())
        if power is not None and power.is_negative:
            raise Unreadable(f"\\{name}^{{-1}} (inverse or reciprocal?) is not read")
        if self.at("sym", "(") or self.at("sym", "{"):
            self.i += 1
            inner = self.until(")" if self.tokens[self.i - 1].value == "(" else "}")
            argument = self.whole(inner)
        else:
            argument = self.factor()
            tok = self.peek()
            if self.starts_factor() and not (tok.kind == "cmd" and (
                    tok.value in ELEMENTARY or tok.value in ("sum", "prod", "cdot"))):
                raise Unreadable(f"\\{name} a b has two readings: write \\{name}(a b) or "
                                 f"\\{name}(a) b")
        value = ELEMENTARY[name](argument) if base is None else sp.log(argument, base)
        return value if power is None else value ** power

    def extremum(self, name: str) -> sp.Basic:
        if not self.at("sym", "("):
            raise Unreadable(f"\\{name} without parentheses (an optimisation) is not read")
        self.i += 1
        args = self.arguments(self.until(")"))
        if any(not a.is_commutative for a in args):   # max(0, xW + b): entry by entry
            if name == "max" and len(args) == 2 and 0 in args:
                return sp.Function("ReLU")(next(a for a in args if a != 0))   # ReLU by definition
            return (op.Minimum if name == "min" else op.Maximum)(*args)
        return (sp.Min if name == "min" else sp.Max)(*args)

    def arg(self, name: str) -> sp.Basic:
        if name == "arg":
            kind = self.take()
            if kind.kind != "cmd" or kind.value not in ("min", "max"):
                raise Unreadable("\\arg (the angle) is not read")
            name = "arg" + kind.value
        if not self.at("sym", "_"):
            raise Unreadable(f"{name} without the variable below it is not read")
        self.i += 1
        variable = self.whole(self.group())
        body = self.term()
        return (op.ArgMin if name == "argmin" else op.ArgMax)(body, variable)

    def norm(self) -> sp.Basic:
        start = self.i
        while not (self.at("cmd", "|") or self.at("cmd", "rVert") or self.at("cmd", "Vert")):
            self.take()
        inner = self.tokens[start:self.i]
        self.i += 1
        return op.Norm(self.whole(inner))

    def environment(self) -> sp.Basic:
        env = self.env_name()
        if env == "cases":
            return self.cases()
        if env in MATRIX_ENVS:
            return self.matrix(env)
        raise Unreadable(f"the {env} environment inside an expression is not read")

    def env_name(self) -> str:
        self.expect("sym", "{")
        name = ""
        while not self.at("sym", "}"):
            name += self.take().value
        self.i += 1
        return name

    def end(self, env: str) -> bool:
        if self.at("cmd", "end"):
            self.i += 1
            if self.env_name() != env:
                raise Unreadable(f"\\begin{{{env}}} closed by another \\end")
            return True
        self.expect("cmd", "\\\\")
        return self.end(env) if self.at("cmd", "end") else False

    def cases(self) -> sp.Basic:
        pieces = []
        while True:
            value = self.expr()
            if self.at("sym", ",") and self.i + 1 < len(self.tokens) and \
                    self.tokens[self.i + 1].value == "&":
                self.i += 1   # "value, & if …": the comma is punctuation
            self.expect("sym", "&")
            pieces.append((value, self.condition()))
            if self.end("cases"):
                return sp.Piecewise(*pieces)

    def condition(self):
        if self.at("text"):
            words = self.take().value.split(":", 1)[1].strip().strip(",").strip()
            if words in ("otherwise", "else"):
                return sp.true
            if words not in ("if", "when", "for"):
                raise Unreadable(f"a condition in words ({words!r}) is not read")
        end = self.i
        while end < len(self.tokens) and self.tokens[end].value not in ("\\\\", "end"):
            end += 1
        said = said_of(self, self.tokens[self.i:end])
        if said is not None:   # j \text{ is padding}: a condition in words
            self.i = end
            return said
        exprs, ops = self.chain()
        if len(ops) != 1 or ops[0] not in ("=", "!=", "<", "<=", ">", ">="):
            raise Unreadable("a case condition that is not one comparison is not read")
        from tmath.latex.result import Relation
        return Relation(exprs[0], ops[0], exprs[1]).sympy

    def matrix(self, env: str) -> sp.Basic:
        rows, row = [], []
        while True:
            if self.at("cmd", "vdots") and (self.at("cmd", "\\\\", 1) or self.at("cmd", "end", 1)):
                self.i += 1
                row.append(_VDOTS)
            else:
                row.append(self.expr())
            if self.at("sym", "&"):
                self.i += 1
                continue
            rows.append(row)
            row = []
            if self.end(env):
                break
        if len({len(r) for r in rows}) != 1:
            raise Unreadable("a matrix whose rows differ in length")
        if any(_VDOTS in r for r in rows):
            return _stacked([r[0] for r in rows] if len(rows[0]) == 1 else [])
        return sp.ImmutableMatrix(rows)


_VDOTS = sp.Symbol("⋮")
"""A lone ``\\vdots`` row of a matrix being read."""


def _stacked(column: list) -> sp.Basic:
    """A column ``h_1, ⋮, h_n`` of numbers, vectors or matrices: Rows(Dots(…)). A wider
    matrix with ``\\vdots`` is not read."""
    k = column.index(_VDOTS) if column.count(_VDOTS) == 1 else -1
    if not 0 < k < len(column) - 1:
        raise Unreadable("a matrix with \\vdots is read only as one column, h_1 ⋮ h_n")
    return op.Rows(op.Dots(sp.Tuple(*column[:k]), sp.Tuple(*column[k + 1:])))


def items(parser: Parser, parts: list[list[Token]]) -> tuple:
    """Comma-separated parts → expressions; an ellipsis part makes one ``Dots``."""
    dots = [k for k, part in enumerate(parts) if len(part) == 1 and part[0].value in ELLIPSIS]
    if not dots:
        return tuple(parser.whole(part) for part in parts)
    if len(dots) > 1:
        raise Unreadable("more than one ellipsis in a list")
    k, listing = dots[0], parser.child([])
    listing.listing = True
    before = sp.Tuple(*(listing.whole(p) for p in parts[:k]))
    after = sp.Tuple(*(listing.whole(p) for p in parts[k + 1:]))
    return (op.Dots(before, after),)


def _leibniz(tokens: list[Token]) -> bool:
    """d, dx, dy…: the start of a Leibniz derivative."""
    return bool(tokens) and tokens[0].kind == "letter" and tokens[0].value == "d" and (
        len(tokens) == 1 or (not tokens[1].spaced and (
            tokens[1].kind == "letter" or (tokens[1].kind == "cmd" and tokens[1].value in GREEK))))


def _top_comma(tokens: list[Token]) -> bool:
    depth = 0
    for tok in tokens:
        if tok.value == "{" or (tok.kind == "sym" and tok.value in "(["):
            depth += 1
        elif tok.value == "}" or (tok.kind == "sym" and tok.value in ")]"):
            depth -= 1
        elif depth == 0 and tok.kind == "sym" and tok.value in ",;":
            return True
    return False


def _word(tokens: list[Token]) -> str | None:
    """A subscript spelled as one word (letters, digits, \\_ or \\text{…}), else None."""
    if len(tokens) == 1 and tokens[0].kind == "text":
        text = tokens[0].value.split(":", 1)[1].strip()
        return text if text.replace("_", "").isalnum() and text.isascii() else None
    if len(tokens) == 1 and tokens[0].kind == "cmd" and tokens[0].value in GREEK:
        return tokens[0].value
    if tokens and all(t.kind in ("letter", "number") for t in tokens) and not any(
            t.spaced for t in tokens[1:]):
        word = "".join(t.value for t in tokens)
        return word if (word.isalpha() or word.isdigit()) else None
    return None


CONNECTIVES = frozenset({"if", "for", "when", "where", "whenever", "otherwise", "and", "or",
                         "with", "iff", "then", "else", "unless", "is", "are"})
"""Words that join or qualify statements: never a quantity's name (``x + 1 \\text{if} x > 0``
is a condition, not a product with a quantity called "if")."""


def _text_name(value: str) -> Name:
    style, text = value.split(":", 1)
    text = text.strip()
    if not (text.isascii() and text.replace("_", "").isalnum() and text[0].isalpha()) \
            or text.lower() in CONNECTIVES:
        raise Unreadable(f"prose inside the formula (\\{style}{{{text}}}): not read")
    return Name(text, upright=True)


def _number(text: str) -> sp.Basic:
    if "." in text:
        whole, fraction = text.split(".")
        return sp.Rational(int(whole or "0") * 10 ** len(fraction) + int(fraction),
                           10 ** len(fraction))
    return sp.Integer(int(text))


def _vector(x: sp.Basic) -> bool:
    """A lowercase name (``q``, ``k_j``): a vector when it is transposed or multiplied so."""
    name = x.name if isinstance(x, sp.Symbol) else str(x.base.label) \
        if isinstance(x, sp.Indexed) else ""
    return name[:1].islower()


def said_of(parser: Parser, tokens: list[Token]) -> sp.Symbol | None:
    """``expr \\text{words}``: a condition stated in words about ``expr`` (``j \\text{ is
    padding}``), read as an opaque proposition named by both, never interpreted: two are
    the same only when they say the same words of the same expression, and a claim's notation
    may say what one means. None unless the tokens have that form."""
    if len(tokens) < 2 or tokens[-1].kind != "text" or any(t.kind == "text" for t in tokens[:-1]):
        return None
    words = " ".join(tokens[-1].value.split(":", 1)[1].split())
    if not words or not words.isprintable():
        return None
    subject = parser.whole(list(tokens[:-1]))
    return sp.Symbol(f"⟦{sp.sstr(subject)} {words}⟧")

"""A derivation as a learner reads it: one line per step, grouped by chain, then what the
proof used: the engine's vetted rules (with their side conditions) apart from the premises,
and, for a proof that is not fully proved, what it rests on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from rich.console import RenderableType
from rich.padding import Padding
from rich.text import Text

from tmath.i18n.markers import N_
from tmath.render import STEP_MARK
from tmath.render.minus import minus_signs_in_text
from tmath.render.messages import proof_message
from tmath.render.rule_conditions import side_condition

if TYPE_CHECKING:
    from tmath.engine.results import ProofResult, ProofStep
    from tmath.i18n import Translator

RELATION = {"<=": "≤", ">=": "≥"}
STEP_INDENT = 7
"""Where a step's mathematics starts when it is put on a line of its own (under the mark)."""
HEADINGS = (N_("vetted rules of the engine (checked at each use)"),
            N_("premises the steps use"), N_("rests on (assumed, not proved)"))


def derivation_parts(proof: ProofResult, tr: Translator, info=None,
                     latex: bool = False) -> list[RenderableType]:
    """The steps of ``proof``, one line each where it fits, a chain's name above its steps;
    then the vetted rules, the premises and what the proof rests on, each under its name."""
    parts: list[RenderableType] = []
    context = headed = None  # the chain the reader is in; the chain last named by a heading
    previous = None
    for number, step in enumerate(proof.steps, 1):
        label, named = "", False
        if step.chain and step.derives and (step.chain != headed or step.chain != context):
            parts.append(Text(tr.text(step.chain, info), style="bold"))
            headed, named = step.chain, True
        elif step.chain and step.chain != context:  # a lone comparison: named on its line
            label = tr.text(step.chain, info) + ": "
        context = step.chain or context
        # a chain of equalities reads "a = b", then "= c": a step starting where the last ended
        continues = not (named or label or latex) and previous is not None and \
            bool(step.before) and step.before == previous.after and step.chain == previous.chain
        detail = proof_message(step.detail, tr, info) if step.detail else ""
        parts.append(MathStep(number, step, tr.text(step.why, info), latex, label, detail,
                              continues))
        previous = step if step.before or step.after else previous
    parts += used_parts(proof, tr, info)
    return parts


def _why(step: ProofStep) -> str:
    return step.why.removeprefix("premise: ") if step.kind == "premise" else step.why


def vetted_rules(steps: Iterable[ProofStep]) -> tuple[str, ...]:
    """The engine's vetted rules the steps applied, in order of first use."""
    return tuple(dict.fromkeys(s.why for s in steps if s.kind == "rule"))


def premises_used(steps: Iterable[ProofStep]) -> tuple[str, ...]:
    """The declared premises whose equations the steps used, in order of first use."""
    return tuple(dict.fromkeys(_why(s) for s in steps if s.kind == "premise"))


def used_parts(proof: ProofResult, tr: Translator, info=None) -> list[RenderableType]:
    """Vetted rules (each with its side condition), premises used, and what it rests on."""
    parts: list[RenderableType] = []
    rules = vetted_rules(proof.steps)
    if rules:
        parts.append(Text(tr.ui(HEADINGS[0]) + ":", style="green"))
        for rule in rules:
            line = Text(f"  ○ {tr.text(rule, info)}", style="cyan")
            condition = side_condition(rule)
            if condition:
                line.append(f" — {tr.ui('if')} {tr.ui(condition)}", style="dim")
            parts.append(line)
    premises = premises_used(proof.steps)
    if premises:
        parts.append(Text(f"{tr.ui(HEADINGS[1])}: "
                          + "; ".join(tr.text(p, info) for p in premises), style="cyan"))
    if proof.rests_on:
        parts.append(Text(f"{tr.ui(HEADINGS[2])}: "
                          + "; ".join(tr.text(r, info) for r in proof.rests_on), style="yellow"))
    return parts


class MathStep:
    """One derivation step: ``n. mark before R after  why`` on one line when it fits; else the
    mark and reason on one line and the mathematics below (:func:`math_lines`). LaTeX with
    ``--latex``."""

    def __init__(self, number: int, step: ProofStep, why: str, latex: bool = False,
                 label: str = "", detail: str = "", continues: bool = False) -> None:
        self.number, self.step, self.why, self.latex, self.label = number, step, why, latex, label
        self.detail = detail or step.detail
        self.continues = continues
        """The step starts where the one above ended: only ``R after`` is shown."""

    @property
    def math(self) -> str:
        step = self.step
        if self.latex and step.latex:
            return step.latex
        if not (step.before or step.after):
            return ""
        relation = RELATION.get(step.relation, step.relation)
        if self.continues:
            return f"{relation} {step.after}"
        return f"{step.before} {relation} {step.after}"

    def __rich_console__(self, console, options):
        step = self.step
        mark, style = STEP_MARK[step.kind]
        head = Text(f"{self.number:>3}. ", style="dim")
        head.append(f"{mark} ", style=style)
        head.append(self.label, style="bold")
        tail = Text(self.why, style=style if step.kind != "checked" else "dim")
        if step.detail:
            tail.append(f" ({minus_signs_in_text(self.detail)})", style="red" if step.kind == "failed" else "dim")
        math = self.math
        whole = head.copy()
        whole.append(math + ("   " if math else ""))
        whole.append_text(tail)
        if not math or whole.cell_len <= options.max_width:
            yield whole
            return
        head.append_text(tail)
        yield head
        lines = [Text(math)] if self.continues else \
            math_lines(math, step, options.max_width - STEP_INDENT, self.latex)
        for line in lines:
            yield Padding(line, (0, 0, 0, STEP_INDENT))


MAX_BLOCK_LINES = 8
"""The tallest 2D layout shown; a taller or wider one is worse than linear math wrapped."""


def math_lines(math: str, step: ProofStep, width: int, latex: bool = False) -> list[Text]:
    """A step's mathematics in ``width`` columns: one line; else broken before its relation
    (``before`` on one line, ``= after`` on the next); else SymPy's 2D layout when it fits in
    the width and in :data:`MAX_BLOCK_LINES`; else the two halves wrapped."""
    if Text(math).cell_len <= width or latex or not (step.before or step.after):
        return [Text(math)]
    relation = RELATION.get(step.relation, step.relation)
    halves = [Text(step.before), Text(f"{relation} {step.after}")]
    if all(h.cell_len <= width for h in halves):
        return halves
    block = step.block.splitlines()
    if block and len(block) <= MAX_BLOCK_LINES and \
            max(Text(line).cell_len for line in block) <= width:
        return [Text(step.block, no_wrap=True)]
    return halves

"""English and Chinese texts of the interface (``--lang zh`` or ``TMATH_LANG=zh``).

Claims carry their own Chinese title, summary and glossary (``title_zh``, ``summary_zh``,
``glossary_zh``); this module holds the interface's words and the justifications the engine
itself writes (SymPy methods, rules of expectation, "matches the statement").
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tmath.engine.model import ClaimInfo

LANGUAGES = ("en", "zh")

UI_ZH = {
    "claim": "命题", "§": "§", "title": "标题", "tags": "标签", "proof": "证明",
    "randomized check": "随机检验", "figures": "数值", "time": "耗时", "foil": "反例命题",
    "statement": "命题陈述", "premises": "前提", "derivation": "推导",
    "figures printed in the notes": "笔记中印出的数值", "printed": "印出值",
    "true value": "真实值", "tolerance": "容差", "test": "检验", "result": "结果",
    "resolution": "分辨率", "foils (each must be rejected by both checks)":
        "反例命题（两种检验都必须拒绝）",
    "sources and related claims": "出处与相关命题", "builds on": "依赖",
    "used by": "被依赖", "defined in": "定义于", "reproduce": "复现命令",
    "reason": "原因", "rules taken as premises (○)": "作为前提的规则（○）",
    "proved": "已证明", "proved for": "已对以下情形证明", "failed": "失败", "error": "错误",
    "none (heuristic)": "无（启发式）", "verified": "已验证", "heuristic": "启发式",
    "blocked": "被阻塞", "timeout": "超时", "cached": "缓存", "symbolic": "符号证明",
    "rejected": "已拒绝", "accepted": "被接受", "automatic": "自动",
    "proof of the foil": "反例的证明", "check of the foil": "反例的检验",
    "plot": "图示", "summary": "摘要", "figure": "数值",
    "foils rejected by both checks": "个反例命题被两种检验都拒绝",
}

# Fragments the engine writes into step justifications.
ENGINE_ZH = {
    "matches the statement": "与命题一致",
    "compare with the statement": "与命题比较",
    "linearity of expectation": "期望的线性",
    "independence: E[XY] = E[X]·E[Y]": "独立性：E[XY] = E[X]·E[Y]",
    "definition: Var(X) = E[X²] − E[X]²": "定义：Var(X) = E[X²] − E[X]²",
    "definition: E[X²] = Var(X) + E[X]²": "定义：E[X²] = Var(X) + E[X]²",
    "independent terms: variances add": "独立项：方差相加",
    "Var(cX) = c²·Var(X)": "方差的缩放：Var(cX) = c²·Var(X)",
    "evaluate": "求值", "algebra": "代数化简", "differentiate": "求导",
    "SymPy limit, cross-checked numerically": "SymPy 极限，并经数值复核",
    "value × 1.05": "值 × 1.05",
    "half a unit in the last printed digit": "印出的最后一位的半个单位",
}


METHOD_ZH = {"simplify": "化简", "expand": "展开", "trigsimp": "三角化简", "expand_trig": "展开三角函数",
             "factor": "因式分解", "cancel": "约分", "powsimp": "幂化简", "logcombine": "合并对数",
             "expand_log": "展开对数", "doit": "求值"}


def _sympy_tail(text: str) -> str | None:
    """The engine's "[SymPy …]" part of a justification, in Chinese."""
    match = re.fullmatch(r"SymPy(?: doit \+ (\w+)| (\w+))?", text)
    if not match:
        return None
    if match.group(1):
        return f"SymPy 求值并{METHOD_ZH.get(match.group(1), match.group(1))}"
    if match.group(2):
        return f"SymPy {METHOD_ZH.get(match.group(2), match.group(2))}"
    return "SymPy"


def language(explicit: str | None = None) -> str:
    """The language asked for: ``--lang``, else ``TMATH_LANG``, else English."""
    lang = (explicit or os.environ.get("TMATH_LANG") or "en").lower().split("_")[0]
    return lang if lang in LANGUAGES else "en"


class Translator:
    """Translate interface words and a claim's own texts into the chosen language."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang

    def ui(self, text: str) -> str:
        return UI_ZH.get(text, text) if self.lang == "zh" else text

    def title(self, info: ClaimInfo) -> str:
        return info.title_zh if self.lang == "zh" and info.title_zh else info.title

    def summary(self, info: ClaimInfo) -> str:
        return info.summary_zh if self.lang == "zh" and info.summary_zh else info.summary

    def text(self, text: str, info: ClaimInfo | None = None) -> str:
        """A claim's text or an engine justification, translated where a translation exists.

        Justifications look like "why [SymPy method]"; each part is looked up on its own:
        first in the claim's glossary, then in the engine's. Unknown text stays English.
        """
        if self.lang != "zh" or not text:
            return text
        glossary = dict(info.glossary_zh) if info else {}
        match = re.fullmatch(r"(.*?)(?: \[(SymPy[^\]]*)\])?", text, flags=re.S)
        head, tail = match.group(1), match.group(2)
        head = self._phrase(head, glossary)
        return f"{head} [{self._phrase(tail, glossary)}]" if tail else head

    @staticmethod
    def _phrase(text: str, glossary: dict[str, str]) -> str:
        if text in glossary:
            return glossary[text]
        if text in ENGINE_ZH:
            return ENGINE_ZH[text]
        if _sympy_tail(text):
            return _sympy_tail(text)
        part = re.fullmatch(r"part (\d+) of the value × 1\.05", text)
        if part:
            return f"值的第 {part.group(1)} 部分 × 1.05"
        resolution = re.fullmatch(r"(.+)% of the stated value", text)
        if resolution:
            return f"命题值的 {resolution.group(1)}%"
        for prefix, chinese in (("premise: ", "前提："), ("by claim ", "由命题 "), ("limit ", "极限 ")):
            if text.startswith(prefix):
                rest = text[len(prefix):]
                return chinese + glossary.get(rest, rest)
        return text

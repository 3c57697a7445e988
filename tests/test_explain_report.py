"""Explanations: Chinese texts, LaTeX, plots, and the companion report in both formats."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tmath.cli import app
from tmath.exitcodes import ExitCode
from tmath.engine.registry import load

runner = CliRunner()
REGISTRY = load()
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")


def test_explain_in_chinese_translates_headers_and_steps():
    result = runner.invoke(app, ["explain", "dot-product-variance", "--lang", "zh"])
    assert result.exit_code == 0
    for text in ("命题陈述", "前提", "推导", "随机检验", "反例命题", "独立项：方差相加"):
        assert text in result.output, text


def test_tmath_lang_environment_variable(monkeypatch):
    monkeypatch.setenv("TMATH_LANG", "zh")
    result = runner.invoke(app, ["list", "--section", "1"])
    assert "标题" in result.output


def test_unknown_language_is_a_usage_error():
    result = runner.invoke(app, ["list", "--lang", "fr"])
    assert result.exit_code == ExitCode.USAGE and "en, zh" in result.output


def test_explain_latex():
    result = runner.invoke(app, ["explain", "scaled-score-variance", "--latex"])
    assert r"\frac{1}{\sqrt{d_{k}}}" in result.output


PLOTTED = [spec.id for spec in REGISTRY if callable(getattr(spec.implementation, "plot", None))]


@pytest.mark.skipif(not PLOTTED, reason="no claim provides a plot yet")
def test_explain_writes_a_png_and_sketches_in_the_terminal(tmp_path: Path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "figure.png"
    result = runner.invoke(app, ["explain", PLOTTED[0], "--plot", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert any(ch in result.output for ch in "▁▂▃▄▅▆▇█")


@pytest.mark.skipif(not PLOTTED, reason="no claim provides a plot yet")
def test_plot_without_matplotlib_says_how_to_install(tmp_path: Path, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError("no matplotlib here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    result = runner.invoke(app, ["explain", PLOTTED[0], "--plot", str(tmp_path / "x.png")])
    assert result.exit_code == ExitCode.USAGE
    assert "pip install 'tmath[plot]'" in result.output


def test_plot_for_a_claim_without_one_is_a_usage_error(tmp_path: Path):
    without = next(spec.id for spec in REGISTRY
                   if not callable(getattr(spec.implementation, "plot", None)))
    result = runner.invoke(app, ["explain", without, "--plot", str(tmp_path / "x.png")])
    assert result.exit_code == ExitCode.USAGE and "has no figure" in result.output


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reports")
    html, markdown = folder / "report.html", folder / "report.md"
    first = runner.invoke(app, ["report", "-o", str(html), "-j", "2", "--audit"])
    second = runner.invoke(app, ["report", "-f", "markdown", "-o", str(markdown), "--lang", "zh"])
    assert first.exit_code == 0, first.output
    assert second.exit_code == 0, second.output
    return html, markdown


def test_html_report_is_self_contained(reports):
    html = reports[0].read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    for spec in REGISTRY:
        assert f'id="{spec.id}"' in html
    # nothing is fetched: no scripts, stylesheets, fonts or images from elsewhere
    assert not re.search(r"<(script|link)\b", html)
    assert not re.search(r'src="(?!data:)', html)


def test_html_report_typesets_every_statement_and_step_in_mathml(reports):
    html = reports[0].read_text(encoding="utf-8")
    cards = {re.match(r'\s*id="([^"]+)"', card).group(1): card
             for card in html.split('<div class="claim"')[1:]}
    assert set(cards) == {spec.id for spec in REGISTRY}
    for spec in REGISTRY:
        card = cards[spec.id]
        if spec.statement.lhs is not None:
            assert "<math" in card.split("premises")[0], f"statement of {spec.id} is not MathML"
    steps = re.findall(r'<ol class="steps">(.*?)</ol>', html, re.S)
    items = [li for block in steps for li in re.findall(r"<li\b.*?</li>", block, re.S)]
    assert items and all("<math" in li or "<code></code>" in li or "<code>" in li for li in items)
    typeset = sum("<math" in li for li in items)
    assert typeset >= 0.95 * len(items), f"{typeset}/{len(items)} steps in MathML"
    # no ASCII-art mathematics: no 2D pretty printing, no SymPy function syntax
    assert "<pre>" not in html and "‾‾‾" not in html and "Sum(" not in html


def test_html_report_has_a_table_of_contents_with_section_titles(reports):
    html = reports[0].read_text(encoding="utf-8")
    toc = re.search(r'<nav class="toc">(.*?)</nav>', html, re.S).group(1)
    assert toc.count("<li") == len({spec.top_section for spec in REGISTRY})
    assert "Why attention scores are divided by √d_k" in toc and "proved" in toc
    assert '<h2 id="s1">1. Why attention scores' in html
    assert 'class="level level-proved"' in html


def test_markdown_report_in_chinese(reports):
    text = reports[1].read_text(encoding="utf-8")
    assert text.startswith("# tmath")
    assert "命题陈述" in text and "## 1." in text and "## 15." in text


RAW_SYMPY = re.compile(r"Sum\(|\boo\b|\*\*|Derivative\(|Limit\(|sqrt\(|Indexed")


@pytest.mark.parametrize("claim_id", [spec.id for spec in REGISTRY])
def test_explain_shows_typeset_math_not_sympy_syntax(claim_id):
    result = runner.invoke(app, ["explain", claim_id], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    raw = RAW_SYMPY.findall(result.output)
    assert not raw, f"raw SymPy syntax in explain {claim_id}: {sorted(set(raw))}"


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed "
                    "(Debian: apt-get install chromium); .ci/run installs it")
def test_html_report_renders_in_headless_chromium(reports, tmp_path: Path):
    shot = tmp_path / "report.png"
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1200,1600",
                    f"--screenshot={shot}", reports[0].as_uri()],
                   capture_output=True, timeout=120, check=False)
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000  # a page, not a blank
    dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                          "--disable-background-networking", "--no-first-run",
                          f"--user-data-dir={tmp_path / 'profile2'}", "--dump-dom",
                          reports[0].as_uri()], capture_output=True, text=True, timeout=120)
    assert "dot-product-variance" in dom.stdout

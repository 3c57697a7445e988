"""Write training.ipynb and its planted copy training.planted.ipynb (nbformat v4).

Run from anywhere: ``python tests/corpus/make_notebook.py``. The code cells are executed
here, in order, so that their stored outputs are the ones the code prints; the planted copy
differs from the clean one only by the replacements in PLANTED (markdown lines only), each
listed in manifest.json.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

HERE = Path(__file__).resolve().parent

CELLS: list[tuple[str, str]] = [
    ("markdown", r"""# Training a Transformer: the schedule and the loss

This notebook collects the formulas behind two training choices of the base
Transformer, a learning rate that first rises and then decays, and a loss with
smoothed labels, and checks each of them with a few lines of NumPy."""),

    ("markdown", r"""## The learning-rate schedule

The base model was trained with Adam and a learning rate that is recomputed at
every step. Writing `warmup` for the number of warm-up steps, the rate at step
$\text{step} \ge 1$ is

$$\text{lrate} = d_{model}^{-0.5} \cdot \min(\text{step}^{-0.5}, \; \text{step} \cdot \text{warmup}^{-1.5})$$

While $\text{step} < \text{warmup}$ the second argument is the smaller one, so the
rate climbs along the straight line $d_{model}^{-0.5} \cdot \text{step} \cdot \text{warmup}^{-1.5}$;
afterwards it decays like the inverse square root of the step. The two pieces
meet at $\text{step} = \text{warmup}$, where the rate peaks at

$$\text{lrate}_{peak} = (d_{model} \cdot \text{warmup})^{-0.5}$$

With $d_{model} = 512$ and $\text{warmup} = 4000$, the values used for the base
model, the peak is about $7.0 \times 10^{-4}$."""),

    ("code", r"""import numpy as np

D_MODEL = 512
WARMUP = 4000
TOTAL_STEPS = 100_000
BETAS, EPS = (0.9, 0.98), 1e-9


def lrate(step, d_model=D_MODEL, warmup=WARMUP):
    step = max(step, 1)
    return d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)"""),

    ("code", r"""for step in (1, 100, 1000, 4000, 8000, 16000, 100000):
    print(f"{step:>6d}  {lrate(step):.2e}")
print("peak at", WARMUP, "->", round(lrate(WARMUP), 6))"""),

    ("markdown", r"""## Cross-entropy, entropy and the KL divergence

The network outputs a distribution $q$ over the vocabulary; the data provide a
target distribution $p$. Training minimises the cross-entropy

$$H(p, q) = -\sum_{x} p(x) \log q(x)$$

which separates into two parts. The Kullback-Leibler divergence is the extra
cost of describing $p$ with the code built for $q$:

$$D_{KL}(p \| q) = \sum_{x} p(x) \log \frac{p(x)}{q(x)} = H(p, q) - H(p)$$

with $H(p) = -\sum_x p(x) \log p(x)$ the entropy of the targets. In words, the
cross-entropy is the KL divergence plus the entropy. Since $H(p)$ does not
depend on the network, minimising $H(p, q)$ and minimising $D_{KL}(p \| q)$ lead
to the same optimum, $q = p$."""),

    ("code", r"""p = np.array([0.7, 0.2, 0.1])
q = np.array([0.5, 0.3, 0.2])
cross_entropy = -(p * np.log(q)).sum()
entropy = -(p * np.log(p)).sum()
kl = (p * np.log(p / q)).sum()
print(round(cross_entropy, 4), round(kl + entropy, 4), round(kl, 4))"""),

    ("markdown", r"""## Label smoothing

A one-hot target keeps rewarding a larger logit for the correct class, because
the softmax gets to 1 only in the limit. Label smoothing, introduced by Szegedy
et al. (2016), mixes the one-hot vector with the uniform distribution over the
$K$ classes:

$$y_{smooth} = (1 - \epsilon) \cdot y_{onehot} + \frac{\epsilon}{K}$$

The correct class then gets $1 - \epsilon + \epsilon/K$ and each of the other
$K - 1$ classes gets $\epsilon/K$, so the entries still add up to one. With
$K = 5$ classes, $\epsilon = 0.1$ and the correct class in second place, the
one-hot label [0, 1, 0, 0, 0] becomes,
smoothed: [0.02, 0.92, 0.02, 0.02, 0.02]. Vaswani et al. (2017) trained the
Transformer with $\epsilon_{ls} = 0.1$.

Cross-entropy is linear in its first argument, so with $u$ the uniform
distribution the smoothed loss is a blend of two cross-entropies:

$$L_{smooth} = (1 - \epsilon) \cdot H(y, q) + \epsilon \cdot H(u, q)$$"""),

    ("code", r"""def smooth(labels, n_classes=5, eps=0.1):
    onehot = np.eye(n_classes)[labels]
    return (1 - eps) * onehot + eps / n_classes


targets = smooth(np.array([1, 3]))
print(targets)
print(targets.sum(axis=1))"""),
]

PLANTED: list[tuple[int, str, str]] = [
    # (cell, 1-based among all cells; text in the clean cell; its replacement)
    (2, r"\text{step} \cdot \text{warmup}^{-1.5})$$", r"\text{step} \cdot \text{warmup}^{-0.5})$$"),
    (5, r"= H(p, q) - H(p)$$", r"= H(p) - H(p, q)$$"),
    (7, r"y_{smooth} = (1 - \epsilon) \cdot y_{onehot} + \frac{\epsilon}{K}",
     r"y_{smooth} = y_{onehot} + \frac{\epsilon}{K}"),
    (7, "smoothed: [0.02, 0.92, 0.02, 0.02, 0.02]", "smoothed: [0.02, 0.90, 0.02, 0.02, 0.02]"),
    (7, r"Transformer with $\epsilon_{ls} = 0.1$.", r"Transformer with $\epsilon_{ls} = 0.2$."),
]


def _run(cells: list[tuple[str, str]]) -> list[str]:
    """What each code cell prints, executed in order in one namespace."""
    namespace: dict = {}
    printed = []
    for kind, source in cells:
        if kind != "code":
            printed.append("")
            continue
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(source, "<cell>", "exec"), namespace)
        printed.append(out.getvalue())
    return printed


def notebook(cells: list[tuple[str, str]], printed: list[str]) -> nbformat.NotebookNode:
    nb = new_notebook(metadata={
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    })
    count = 0
    for index, ((kind, source), text) in enumerate(zip(cells, printed), start=1):
        if kind == "markdown":
            cell = new_markdown_cell(source)
        else:
            count += 1
            outputs = [new_output("stream", name="stdout", text=text)] if text else []
            cell = new_code_cell(source, execution_count=count, outputs=outputs)
        cell["id"] = f"cell-{index}"
        nb.cells.append(cell)
    return nb


def planted(cells: list[tuple[str, str]]) -> list[tuple[str, str]]:
    out = [list(c) for c in cells]
    for index, old, new in PLANTED:
        source = out[index - 1][1]
        assert source.count(old) == 1, (index, old)
        out[index - 1][1] = source.replace(old, new)
    return [tuple(c) for c in out]


def main(folder: Path = HERE) -> None:
    """Write both notebooks into ``folder`` (the tests write them elsewhere and compare)."""
    printed = _run(CELLS)      # the planted copy changes markdown only: same outputs
    for name, cells in (("training.ipynb", CELLS), ("training.planted.ipynb", planted(CELLS))):
        nb = notebook(cells, printed)
        nbformat.validate(nb)
        nbformat.write(nb, str(folder / name))


if __name__ == "__main__":
    main()

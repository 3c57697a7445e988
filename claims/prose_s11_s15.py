"""Sections 11–15 in prose: normalisation in practice, reported results, warmup, and the
information bottleneck.

One heuristic here has a toy experiment as its check: how noisy BatchNorm's batch statistics
are at each batch size, next to LayerNorm's independence of the batch.
"""

import numpy as np
import sympy as sp

from tmath import Foil, Passage, Statement, claim, prose
from tmath.engine.experiment import Integers, tolerance
from tmath.reference.norms import layer_norm

from ._bibliography import (BA2016, GEMMA2024, IOFFE2015, KALRA_BARKESHLI2024, KINGMA_BA2015,
                            MA_YARATS2021, SAXE2018, SHWARTZ_ZIV_TISHBY2017, SZEGEDY2016,
                            TOUVRON2023, VASWANI2017, ZHANG_SENNRICH2019)

B = sp.Symbol("B", positive=True, integer=True)
BATCH_SIZES = Integers(2, 128)
"""Batch sizes the toy draws from: B = 2 (the noisiest), 128, and one between."""
POINTS = 3
_HEAVY_TAIL = ("at B = 2 the batch variance is a χ²₁ variable (fourth moment 105 against a "
               "variance of 2): 2 % would need more than the 4·10⁶-draw cap; 3 % still "
               "detects the nearest foil (×1.05)")


@claim(
    id="batchnorm-small-batch-noise", kind="heuristic", section="11.3",
    title="BatchNorm's statistics get noisy as the batch shrinks; LayerNorm's do not depend "
          "on it",
    statement=Statement("For standard-normal features, the batch mean BatchNorm subtracts "
                        "has variance 1/B and the batch variance it divides by has variance "
                        "2/(B − 1) over batches of size B; a token's LayerNorm output does not "
                        "vary with its batch at all (variance 0)",
                        (1 / B, 2 / (B - 1), sp.Integer(0)),
                        lhs=(sp.Symbol("Var(batch mean)"), sp.Symbol("Var(batch variance)"),
                             sp.Symbol("Var_batches(LayerNorm(x))"))),
    premises=("features independent and standard normal within a batch",
              "the batch variance is the unbiased estimate over B samples"),
    foils=(Foil("the noise falls like 1/√B", (1 / sp.sqrt(B), 2 / sp.sqrt(B - 1),
                                               sp.Integer(0))),
           Foil("LayerNorm is as noisy as BatchNorm", (1 / B, 2 / (B - 1), 1 / B))),
    statistical_tests=2 * POINTS,
    sources=(IOFFE2015.at("Algorithm 1 (normalisation by mini-batch statistics)"),
             BA2016.at("its definition (statistics over the hidden units of one case)")),
    reason="whether this noise hurts a Transformer's training, or running statistics "
           "mislead it at inference, is an empirical question the notes cite no measurement "
           "for; the toy measures only how noisy the statistics themselves are",
    passages=(Passage(("BatchNorm", ("batch size", "batch"), "running statistics")),),
)
class BatchNormSmallBatchNoise:
    """The statistics BatchNorm normalises by are estimates from the batch: their spread
    grows as the batch shrinks (at B = 2 the variance estimate fluctuates by more than its
    own size). A token's LayerNorm output is computed from its own features and is the same
    in every batch. This shows the noise; it does not show its effect on training."""

    def check(self, value, experiment):
        mean_var, var_var, layer_spread = value
        for at in experiment.draw({B: BATCH_SIZES}, count=POINTS):
            b = at[B]
            means, variances = experiment.shared(  # both statistics of the same batches
                lambda rng, m: rng.standard_normal((m, b)),  # noqa: B023 -- used in this loop
                lambda x: x.mean(1), lambda x: x.var(1, ddof=1))
            experiment.variance(means, at.value(mean_var), "variance of the batch mean", at=at)
            experiment.variance(variances, at.value(var_var), "variance of the batch variance",
                                at=at, min_effect=0.03, resolution_reason=_HEAVY_TAIL)
            token = experiment.rng.standard_normal(64)
            outputs = [layer_norm(np.vstack([token, experiment.rng.standard_normal((b - 1, 64))])
                                  [:, None, :], eps=1e-5)[0, 0] for _ in range(20)]
            spread = float(np.var(np.stack(outputs), axis=0).max())
            # LayerNorm of one 64-feature row: about 4·64 operations, inputs of size ~ 1
            experiment.close(spread, at.value(layer_spread), tolerance(4 * 64, 1.0),
                             "spread of a token's LayerNorm output over 20 batches", at=at)


prose(
    id="batchnorm-inference-statistics", kind="fact", section="11.3",
    title="At inference BatchNorm uses statistics gathered during training",
    statement="After training, BatchNorm normalises with population statistics estimated "
              "over the training batches instead of the current batch, so a batch of one "
              "can be processed.",
    summary="The method, cited to the paper that introduced BatchNorm.",
    sources=(IOFFE2015.at("§3.1 and Algorithm 2 (inference with population statistics)",
                          unverified="the section number"),),
    passage=Passage(("running statistics", ("batch=1", "batch = 1", "batch of one",
                                            "batch size 1"), "BatchNorm")))

prose(
    id="token-wise-normalisation-fits", kind="heuristic", section="11.3",
    title="Per-token normalisation suits the Transformer's token-wise computation",
    statement="Each token carries its own feature vector and attention mixes tokens, so "
              "normalising each token on its own (LayerNorm) fits the computation better "
              "than normalising across the batch.",
    summary="norm-statistics-axes proves which statistics each method uses; 'fits better' "
            "is a design argument.",
    reason="a design argument about fit, with no quantity to check; the independence of "
           "LayerNorm from the batch is proved in §11.2",
    sources=(BA2016.at("its definition (statistics over the hidden units of one case)"),),
    passage=Passage((("token-wise", "per-token", "token"), "LayerNorm", "BatchNorm")))

prose(
    id="layernorm-stabilises-depth", kind="heuristic", section="11.4",
    title="LayerNorm helps keep forward and backward signals at a stable scale",
    statement="Normalising every token keeps activations from growing or shrinking from layer "
              "to layer, which with residual connections helps deep stacks train; the "
              "forward half is proved, the training half is not.",
    summary="layernorm-output-moments proves the forward normalisation; its effect on "
            "training depth is empirical.",
    reason="that it lets tens or hundreds of layers train is an empirical statement about "
           "trained models",
    passage=Passage(("forward", "backward", "LayerNorm")))

prose(
    id="rmsnorm-in-llms", kind="fact", section="11.5",
    title="LLaMA and Gemma use RMSNorm",
    statement="LLaMA and Gemma normalise with RMSNorm (Zhang & Sennrich, 2019) instead of "
              "LayerNorm.",
    summary="Configurations cited to the papers.",
    sources=(TOUVRON2023.at("the Architecture section (RMSNorm)"),
             GEMMA2024.at("the Architecture section (RMSNorm)")),
    passage=Passage(("LLaMA", "Gemma", "RMSNorm")))

prose(
    id="rmsnorm-comparable-to-layernorm", kind="empirical", section="11.5",
    title="RMSNorm performs comparably to LayerNorm and runs faster",
    statement="Zhang & Sennrich report that RMSNorm matches LayerNorm's results in their "
              "experiments while cutting running time.",
    summary="A published measurement; the operation count behind the speed is proved in "
            "§11.5 (rmsnorm-operation-savings).",
    sources=(ZHANG_SENNRICH2019.at("abstract"),),
    reported="comparable performance to LayerNorm, with running time reduced by 7% to 64% "
             "across their models",
    passage=Passage(("RMSNorm", "LayerNorm", ("\\mu", "μ"))))

prose(
    id="one-hot-overconfidence", kind="heuristic", section="13.1",
    title="One-hot targets push logits up, which invites overfitting",
    statement="Since softmax reaches 1 only in the limit, one-hot targets keep pushing the "
              "correct logit up; Szegedy et al. argue that this over-confidence hurts "
              "generalisation and propose label smoothing.",
    summary="softmax-saturates-only-in-limit proves the limit; the harm to generalisation is "
            "an argument supported by experiments, not a theorem.",
    reason="overfitting and generalisation are properties of trained models on data; the "
           "argument is the paper's, not a derivation",
    sources=(SZEGEDY2016.at("§7 (model regularization via label smoothing)",
                            unverified="§7 was read only in reading notes"),),
    passage=Passage(("logit", "overfit*", "generali*")))

prose(
    id="transformer-label-smoothing-value", kind="fact", section="13.2",
    title="The original Transformer smooths its labels with ε = 0.1",
    statement="The Transformer was trained with label smoothing of value ε_ls = 0.1.",
    summary="A training configuration, cited to the paper.",
    sources=(VASWANI2017.at("§5.4"),),
    passage=Passage((("\\epsilon", "ε"), "0.1", "Transformer")))

prose(
    id="label-smoothing-perplexity-bleu", kind="empirical", section="13.3",
    title="Label smoothing raised the Transformer's perplexity but improved BLEU",
    statement="Vaswani et al. report that label smoothing makes the model less sure, which "
              "raises its perplexity, while accuracy and BLEU improve.",
    summary="A reported result of one model on one task, not a general law.",
    sources=(VASWANI2017.at("§5.4 (regularization) and Table 3 rows (D)"),),
    reported="trained with ε_ls = 0.1, the model's perplexity is worse but its accuracy and "
             "BLEU are better; Table 3 rows (D) vary ε_ls on newstest2013 (its values were "
             "not read here)",
    passage=Passage(("perplexity", "BLEU", "Vaswani")))

prose(
    id="adam-beta-defaults", kind="fact", section="14.2",
    title="Adam's default β₂ is 0.999; the Transformer used 0.98",
    statement="Adam's suggested defaults are β₁ = 0.9 and β₂ = 0.999; the original Transformer "
              "was trained with β₁ = 0.9, β₂ = 0.98 and ε = 10⁻⁹.",
    summary="Configurations cited to the papers: the notes' 'usually 0.999' is Adam's "
            "default, not the Transformer's setting.",
    sources=(KINGMA_BA2015.at("Algorithm 1 (suggested defaults)"), VASWANI2017.at("§5.3")),
    passage=Passage((("\\beta_1", "β₁", "β1"), ("\\beta_2", "β₂", "β2"), "0.999")))

prose(
    id="warmup-protects-adam-statistics", kind="heuristic", section="14.2",
    title="Warmup as protection while Adam's statistics settle: one explanation among others",
    statement="One explanation of warmup is that small early steps protect training while "
              "Adam's moment estimates are still unreliable; Ma & Yarats argue instead that "
              "warmup works by limiting the size of the early updates.",
    summary="The bias and the noise of Adam's early estimates are proved in §14.2 "
            "(adam-moment-bias, adam-corrected-mean-variance); why warmup helps is disputed.",
    reason="why warmup helps is an open empirical question; the literature offers competing "
           "explanations",
    sources=(MA_YARATS2021.at("abstract"), KALRA_BARKESHLI2024.at("abstract")),
    passage=Passage(("Warmup", "Adam")))

prose(
    id="warmup-sharpness-view", kind="empirical", section="14.3",
    title="The sharpness view of warmup is Kalra & Barkeshli's (2024)",
    statement="Kalra & Barkeshli (2024) find that warmup mainly lets a network tolerate a "
              "larger target learning rate by moving it to better-conditioned regions, with "
              "regimes set by whether training starts in progressive sharpening or sharpness "
              "reduction.",
    summary="A published empirical analysis, cited to its abstract. Ma & Yarats wrote a "
            "different paper on warmup (2019/2021).",
    sources=(KALRA_BARKESHLI2024.at("abstract"),),
    reported="warmup's main benefit: tolerating a larger target learning rate; its regimes "
             "depend on progressive sharpening or sharpness reduction at the start",
    not_in=((MA_YARATS2021, "Ma & Yarats explain warmup by the size of the update term; the "
                            "sharpness analysis is Kalra & Barkeshli's, arXiv:2406.09405"),),
    passage=Passage(("warmup", "sharpening")))

prose(
    id="ib-theory-disputed", kind="fact", section="15.2",
    title="Saxe et al. dispute the information-bottleneck account of deep learning",
    statement="Saxe et al. (2018) question the information-bottleneck theory of deep learning "
              "put forward by Shwartz-Ziv & Tishby (2017).",
    summary="A published critique, cited; the analogy itself is the heuristic of §15.2.",
    sources=(SAXE2018.at("the paper as a whole", unverified="its abstract was not read; that "
                         "it questions Shwartz-Ziv & Tishby's account comes from the research log"),
             SHWARTZ_ZIV_TISHBY2017.at("the theory it examines")),
    passage=Passage(("Saxe", "2018", "Tishby")))

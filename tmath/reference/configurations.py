"""Published model configurations: each setting with the place in its paper that states it.

A claim that cites a model's setting (``BERT-base has 12 heads``) and the gate that holds a
document to it (:mod:`tmath.gate.settings`) read the value here, so it is typed once, next to
its source. The Transformer's values were read from the LaTeX source of arXiv 1706.03762
(§3.1, §3.2.2, §3.3, §5.2, §5.3, §5.4, Table 3, which gives both models, and the
English-to-German BLEU of Table 2); BERT's from the
sentence of §3 of arXiv 1810.04805 that states both sizes, as public copies of the paper
quote it (the PDF itself was not read); Adam's from Algorithm 1 of arXiv 1412.6980, as the
bibliography records it. ``claim`` names the built-in claim that cites a setting, where one
does. Nothing here is filled in from memory.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Setting:
    """One setting of a configuration: a quantity (a key of the gate's quantity table), its
    value, where the paper states it, and the claim citing it (if any)."""

    quantity: str
    value: float
    where: str
    claim: str | None = None


@dataclass(frozen=True)
class Configuration:
    """A published configuration: how sentences name it (regular expressions, matched
    case-sensitively), the work that states it (``source``, cited; ``paper``, its title),
    and its settings. ``variant`` names it only in a document about its paper, among the
    paper's configurations ("the base model"), or in one that names the paper's ``model`` as
    a proper name ("the Transformer") where no other model is named around it."""

    key: str
    label: str
    source: str
    paper: str
    names: tuple[str, ...]
    settings: tuple[Setting, ...]
    variant: str = ""
    model: str = ""

    def value(self, quantity: str) -> float:
        """The value this configuration sets for ``quantity`` (KeyError if it sets none)."""
        for setting in self.settings:
            if setting.quantity == quantity:
                return setting.value
        raise KeyError(f"{self.label} records no {quantity!r}")


_VASWANI = ("Vaswani et al. (2017), arXiv:1706.03762", "Attention Is All You Need")
TRANSFORMER_BASE = Configuration(
    "transformer-base", "the base Transformer", *_VASWANI,
    (r"\b[Bb]ase [Tt]ransformer\b", r"\bTransformer[- ]?(?:\(base(?: model)?\)|[Bb]ase\b)",
     r"\b(?:original|vanilla) Transformer\b", r"\bVaswani et al\b"),
    (Setting("layers", 6, "§3.1 (N = 6)"),
     Setting("d_model", 512, "§3.1", claim="ffn-width-four-times"),
     Setting("heads", 8, "§3.2.2 (h = 8)"),
     Setting("d_k", 64, "§3.2.2 (d_k = d_v = d_model/h = 64)"),
     Setting("d_v", 64, "§3.2.2 (d_k = d_v = d_model/h = 64)"),
     Setting("d_ff", 2048, "§3.3", claim="ffn-width-four-times"),
     Setting("warmup_steps", 4000, "§5.3", claim="noam-schedule-shape"),
     Setting("beta_1", 0.9, "§5.3", claim="adam-beta-defaults"),
     Setting("beta_2", 0.98, "§5.3", claim="adam-beta-defaults"),
     Setting("adam_epsilon", 1e-9, "§5.3", claim="adam-beta-defaults"),
     Setting("dropout", 0.1, "§5.4 (base model: P_drop = 0.1)"),
     Setting("label_smoothing", 0.1, "§5.4", claim="transformer-label-smoothing-value"),
     Setting("train_steps", 100_000, "§5.2 (100,000 steps or 12 hours)"),
     Setting("train_hours", 12, "§5.2 (100,000 steps or 12 hours)"),
     Setting("gpus", 8, "§5.2 (one machine with 8 NVIDIA P100 GPUs)"),
     Setting("step_time", 0.4, "§5.2 (each training step took about 0.4 seconds)"),
     Setting("bleu_en_de", 27.3, "Table 2 (Transformer (base model), EN-DE 27.3)"),
     Setting("bleu_en_fr_table", 38.1, "Table 2 (Transformer (base model), EN-FR 38.1)")),
    variant=r"\b[Bb]ase models?\b", model=r"\b[Tt]he Transformer\b")
TRANSFORMER_BIG = Configuration(
    "transformer-big", "the big Transformer", *_VASWANI,
    (r"\b[Bb]ig [Tt]ransformer\b", r"\bTransformer[- ]?(?:\(big\)|[Bb]ig\b)"),
    (Setting("d_model", 1024, "Table 3 (big)"), Setting("d_ff", 4096, "Table 3 (big)"),
     Setting("heads", 16, "Table 3 (big)"),
     Setting("train_steps", 300_000, "§5.2 (300,000 steps (3.5 days))"),
     Setting("train_days", 3.5, "§5.2 (300,000 steps (3.5 days))"),
     Setting("gpus", 8, "§5.2 (one machine with 8 NVIDIA P100 GPUs)"),
     Setting("step_time", 1.0, "§5.2 (step time was 1.0 seconds)"),
     Setting("bleu_en_de", 28.4, "Table 2 and §6.1 (Transformer (big), EN-DE 28.4)"),
     Setting("bleu_en_fr_table", 41.8, "Table 2 (Transformer (big), EN-FR 41.8)")),
    variant=r"\b[Bb]ig models?\b", model=r"\b[Tt]he Transformer\b")
_DEVLIN = ("Devlin et al. (2019), arXiv:1810.04805",
           "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding")
BERT_BASE = Configuration(
    "bert-base", "BERT-base", *_DEVLIN, (r"\bBERT[-_ ]?(?:[Bb]ase|BASE)\b",),
    (Setting("layers", 12, "§3 (L = 12)"), Setting("d_model", 768, "§3 (H = 768)"),
     Setting("heads", 12, "§3 (A = 12)", claim="head-counts-bert-gpt2")))
BERT_LARGE = Configuration(
    "bert-large", "BERT-large", *_DEVLIN, (r"\bBERT[-_ ]?(?:[Ll]arge|LARGE)\b",),
    (Setting("layers", 24, "§3 (L = 24)"), Setting("d_model", 1024, "§3 (H = 1024)"),
     Setting("heads", 16, "§3 (A = 16)")))
ADAM_DEFAULT = Configuration(
    "adam-defaults", "Adam's suggested defaults", "Kingma & Ba (2015), arXiv:1412.6980",
    "Adam: A Method for Stochastic Optimization",
    (r"\bAdam(?:'s)? (?:suggested )?defaults?\b", r"\bdefaults? (?:of|for|in) Adam\b"),
    (Setting("beta_1", 0.9, "Algorithm 1", claim="adam-beta-defaults"),
     Setting("beta_2", 0.999, "Algorithm 1", claim="adam-beta-defaults"),
     Setting("adam_epsilon", 1e-8, "Algorithm 1", claim="adam-beta-defaults")))

CONFIGURATIONS = (TRANSFORMER_BASE, TRANSFORMER_BIG, BERT_BASE, BERT_LARGE, ADAM_DEFAULT)
"""Every configuration the library records."""

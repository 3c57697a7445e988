"""Sections 1–5 in prose: what the notes assert in words, each with its honest kind.

The theorems of these sections are in the s01–s05 modules; here are the facts about papers,
the published explanations and the heuristics, anchored in the notes by the terms they use.
"""

from tmath import Passage, prose

from ._bibliography import (ALAMMAR2018, CHOROMANSKI2021, DEVLIN2019, HINTON2015, KAZEMNEJAD, OPENAI_GPT2,
                            PRESS2022, TOUVRON2023, TSAI2019, VASWANI2017)

prose(
    id="dk-scaling-conjecture", kind="fact", section="1",
    title="Vaswani et al. give the growth of dot products as a suspected reason for scaling",
    statement="Vaswani et al. (2017) motivate the 1/√d_k factor by a conjecture: for large "
              "d_k the dot products grow large and push softmax where its gradients are tiny.",
    summary="The paper states this as a suspicion, without a derivation; the claims of §1 "
            "(dot-product-variance, softmax-saturation) supply the mathematics.",
    sources=(VASWANI2017.at("§3.2.1"),),
    passage=Passage(("Vaswani", ("d_k", "d_{k}"), "softmax", "gradient")))

prose(
    id="scaling-keeps-softmax-responsive", kind="heuristic", section="1.2",
    title="Scaling by √d_k keeps softmax out of saturation only under the premises of §1.1",
    statement="Dividing by √d_k gives the scores unit variance when queries and keys have "
              "independent unit-variance components, which keeps softmax away from "
              "saturation at initialisation; nothing guarantees it during training.",
    summary="The unit variance is a theorem under its premises; 'always' is not: trained "
            "queries and keys are neither independent nor of unit variance.",
    reason="the premises (independent, unit-variance components) hold at a random "
           "initialisation, not for trained weights, so the effect during training cannot be "
           "derived; it is an empirical matter",
    passage=Passage(("softmax", ("\\sqrt{d_k}", "√d_k"), ("saturation", "saturate"),
                     "variance")))

prose(
    id="distillation-soft-targets", kind="fact", section="2.2",
    title="Distillation softens the teacher's outputs with a high-temperature softmax",
    statement="Hinton et al. (2015) train a student on the teacher's softmax outputs "
              "computed at a raised temperature, which spreads probability over the classes "
              "the teacher finds similar.",
    summary="A description of the distillation method, cited to the paper.",
    sources=(HINTON2015.at("§2 (distillation at a raised temperature)",
                           unverified="the section number"),),
    passage=Passage(("Hinton", "softmax", "teacher", "temperature")))

prose(
    id="sqrt-dk-moderate-temperature", kind="heuristic", section="2.2",
    title="T = √d_k as the Transformer's temperature is a design choice",
    statement="Running softmax at T = √d_k is how the Transformer scales its scores; that it "
              "keeps the weights 'moderately' sharp is a qualitative reading.",
    summary="attention-temperature proves that 1/√d_k scaling is a temperature of √d_k; how "
            "sharp the resulting weights are depends on the scores, not on T alone.",
    reason="'moderate sharpness' has no definition to check; the sharpness of the weights "
           "depends on the spread of the scores as much as on the temperature",
    passage=Passage((("T = \\sqrt{d_k}", "T = √d_k"), "Transformer")))

prose(
    id="pe-binary-counter-analogy", kind="heuristic", section="3.2",
    title="Sinusoidal encodings resemble a binary counter: an analogy",
    statement="Fast-turning low pairs and slow-turning high pairs resemble the bits of a "
              "binary counter, the lowest bit flipping at every step; this is an analogy, "
              "not a property to verify.",
    summary="The frequencies themselves are proved in §3.2 (sinusoidal-frequency-period). "
            "The analogy is not in Jay Alammar's post, to which the notes credit it.",
    reason="an analogy that helps intuition; it asserts nothing that can be checked",
    not_in=((ALAMMAR2018, "the post's positional-encoding section has no binary-counter "
                          "analogy (its full source was read)"),),
    passage=Passage(("binary", "counter", "lowest bit")))

prose(
    id="pe-relative-position-implicit", kind="heuristic", section="3.3",
    title="Attention can use relative positions through the sinusoids' linearity",
    statement="Because PE(pos + k) is a fixed linear map of PE(pos), self-attention's QᵀK can "
              "pick up relative offsets without computing them explicitly; whether a trained "
              "model does is not settled by the identity.",
    summary="pe-shift-is-rotation and pe-dot-depends-on-offset prove the identities; after "
            "the learned projections the score mixes content and absolute position, so the "
            "use of relative positions is a hypothesis about learning.",
    reason="the identity holds for the encodings alone; after the projections W_Q, W_K the "
           "score also depends on content and on absolute positions, so what a trained model "
           "uses is an empirical question",
    sources=(VASWANI2017.at("§3.5", unverified="the wording of §3.5 was not re-read"),
             KAZEMNEJAD.at("the derivation of the linear relation")),
    passage=Passage((("Q^T K", "QᵀK", "Q^TK"), ("Self-Attention", "self attention"),
                     "relative position")))

prose(
    id="pe-base-10000-choice", kind="heuristic", section="3.4",
    title="The base 10000 of the sinusoids is an engineering choice",
    statement="The original paper gives no derivation for the base 10000; it sets the range "
              "of periods (pe-period-range), and any base that spreads them over the lengths "
              "of interest would do.",
    summary="A design choice: the periods it yields are proved in §3.4.",
    reason="a design choice: nothing to prove, and no ablation of the base is cited",
    sources=(VASWANI2017.at("§3.5", unverified="the wording of §3.5 was not re-read"),),
    passage=Passage(("Vaswani", "10000")))

prose(
    id="rope-alibi-extrapolation", kind="empirical", section="3.5",
    title="ALiBi is designed and measured to extrapolate past the training length",
    statement="Press et al. train on short inputs and evaluate on longer ones: ALiBi "
              "extrapolates to lengths not seen in training, and LLaMA uses rotary "
              "embeddings (RoPE) in place of absolute ones.",
    summary="A reported result (ALiBi) and a model's configuration (LLaMA), cited; that "
            "either is 'the mainstream choice of large models' is not a checkable statement.",
    sources=(PRESS2022.at("title and abstract"),
             TOUVRON2023.at("the Architecture section (rotary embeddings)")),
    reported="the paper's title and abstract report input-length extrapolation for ALiBi "
             "(its numbers were not read here)",
    passage=Passage(("RoPE", "ALiBi", "extrapolat*")))

prose(
    id="kernel-view-quadratic-cost", kind="heuristic", section="4.3",
    title="Kernel regression's O(n²) cost mirrors attention's O(T²)",
    statement="Evaluating a kernel on every pair of points costs O(n²), as attention's T×T "
              "score matrix does; the analogy explains the cost, which attention-cost-table "
              "counts exactly.",
    summary="The kernel reading of attention is Tsai et al.'s; the cost is counted in §8.",
    reason="an analogy between two algorithms; the cost of attention itself is proved in §8",
    sources=(TSAI2019.at("the kernel formulation of attention"),
             CHOROMANSKI2021.at("the random-feature kernel approximation that avoids it")),
    passage=Passage((("O(n^2)", "O(n²)"), ("O(T^2)", "O(T²)"), "kernel")))

prose(
    id="head-counts-bert-gpt2", kind="fact", section="5.1",
    title="BERT-base and GPT-2 small have 12 attention heads",
    statement="BERT-base has A = 12 heads of width 768/12 = 64; the smallest GPT-2 model also "
              "has 12 heads.",
    summary="BERT's configuration is in its paper; GPT-2's head count is in its released "
            "configuration, which was not read here.",
    sources=(DEVLIN2019.at("§3 (BERT_BASE: L = 12, H = 768, A = 12)"),
             OPENAI_GPT2.at("models/124M/hparams.json (n_head)")),
    passage=Passage((("BERT-base", "BERT base", "BERT_BASE"), "GPT-2", "12")))

prose(
    id="heads-learn-different-patterns", kind="heuristic", section="5.2",
    title="Different heads can learn different relations",
    statement="Splitting attention into heads lets each subspace attend in its own way "
              "(syntax, meaning, position); the split guarantees the capacity, not the "
              "specialisation.",
    summary="multi-head-shapes and projection-parameters prove the shapes and the parameter "
            "count; what heads learn is observed in trained models, not derived.",
    reason="what each head learns depends on training; the notes cite no measurement of it",
    passage=Passage(("subspace", ("Q/K/V", "Q, K, V"))))

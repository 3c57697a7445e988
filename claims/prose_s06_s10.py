"""Sections 6–10 in prose: models' configurations, published results and heuristics.

One heuristic here has a toy experiment as its check: gradient sizes through post-norm and
pre-norm residual stacks at initialisation (see the claim for what it shows and does not).
"""

from tmath import Foil, Passage, Statement, claim, prose

from ._bibliography import (DAO2022, DEVLIN2019, GEMMA2024, HE2016_IDENTITY, HE2016_RESNET,
                            LEWIS2020, RADFORD2018, RADFORD2019, RAFFEL2020, ROMBACH2022,
                            TOUVRON2023, VASWANI2017, WANG2019, XIONG2020)
from ._toys import block_gradients

prose(
    id="gpt-causal-self-attention", kind="fact", section="6.2",
    title="GPT models are decoders with causal self-attention",
    statement="GPT is a decoder-only Transformer whose self-attention is masked so that each "
              "position sees only itself and earlier positions.",
    summary="A model's architecture, cited to the paper that introduced it.",
    sources=(RADFORD2018.at("§3.1 (a multi-layer Transformer decoder)"),),
    passage=Passage(("GPT", ("causal mask", "causal"))))

prose(
    id="ffn-activation-relu-gelu", kind="fact", section="7.1",
    title="The original FFN uses ReLU; GPT uses GELU",
    statement="The original Transformer's feed-forward layer applies ReLU; GPT applies the "
              "Gaussian error linear unit, GELU.",
    summary="Configurations cited to the papers; that 'modern models' prefer GELU is not "
            "checked.",
    sources=(VASWANI2017.at("§3.3 (FFN(x) = max(0, xW₁ + b₁)W₂ + b₂)",
                            unverified="the wording of §3.3 was not re-read"),
             RADFORD2018.at("§4.1 model specifications (GELU)")),
    passage=Passage(("ReLU", "GELU")))

prose(
    id="ffn-width-four-times", kind="fact", section="7.1",
    title="The hidden layer of the FFN is four times wider than the model",
    statement="The base Transformer has d_model = 512 and d_ff = 2048, so d_ff = 4·d_model.",
    summary="A configuration cited to the paper; the parameter count for d_ff = 4d is proved "
            "in §7 (ffn-parameter-count). 'Usually' is not checked.",
    sources=(VASWANI2017.at("§3.3 and Table 3 (base: d_model = 512, d_ff = 2048)",
                            unverified="§3.3 and Table 3 were not re-read"),),
    passage=Passage((("d_{ff}", "d_ff"), ("d_{model}", "d_model"), "4")))

prose(
    id="early-context-lengths", kind="fact", section="8.1",
    title="Early Transformers were trained on contexts of 512 or 1024 tokens",
    statement="BERT reads inputs of up to 512 tokens and GPT-2 a context of 1024; the T² "
              "score matrix (attention-cost-table) is one reason such limits were chosen.",
    summary="Configurations cited to the papers; the cause named is a reading, not a "
            "statement of the papers.",
    sources=(DEVLIN2019.at("§3 and appendix A (sequences of at most 512 tokens)",
                           unverified="the 512-token limit was not read from the paper"),
             RADFORD2019.at("§2.3 (context size increased from 512 to 1024)")),
    passage=Passage(("512", "1024", "Transformer")))

prose(
    id="flash-attention-speedup", kind="empirical", section="8.3",
    title="FlashAttention computes exact attention faster",
    statement="FlashAttention tiles attention so that it reads and writes slow GPU memory "
              "less; it computes the same result and is measured to be faster.",
    summary="Exactness is proved in §8 (flash-attention-exact); the speed is a measurement.",
    sources=(DAO2022.at("abstract"),),
    reported="a 15% end-to-end wall-clock speedup of BERT-large training over the MLPerf 1.1 "
             "record",
    passage=Passage((("Flash Attention", "FlashAttention"), ("IO-aware", "IO aware"))))

prose(
    id="encoder-decoder-cross-attention", kind="fact", section="9.3",
    title="Encoder-decoder models cross-attend in every decoder layer",
    statement="In the original Transformer, T5 and BART every decoder layer has a "
              "cross-attention sub-layer over the encoder's output.",
    summary="Architectures cited to the papers.",
    sources=(VASWANI2017.at("§3.1 (the decoder's third sub-layer)",
                            unverified="§3.1 was read in a secondary description"),
             RAFFEL2020.at("§3.2 (an encoder-decoder Transformer)"),
             LEWIS2020.at("§2.1 (each decoder layer cross-attends to the encoder)")),
    passage=Passage((("Encoder-Decoder", "encoder decoder"), "T5", "BART",
                     ("Cross-Attention", "cross attention"))))

prose(
    id="decoder-only-no-cross-attention", kind="fact", section="9.3",
    title="Decoder-only models such as GPT have no cross-attention",
    statement="A decoder-only model such as GPT has no encoder, hence nothing to "
              "cross-attend to: its blocks have masked self-attention and an FFN only.",
    summary="An architecture cited to the paper.",
    sources=(RADFORD2018.at("§3.1 (a multi-layer Transformer decoder)"),),
    passage=Passage((("Decoder-only", "decoder only"), "GPT",
                     ("Cross-Attention", "cross attention"))))

prose(
    id="diffusion-cross-attention", kind="fact", section="9.3",
    title="Stable Diffusion conditions on text through cross-attention",
    statement="The latent diffusion model behind Stable Diffusion adds cross-attention "
              "layers through which the image being generated attends to the text prompt.",
    summary="An architecture cited to the paper.",
    sources=(ROMBACH2022.at("abstract and §3.3 (conditioning mechanisms)"),),
    passage=Passage(("Stable Diffusion", ("Cross-Attention", "cross attention"))))

prose(
    id="residual-learning-origin", kind="fact", section="10.1",
    title="Residual learning is He et al.'s reformulation",
    statement="He et al. (2016) let a block learn the residual F(x) = H(x) − x and add the "
              "input back through an identity shortcut.",
    summary="The idea, cited to the paper; its gradient consequences are proved in §10.",
    sources=(HE2016_RESNET.at("§3.1 (residual learning)", unverified="the section number"),),
    passage=Passage(("H(x)", "F(x)")))

prose(
    id="prenorm-gradient-result-source", kind="empirical", section="10.4",
    title="The Pre-LN vs Post-LN gradient result for Transformers is Xiong et al.'s",
    statement="Xiong et al. (2020) show, by a mean-field analysis and experiments, that at "
              "initialisation Post-LN Transformers have large expected gradients near the "
              "output, while Pre-LN ones are well-behaved.",
    summary="He et al.'s 'Identity Mappings' paper studies where BatchNorm and ReLU go in "
            "convolutional residual units, by experiment; it has no LayerNorm and no "
            "Transformer.",
    sources=(XIONG2020.at("abstract"),
             WANG2019.at("its comparison of deep pre-norm and post-norm Transformers",
                         unverified="where in the paper the comparison is")),
    reported="the abstract: Post-LN's expected gradients of the parameters near the output "
             "layer are large at initialisation; with LayerNorm inside the residual blocks "
             "(Pre-LN) they are well-behaved",
    not_in=((HE2016_IDENTITY, "it ablates the placement of BatchNorm and ReLU in "
                              "convolutional ResNet units, empirically, and has neither "
                              "LayerNorm nor Transformers"),),
    passage=Passage(("Pre-Norm", "Post-Norm", ("Normalization", "LayerNorm", "normalisation"),
                     "gradient")))

prose(
    id="gpt2-pre-norm", kind="fact", section="10.4",
    title="GPT-2 normalises the input of each sub-block",
    statement="GPT-2 moves layer normalisation to the input of each sub-block, like a "
              "pre-activation residual network: a pre-norm Transformer.",
    summary="A model's configuration, cited to its paper.",
    sources=(RADFORD2019.at("§2.3"),),
    passage=Passage(("Pre-Norm", "GPT-2")))

prose(
    id="llms-pre-norm", kind="fact", section="10.4",
    title="LLaMA and Gemma normalise the input of each sub-layer",
    statement="LLaMA and Gemma apply RMSNorm to the input of each Transformer sub-layer "
              "(pre-normalisation) rather than to its output.",
    summary="Configurations cited to the papers; 'most large models' is not checked.",
    sources=(TOUVRON2023.at("the Architecture section (pre-normalization)"),
             GEMMA2024.at("the Architecture section (RMSNorm at each sub-layer's input)")),
    passage=Passage(("Pre-Norm", "LLaMA", "Gemma")))

_TOY_DEPTH, _NEAR_TOP, _GROUP, _WIN_RATE = 48, 6, 4, 0.95
"""The toy: 48 blocks; the block 6 below the top; 4 stacks per trial; the win rate the sign
tests are planned for (measured: 0.97 and 0.999 for the two comparisons on 4000 stacks)."""


@claim(
    id="prenorm-deep-gradient-toy", kind="heuristic", section="10.4",
    title="At initialisation, post-norm starves the lower blocks of gradient; pre-norm does not",
    statement=Statement("In a toy stack of 48 residual ReLU blocks at initialisation, the "
                        "bottom block's weights get less gradient than a block near the top "
                        "under post-norm, and relatively more under pre-norm (value: the "
                        "placement that keeps the lower blocks' gradients, then the one that "
                        "loses them)", ("pre-norm", "post-norm")),
    premises=("blocks F(x) = W₂ relu(W₁ x), width 16, He-initialised, no training",
              "LayerNorm after each addition (post-norm) or at each branch's input and the "
              "output (pre-norm)", "a random linear read-out of the output as the loss"),
    foils=(Foil("post-norm keeps the lower blocks' gradients, pre-norm loses them",
                ("post-norm", "pre-norm")),),
    statistical_tests=2,
    sources=(XIONG2020.at("abstract"),
             WANG2019.at("its comparison of deep pre-norm and post-norm Transformers",
                         unverified="where in the paper the comparison is")),
    reason="whether pre-norm trains deep Transformers more stably is an empirical finding "
           "about trained models (Xiong et al. 2020, Wang et al. 2019); the toy only "
           "measures gradient sizes at initialisation, in MLP blocks without attention, so "
           "it shows the mechanism, not the training outcome",
    passages=(Passage(("Pre-Norm", "Post-Norm", ("stable", "stability"))),),
)
class PrenormDeepGradientToy:
    """A toy that can fail: it measures the gradient reaching each block's weights, over
    independent random stacks, and tests two orderings with sign tests whose two error
    rates are both at most α. It shows how post-norm's repeated normalisation shrinks what
    reaches the lower blocks; it does not show anything about training, attention blocks, or
    the models the notes name."""

    def check(self, value, experiment):
        keeps, loses = value
        n, needed = experiment.sign_test_plan(_WIN_RATE)
        wins_order = wins_depth = 0
        for _ in range(n):
            ratios = {}
            for placement in dict.fromkeys((keeps, loses)):  # in order: replayable
                grads = block_gradients(experiment.rng, placement, _TOY_DEPTH, _GROUP, 16, 16)
                ratios[placement] = (grads[:, 0] / grads[:, -1], grads[:, 0] / grads[:, -_NEAR_TOP])
            wins_order += _geomean(ratios[keeps][0]) > _geomean(ratios[loses][0])
            wins_depth += _geomean(ratios[loses][1]) < 1.0
        experiment.sign_test(wins_order, n, needed, "the first placement's bottom block "
                             "gets more of the top block's gradient than the second's",
                             _WIN_RATE)
        experiment.sign_test(wins_depth, n, needed, "the second placement's bottom block "
                             "gets less gradient than a block near its top", _WIN_RATE)

    def perturbations(self, value):
        keeps, loses = value
        return [("one placement for both roles", (loses, loses))]


def _geomean(values) -> float:
    import numpy as np

    return float(np.exp(np.mean(np.log(values))))

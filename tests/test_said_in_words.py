"""What the warm-up schedule, the mask and the RoPE claims prove, said in words.

The sentences are written for these tests. Said as the claims prove it, a sentence is
recognised; a rate that decays as the inverse of the step, rises quadratically, or a masked
logit set to 0 contradicts the claim on its line; weights set to 0 after the softmax are
never judged.
"""

from __future__ import annotations

import pytest

from tmath.gate.document import parse_as
from tmath.gate.said_in_words import (SMOOTHING, SMOOTHING_EFFECT, CAUSAL, CROSS, DISTRIBUTION, GROWTH, HEAD_COST, HEADS, MASK,
                                      POSITIONWISE, RANGE, RELATIVE, SATURATION, SCALED, SCHEDULE, SCORE,
                                      SHARED, SHIFT,
                                      VARIANCE, judged, said_in)


def _judged(sentence: str) -> list[str]:
    document = parse_as(".md", f"# Training\n\n{sentence}\n", "t.md")
    return [judged(document, s).status for s in said_in(document, {SCHEDULE, MASK, CAUSAL, RELATIVE, CROSS, HEADS,
                                                                  RANGE, VARIANCE, SHIFT,
                                                                  DISTRIBUTION, POSITIONWISE,
                                                                  SATURATION, HEAD_COST, GROWTH, SCALED,
                                                                  SCORE, SMOOTHING, SMOOTHING_EFFECT,
                                                                  SHARED})]


@pytest.mark.parametrize("sentence, found", [
    ("We raise the learning rate linearly over the first steps and then decrease it "
     "proportionally to the inverse square root of the step number.", ["recognised"] * 2),
    ("The learning rate is increased linearly for 4000 warm-up steps, then it decays as the "
     "inverse of the step.", ["recognised", "contradicts"]),
    ("In a range test the learning rate increases exponentially at every step.", []),
    ("The rate is increased quadratically during the first steps.", ["contradicts"]),
    ("Future positions are masked by setting their logits to $-\\infty$ before the softmax.",
     ["recognised"]),
    ("We mask the scores by setting them to a very large negative value.", ["recognised"]),
    ("We mask illegal connections by setting to $0$ all values in the input of the softmax.",
     ["contradicts"]),
    ("Masked positions have their attention weights set to 0 after the softmax.", []),
    ("In an autoregressive model the span is $S_i = \\{j: j \\leq i\\}$, all of the past.",
     ["recognised"]),
    ("In an autoregressive model the span is $S_i = \\{j: j \\geq i\\}$, all of the past.",
     ["contradicts"]),
    ("A bidirectional encoder may use $S_i = \\{j: j \\geq i\\}$ for the future half.", []),
    ("This masking ensures the prediction at $t$ depends only on outputs at positions less "
     "than $t$.", ["recognised"]),
    ("This masking ensures the prediction at $t$ depends only on outputs at positions greater "
     "than $t$.", ["contradicts"]),
    ("Without masking, a token attends to positions greater than $t$ too.", []),   # no "only"
    ("The decoder is only allowed to attend to earlier positions; we mask the rest.",
     ["recognised"]),
    ("The decoder is only allowed to attend to later positions; we mask the rest.",
     ["contradicts"]),
    ("The first sublayer is masked to prevent positions from attending to the future.",
     ["recognised"]),
    ("The first sublayer is masked to prevent positions from attending to the past.",
     ["contradicts"]),
    ("Dropout keeps the model from attending to the past too much.", []),   # no mask
    ("Our decoder blocks stop each token from attending to later tokens' slots, i.e. to\n"
     "subsequent positions. A triangular mask does this.", ["recognised"]),
    ("Our decoder blocks stop each token from attending to earlier positions. A triangular\n"
     "mask does this.", ["contradicts"]),    # the mask is named in the next sentence
    ("Our decoder blocks stop each token from attending to earlier positions.\n\n"
     "A triangular mask is drawn below.", []),   # another paragraph
    ("Cross-attention takes its queries from the decoder and its keys and values from the "
     "encoder.", ["recognised", "recognised"]),
    ("Cross-attention takes its keys from the decoder and its queries from the encoder.",
     ["contradicts", "contradicts"]),
    ("In self-attention the keys, values and queries come from the encoder.", []),
    ("In the encoder--decoder attention, queries are from the decoder's own sublayer, and "
     "the keys and values are from the encoder outputs.", ["recognised", "recognised"]),
    ("In the encoder--decoder attention, queries are from the decoder's own sublayer, and "
     "the keys and values are from the decoder's outputs.", ["recognised", "contradicts"]),
    ("In the end, $h$ attention-pooling outputs are concatenated and projected once more.",
     ["recognised"]),
    ("In the end, $h$ attention-pooling outputs are summed and projected once more.",
     ["contradicts"]),
    ("The outputs of the heads are averaged, then projected.", ["contradicts"]),
    ("The heads' outputs are concatenated rather than averaged.", []),   # both, contrasted
    ("Sine and cosine halves are concatenated to form each encoding.", []),   # no heads
    ("The rotation encodes the relative position $a - b$ of the two tokens.", []),
    ("The rotation encodes the relative position $a + b$ of the two tokens.", ["contradicts"]),
    ("Rotations encode relative offsets, say \\(s + t\\), between tokens.", ["contradicts"]),
    ("The relative position is then added: $a + b + c$.", []),        # not two names
    ("Absolute positions $a + b$ are summed.", []),                   # not a relative position
    ("Rotary embeddings turn each pair of query and key coordinates before taking the dot\n"
     "product, so only the offset survives.", ["recognised"]),
    ("RoPE rotates $q_m$ and $k_n$ after their inner product is formed.", ["contradicts"]),
    ("RoPE rotates the query and the key, not the score after the dot product.", []),
    ("The rotation of the image is done after the dot product of two pixels.", []),  # no q, k
    ("Our position-wise block is equivalent to two convolutions with kernel size 1.",
     ["recognised"]),
    ("Our position-wise block is equivalent to two convolutions with kernel size 3.",
     ["contradicts"]),
    ("The FFN can be read as a stack of 1x1 convolutions.", ["recognised"]),
    ("The FFN can be read as a stack of 3x3 convolutions.", ["contradicts"]),
    ("An image encoder uses convolutions with kernel size 3 before attention.", []),  # no FFN
    ("Inside every block, the same feed-forward network is applied to each token on its own.",
     ["recognised"]),
    ("Inside every block, a different feed-forward network is applied to each token on its own.",
     ["contradicts"]),
    ("A feed-forward sublayer follows; it applies an identical MLP to every position.",
     ["recognised"]),
    ("In the FFN the transformations are different across positions.", ["contradicts"]),
    ("Attention puts different weights on each token.", []),   # not the feed-forward layer
    ("We rotate q and k, and after the dot product we take the softmax.", []),  # another clause
    ("Our sinusoidal position code has values that always stay between $-1$ and $1$.",
     ["recognised"]),
    ("Our sinusoidal position code has values that always stay between $0$ and $1$.",
     ["contradicts"]),
    ("Each entry of the positional encoding lies in $[-1, 1]$.", ["recognised"]),
    ("Each entry of the positional encoding lies in the range \\([0, 1]\\).", ["contradicts"]),
    ("A heat map of the positional encoding. The values run between -1 (dark) and 1 (light).",
     ["recognised"]),
    ("A heat map of the positional encoding. The values run between 0 (dark) and 1 (light).",
     ["contradicts"]),
    ("The positional encoding's values are bounded: between $-2$ and $2$ at most.", []),  # wider
    ("Each row of the plot is one positional encoding. Rows are words. Each row holds 64 "
     "values, each of them between 1 and -1.", ["recognised"]),      # two sentences on
    ("Each row of the plot is one positional encoding. Rows are words. Each row holds 64 "
     "values, each of them between 1 and 0.", ["contradicts"]),
    ("Learned positional embeddings start with values between 0 and 1.", []),
    ("Dividing the position index by N keeps the positional values between 0 and 1.", []),
    ("The positional encoding is added. The bits of a counter flip between 0 and 1.", []),
    ("Our guess: for large values of $d_k$ the dot products get large, and the softmax "
     "saturates.", ["recognised"]),
    ("Our guess: for small values of $d_k$ the dot products get large, and the softmax "
     "saturates.", ["contradicts"]),
    ("For small values of $d_k$ both scoring functions behave alike.", []),   # no growth
    ("Here the $2\\times 2$ transformation matrix does not depend on the position $t$.",
     ["recognised"]),
    ("Here the $2\\times 2$ transformation matrix depends on the position $t$.",
     ["contradicts"]),
    ("The rotation matrix depends only on the offset, not on the position.", []),
    ("Each decoder position may attend to every position up to and including that position.",
     ["recognised"]),
    ("Each decoder position may attend to every position up to but excluding that position.",
     ["contradicts"]),
    ("Since decoding is autoregressive, no query attends to keys after the query position.",
     ["recognised"]),
    ("Since decoding is autoregressive, no query attends to keys before the query position.",
     ["contradicts"]),
    ("We hide later tokens by masking them before the softmax is taken.", ["recognised"]),
    ("We hide later tokens by masking them after the softmax is taken.", ["contradicts"]),
    ("The softmax makes the scores all positive and they add up to 1.", ["recognised"] * 2),
    ("The softmax makes the scores all negative and they add up to 1.",
     ["contradicts", "recognised"]),
    ("After the softmax, the attention weights of a query sum to 10.", ["contradicts"]),
    ("The gradients of the softmax sum to 0 over its inputs.", []),
    ("Scores go through the softmax to ensure nonnegative attention weights.", ["recognised"]),
    ("Scores go through the softmax to ensure negative attention weights.", ["contradicts"]),
    ("Unlike the softmax, this kernel can give negative attention weights.", []),
    ("Tokens depend on each other in the self-attention layer; the feed-forward layer does "
     "not have these dependencies.", ["recognised"]),
    ("There are dependencies between the positions in the feed-forward layer, so it cannot "
     "run in parallel.", ["contradicts"]),
    ("There are dependencies between these paths in the self-attention layer.", []),
    ("Take a batch size of $3$, one query per example and values of dimensionality... "
     "The output is a $3 \\times 1 \\times 5$ tensor.", ["recognised"]),
    ("We take a batch size of $3$, $7$ keys and $5$-dimensional values, with one query per "
     "example. So the output is a $3 \\times 7 \\times 5$ tensor.", ["contradicts"]),
    ("We take a batch size of $3$, $7$ keys and $5$-dimensional values, with one query per "
     "example. So the output is a $3 \\times 1 \\times 7$ tensor.", ["contradicts"]),
    ("We take $7$ keys. So the output is a $3 \\times 7 \\times 5$ tensor.", []),  # no size fixed
    ("So that the variance stays at $1$ for every width, the scores are divided by "
     "$\\sqrt{d}$.", ["recognised"]),
    ("So that the variance stays at $d$ for every width, the scores are divided by "
     "$\\sqrt{d}$.", ["contradicts"]),
    ("The variance remains $d$ for unscaled scores of width $d$.", []),   # not scaled
    ("Without any change the variance remains $d$ for width $d$.", []),   # no scaling
    ("We concat the matrices, then multiply them by the output matrix $W^O$.",
     ["recognised"]),
    ("We average the matrices, then multiply them by the output matrix $W^O$.",
     ["contradicts"]),
    ("We average the outputs of the ensemble members.", []),   # no heads, no W^O
    ("Knowing the position offset is enough for good predictions, i.e. $i+j$ between a "
     "key and its query.", ["contradicts"]),
    ("Knowing the position offset is enough for good predictions, i.e. $i-j$ between a "
     "key and its query.", []),   # a difference: what the words say, not a claim's finding
    ("The decoder must prevent leftward information flow to stay auto-regressive.",
     ["recognised"]),
    ("The decoder must prevent rightward information flow to stay auto-regressive.",
     ["contradicts"]),
    ("Gates prevent rightward information flow in this circuit.", []),   # no decoder
    ("We project the inputs $h$ times and run the attention function in parallel on each. "
     "These are concatenated and projected once more.", ["recognised"]),
    ("We project the inputs $h$ times and run the attention function in parallel on each. "
     "These are averaged and projected once more.", ["contradicts"]),
    ("Each score comes from the dot product of the query vector with the key vector of a "
     "word.", ["recognised"]),
    ("Each score comes from the dot product of the query vector with the value vector of a "
     "word.", ["contradicts"]),
    ("The output is a weighted sum of the values, where the weight of each value is "
     "computed by a compatibility function of the query with the corresponding key.",
     ["recognised", "recognised"]),
    ("The output is a weighted sum of the keys, where the weight of each value is "
     "computed by a compatibility function of the query with the corresponding value.",
     ["contradicts", "contradicts"]),
    ("Finally we sum up the weighted key vectors.", ["contradicts"]),
    ("The mask below shows where each word may look. Words are blocked for attending to "
     "future words.", ["recognised"]),
    ("The mask below shows where each word may look. Words are blocked for attending to "
     "past words.", ["contradicts"]),
    ("With label smoothing the loss penalizes the model when it gets too confident.",
     ["recognised"]),
    ("With label smoothing the loss rewards the model when it gets too confident.",
     ["contradicts"]),
    ("Label smoothing hurts perplexity but improves accuracy and BLEU.",
     ["recognised", "recognised"]),
    ("Label smoothing improves perplexity but hurts BLEU.", ["contradicts", "contradicts"]),
    ("The same feed-forward network is applied to each position separately.",
     ["recognised", "recognised"]),    # per position, and shared
    ("The same feed-forward network is applied to all positions jointly.",
     ["contradicts", "recognised"]),
    ("This is the masked softmax. It sets the attention weights to a large negative "
     "number, such as $-10^{6}$.", ["recognised"]),
    ("This is the masked softmax. It sets the attention weights to a large positive "
     "number, such as $10^{6}$.", ["contradicts"]),
    ("This is the masked softmax. It sets the attention weights to 0 for padding.", []),
    ("When the logits grow large, the softmax ends up where its gradients are tiny.",
     ["recognised"]),
    ("When the logits grow large, the softmax ends up with very large gradients.",
     ["contradicts"]),
    ("Scaling keeps the softmax from saturating, so we avoid small gradients.", []),  # avoid
    ("Each head is narrower, so the overall compute is roughly the same as a single-head "
     "layer of full width.", ["recognised"]),
    ("Each head is narrower, yet the overall compute is $h$ times that of a single-head "
     "layer of full width.", ["contradicts"]),
    ("For a fixed offset $\\delta$, the encoding of position $t+\\delta$ can be written as a "
     "linear function of the encoding at $t$.", ["recognised"]),
    ("For a fixed offset $\\delta$, the encoding of position $t+\\delta$ can be written as a "
     "nonlinear function of the encoding at $t$.", ["contradicts"]),
    ("The word vectors are represented as a nonlinear function of the input.", []),  # no offset
    ("Long inputs are slow for self-attention because of its quadratic cost in the sequence "
     "length.", ["recognised"]),
    ("Long inputs are fine for self-attention because of its linear cost in the sequence "
     "length.", ["contradicts"]),
    ("Linear attention has a linear cost in the sequence length.", []),   # another attention
    ("The decoder reads memory: the output of the last encoder is mapped into matrices K and "
     "V.", ["recognised"]),
    ("The decoder reads memory: the output of the last encoder is mapped into matrices Q and "
     "K.", ["contradicts"]),
])
def test_the_claims_said_in_words(sentence, found):
    assert _judged(sentence) == found


def test_nothing_is_read_for_a_claim_that_did_not_verify():
    document = parse_as(".md", "# T\n\nThe learning rate is increased quadratically over the "
                               "first steps.\n", "t.md")
    assert said_in(document, set()) == []


def test_the_feed_forward_layer_may_be_named_by_its_section_title_alone():
    text = ("# Position-wise Feed-Forward Networks\n\n$$y = W_2 \\max(0, W_1 x)$$\n\n"
            "Both maps act alike on every token; they amount to two convolutions with kernel "
            "size 2.\n")
    document = parse_as(".md", text, "t.md")
    assert [judged(document, s).status for s in said_in(document, {POSITIONWISE})] == \
        ["contradicts"]
    other = parse_as(".md", text.replace("Position-wise Feed-Forward Networks", "Images"), "t.md")
    assert said_in(other, {POSITIONWISE}) == []

"""What some claims prove, said in words instead of a formula.

* Claim ``noam-schedule-shape``: the learning rate rises linearly for the first warmup
  steps, then decays as 1/√step. Papers and tutorials say so: "increasing the learning rate
  linearly for the first warmup_steps training steps, and decreasing it thereafter
  proportionally to the inverse square root of the step number". A sentence about the
  learning rate (or rate) and its warm-up is read for how it rises (linearly, quadratically,
  exponentially) and how it decays (proportionally to the inverse, the inverse square root
  or cube root of the step).
* Claim ``masked-softmax-renormalises``: a masked logit must be −∞ (or a very large negative
  number) to get weight 0. A sentence about masking the input of the softmax (its logits,
  scores, or values in its input) that says they are set to a value is read for that value.
  A sentence that masks "before the softmax" is the claim's; one that masks "after the
  softmax" contradicts it (a sentence about the weights or probabilities is not read, unless,
  after a sentence about masking or in a section titled after it, it sets them to a value no weight can be: infinite or of
  magnitude at least 1000, "a large negative number, such as −10⁶", which must be negative).

* Claim ``causal-mask-no-future``: in an auto-regressive (causal) model a position attends
  to itself and the past only. A sentence that says so (auto-regressive, causal, the past)
  and writes the span as a set, ``S_i = \\{j: j \\leq i\\}``, is read for the set's inequality:
  ``j ≤ i`` or ``j < i``; a sentence that also speaks of the future is not read. A sentence
  in a paragraph about masking that says what a position may depend on (or attend to) only,
  "positions less than $i$", "only allowed to attend to earlier positions", is read the same
  way: later (greater, future, subsequent) positions contradict the claim. So does a
  sentence about masking (or after one that speaks of a mask) that says it keeps (prevents,
  stops, blocks) positions from (for) attending to the past (or earlier, previous
  positions): the mask keeps them from the future. "Attend
  to all positions … up to and including that position" is the claim's span ("up to but
  excluding" contradicts it), and so is "no query attends to … after the query position" in
  an auto-regressive sentence ("before" contradicts it). "Prevent leftward information flow"
  in a sentence about the decoder (auto-regressive, causal) is the claim's: the future must
  not reach the past; "rightward" contradicts it.

* Claim ``rope-relative-angle``: RoPE's scores depend on the positions m and n only through
  m − n. A sentence that names a relative position (or offset, or a position offset) and
  writes it right after (``relative position \\(m - n\\)``, or after a few words and "i.e.")
  is read when it writes a difference or a sum of two
  names: a sum is not a relative position (a difference is not reported: the words define
  it, the claim does not).

* Claim ``cross-attention-shapes``: in encoder-decoder (cross) attention the queries come from
  the decoder and the keys and values from the encoder, softmax(Q_dec K_encᵀ/√d_k)V_enc. A
  sentence about encoder-decoder or cross attention that says where queries, keys or values
  come from ("the queries come from the previous decoder layer", "takes the Keys and Values
  matrix from the output of the encoder stack") is read for each source: one that names the
  encoder or the decoder (or "the layer below", the decoder's own) alone.

* Claim ``multi-head-shapes``: multi-head attention concatenates the h heads' outputs
  (Concat(head_1, …, head_h) W^O). A sentence about heads (or parallel attention layers, or
  attention-pooling outputs) that says the outputs "are concatenated", "summed", "added" or
  "averaged" (and no negation, "instead of" or "rather than") is read for that verb (the
  heads may also be named in the two sentences before, as "the attention function in
  parallel" on queries, keys and values "projected $h$ times"); so is
  "we concat (sum, add, average) the matrices (heads, outputs)" in a sentence about heads or
  the output matrix W^O.

* Claim ``norm-statistics-axes``: layer normalization takes its statistics over one
  example's features, batch normalization over the examples of a batch. A sentence that
  says one of them "normalizes across (or over) …" the features (feature dimension, hidden
  units, channels) or the examples (samples, the batch, a minibatch) is read for that axis;
  the normalization it speaks of is the one named nearest before the verb, and "the
  former" or "the latter" is the first or second the sentence names.

* Claim ``attention-cost-table``: self-attention does T²·d multiplies and stores T² scores,
  so its cost grows quadratically with the sequence length. A sentence about the cost
  (compute, memory, time, complexity) of the vanilla (standard, full, original) Transformer
  or self-attention that says it "grows linearly (quadratically, …) with the sequence
  length" is read for how; a sentence that names any other kind of model or attention
  (linear, sparse, local, kernel, recurrent, a named efficient variant) is not read.

* Claim ``pe-values-bounded``: every value of the sinusoidal encoding lies in [−1, 1] and
  takes both signs. A sentence about the (fixed, sinusoidal) positional encoding, or one of
  the two after such a sentence in its paragraph, that says its values (entries, elements)
  are "between A and B" (in either order) or "in [A, B]" is read for the interval: [−1, 1] is the
  claim's; one that leaves out part of [−1, 1] ("between 0 and 1") contradicts it; a wider
  one is true and not reported. A sentence about learned encodings, bits or a normalised
  position index is not read.

* Claim ``dot-product-variance``: Var(qᵀk) = d_k, so the dot products grow with the key
  width. A sentence that says the dot products "grow large (in magnitude)" "for large values
  of d_k" is read for the size: small (or low) values contradict the claim.

* Claim ``pe-shift-is-rotation``: the matrix taking PE(pos) to PE(pos + k) depends on the
  offset k alone. A sentence about a projection (transformation, rotation, linear) matrix
  that says it "does not depend on" the position (or is independent of it) is the claim's;
  one that says it "depends on" the (absolute) position, not only on the offset, contradicts
  it.

* Claim ``softmax-is-a-distribution``: softmax's weights are positive and sum to 1. A
  sentence about the softmax (or attention weights) that says they "add up to" (or "sum
  to") a number, or are "all positive" (negative), or that speaks of "nonnegative (negative)
  attention weights", is read: 1, positive and nonnegative are the claim's,
  another number or "negative" contradicts it. A sentence about gradients, a Jacobian, logits
  or a difference is not read.

* Claim ``ffn-no-token-interaction``: the position-wise feed-forward layer never mixes
  positions. "Dependencies (interactions) between the paths (positions, tokens) in the
  feed-forward layer" contradicts it; "the feed-forward layer does not have those
  dependencies" is the claim's. What a sentence says of self-attention is not read.

* Claim ``cross-attention-shapes`` also gives the shape of attention's output: one row per
  query, each as wide as a value (T_q × d_v, after the batch). A sentence that says the
  output is "a B × R × C tensor" is held to what it and the two sentences before it (in its
  paragraph) state: a minibatch size, a number of queries (or "one row / one query per
  example"), the dimensionality of the values. A size that disagrees contradicts the claim;
  one that none of them fixes is not judged.

* Claim ``softmax-saturation``: scores grown large drive softmax to one-hot and its gradient
  to zero. A sentence whose softmax gets large (grown, saturated) inputs and that names the
  size of its gradients is read for that size: small (tiny, vanishing) is the claim's, large
  (exploding) contradicts it; a sentence that avoids or prevents them is not read.

* Claim ``attention-temperature`` writes Attention(Q, K, V) = softmax(QKᵀ/√d_k)V: a key's
  score is its dot product with the query. "The score is calculated by taking the dot
  product of the query vector with the key vector" is the claim's; a dot product of other
  vectors (the query with the value) contradicts it. So are "the weight … is computed by a
  compatibility function (the dot product) of the query with the corresponding key", and
  "the output is a weighted sum of the values" (or "sum up the weighted value vectors"):
  weights of the keys or queries contradict it.

* Claim ``smoothed-optimal-logit-gap``: with label smoothing the best logit gap is finite. A
  sentence about label smoothing (or after one) that says it "penalizes the model if it gets
  very confident" is the claim's; "rewards" (encourages) it, or penalises an unsure model,
  contradicts it. Claim ``label-smoothing-perplexity-bleu`` records that it hurt perplexity
  and improved BLEU: "improves perplexity" or "hurts BLEU" there contradicts it.

* Claim ``ffn-no-token-interaction`` is also read in "the feed-forward network is applied to
  each position separately (independently)": "jointly" (together, at once) contradicts it.

* Claim ``scaled-score-variance``: Var(qᵀk/√d_k) = 1. A sentence about scaling (scaled,
  rescaled, divided) that says the variance "remains (stays, is kept at)" a value is read
  for it: 1 (one, unit) is the claim's, any other value contradicts it.

* Claim ``multihead-same-order``: h heads of width d/h do the multiplies of one full-width
  head. "The (computational) cost is similar to (the same as) that of single-head attention"
  is the claim's; "h times", "larger", "smaller" and the like contradict it.

* Claim ``pe-shift-is-rotation`` also makes PE(pos + k) a linear map of PE(pos). A sentence
  about an offset and positions (encodings) that says one "can be represented as (by) a
  linear function (projection, transformation)" of the other is the claim's; a nonlinear,
  quadratic, exponential, polynomial or logarithmic one contradicts it.

* Claims ``attention-cost-table`` and ``cross-attention-shapes`` are also read in two more
  phrasings: self-attention's "quadratic computational complexity with respect to the sequence
  length" (linear, cubic or exponential contradicts), and, in a paragraph about the decoder,
  "the output of the top encoder is transformed into attention vectors K and V" (Q among
  them contradicts).

Said as the claim has it: ``recognised``; otherwise ``contradicts``, on the line of the words
that differ (how it rises, "inverse …", the value).
Sentences about the weights after the softmax, or with no such verb, are not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tmath.gate.document import Document
from tmath.gate.findings import Finding
from tmath.gate.prose_relations import paragraph, sentences

SCHEDULE = "noam-schedule-shape"
MASK = "masked-softmax-renormalises"
_RATE = re.compile(r"\b(?:learning\s+rate|lrate|rate)\b", re.I)
_RISE = re.compile(r"\b(?:increas|rais|rises|rising|grow)\w*\b[^.;]{0,60}?"
                   r"\b(?P<how>linearly|quadratically|exponentially)\b", re.I)
_DECAY = re.compile(r"\b(?:decreas|decay)\w*\b[^.;]{0,60}?\b(?:proportional(?:ly)?\s+to|as)\s+"
                    r"(?:the\s+)?(?P<inverse>inverse)(?:\s+(?P<root>square|cube)\s+root)?\s+(?:of\s+)?"
                    r"(?:the\s+)?(?:current\s+)?step", re.I)
_WARMUP = re.compile(r"\bwarm-?up|\bwarmup_steps|\bfirst\s+(?:\S+\s+)?(?:training\s+)?steps\b",
                     re.I)
"""The schedule's own sentence names its warm-up (another schedule is not the claim's)."""
_MASKED = re.compile(r"\bmask\w*\b", re.I)
_INPUT = re.compile(r"\binput\s+of\s+the\s+softmax\b|\blogits?\b|\b(?:attention\s+)?scores?\b",
                    re.I)
_AFTER = re.compile(r"\b(?:weights?|probabilit\w+|outputs?\s+of\s+the\s+softmax|after\s+the\s+"
                    r"softmax|loss)\b", re.I)
_SET_TO = re.compile(r"\bset(?:s|ting)?\b[^.;()]{0,30}?\bto\s+(?P<value>\$[^$]{1,30}\$|[-−]?\s*"
                     r"(?:infinity|∞|\d[\d,.]*(?:e[-−]?\d+)?)|negative\s+infinity|zero|a\s+(?:very\s+)?"
                     r"large\s+(?:negative|positive)\s+(?:value|number))", re.I)


_ONLY = (r"\b(?:(?:depend\w*|attend\w*|look\w*)\s+only\s+(?:on|to|at)|only\s+(?:(?:allowed|able|"
         r"permitted)\s+)?to\s+(?:attend|look)\s+(?:to|at))\b")
_DEPENDS = re.compile(_ONLY + r"[^.;]{0,60}?\bpositions?\s+(?P<rel>less|smaller|lower|earlier|before|"
                      r"greater|larger|higher|later|after)\b(?:\s+than)?\s*(?:\$[^$]{1,12}\$|[a-z]\b)|"
                      + _ONLY + r"\s+(?:the\s+)?(?P<adj>earlier|previous|preceding|past|later|future|"
                      r"subsequent|following)\s+positions\b", re.I)
_PREVENTS = re.compile(r"\b(?:prevent|stop|keep|block)\w*\s+(?:[\w-]+\s+){0,4}?(?:from|for)\s+(?:attending|"
                       r"looking|peeking)\s+(?:to|at|into)\s+(?:the\s+)?(?P<what>future|subsequent|"
                       r"later|following|next|past|previous|earlier|preceding)\b", re.I)
"""A mask said to keep positions from attending to the future (right) or the past."""
_UP_TO = re.compile(r"\battend\w*\s+to\s+[^.;]{0,60}?\bup\s+to\s+(?:and|but)\s+(?P<what>including|"
                    r"excluding|not\s+including)\s+(?:that|this|the\s+(?:current|query|same)|its\s+"
                    r"own)\s+position\b", re.I)
_NONE_BEYOND = re.compile(r"\bno\s+(?:query|position|token)\s+(?:can\s+|may\s+|ever\s+)?attends?\s+"
                          r"to\s+[^.;]{0,40}?\b(?P<rel>after|before|later\s+than|earlier\s+than|"
                          r"following|preceding)\s+(?:the\s+|its\s+|that\s+)?(?:query\s+)?"
                          r"position\b", re.I)
_FLOW = re.compile(r"\b(?:prevent|block|stop|forbid|avoid)\w*\s+(?P<dir>leftward|rightward)\s+"
                   r"(?:information\s+)?flow\b", re.I)
"""Information flowing leftward (from later positions to earlier ones) is what a causal
decoder must not allow."""
_MASK_WHEN = re.compile(r"\bmask\w*\s+[^.;]{0,80}?\b(?P<when>before|after)\s+(?:applying\s+)?"
                        r"(?:the\s+)?softmax\b", re.I)
_WEIGHTS = re.compile(r"\bweights?\b|\bprobabilit\w+", re.I)
_BEFORE_WORDS = ("less", "smaller", "lower", "earlier", "before", "previous", "preceding", "past")
CROSS = "cross-attention-shapes"
_CROSS_TOPIC = re.compile(r"\bencoder(?:-{1,3}|–|—)decoder\s+attention|\bcross-attention\b|"
                          r"\bencoder(?:-{1,3}|–|—)decoder\b[^.;]{0,40}\battention", re.I)
_ROLE = r"(?:quer(?:y|ies)|keys?|values?)"
_FROM = re.compile(rf"\b(?P<what>{_ROLE}(?:\s*(?:,|and|,\s*and)\s*(?:the\s+)?(?:memory\s+)?{_ROLE})*)"
                   r"(?:\s+(?:matri(?:x|ces)|vectors?))?\s+(?:(?:are\s+|is\s+)?(?:all\s+)?(?:comes?|are|is|"
                   r"(?:are|is)\s+taken)\s+)?from\s+(?P<source>(?:(?!\band\s+(?:its|the|their)\b)[^,.;]){1,60})", re.I)
HEADS = "multi-head-shapes"
_HEADS_TOPIC = re.compile(r"\bheads?\b|\bmulti-?head\b|\bparallel\s+attention\s+layers\b|"
                          r"\battention[\s-]+pooling\s+outputs\b", re.I)
_JOINED = re.compile(r"\b(?:are|is|get|gets|being|been)\s+(?:then\s+|simply\s+|all\s+)?"
                     r"(?P<how>concatenated|summed|added|averaged|multiplied)\b", re.I)
_PARALLEL_HEADS = re.compile(r"\battention\s+(?:function|functions|pooling)\s+in\s+parallel\b|"
                             r"\bproject\w*\s+[^.;]{0,60}?\$h\$\s+times\b", re.I)
"""Heads named without the word: h projections, attention run in parallel on each."""
_WE_JOIN = re.compile(r"\bwe\s+(?:then\s+|simply\s+)?(?P<how>concat(?:enate)?|sum|add|average)\s+(?:up\s+)?"
                      r"(?:the|these|all|those)\s+(?:\w+\s+)?(?:matrices|heads|outputs)\b", re.I)
_OUTPUT_MATRIX = re.compile(r"\bW_?\^?\{?O\}?(?![\w}])|\boutput\s+(?:weight\s+|projection\s+)?matrix\b")
_NOT_SO = re.compile(r"\b(?:not|n't|never|instead|rather\s+than|residual|positional|"
                     r"encodings?|embeddings?)\b", re.I)
RELATIVE = "rope-relative-angle"
_RELATIVE = re.compile(r"\b(?:relative\s+(?:positions?|offsets?|distances?)|position\s+offsets?)\b"
                       r"(?:(?:\s+[a-z]+){0,5}?,?\s+(?:say|i\.e\.|namely),?)?\s*(?::\s*)?$", re.I)
RELATIVE_REACH = 80
"""How many characters before an inline formula "relative position" may end."""
CAUSAL = "causal-mask-no-future"
_CAUSAL_WORDS = re.compile(r"\b(?:a[un]to-?regressive\w*|causal\w*|the\s+past|previous\s+"
                           r"positions?|earlier\s+positions?)\b", re.I)
_FUTURE_WORDS = re.compile(r"\b(?:future|following|later|next|bidirectional\w*)\b", re.I)
_SPAN = re.compile(r"\\\{\s*(?P<j>[a-z])\s*(?::|\\mid|\|)\s*(?P=j)\s*"
                   r"(?P<rel>\\leq?|\\le\b|<|\\lt\b|\\geq?|\\ge\b|>|\\gt\b)\s*(?P<i>[a-z])\s*\\\}")

AXES = "norm-statistics-axes"
_NORMS = re.compile(r"\b(?P<kind>layer|batch)[\s-]*norm(?:ali[sz]ation)?\b|"
                    r"\b(?P<short>LayerNorm|BatchNorm|LN|BN)\b|\bthe\s+(?P<which>former|latter)\b",
                    re.I)
_ACROSS = re.compile(r"\bnormali[sz]\w*\s+(?:\w+\s+){0,3}?(?:across|over|along)\s+(?:all\s+)?"
                     r"(?:the\s+)?(?:\w+\s+){0,2}?(?P<axis>feature(?:s|\s+dimensions?)?|"
                     r"hidden\s+units?|channels?|examples?|samples?|(?:mini-?)?batch(?:es)?)\b", re.I)

GROWTH = "attention-cost-table"
_GROWS = re.compile(r"\b(?:grows?|grew|growing|scales?|scaling|increases?|increasing)\s+"
                    r"(?P<how>linearly|quadratically|cubically|exponentially)\s+(?:with|in)\s+"
                    r"(?:the\s+)?(?:input\s+|sequence\s+|context\s+)?(?:length|number\s+of\s+"
                    r"tokens)\b", re.I)
_COST = re.compile(r"\b(?:cost|compute|computation\w*|memory|time|complexity|operations)\b", re.I)
_PLAIN_ATTENTION = re.compile(r"\b(?:vanilla|standard|full|original)\s+(?:self-attention|"
                              r"attention|transformer)|\bself-attention\b|\bthe\s+transformer\b",
                              re.I)
_VARIANT = re.compile(r"\b(?:linear(?!ly)|sparse|local|efficient|kernel\w*|recurren\w*|RNNs?|"
                      r"LSTMs?|convolution\w*|window\w*|chunk\w*|low-rank|approximat\w*|"
                      r"compress\w*|hash\w*|LSH|Longformer|Reformer|Linformer|Performer|"
                      r"BigBird|Flash\w*|Mamba|RWKV|state[\s-]space)\b", re.I)
RANGE = "pe-values-bounded"
_PE_TOPIC = re.compile(r"(?<!learned\s)(?<!learnable\s)(?<!trainable\s)\bposition(?:al)?\s+"
                       r"(?:encoding|embedding)s?\b|\bsinusoid\w*\b", re.I)
_OTHER_RANGE = re.compile(r"\b(?:bits?|binary|normali[sz]\w*|index|indices|probabilit\w*|"
                          r"weights?|softmax|correlat\w*|tanh|sigmoid)\b", re.I)
_NUMBER = r"(?:\$|\\\()?\s*[-−–]?\s*\d+(?:\.\d+)?\s*(?:\$|\\\))?"
_ASIDE = r"(?:\s*\([^()]{0,20}\))?"
_WITHIN = re.compile(r"\b(?:values?|entry|entries|elements?|components?|numbers)\b[^.;]{0,40}?"
                     rf"(?:\bbetween\s+(?P<low>{_NUMBER}){_ASIDE}\s+and\s+(?P<high>{_NUMBER})|"
                     r"\b(?:in|within)\s+(?:the\s+(?:range|interval)\s+)?(?:\$|\\\()?\s*"
                     r"\[\s*(?P<left>[-−–]?\s*\d+(?:\.\d+)?)\s*,\s*(?P<right>[-−–]?\s*\d+(?:\.\d+)?)"
                     r"\s*\])", re.I)
VARIANCE = "dot-product-variance"
_DK = r"(?:\$\s*d_\{?k\}?\s*\$|\\\(\s*d_\{?k\}?\s*\\\)|\bd_k\b)"
_GROW_LARGE = re.compile(r"\bdot[\s-]products?\s+(?:\w+\s+){0,2}?(?:grow|get|become)\w*\s+"
                         r"(?:very\s+)?large\b", re.I)
_DK_SIZE = re.compile(rf"\bfor\s+(?P<size>large|larger|big|high|small|smaller|low)\s+"
                      rf"(?:values?\s+of\s+)?{_DK}", re.I)
SHIFT = "pe-shift-is-rotation"
_SHIFT_MATRIX = re.compile(r"\b(?:projection|transformation|rotation|linear)\s+matri(?:x|ces)\b",
                           re.I)
_DEPEND = re.compile(r"\bdepend\w*\s+on\b|\bindependent\s+of\b", re.I)
_ONLY_OFFSET = re.compile(r"\bonly\b|\boffset|\brelative|\bdistance|\bshift", re.I)

DISTRIBUTION = "softmax-is-a-distribution"
_WEIGHTS_TOPIC = re.compile(r"\bsoftmax\b|\battention\s+weights\b", re.I)
_NOT_WEIGHTS = re.compile(r"\bgradients?\b|\bderivatives?\b|\bJacobian\b|\blogits?\b|\bminus\b|"
                          r"\bdifferences?\b|\blog\b", re.I)
_ADD_UP = re.compile(r"\b(?:add|adds|sum|sums|summing)\s+(?:up\s+)?to\s+(?P<value>\$?\s*-?\d+(?:\.\d+)?"
                     r"\s*\$?|one|zero)(?![\w.])|\ball\s+(?P<sign>positive|negative)\b", re.I)

_SIGNED_WEIGHTS = re.compile(r"\b(?P<sign>non-?negative|positive|negative)\s+(?:attention\s+)?"
                            r"(?:weights|probabilities)\b", re.I)
_NO_SIGN = re.compile(r"\b(?:not|no|never|cannot|without|unlike|instead|rather|other)\b|n't\b",
                      re.I)
POSITIONWISE = "ffn-no-token-interaction"
_FFN = r"(?P<layer>feed[\s-]*forward|FFN)"
_MIXING = re.compile(r"\b(?P<neg>no\s+)?(?:dependenc(?:y|ies)|interactions?)\s+between\s+(?:the\s+|"
                     r"these\s+|those\s+|different\s+)?(?:paths|positions|tokens|words)\b[^.;]{0,30}?"
                     rf"\bin\s+the\s+{_FFN}", re.I)
_FFN_FREE = re.compile(rf"\bthe\s+{_FFN}\s+(?:layer|network|sub-?layer)s?\s+(?:does\s+not|doesn't|"
                       r"do\s+not|don't)\s+have\s+(?:those|these|any|such)\s+dependencies\b", re.I)

SATURATION = "softmax-saturation"
_SATURATES = re.compile(r"\bsoftmax\b[^.;]*\b(?:large|larger|grows?|magnitude|saturat\w*)\b|"
                        r"\b(?:large|larger|grows?|magnitude|saturat\w*)\b[^.;]*\bsoftmax\b", re.I)
_GRADIENT_SIZE = re.compile(r"\b(?:(?:extremely|very|vanishingly|really|too)\s+)?(?P<size>small|tiny|"
                            r"minuscule|vanishing|negligible|large|huge|big|exploding)\s+gradients?\b|"
                            r"\bgradients?\s+(?:become|becomes|get|gets|are|grow|grows)\s+(?:extremely"
                            r"\s+|very\s+)?(?P<after>small|tiny|large|huge|big)\b", re.I)
_NOT_SATURATED = re.compile(r"\b(?:not|n't|never|avoid\w*|prevent\w*|instead|rather\s+than|"
                            r"counteract\w*)\b", re.I)
_SMALL = ("small", "tiny", "minuscule", "vanishing", "negligible")
HEAD_COST = "multihead-same-order"
_SAME = ("similar", "comparable", "the same", "equal", "identical", "close")
_HEAD_COST = re.compile(r"\b(?:cost|complexity|compute|FLOPs|operations)\s+(?:is|are|remains?)\s+"
                        r"(?:roughly\s+|about\s+|approximately\s+|nearly\s+)?(?P<how>similar|"
                        r"comparable|the\s+same|equal|identical|close|(?:\$?\s*h\s*\$?|two|several)\s+"
                        r"times(?:\s+(?:larger|higher|greater|more|bigger))?|(?:much\s+|far\s+|"
                        r"significantly\s+|considerably\s+)?(?:larger|higher|greater|more|bigger|"
                        r"smaller|lower|less|cheaper)|twice|double|half)\b[^.;]{0,12}?\b(?:that\s+of|to|"
                        r"as|than|with)\s+(?:a\s+|the\s+)?single[\s-]head", re.I)
_REPRESENTED = re.compile(r"\b(?:represent|express|written|writ|obtain|comput)\w*\s+(?:as|by|"
                          r"through)\s+(?:a|an)\s+(?P<kind>linear|non-?linear|quadratic|exponential|"
                          r"polynomial|logarithmic|affine)\s+(?:function|projection|"
                          r"transformation|combination|map(?:ping)?)\b", re.I)
_OFFSET_TOPIC = re.compile(r"\boffset\b", re.I)
_POSITION_TOPIC = re.compile(r"\bpositions?\b|\bencodings?\b", re.I)
_ORDER_OF = re.compile(r"\b(?P<how>linear|quadratic|cubic|exponential)\s+(?:computational\s+|time\s+|"
                       r"memory\s+|space\s+)?(?:complexity|cost)\s+(?:with\s+respect\s+to|in|of)\s+"
                       r"(?:the\s+)?(?:input\s+|sequence\s+|context\s+)?(?:length|number\s+of\s+"
                       r"tokens)\b", re.I)
_LETTER_ROLE = r"(?:(?-i:[QKV])|keys?|values?|quer(?:y|ies))"
_ENCODER_INTO = re.compile(r"\boutput\s+of\s+the\s+(?:top\s+|last\s+|final\s+)?encoder\b[^.;]{0,60}?"
                           r"\binto\s+(?:a\s+set\s+of\s+)?(?:attention\s+)?(?:vectors?|matrices)\s+"
                           rf"(?P<what>{_LETTER_ROLE}\s*(?:,|and)\s*{_LETTER_ROLE})\b", re.I)

SCALED = "scaled-score-variance"
_REMAINS = re.compile(r"\bvariance\b[^.;]{0,40}?\b(?:still\s+)?(?:remains?|stays?|is\s+kept)\s+(?:at\s+|"
                      r"equal\s+to\s+)?(?P<value>\$[^$]{1,20}\$|\\\([^)]{1,20}\\\)|\d+(?:\.\d+)?\b|one\b|"
                      r"unit\b)", re.I)
_SCALING = re.compile(r"\b(?:scaled|scaling|rescal\w*|divid\w*)\b", re.I)
SCORE = "attention-temperature"
_SCORE_DOT = re.compile(rf"\bscores?\b[^.;]{{0,60}}?\bdot[\s-]+products?\s+of\s+(?:the\s+|a\s+|each\s+)?"
                        rf"(?P<a>{_ROLE})(?:\s+vectors?)?\s+(?:with|and)\s+(?:the\s+|a\s+|each\s+)?"
                        rf"(?P<b>{_ROLE})\b", re.I)
_WEIGHTED_OF = re.compile(rf"\boutputs?\b[^.;]{{0,30}}?\bweighted\s+(?:sum|average|combination|mean)\s+"
                          rf"of\s+(?:the\s+)?(?P<role>{_ROLE})\b|\bsum\s+(?:up\s+)?the\s+weighted\s+"
                          r"(?P<vectors>value|key|query)\s+vectors\b", re.I)
_WEIGHT_FROM = re.compile(rf"\bweights?\b[^.;]{{0,60}}?\b(?:compatibility\s+function|dot[\s-]+products?)\s+"
                          rf"of\s+the\s+(?P<a>{_ROLE})\s+with\s+(?:the\s+)?(?:corresponding\s+)?"
                          rf"(?P<b>{_ROLE})\b", re.I)
SMOOTHING = "smoothed-optimal-logit-gap"
_SMOOTHING_TOPIC = re.compile(r"\blabel\s+smoothing\b", re.I)
_CONFIDENT = re.compile(r"\b(?P<verb>penali[sz]\w*|punish\w*|reward\w*|encourag\w*)\s+the\s+model\s+"
                        r"(?:if|when|whenever|for|as)\s+(?:it\s+)?(?:gets|becomes|is|being|getting)?\s*"
                        r"(?:very\s+|too\s+|over-?)?(?P<state>confident|certain|sure|unsure|uncertain)\b",
                        re.I)
SMOOTHING_EFFECT = "label-smoothing-perplexity-bleu"
_PERPLEXITY = re.compile(r"\b(?P<how>hurts?|worsens?|raises?|increases?|improves?|lowers?|reduces?|"
                         r"helps?)\s+(?:the\s+)?perplexity\b", re.I)
_BLEU = re.compile(r"\b(?P<how>hurts?|worsens?|lowers?|reduces?|improves?|raises?|increases?|helps?)"
                   r"\s+(?:the\s+)?(?:accuracy\s+and\s+)?BLEU\b", re.I)
_FFN_TOPIC = re.compile(r"\bfeed[\s-]*forward\b|\bFFN\b", re.I)
_APPLIED = re.compile(r"\bapplied\s+to\s+(?P<scope>each\s+position|every\s+position|all\s+positions|the\s+"
                      r"whole\s+sequence)\s+(?P<how>separately|independently|jointly|together|at\s+once)\b"
                      r"|\b(?P<how2>independently|separately|jointly)\s+applied\s+to\s+(?:each|every|all)\s+"
                      r"positions?\b", re.I)
_N = r"\$?\s*(?P<{}>\d+)\s*\$?"
_OUTPUT_SHAPE = re.compile(r"\boutputs?\b[^.;]{0,40}?\b(?:be|is|has\s+shape|of\s+shape)\s+(?:a\s+|an\s+)?"
                           r"\$\s*(?P<a>\d+)\s*(?:\\times|×)\s*(?P<b>\d+)\s*(?:\\times|×)\s*"
                           r"(?P<c>\d+)\s*\$\s*tensor", re.I)
_BATCH = re.compile(r"\b(?:mini-?)?batch\s+size\s+(?:of|is)\s+" + _N.format("n"), re.I)
_QUERIES = re.compile(r"(?:(?<![\w.])" + _N.format("n") + r"\s+quer(?:y|ies)\b|\bone\s+(?P<one>row|query)"
                      r"\s+(?:per|for\s+each)\s+(?:example|sequence|observation))", re.I)
_VALUE_WIDTH = re.compile(r"\bdimension(?:ality)?\s+of\s+the\s+values\s+is\s+" + _N.format("n") +
                          r"|(?<![\w.])" + _N.format("m") + r"-dimensional\s+values\b", re.I)


@dataclass(frozen=True)
class Said:
    """A claim's fact said in words: which claim, what was said, whether it is the claim's."""

    claim: str
    words: str
    right: bool
    should: str
    start: int


def said_in(document: Document, verified: set[str]) -> list[Said]:
    """Every sentence that says what one of the two claims proves (see the module's doc)."""

    text = document.masked or document.text
    found, previous = [], (0, 0)
    for start, end in sentences(text):
        sentence = text[start:end]
        if SCHEDULE in verified and _RATE.search(sentence) and _WARMUP.search(sentence):
            rise, decay = _RISE.search(text, start, end), _DECAY.search(text, start, end)
            if rise:
                found.append(Said(SCHEDULE, rise.group(), rise.group("how").lower() == "linearly",
                                  "rises linearly during warm-up", rise.start("how")))
            if decay:
                root = (decay.group("root") or "").lower()
                found.append(Said(SCHEDULE, decay.group(), root == "square",
                                  "decays as the inverse square root of the step",
                                  decay.start("inverse")))
        if CAUSAL in verified and _CAUSAL_WORDS.search(sentence) and \
                not _FUTURE_WORDS.search(sentence):
            for math in [m for m in document.inline if start <= m.start < end]:
                for span in _SPAN.finditer(math.latex):
                    past = span.group("rel") in ("\\leq", "\\le", "<", "\\lt")
                    found.append(Said(CAUSAL, span.group(), past,
                                      "j ≤ i (the position itself and the past)",
                                      math.inner + span.start()))
        if CAUSAL in verified and _MASKED.search(paragraph(text, start, end)):
            for match in _DEPENDS.finditer(text, start, end):
                word = "rel" if match.group("rel") else "adj"
                found.append(Said(CAUSAL, " ".join(match.group().split()),
                                  match.group(word).lower() in _BEFORE_WORDS,
                                  "j ≤ i (the position itself and the past)", match.start(word)))
        if CAUSAL in verified and _about_masks(text, start, end, previous):
            for match in _PREVENTS.finditer(text, start, end):
                found.append(Said(CAUSAL, " ".join(match.group().split()),
                                  match.group("what").lower() not in _BEFORE_WORDS,
                                  "j ≤ i (the position itself and the past)",
                                  match.start("what")))
        if CAUSAL in verified:
            found += _causal_spans(text, start, end)
            found += [Said(CAUSAL, " ".join(m.group().split()), m.group("dir").lower() == "leftward",
                           "j ≤ i (the position itself and the past)", m.start("dir"))
                      for m in _FLOW.finditer(text, start, end)
                      if re.search(r"\bdecoder|a[un]to-?regressive|causal", sentence, re.I)]
        if CROSS in verified and _OUTPUT_SHAPE.search(sentence):
            found += _output_shapes(text, start, end, previous)
        if CROSS in verified and _CROSS_TOPIC.search(sentence):
            found += _cross_sources(text, start, end)
        if CROSS in verified and "decoder" in paragraph(text, start, end).lower():
            found += _encoder_outputs(text, start, end)
        if SMOOTHING in verified and _SMOOTHING_TOPIC.search(
                text, _passage_start(text, start, previous), end):
            for match in _CONFIDENT.finditer(text, start, end):
                punished = match.group("verb").lower().startswith(("penal", "punish"))
                sure = match.group("state").lower() in ("confident", "certain", "sure")
                found.append(Said(SMOOTHING, " ".join(match.group().split()), punished == sure,
                                  "a finite best logit gap: over-confidence is penalised",
                                  match.start("verb")))
        if SMOOTHING_EFFECT in verified and _SMOOTHING_TOPIC.search(
                text, _passage_start(text, start, previous), end):
            for pattern, worse in ((_PERPLEXITY, ("hurt", "worsen", "raise", "increase")),
                                   (_BLEU, ("improve", "raise", "increase", "help"))):
                for match in pattern.finditer(text, start, end):
                    how = match.group("how").lower()
                    found.append(Said(SMOOTHING_EFFECT, " ".join(match.group().split()),
                                      how.startswith(worse),
                                      "worse perplexity but better BLEU", match.start("how")))
        if POSITIONWISE in verified and _FFN_TOPIC.search(sentence):
            for match in _APPLIED.finditer(text, start, end):
                how = (match.group("how") or match.group("how2")).lower()
                found.append(Said(POSITIONWISE, " ".join(match.group().split()),
                                  how in ("separately", "independently"),
                                  "no dependence between positions",
                                  match.start("how" if match.group("how") else "how2")))
        if SCORE in verified:
            for match in _WEIGHTED_OF.finditer(text, start, end):
                role = "role" if match.group("role") else "vectors"
                found.append(Said(SCORE, " ".join(match.group().split()),
                                  match.group(role).lower().startswith("value"),
                                  "a weighted sum of the values (softmax(QKᵀ/√d_k) V)",
                                  match.start(role)))
            for match in [*_WEIGHT_FROM.finditer(text, start, end),
                          *_SCORE_DOT.finditer(text, start, end)]:
                roles = {match.group(g).lower()[0] for g in ("a", "b")}
                found.append(Said(SCORE, " ".join(match.group().split()), roles == {"q", "k"},
                                  "the dot product of a query with a key (QKᵀ)",
                                  match.start("a")))
        if SCALED in verified and _SCALING.search(sentence):
            for match in _REMAINS.finditer(text, start, end):
                value = re.sub(r"[$\\()\s{}]", "", match.group("value")).lower()
                found.append(Said(SCALED, " ".join(match.group().split()),
                                  value in ("1", "1.0", "one", "unit"),
                                  "1 (Var(qᵀk/√d_k) = 1)", match.start("value")))
        if SATURATION in verified and _SATURATES.search(sentence) and \
                not _NOT_SATURATED.search(sentence):
            for match in _GRADIENT_SIZE.finditer(text, start, end):
                size = (match.group("size") or match.group("after")).lower()
                found.append(Said(SATURATION, " ".join(match.group().split()), size in _SMALL,
                                  "vanishing gradients (softmax saturates)",
                                  match.start("size" if match.group("size") else "after")))
        if HEAD_COST in verified and not re.search(r"\bnot\b|n't\b", sentence):
            for match in _HEAD_COST.finditer(text, start, end):
                how = " ".join(match.group("how").lower().split())
                found.append(Said(HEAD_COST, " ".join(match.group().split()), how in _SAME,
                                  "the same T²·d multiplies as one head of full width",
                                  match.start("how")))
        if SHIFT in verified and _OFFSET_TOPIC.search(sentence) and \
                _POSITION_TOPIC.search(sentence):
            for match in _REPRESENTED.finditer(text, start, end):
                kind = match.group("kind").lower()
                found.append(Said(SHIFT, " ".join(match.group().split()),
                                  kind in ("linear", "affine"),
                                  "a linear map (a rotation by k·ω_i in each pair)",
                                  match.start("kind")))
        if RELATIVE in verified and re.search(r"relative|offset", sentence, re.I):
            found += _relative_positions(document, text, start, end)
        if GROWTH in verified and _COST.search(sentence) and \
                _PLAIN_ATTENTION.search(sentence) and not _VARIANT.search(sentence):
            for match in _GROWS.finditer(text, start, end):
                found.append(Said(GROWTH, " ".join(match.group().split()),
                                  match.group("how").lower() == "quadratically",
                                  "quadratically (T² scores)", match.start("how")))
        if GROWTH in verified and _PLAIN_ATTENTION.search(sentence):
            for match in _ORDER_OF.finditer(text, start, end):
                rest = text[start:match.start()] + text[match.end():end]
                if not _VARIANT.search(rest):   # "linear" in the match is what is read
                    found.append(Said(GROWTH, " ".join(match.group().split()),
                                      match.group("how").lower() == "quadratic",
                                      "quadratically (T² scores)", match.start("how")))
        if HEADS in verified and (_HEADS_TOPIC.search(sentence) or _PARALLEL_HEADS.search(
                text, _passage_start(text, start, previous), start)) and \
                not _NOT_SO.search(sentence):
            for match in _JOINED.finditer(text, start, end):
                found.append(Said(HEADS, " ".join(match.group().split()),
                                  match.group("how").lower() == "concatenated",
                                  "concatenated (Concat(head_1, …, head_h) W^O)",
                                  match.start("how")))
        if HEADS in verified and (_HEADS_TOPIC.search(sentence) or
                                  _OUTPUT_MATRIX.search(sentence)) and not _NOT_SO.search(sentence):
            for match in _WE_JOIN.finditer(text, start, end):
                found.append(Said(HEADS, " ".join(match.group().split()),
                                  match.group("how").lower().startswith("concat"),
                                  "concatenated (Concat(head_1, …, head_h) W^O)",
                                  match.start("how")))
        if RANGE in verified and _WITHIN.search(sentence) and \
                _about_the_encoding(text, start, end, previous) and \
                not _OTHER_RANGE.search(sentence):
            found += _value_ranges(text, start, end)
        previous = (previous[1], start)
        if VARIANCE in verified and _GROW_LARGE.search(sentence):
            for match in _DK_SIZE.finditer(text, start, end):
                found.append(Said(VARIANCE, " ".join(match.group().split()),
                                  match.group("size").lower() in ("large", "larger", "big", "high"),
                                  "large values of d_k (Var(qᵀk) = d_k)", match.start("size")))
        if SHIFT in verified and _SHIFT_MATRIX.search(sentence) and _DEPEND.search(sentence):
            found += _shift_matrix(text, start, end)
        if DISTRIBUTION in verified and _WEIGHTS_TOPIC.search(sentence) and \
                not _NOT_WEIGHTS.search(sentence):
            for match in _ADD_UP.finditer(text, start, end):
                value = (match.group("value") or "").strip("$ ").lower()
                right = match.group("sign").lower() == "positive" if match.group("sign") \
                    else value in ("1", "1.0", "one")
                found.append(Said(DISTRIBUTION, " ".join(match.group().split()), right,
                                  "positive weights that add up to 1",
                                  match.start("sign" if match.group("sign") else "value")))
            for match in [] if _NO_SIGN.search(sentence) else \
                    _SIGNED_WEIGHTS.finditer(text, start, end):
                found.append(Said(DISTRIBUTION, " ".join(match.group().split()),
                                  match.group("sign").lower() != "negative",
                                  "positive weights that add up to 1", match.start("sign")))
        if POSITIONWISE in verified:
            found += [Said(POSITIONWISE, " ".join(m.group().split()), bool(m.group("neg")),
                           "no dependence between positions", m.start("layer"))
                      for m in _MIXING.finditer(text, start, end)]
            found += [Said(POSITIONWISE, " ".join(m.group().split()), True,
                           "no dependence between positions", m.start("layer"))
                      for m in _FFN_FREE.finditer(text, start, end)]
        if AXES in verified and _ACROSS.search(sentence):
            found += _axes(text, start, end)
        if MASK in verified and not _WEIGHTS.search(sentence) and not _SET_TO.search(sentence):
            for match in _MASK_WHEN.finditer(text, start, end):
                found.append(Said(MASK, " ".join(match.group().split()),
                                  match.group("when").lower() == "before",
                                  "−∞ added to the logits before the softmax",
                                  match.start("when")))
        if MASK in verified and _MASKED.search(sentence) and _INPUT.search(sentence) and \
                not _AFTER.search(sentence):
            for match in _SET_TO.finditer(text, start, end):
                value = match.group("value")
                found.append(Said(MASK, match.group(), _very_negative(value),
                                  "−∞ (or a very large negative number)", match.start("value")))
        elif MASK in verified and (_MASKED.search(text, _passage_start(text, start, previous),
                                                   end) or _in_masking_section(document, start)):
            for match in _SET_TO.finditer(text, start, end):   # only a logit can be this large
                value = match.group("value")
                if _large(value):
                    found.append(Said(MASK, match.group(), _very_negative(value),
                                      "−∞ (or a very large negative number)",
                                      match.start("value")))
    return found


def _axes(text: str, start: int, end: int) -> list[Said]:
    """Each "normalizes across <axis>" of a sentence, held to the normalization it speaks
    of: layer normalization across the features, batch normalization across the examples."""
    named = [(m.start(), (m.group("kind") or m.group("short") or "").lower()[:1],
              (m.group("which") or "").lower()) for m in _NORMS.finditer(text, start, end)]
    first = [kind for _, kind, which in named if kind][:2]
    found = []
    for match in _ACROSS.finditer(text, start, end):
        before = [(kind, which) for at, kind, which in named if at < match.start()]
        if not before:
            continue
        kind, which = before[-1]
        if which:
            k = 0 if which == "former" else 1
            kind = first[k] if len(first) > k else ""
        if kind not in ("l", "b"):
            continue
        axis = match.group("axis").lower()
        examples = axis.startswith(("example", "sample", "batch", "mini"))
        should = "each example's features" if kind == "l" else "the examples of a batch"
        found.append(Said(AXES, " ".join(match.group().split()), examples == (kind == "b"),
                          should, match.start("axis")))
    return found


def _output_shapes(text: str, start: int, end: int, previous: tuple[int, int]) -> list[Said]:
    """Each "output … a B × R × C tensor" of a sentence, held to the batch size, the number
    of queries and the values' width its passage states (the sentence and the two before
    it in its paragraph): the output is batch × queries × value width."""
    before = _passage_start(text, start, previous)
    stated = {}
    for name, pattern in (("batch", _BATCH), ("rows", _QUERIES), ("width", _VALUE_WIDTH)):
        values = set()
        for match in pattern.finditer(text, before, end):
            groups = match.groupdict()
            values.add(1 if groups.get("one") else int(groups.get("n") or groups.get("m")))
        if len(values) == 1:   # two different numbers: not one setting
            stated[name] = values.pop()
    found = []
    for match in _OUTPUT_SHAPE.finditer(text, start, end):
        sizes = {"batch": ("a", int(match.group("a"))), "rows": ("b", int(match.group("b"))),
                 "width": ("c", int(match.group("c")))}
        judged = [(name, sizes[name]) for name in stated]
        if not judged:
            continue
        wrong = [(name, group) for name, (group, size) in judged if size != stated[name]]
        at = match.start(wrong[0][1]) if wrong else match.start("a")
        found.append(Said(CROSS, " ".join(match.group().split()), not wrong,
                          "one row per query, as wide as a value (batch × T_q × d_v)", at))
    return found


def _causal_spans(text: str, start: int, end: int) -> list[Said]:
    """A decoder position said to attend "up to and including" itself (not excluding), or
    "no query attends to … after the query position" (not before) in an auto-regressive
    sentence: the causal claim's span j ≤ i."""
    found = [Said(CAUSAL, " ".join(m.group().split()), m.group("what").lower() == "including",
                  "j ≤ i (the position itself and the past)", m.start("what"))
             for m in _UP_TO.finditer(text, start, end)]
    if _CAUSAL_WORDS.search(text, start, end):
        found += [Said(CAUSAL, " ".join(m.group().split()),
                       m.group("rel").lower().split()[0] in ("after", "later", "following"),
                       "j ≤ i (the position itself and the past)", m.start("rel"))
                  for m in _NONE_BEYOND.finditer(text, start, end)]
    return found


def _shift_matrix(text: str, start: int, end: int) -> list[Said]:
    """What a sentence about the shift matrix says it depends on: not on the position is the
    claim's; on the position, unless only through the offset, contradicts it."""
    words = _DEPEND.search(text, start, end)
    tail = text[words.start():end]
    match = re.match(r"(?P<verb>depend\w*\s+on|independent\s+of)\s+(?:any\s+|the\s+)?"
                     r"(?:absolute\s+)?position", tail, re.I)
    if match is None:
        return []
    before = text[max(start, words.start() - 12):words.start()].lower()
    negated = "independent" in match.group("verb").lower() or \
        re.search(r"(?:not|n't|never)\s*$", before) is not None
    if not negated and _ONLY_OFFSET.search(tail):
        return []
    return [Said(SHIFT, " ".join(text[words.start():words.start() + match.end()].split()),
                 negated, "the offset k alone, not the position", words.start())]


def _passage_start(text: str, start: int, previous: tuple[int, int]) -> int:
    """Where the passage of the sentence at ``start`` begins: the earlier of the two sentences
    before it (``previous``), but not before its paragraph."""
    return max(previous[0], text.rfind("\n\n", 0, start) + 1)


def _about_masks(text: str, start: int, end: int, previous: tuple[int, int]) -> bool:
    """Whether a mask is named in the passage leading to a sentence or in its paragraph (the
    sentence that names it may come just after)."""
    return bool(_MASKED.search(text, _passage_start(text, start, previous), end)
                or _MASKED.search(paragraph(text, start, end)))


def _about_the_encoding(text: str, start: int, end: int, previous: tuple[int, int]) -> bool:
    """The sentence speaks of the sinusoidal encoding, or one of the two sentences before it,
    in the same paragraph, does (``previous``: where the earlier of them starts)."""
    if _PE_TOPIC.search(text, start, end):
        return True
    return bool(_PE_TOPIC.search(text, _passage_start(text, start, previous), start))


def _value_ranges(text: str, start: int, end: int) -> list[Said]:
    """Each interval a sentence gives the encoding's values: [−1, 1] is the claim's, one that
    leaves out part of it contradicts the claim, a wider one is true and not reported."""
    found = []
    for match in _WITHIN.finditer(text, start, end):
        low, high = match.group("low") or match.group("left"), \
            match.group("high") or match.group("right")
        try:
            a, b = (float(re.sub(r"[$\\()\s]", "", v).replace("−", "-").replace("–", "-"))
                    for v in (low, high))
        except ValueError:
            continue
        a, b = min(a, b), max(a, b)   # "between 1 and -1"
        exact = (a, b) == (-1, 1)
        if a == b or (not exact and a <= -1 and b >= 1):
            continue
        where = match.start("low") if match.group("low") else match.start("left")
        found.append(Said(RANGE, " ".join(match.group().split()), exact,
                          "in [−1, 1], and negative as often as positive", where))
    return found


def _cross_sources(text: str, start: int, end: int) -> list[Said]:
    """Each "<queries/keys/values> … from <source>" of a sentence about cross-attention whose
    source names one side: queries must come from the decoder, keys and values from the
    encoder."""
    found = []
    for match in _FROM.finditer(text, start, end):
        source = match.group("source").lower()
        encoder = "encoder" in source and "decoder" not in source
        decoder = ("decoder" in source or re.search(r"\blayer\s+below|\bprevious\s+layer",
                                                      source)) and "encoder" not in source
        if encoder == bool(decoder):
            continue
        roles = re.findall(_ROLE, match.group("what"), re.I)
        wrong = [r for r in roles if r.lower().startswith("quer") == encoder]
        found.append(Said(CROSS, " ".join(match.group().split()), not wrong,
                          "the queries from the decoder, the keys and values from the encoder",
                          match.start()))
    return found


def _encoder_outputs(text: str, start: int, end: int) -> list[Said]:
    """Each "output of the encoder … into (attention vectors) K and V" of a sentence in a
    paragraph about the decoder: the encoder gives the keys and the values, not the queries."""
    found = []
    for match in _ENCODER_INTO.finditer(text, start, end):
        roles = {r[0].lower() for r in re.findall(_LETTER_ROLE, match.group("what"))}
        found.append(Said(CROSS, " ".join(match.group().split()), roles == {"k", "v"},
                          "the queries from the decoder, the keys and values from the encoder",
                          match.start("what")))
    return found


def _relative_positions(document: Document, text: str, start: int, end: int) -> list[Said]:
    """Each inline formula that a sentence calls a relative position, read when it is a
    difference or a sum of two names."""
    import sympy as sp

    from tmath.latex import read

    found = []
    for math in [m for m in document.inline if start <= m.start < end]:
        before = text[max(start, math.start - RELATIVE_REACH):math.start]
        if not _RELATIVE.search(before):
            continue
        reading = read(math.latex)
        if not reading.parsed or reading.relations or len(reading.expressions) != 1:
            continue
        value = reading.expressions[0]
        terms = value.as_ordered_terms() if isinstance(value, sp.Add) else []
        plain = [t for t in terms if isinstance(t, sp.Symbol) or
                 (isinstance(-t, sp.Symbol) and t.could_extract_minus_sign())]
        if len(terms) != 2 or len(plain) != 2:
            continue
        difference = any(t.could_extract_minus_sign() for t in terms) and \
            not all(t.could_extract_minus_sign() for t in terms)
        if not difference:   # a difference is what the words say, not what the claim proves
            found.append(Said(RELATIVE, math.latex, False,
                              "a difference of the two positions (m − n)", math.start))
    return found


def _very_negative(value: str) -> bool:
    plain = value.strip("$ ").replace("−", "-").replace("\\", "").replace(" ", "").lower()
    if "inf" in plain or "∞" in plain or "largenegative" in plain:
        return plain.startswith("-") or "negative" in value.lower() or "large" in plain
    number = re.fullmatch(r"-\d[\d,.]*(?:e-?\d+)?|-10\^\{?\d+\}?", plain)
    if number is None:
        return False
    digits = plain.replace(",", "").replace("{", "").replace("}", "")
    try:
        worth = -10 ** int(digits.split("^")[1]) if "^" in digits else float(digits)
    except ValueError:
        return False
    return worth <= -1e3


def _in_masking_section(document: Document, at: int) -> bool:
    """The section around ``at`` is titled after masking ("Masked Softmax Operation")."""
    section = document.section_at(at)
    return section is not None and bool(_MASKED.search(section.title or ""))


def _large(value: str) -> bool:
    """A value no softmax weight can be: infinite, or a number of magnitude at least 1000
    ("a large positive number", ``$10^{6}$``, ``-1e9``)."""
    plain = value.strip("$ ").replace("−", "-").replace("\\", "").replace(" ", "").lower()
    if "inf" in plain or "∞" in plain or "large" in plain:
        return True
    power = re.fullmatch(r"-?10\^\{?(\d+)\}?", plain)
    if power:
        return int(power.group(1)) >= 3
    try:
        return abs(float(plain.replace(",", ""))) >= 1e3
    except ValueError:
        return False


def judged(document: Document, said: Said) -> Finding:
    section = document.section_at(said.start)
    common = dict(kind="formula", document=document.path,
                  section=section.number if section else None, line=document.line_of(said.start),
                  column=document.column_of(said.start), formula=" ".join(said.words.split()),
                  claim=said.claim, claims=(said.claim,), compared_with=("statement",))
    if said.right:
        return Finding(status="recognised", meaning="equivalent", **common)
    details = {SCHEDULE: f"claim {said.claim} proves the rate {said.should}",
               MASK: f"claim {said.claim} proves a masked logit must be {said.should} to get "
                     f"weight 0; this sentence sets it to another value"
                     if "before" not in said.should else
                     f"claim {said.claim} proves masking works on the logits: {said.should}; "
                     f"this sentence masks after it",
               CAUSAL: f"claim {said.claim} proves a causal model attends to {said.should}; "
                       f"this span reaches the future",
               CROSS: (f"claim {said.claim} proves cross-attention takes {said.should} "
                       f"(softmax(Q_dec K_encᵀ/√d_k)); this sentence takes them the other way")
                      if "row" not in said.should else
                      (f"claim {said.claim} proves attention's output has {said.should}; this "
                       f"shape disagrees with the sizes its passage states"),
               GROWTH: f"claim {said.claim} counts T²·d multiplies and T² stored scores: "
                       f"self-attention's cost grows {said.should} with the sequence length",
               AXES: f"claim {said.claim} proves this normalization takes its statistics "
                     f"over {said.should}; this sentence normalizes across another axis",
               HEADS: f"claim {said.claim} proves the heads' outputs are {said.should}; "
                      f"this sentence combines them another way",
               VARIANCE: f"claim {said.claim} proves Var(qᵀk) = d_k: the dot products grow "
                         f"large for {said.should.split(' (')[0]}, not small ones",
               SHIFT: (f"claim {said.claim} proves the matrix taking PE(pos) to PE(pos + k) "
                       f"depends on {said.should}") if "linear" not in said.should else
                      (f"claim {said.claim} proves PE(pos + k) is {said.should} of PE(pos); "
                       f"this sentence calls the map another kind"),
               POSITIONWISE: f"claim {said.claim} proves the feed-forward layer acts on each "
                             f"position alone: {said.should}",
               DISTRIBUTION: f"claim {said.claim} proves softmax gives {said.should}",
               SATURATION: f"claim {said.claim} proves that scores grown large drive softmax "
                           f"to one-hot and its gradient to zero: {said.should}",
               SMOOTHING: f"claim {said.claim} proves label smoothing keeps the best logit "
                          f"gap finite, log(1 + K(1−ε)/ε): {said.should}",
               SMOOTHING_EFFECT: f"claim {said.claim} records the paper's measurement: label "
                                 f"smoothing gave {said.should}",
               SCORE: (f"claim {said.claim} scores each key by {said.should}; this sentence "
                       f"takes the dot product of other vectors") if "dot" in said.should else
                      (f"claim {said.claim} makes attention's output {said.should}; this "
                       f"sentence weights other vectors"),
               SCALED: f"claim {said.claim} proves the scaled scores' variance is "
                       f"{said.should}; this sentence keeps it at another value",
               HEAD_COST: f"claim {said.claim} proves h heads of width d/h do {said.should}",
               RANGE: f"claim {said.claim} proves the sinusoidal values lie {said.should}; "
                      f"this interval leaves part of that range out",
               RELATIVE: f"claim {said.claim} proves the score depends on the positions only "
                         f"through {said.should}; a sum of the two is not a relative position"}
    return Finding(status="contradicts", meaning="contradicts", detail=details[said.claim],
                   **common)

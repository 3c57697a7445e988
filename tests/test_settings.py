"""Published settings a document states, held to the papers that set them.

Every document here is written for these tests: the clean ones state settings as the papers
give them, each broken one changes one number, and the finding is on that number's line.
"""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import given, strategies as st

from tmath.gate.document import parse_as
from tmath.gate.settings import number, plain, settings_in
from tmath.reference.configurations import CONFIGURATIONS, TRANSFORMER_BASE


def _found(text: str, path: str = "doc.md") -> list[tuple[int, str, str]]:
    document = parse_as("." + path.rpartition(".")[2], textwrap.dedent(text).lstrip(), path)
    return [(f.line, f.status, f.printed) for f in settings_in(document)]


NAMED = """
    # Model sizes

    BERT-base has 12 attention heads, while BERT-large has 16 attention heads.

    For the base Transformer, dropout is applied with $P_{drop} = 0.1$.

    The original Transformer was trained with label smoothing of value $\\epsilon_{ls} = 0.1$
    and Adam with $\\beta_1 = 0.9$, $\\beta_2 = 0.98$, $\\epsilon = 10^{-9}$.
    """


def test_settings_named_in_their_sentence_are_judged_exactly():
    assert _found(NAMED) == [(3, "accurate", "12"), (3, "accurate", "16"),
                             (5, "accurate", "0.1"), (7, "accurate", "0.1"),
                             (8, "accurate", "0.9"), (8, "accurate", "0.98"),
                             (8, "accurate", "10^-9")]


@pytest.mark.parametrize("old, new, line", [
    ("BERT-base has 12", "BERT-base has 10", 3),          # a small integer is exact
    ("BERT-large has 16", "BERT-large has 12", 3),        # each clause its own model
    ("P_{drop} = 0.1", "P_{drop} = 0.3", 5),
    ("\\epsilon_{ls} = 0.1", "\\epsilon_{ls} = 0.2", 7),
    ("\\beta_2 = 0.98", "\\beta_2 = 0.999", 8),           # Adam's default is not the paper's
    ("10^{-9}", "10^{-8}", 8),
])
def test_a_changed_setting_is_inaccurate_on_its_line(old, new, line):
    assert old in NAMED
    found = _found(NAMED.replace(old, new, 1))
    wrong = [f for f in found if f[1] == "inaccurate"]
    assert len(wrong) == 1 and wrong[0][0] == line, found


PAPER = """
    ---
    title: "Reading Attention Is All You Need"
    ---

    # Multi-head attention

    The model runs $h = 8$ heads side by side, and each head has a width of
    $d_k = d_v = d_{model}/h = 64$.

    Encoder and decoder each repeat $N = 6$ identical layers.

    Suppose we had $h = 2$ heads instead; a toy model with 3 heads would do as well.

    We trained a 4-layer transformer with $d_{model} = 1024$ for parsing.

    For the big model we used $d_{ff} = 4096$, and for the base model $P_{drop} = 0.1$.

    Each sub-layer is one of the two layers of the encoder.
    """


def test_a_document_about_the_paper_is_held_to_the_base_model():
    assert _found(PAPER) == [(7, "accurate", "8"), (8, "accurate", "64"), (10, "accurate", "6"),
                             (16, "accurate", "4096"), (16, "accurate", "0.1")]
    broken = _found(PAPER.replace("d_{ff} = 4096", "d_{ff} = 2048"))   # the big model's
    assert [f for f in broken if f[1] == "inaccurate"] == [(16, "inaccurate", "2048")]
    broken = _found(PAPER.replace("$h = 8$", "$h = 16$"))
    assert [f for f in broken if f[1] == "inaccurate"] == [(7, "inaccurate", "16")]
    broken = _found(PAPER.replace("h = 64", "h = 32"))
    assert [f for f in broken if f[1] == "inaccurate"] == [(8, "inaccurate", "32")]


def test_what_ifs_other_instances_and_sub_layers_are_never_settings():
    # lines 12, 14, 18 of PAPER: an example, another model, an encoder's sub-layers
    assert not [f for f in _found(PAPER) if f[0] > 10 and f[0] != 16]


BERT = r"""
    # Pretraining BERT

    The smaller size, $\textrm{BERT}_{\textrm{BASE}}$, has 12 layers, a hidden width of 768 and
    12 self-attention heads.

    A demonstration later trains a small BERT with 2 layers and 2 self-attention heads.
    """


def test_a_model_named_in_math_is_named_and_a_small_copy_is_another_model():
    assert _found(BERT) == [(3, "accurate", "12"), (4, "accurate", "12")]
    broken = _found(BERT.replace("12 self", "10 self"))
    assert [f for f in broken if f[1] == "inaccurate"] == [(4, "inaccurate", "10")]


def test_a_document_not_about_the_paper_states_no_setting_unnamed():
    other = PAPER.replace("Reading Attention Is All You Need", "Notes on attention")
    assert _found(other) == []
    assert _found("# A\n\nOur model uses $h = 4$ heads and $d_{model} = 128$.\n") == []


def test_a_quantity_given_two_values_in_one_sentence_is_not_read():
    text = "# A\n\nThe base model used $P_{drop} = 0.1$, not $P_{drop} = 0.3$.\n"
    assert _found(text) == []


def test_code_is_never_read_for_settings():
    text = "# A\n\nThe base model:\n\n```python\nh = 16  # BERT-base has 10 heads\n```\n"
    assert _found(text) == []


def test_every_recorded_setting_has_a_place_and_a_known_quantity():
    from tmath.gate.settings import ALIASES, QUANTITIES

    quantities = {ALIASES.get(k, k) for k in QUANTITIES}
    for config in CONFIGURATIONS:
        assert config.names and config.source
        for setting in config.settings:
            assert setting.quantity in quantities and setting.where
    assert TRANSFORMER_BASE.value("heads") == 8


@given(st.integers(min_value=0, max_value=10**6))
def test_a_printed_integer_reads_as_itself(n):
    assert number(str(n)) == n and number(f"{n:,}") == n


def test_spellings_read_alike():
    assert plain(r"d_{\text{model}} = 512") == "d_model = 512"
    assert plain(r"\epsilon_{ls}=0.1") == "ε_ls=0.1" and plain("β₂ = 0.98") == "β_2 = 0.98"
    assert number("10^{-9}") == 1e-9 and number(r"4 \times 10^{3}") == 4000
    assert number("twelve") == 12


def test_a_latex_sources_own_macros_are_put_in():
    text = textwrap.dedent(r"""
        \newcommand{\dmodel}{d_{\text{model}}}
        \title{Attention Is All You Need}
        \begin{document}
        \section{Model}
        All sub-layers produce outputs of dimension $\dmodel=512$.
        \end{document}
        """).lstrip()
    assert _found(text, "paper.tex") == [(5, "accurate", "512")]
    assert _found(text.replace("=512", "=256"), "paper.tex") == [(5, "inaccurate", "256")]


@given(st.from_regex(r"\A(?:" + __import__("tmath.gate.settings", fromlist=["_NUMBER"])._NUMBER
                     + r")\Z"))
def test_every_number_the_reader_binds_has_a_value(printed):
    """Whatever the reader takes as a number, :func:`number` reads (never a crash)."""
    value = number(printed)
    assert value == value


def test_a_wrong_setting_is_restated_by_fix_where_it_is_printed():
    from tmath.gate.fix import restate

    text = "# A\n\nBERT-base uses 10 attention heads; the base Transformer has $P_{drop}=0.3$.\n"
    document = parse_as(".md", text, "doc.md")
    wrong = [f for f in settings_in(document) if f.status == "inaccurate"]
    assert [text[slice(*f.span)] for f in wrong] == ["10", "0.3"]
    assert [restate(f.printed, f.expected, f.tolerance) for f in wrong] == ["12", "0.1"]


def test_a_setting_said_in_words_or_at_a_sentence_end_is_read():
    text = """
        ---
        title: "Attention Is All You Need, illustrated"
        ---

        # Embeddings

        Every token is embedded as a vector of size 512. The paper sets d_model = 512.
        """
    assert _found(text) == [(7, "accurate", "512"), (7, "accurate", "512")]
    broken = _found(text.replace("size 512", "size 256"))
    assert [f for f in broken if f[1] == "inaccurate"] == [(7, "inaccurate", "256")]


def test_layers_said_as_a_stack_are_read():
    text = """
        ---
        title: "Attention Is All You Need, illustrated"
        ---

        # Encoders

        The encoder side repeats one block (the paper stacks six encoders, one above another).
        """
    assert _found(text) == [(7, "accurate", "six")]
    assert _found(text.replace("stacks six", "stacks eight")) == [(7, "inaccurate", "eight")]


def test_a_power_or_an_exponent_is_read_whole():
    """``h = 10^{400}`` is one number (not its exponent 400 before "heads"), ``A = 1e9`` is
    not 1; both are judged, and neither is restated where the reader spelt it otherwise."""
    text = "# A\n\nThe base Transformer has $h = 10^{400}$ heads.\n\nBERT-base has $A = 1e9$.\n"
    assert _found(text) == [(3, "inaccurate", "10^400"), (5, "inaccurate", "1e9")]


def test_the_width_of_the_vectors_an_encoder_passes_on_is_the_model_width():
    """Vectors in a sentence about encoders or embeddings have the model's width; a what-if
    in another part of the sentence (after "--") leaves it stated; query and key vectors
    have the width of a head's keys."""
    text = """
        ---
        title: "Attention Is All You Need, drawn out"
        ---

        # Encoders

        Each encoder takes in vectors of dimension 512 -- in a deeper stack they would come from the layer below.

        The query and key vectors of each head have a size of 64.
        """
    assert _found(text) == [(7, "accurate", "512"), (9, "accurate", "64")]
    assert _found(text.replace("dimension 512", "dimension 1024"))[0] == (7, "inaccurate", "1024")
    assert _found(text.replace("512 --", "512 if"))[:1] == [(9, "accurate", "64")]   # a what-if
    assert _found(text.replace("size of 64", "size of 128"))[1] == (9, "inaccurate", "128")


def test_a_section_that_names_the_model_names_it_for_its_paragraphs():
    """A later paragraph of a section about the original Transformer states its settings; a
    section whose heading names another model does not, though it recalls the original."""
    text = """
        # A family of models

        ## The first one

        The original Transformer has an encoder and a decoder.

        The encoder is a stack of 6 identical modules, each with two sub-layers.

        ## Transformer-XL

        Unlike the original Transformer, it adds a memory.

        Its encoder is a stack of 16 repeated blocks.
        """
    assert _found(text) == [(7, "accurate", "6")]
    assert _found(text.replace("stack of 6", "stack of 12")) == [(7, "inaccurate", "12")]


def test_a_pronoun_subject_is_read_as_what_it_stands_for():
    """"Their width is 64" after a sentence that creates query, key and value vectors (through
    a sentence about "these vectors") is the width of a head's keys; the clause after
    "while" keeps its own subject. A pronoun with another antecedent, or after a heading,
    reads nothing new."""
    text = """
        ---
        title: "Attention Is All You Need, drawn out"
        ---

        # Projections

        From every token we make a query vector, a key vector and a value vector.

        These small vectors come from three learned matrices. Their width is 64, while the encoder vectors have dimension 512.
        """
    assert _found(text) == [(9, "accurate", "64"), (9, "accurate", "512")]
    assert _found(text.replace("width is 64", "width is 32")) == [
        (9, "inaccurate", "32"), (9, "accurate", "512")]
    other = text.replace("a query vector, a key vector and a value vector", "one output")
    assert _found(other.replace("width is 64", "width is 32")) == [(9, "accurate", "512")]
    heading = text.replace("These small", "# Sizes\n\n        These small")
    assert _found(heading.replace("width is 64", "width is 32")) == [(11, "accurate", "512")]


TRAINING = """
    ---
    title: "Notes on Attention Is All You Need"
    ---

    # Training

    For the base models one training step took about 0.4 seconds, and we trained them for a total of 100,000 steps or 12 hours.

    For the big models, step time was 1.0 seconds; they were trained for 300,000 steps (3.5 days).

    The rate rises over 4000 warmup steps.

    The base models were trained on a single machine with 8 NVIDIA P100 GPUs.
    """


def test_training_steps_and_times_are_held_to_the_paper():
    """Steps, hours, days, GPUs and seconds per step of each model, as §5.2 of the paper gives
    them; a plural "big models" names the big model; warm-up steps are not training steps."""
    assert [f for f in _found(TRAINING) if f[1] != "accurate"] == []
    assert {f[2] for f in _found(TRAINING)} == {"0.4", "100,000", "12", "1.0", "300,000", "3.5",
                                                "4000", "8"}
    for old, new, line, printed in [("(3.5 days)", "(2.5 days)", 9, "2.5"),
                                    ("with 8 NVIDIA", "with 4 NVIDIA", 13, "4"),
                                    ("was 1.0 seconds", "was 0.4 seconds", 9, "0.4"),
                                    ("100,000 steps", "300,000 steps", 7, "300,000"),
                                    ("or 12 hours", "or 10 hours", 7, "10")]:
        wrong = [f for f in _found(TRAINING.replace(old, new)) if f[1] == "inaccurate"]
        assert [(f[0], f[2]) for f in wrong] == [(line, printed)], (old, wrong)


def test_a_model_named_across_a_line_break_is_still_named():
    """"big\\nmodels" names the big model: the step time on the next line is the big model's
    (1.0 s), not the base model's of the sentence before."""
    broken = TRAINING.replace("For the big models, step", "For the big\n    models, step")
    assert broken != TRAINING
    assert [f for f in _found(broken) if f[1] != "accurate"] == []
    wrong = [f for f in _found(broken.replace("was 1.0 seconds", "was 2.0 seconds"))
             if f[1] == "inaccurate"]
    assert [f[2] for f in wrong] == ["2.0"]


RESULTS = """
    # Results

    On English-to-German, the big transformer model (Transformer (big) in the table) sets a
    BLEU score of $28.4$, more than 2 BLEU above earlier systems.

    Our own small model achieves 25.1 BLEU on English-to-German after an hour.
    """


def test_the_big_models_english_to_german_bleu_is_held_to_table_2():
    """Named by "big transformer model" or "Transformer (big)" (a parenthesis then a space);
    a difference in BLEU and another instance ("our own small model") are not read."""
    assert _found(RESULTS) == [(4, "accurate", "28.4")]
    assert _found(RESULTS.replace("$28.4$", "$27.4$")) == [(4, "inaccurate", "27.4")]


SECTION_OF_A_SOURCE = r"""
    \section{Training}

    The Transformer is trained on pairs of sentences.
    For our big models, the step time was 1.0 seconds. The big models were trained for
    300,000 steps (1.5 days).

    \paragraph{Regularisation} For the base model, we use a rate of $P_{drop}=0.3$.

    \paragraph{Other work} BERT's base model uses a rate of $P_{drop}=0.3$ too.
    """


def test_a_section_of_the_papers_source_names_its_variants():
    """A section with no title that names the paper's model as a proper name: "the big
    models" and "the base model" are the paper's; not in a paragraph on another model."""
    found = [f for f in _found(SECTION_OF_A_SOURCE, "part.tex") if f[1] == "inaccurate"]
    assert found == [(5, "inaccurate", "1.5"), (7, "inaccurate", "0.3")]
    unnamed = SECTION_OF_A_SOURCE.replace("The Transformer is", "This model is")
    assert _found(unnamed, "part.tex") == []

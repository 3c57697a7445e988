"""Training in words: the warm-up schedule's shape and what label smoothing does.

* Claim ``noam-schedule-shape``: the learning rate rises linearly for the first warm-up
  steps, then decays as 1/√step. A sentence about the learning rate (or rate) and its
  warm-up is read for how it rises (linearly, quadratically, exponentially) and how it decays
  (proportionally to the inverse, the inverse square root or cube root of the step).
* Claim ``smoothed-optimal-logit-gap``: with label smoothing the best logit gap is finite. In
  a passage about label smoothing, "penalizes the model if it gets very confident" is the
  claim's; "rewards" (encourages) it, or penalising an unsure model, contradicts it.
* Claim ``label-smoothing-perplexity-bleu`` records that label smoothing hurt perplexity and
  improved BLEU: "improves perplexity" or "hurts BLEU" in such a passage contradicts it.
"""

from __future__ import annotations

import re

from tmath.gate.said_in_words.sentence import Said, Sentence, said

SCHEDULE = "noam-schedule-shape"
SMOOTHING = "smoothed-optimal-logit-gap"
SMOOTHING_EFFECT = "label-smoothing-perplexity-bleu"

_RATE = re.compile(r"\b(?:learning\s+rate|lrate|rate)\b", re.I)
_RISE = re.compile(r"\b(?:increas|rais|rises|rising|grow)\w*\b[^.;]{0,60}?"
                   r"\b(?P<how>linearly|quadratically|exponentially)\b", re.I)
_DECAY = re.compile(r"\b(?:decreas|decay)\w*\b[^.;]{0,60}?\b(?:proportional(?:ly)?\s+to|as)\s+"
                    r"(?:the\s+)?(?P<inverse>inverse)(?:\s+(?P<root>square|cube)\s+root)?\s+(?:of\s+)?"
                    r"(?:the\s+)?(?:current\s+)?step", re.I)
_WARMUP = re.compile(r"\bwarm-?up|\bwarmup_steps|\bfirst\s+(?:\S+\s+)?(?:training\s+)?steps\b",
                     re.I)
"""The schedule's own sentence names its warm-up (another schedule is not the claim's)."""
_SMOOTHING_TOPIC = re.compile(r"\blabel\s+smoothing\b", re.I)
_CONFIDENT = re.compile(r"\b(?P<verb>penali[sz]\w*|punish\w*|reward\w*|encourag\w*)\s+the\s+model\s+"
                        r"(?:if|when|whenever|for|as)\s+(?:it\s+)?(?:gets|becomes|is|being|getting)?\s*"
                        r"(?:very\s+|too\s+|over-?)?(?P<state>confident|certain|sure|unsure|uncertain)\b",
                        re.I)
_PERPLEXITY = re.compile(r"\b(?P<how>hurts?|worsens?|raises?|increases?|improves?|lowers?|reduces?|"
                         r"helps?)\s+(?:the\s+)?perplexity\b", re.I)
_BLEU = re.compile(r"\b(?P<how>hurts?|worsens?|lowers?|reduces?|improves?|raises?|increases?|helps?)"
                   r"\s+(?:the\s+)?(?:accuracy\s+and\s+)?BLEU\b", re.I)
_WORSE = ((_PERPLEXITY, ("hurt", "worsen", "raise", "increase")),
          (_BLEU, ("improve", "raise", "increase", "help")))
"""For each measure, the verbs that say what the paper measured (worse perplexity, better
BLEU)."""


def schedule(s: Sentence) -> list[Said]:
    """How the rate rises during warm-up and how it decays after."""
    if not (s.has(_RATE) and s.has(_WARMUP)):
        return []
    rise, decay = next(s.matches(_RISE), None), next(s.matches(_DECAY), None)
    found = []
    if rise:
        found.append(said(SCHEDULE, rise, rise.group("how").lower() == "linearly",
                          "rises linearly during warm-up", "how"))
    if decay:
        found.append(said(SCHEDULE, decay, (decay.group("root") or "").lower() == "square",
                          "decays as the inverse square root of the step", "inverse"))
    return found


def smoothing_penalty(s: Sentence) -> list[Said]:
    """Whether label smoothing penalises (or rewards) a confident model."""
    if not s.in_passage(_SMOOTHING_TOPIC):
        return []
    found = []
    for match in s.matches(_CONFIDENT):
        punished = match.group("verb").lower().startswith(("penal", "punish"))
        sure = match.group("state").lower() in ("confident", "certain", "sure")
        found.append(said(SMOOTHING, match, punished == sure,
                          "a finite best logit gap: over-confidence is penalised", "verb"))
    return found


def smoothing_effect(s: Sentence) -> list[Said]:
    """What label smoothing did to perplexity and to BLEU."""
    if not s.in_passage(_SMOOTHING_TOPIC):
        return []
    return [said(SMOOTHING_EFFECT, m, m.group("how").lower().startswith(worse),
                 "worse perplexity but better BLEU", "how")
            for pattern, worse in _WORSE for m in s.matches(pattern)]


READERS = ((SCHEDULE, schedule), (SMOOTHING, smoothing_penalty),
           (SMOOTHING_EFFECT, smoothing_effect))
DETAILS = {
    SCHEDULE: lambda s: f"claim {s.claim} proves the rate {s.should}",
    SMOOTHING: lambda s: f"claim {s.claim} proves label smoothing keeps the best logit gap "
                         f"finite, log(1 + K(1−ε)/ε): {s.should}",
    SMOOTHING_EFFECT: lambda s: f"claim {s.claim} records the paper's measurement: label "
                                f"smoothing gave {s.should}",
}

"""The regex slots the other-voice rewrites (`passive_voice`, `active_voice`, `converses`,
`gerund_subject`) write between a clause's words, and that `slack` recognises as already
written: room for an adverb, with or without a negator, and a short gap free of negators;
and the negator stop that such stretches (`slack`, a guard's lead-in) share."""

from __future__ import annotations

#: What may stand between "be" and the participle: an adverb ("is expressly prohibited").
BEFORE_VERB = r"(?:\w+\s+|)"
#: The same, never a negator: where the clause's own negation would read the opposite claim
#: ("will not store", "is not prohibited").
NEGATOR_FREE_ADVERB = r"(?:(?!(?:not|never|no)\b)\w+\s+|)"
#: Where a stretch of words stops: at a negator ("no", "not", "never", "-n't").
NEGATOR_STOP = r"(?!\bn(?:o|ot|ever)\b|n['’]t\b)"
#: A few words between a clause's subject and its verb, never a negator ("the data does not
#: vest in Provider" is the opposite claim).
NEGATOR_FREE_GAP = rf"(?:{NEGATOR_STOP}[^.;]){{0,40}}?"


def adverb_slots_without_negators(pattern: str) -> str:
    """`pattern` with each room for an adverb (`BEFORE_VERB`) written without negators
    (`NEGATOR_FREE_ADVERB`): for a gate whose guard does not see inside the match."""
    return pattern.replace(BEFORE_VERB, NEGATOR_FREE_ADVERB)

"""Two rewrites of a must-fire witness that change how its clause is built, not its words
(`dodges` tries them beside the others; the widening steps `passive` and `possessive`
write the regexes that accept them):

- `active_voice`: a modal passive with no agent, in the active with a neutral subject
  ("customer data may be stored outside the united states" -> "the other party may store
  customer data outside the united states");
- `of_phrase`: a possessive as an "of" phrase ("provider's records are conclusive" -> "the
  records of provider are conclusive").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rubric_tools.audit import lexicon
from rubric_tools.audit.completion import CARRIER_SUBJECT
from rubric_tools.audit.dodge import Dodge
from rubric_tools.audit.possessives import in_a_noun_phrase
from rubric_tools.scoring.gates import NEGATOR

#: A word that owns what follows it ("provider's", "customer’s"); not "it's", "let's".
_POSSESSIVE = re.compile(r"^([a-z][a-z-]+)['’]s$")
_NOT_OWNERS = frozenset(("it", "let", "that", "there", "here", "what", "who"))


def active_voice(witness: str) -> Iterator[Dodge]:
    """The witness's modal passive in the active voice, when it names no agent: "OBJECT
    MODAL be PARTICIPLE REST" -> "the other party MODAL VERB OBJECT REST"."""
    if NEGATOR.search(witness):
        return
    words = witness.split(" ")
    for index in range(1, len(words) - 2):
        if words[index] not in lexicon.MODALS or words[index + 1] != "be":
            continue
        participle, rest = words[index + 2], words[index + 3 :]
        verbs = lexicon.participle_verbs(participle)
        if not verbs or (rest and rest[0] == "by"):
            return  # no passive participle, or an agent: no subject to invent
        active = [CARRIER_SUBJECT, words[index], verbs[0], *words[:index], *rest]
        yield Dodge("active voice", " ".join(active))
        return


def of_phrase(witness: str, following: str = "") -> Iterator[Dodge]:
    """The witness's first possessive as an "of" phrase: "provider's records are final" ->
    "the records of provider are final"; a "the" before the owner goes with it ("the
    landlord's consent" -> "the consent of the landlord"). Not where what it owns already
    takes an "of", in the witness or after it (`following`): "provider's records of
    transaction counts" would read "the records of provider of transaction counts"."""
    words = witness.split(" ")
    for index, word in enumerate(words[:-1]):
        found = _POSSESSIVE.match(word)
        if found is None or found.group(1) in _NOT_OWNERS:
            continue
        end = index + 1
        while end < len(words) and end - index <= 3 and in_a_noun_phrase(words[end]):
            end += 1
        after = words[end : end + 1] or following.split()[:1]
        if end == index + 1 or after == ["of"]:
            return  # owns no noun, or one that an "of" phrase already follows
        owner = found.group(1)
        start = index
        if index > 0 and words[index - 1] == "the":
            owner, start = f"the {owner}", index - 1
        rewritten = [*words[:start], "the", *words[index + 1 : end], "of", owner, *words[end:]]
        yield Dodge("of phrase", " ".join(rewritten))
        return

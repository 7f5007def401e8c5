"""Meaning markers: the words by which careful drafting negates, rejects, attributes,
supposes or strikes what follows, written as `re` fragments for exclude_context guards.

The engine's `negation_guard` counts a closed list of negators anywhere from the start of
the sentence. Correct work uses more ways to disown a statement ("nobody", "declines",
"rather than", "in lieu of", "their draft says", "if we accepted"), and contract language
uses negators that negate nothing ("in no event later than", "shall not exceed", "not
less than", "without limiting"). The fragments below say which words *govern* what
follows them; `scoped_guards` joins them to a gate's own pattern with a clause-bounded
gap, so that a marker counts only when it governs the matched clause.

The tables are generic drafting vocabulary written for this tool (never taken from any
matter); verbs are listed by lemma and inflected by `lexicon`. Every fragment is
lowercase: gates run case-insensitively on normalized text.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from rubric_tools.audit import lexicon

#: Comparatives that a negator turns into a limit, not a denial: "no later than", "not
#: more than", "in no event later than", "no fewer than".
_COMPARATIVES = "later|earlier|sooner|more|less|fewer|greater|longer|shorter|lower|higher|worse|better"
#: Words that open a deadline: "in no event after …", "at no time later than …".
_TEMPORAL = "after|following|upon|subsequent|before|prior|beyond|until|within"
#: What may follow a negator without it negating the statement it stands in.
NON_NEGATING_AFTER_NO = (
    rf"(?:(?:event|case|circumstances?|instance)\s+)?(?:{_COMPARATIVES})\s+than",
    # "in no event after …", "in no case before …": a deadline, not a denial
    rf"(?:event|case|circumstances?|instance)\s+(?:[\w(),-]+\s+)?(?:{_TEMPORAL}|exceed\w*)\b",
    r"(?:to\s+)?exceed\w*",
    r"only\b",
    r"limited\s+to",
)
#: What may follow "without" in idioms that withhold nothing.
NON_NEGATING_AFTER_WITHOUT = (
    r"undue",
    r"unreasonable",
    r"limit\w*",
    r"prejudice",
    r"regard",
    r"delay",
    r"(?:the\s+)?need",
    r"further",
    r"duplication",
)

#: The engine's negators and their near kin. `n't` is matched on its own.
NEGATOR_WORDS = ("no", "not", "never", "nothing", "none", "neither", "nor", "cannot", "nobody", "nowhere")
NEGATOR_PHRASES = (r"no\s+one", r"no\s+party", r"under\s+no\s+circumstances", r"at\s+no\s+time", r"in\s+no\s+case")


def _after(words: Iterable[str]) -> str:
    return "|".join(words)


def governing_negator() -> str:
    """A negator that negates what follows it: the engine's list and its kin, without the
    idioms that state a limit ("no later than", "shall not exceed", "not only", "including but
    not limited to", "without undue delay", "whether or not")."""
    no_like = rf"(?:no|not)(?!\s+(?:{_after(NON_NEGATING_AFTER_NO)}))"
    without = rf"without(?!\s+(?:{_after(NON_NEGATING_AFTER_WITHOUT)}))"
    others = "|".join(w for w in NEGATOR_WORDS if w not in ("no", "not"))
    # "under no circumstances later than …", like "in no event later than …", sets a limit.
    deadline = rf"(?!\s+(?:[\w(),-]+\s+)?(?:{_COMPARATIVES}|{_TEMPORAL}|exceed\w*)\b)"
    phrases = f"(?:{'|'.join(NEGATOR_PHRASES)}){deadline}"
    return rf"(?<!whether or )\b(?:{phrases}|{no_like}|{without}|{others})\b|\w+n['’]t\b"


#: Words that state a preference against what follows ("rather than five percent").
CONTRAST = (
    r"rather\s+than",
    r"as\s+opposed\s+to",
    r"in\s+lieu\s+of",
    r"instead\s+of",
    r"in\s+place\s+of",
    r"(?:reduced|down|lowered|cut)\s+from",
    r"replacing",
)

#: Verbs of rejection and refusal (lemmas): "we reject", "the client declines to accept".
REJECTION_VERBS = (
    "reject",
    "decline",
    "refuse",
    "oppose",
    "resist",
    "dispute",
    "contest",
    "disagree",
    "object",
    "deny",
)
#: What a rejection may be followed by before the disowned clause ("declines to accept that").
_TAIL_WORD = (
    r"(?:\s+(?:to|with|any|the|a|an|such|this|that|accept\w*|agree\w*|concede\w*|proposals?|suggestions?|"
    r"claims?|positions?|language|terms?|ideas?|notion|view)\b|)"
)
_REJECTION_TAIL = _TAIL_WORD * 3

#: Whoever a rejection after the clause speaks for ("; we reject that").
_SPEAKERS = r"(?:we|i|the\s+client|our\s+client|client|the\s+company|customer|buyer|seller|licensee|licensor)"
#: Words by which a later clause points back at the statement it disowns.
_ANAPHORA = r"(?:that|this|it|the\s+same|such\s+\w+|any\s+such\s+\w+|this\s+\w+|that\s+\w+)"
#: Predicates that disown the clause they follow ("… is unacceptable").
_DISOWNING = (
    r"(?:is|are|would\s+be|remains?|was)\s+(?:\w+\s+)?(?:unacceptable|not\s+acceptable|a\s+non-?starter|rejected|"
    r"off\s+the\s+table|a\s+deal-?breaker)",
    r"(?:must|should|will|shall)\s+be\s+(?:struck|stricken|deleted|removed|rejected|resisted)",
)

#: A counterparty's document or position, and the verbs that report what it says.
_THEIR = r"(?:their|its|the\s+(?:counterparty|other\s+side|other\s+party)['’]s|\w+['’]s?)"
_POSITION_NOUNS = (
    r"(?:(?:current|proposed|latest|revised|initial|original|opening|draft|counter)\s+)?"
    r"(?:draft|markup|mark-up|redline|proposal|position|counter(?:-?proposal|-?offer)?|comments?|language|"
    r"wording|version|ask|request|demand|term\s+sheet|form|clause)"
)
_REPORTING = (
    r"(?:says|said|states|stated|provides|provided|proposes|proposed|reads|read|contemplates|requires|asks\s+for|"
    r"seeks|sought|suggests|suggested|would\s+\w+|is\s+that|was\s+that|insists|demands|calls\s+for)"
)
#: Verbs by which anyone reports a claim they make, not one we make.
REPORTING_VERBS = (
    "argue",
    "contend",
    "assert",
    "claim",
    "insist",
    "maintain",
    "allege",
    "suggest",
    "posit",
    "say",
    "tell",
    "state",
    "believe",
    "think",
    "assume",
    "presume",
    "speculate",
)
#: Saying a statement is wrong, or only seems right: "it is wrong to say that …", "looks as though …".
DISOWNING_BEFORE = (
    r"(?:wrong|incorrect|inaccurate|untrue|false|mistaken|misleading|a\s+mistake|an\s+error)\s+to\s+"
    r"(?:say|suggest|claim|assume|conclude|think|assert|argue|read)",
    r"(?:looks?|appears?|seems?|sounds?)\s+(?:as\s+(?:though|if)|to|like)",
    r"(?:might|may|could)\s+be\s+(?:assumed|argued|thought|said|suggested|read)",
)
#: Words that confine what a clause grants: "only", "solely", "exclusively", "to the extent".
RESTRICTING = (r"only", r"solely", r"exclusively", r"strictly\s+(?:for|to)", r"to\s+the\s+extent", r"limited\s+to")
_BY_OTHERS = r"\w+"

#: Suppositions: "if we accepted", "were the client to agree", "accepting … would".
_SUPPOSING_VERBS = ("accept", "agree", "concede", "allow", "permit", "sign", "adopt", "approve", "consent", "take")
_SUPPOSERS = r"(?:if|were|should|had|suppose|supposing|assuming|even\s+if|unless|what\s+if)"

#: Striking words out of a text, and the words that introduce text put in instead.
STRIKING_VERBS = ("delete", "strike", "remove", "omit", "excise", "withdraw")
#: Introduces inserted text: what follows is the new wording, never the struck one.
INSERTION = (
    r"(?:replac|substitut|insert|add|restat)\w*",
    r"amend\w*\s+(?:and\s+restated\s+|)to\s+read",
    r"reads?\s+as\s+follows",
    r"in\s+(?:its|their)\s+place",
    r"instead",
    r"new\s+(?:section|clause|sentence|paragraph|language|text|wording)",
)

#: Where a clause ends inside a sentence: a marker before it does not govern what follows.
CLAUSE_BARRIERS = (
    r";",
    r"\bbut\b",
    r"\bprovided\b",
    r"\bexcept\b",
    r"\bhowever\b",
    r"\bwhereas\b",
    r"\bsave\s+that\b",
    r"\bunless\b",
    r"\balthough\b",
    r"\bwhile\b",
    r"\byet\b",
)


def verb_forms(lemmas: Iterable[str]) -> str:
    """Every inflection of the verbs, as one alternation: per verb, the stem its forms share
    and their endings ("reject(?:|s|ed|ing)")."""
    parts = []
    for lemma in lemmas:
        parts.append(compact_alternation(lexicon.verb_forms(lemma)))
    return "|".join(parts)


def compact_alternation(forms: Iterable[str]) -> str:
    """Words as one regex: their common stem and the endings ("us(?:e|es|ed|ing)")."""
    words = sorted(set(forms), key=lambda w: (-len(w), w))
    if len(words) == 1:
        return words[0]
    stem = words[0]
    for word in words[1:]:
        while not word.startswith(stem):
            stem = stem[:-1]
    endings = sorted({word[len(stem) :] for word in words}, key=lambda e: (-len(e), e))
    if len(stem) < 3:
        return "(?:" + "|".join(words) + ")"
    return f"{stem}(?:{'|'.join(endings)})"


@lru_cache(maxsize=1)
def rejection() -> str:
    """A rejection verb with its tail: "we reject", "declines to accept", "objects to any"."""
    return rf"\b(?:{verb_forms(REJECTION_VERBS)}){_REJECTION_TAIL}"


@lru_cache(maxsize=1)
def supposition() -> str:
    """A supposition of the statement: "if we accepted", "were the client to agree to"."""
    verbs = verb_forms(_SUPPOSING_VERBS)
    doing = r"(?:accepting|agreeing\s+to|conceding|allowing|signing\s+up\s+to)"
    subject = r"(?:(?:we|i|you|they|it|the\s+client|client|customer|buyer|seller|\w+)\s+)?"
    document = r"(?:the\s+)?(?:clause|contract|agreement|section|draft|provision|markup|redline|term)\s+"
    return (
        r"\b(?:if|even\s+if|as\s+if)\s+(?:\w+\s+){0,3}?(?:were|would)\b"
        rf"|\b{_SUPPOSERS}\s+{subject}(?:were\s+to\s+|to\s+|had\s+|would\s+)?(?:{verbs})\b"
        rf"|\b{_SUPPOSERS}\s+{document}(?:said|says|stated|provided|read|were\s+to\s+(?:say|provide))\b"
        rf"|\b{doing}\b"
    )


@lru_cache(maxsize=1)
def attribution() -> str:
    """What reports someone else's draft or position: "their draft says", "Vendor's markup
    proposes that", "the counterparty argues that"."""
    reporting = verb_forms(REPORTING_VERBS)
    return (
        rf"\b{_THEIR}\s+{_POSITION_NOUNS}\s+(?:\w+\s+)?{_REPORTING}\b"
        rf"|\b{_BY_OTHERS}\s+(?:\w+\s+)?(?:{reporting})\s+(?:\w+\s+)?that\b"
        rf"|\b(?:{'|'.join(DISOWNING_BEFORE)})\b"
        r"|\b(?:according\s+to|in\s+the\s+view\s+of|per)\s+(?:their|the\s+counterparty['’]s|\w+['’]s?)\s+\w+"
    )


@lru_cache(maxsize=1)
def striking() -> str:
    """A verb that strikes words out: "delete", "is struck", "removing"."""
    return rf"\b(?:{verb_forms(STRIKING_VERBS)}|stricken)\b"


def insertion() -> str:
    return rf"\b(?:{'|'.join(INSERTION)})\b"


def later_rejection() -> str:
    """A later clause disowning the statement before it: "; we reject that", ", which the
    client cannot accept", "… is unacceptable"."""
    refusing = (
        rf"(?:{verb_forms(('reject', 'refuse', 'decline', 'oppose', 'resist'))}"
        r"|(?:cannot|can\s+not|do\s+not|will\s+not|won['’]t|don['’]t)\s+(?:accept|agree\s+to))"
    )
    return (
        rf"\b{_SPEAKERS}\s+(?:\w+\s+)?{refusing}\s+{_ANAPHORA}\b"
        rf"|\bwhich\s+{_SPEAKERS}\s+(?:\w+\s+)?{refusing}\b"
        rf"|\b(?:{'|'.join(_DISOWNING)})\b"
        r"|[;:,]\s+(?:it|this|that|which|they)\s+(?:does|do|is|are|will|would|did|was)\s*n(?:o|['’])t\b"
        r"|[;:,]\s+(?:that|this|which)\s+is\s+(?:wrong|incorrect|untrue|false|mistaken)\b"
    )

"""Meaning markers: the words by which careful drafting negates, rejects, attributes,
supposes or strikes what follows, written as `re` fragments for exclude_context guards.

The engine's `negation_guard` counts a closed list of negators anywhere from the start of
the sentence. Correct work uses more ways to disown a statement ("nobody", "declines",
"rather than", "in lieu of", "their draft says", "if we accepted"), and contract language
uses negators that negate nothing ("in no event later than", "shall not exceed", "not
less than", "without limiting"). `TERMS` says which words *govern* what follows them (or
disown what precedes them); `scoped_guards` joins the few a gate needs to the gate's key
words with a short gap inside one clause, so that a marker counts only when it governs
the matched clause. `governing_negator` is the long form the evidence generators use.

The tables are generic drafting vocabulary written for this tool (never taken from any
matter); a verb is written as its stem and `\\w*`, as an auditor would. Every fragment is
lowercase and spaced by one space: gates run case-insensitively on normalized text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: Comparatives that a negator turns into a limit, not a denial: "no later than", "not
#: more than", "in no event later than", "no fewer than".
_COMPARATIVES = "later|earlier|sooner|more|less|fewer|greater|longer|shorter|lower|higher|worse|better"
#: Words that open a deadline: "in no event after …", "at no time later than …".
_TEMPORAL = "after|following|upon|subsequent|before|prior|beyond|until|within"
#: The longest gap (characters) between a marker and the key words, either side; also the
#: room an inverted limit leaves for its subject, "in no event shall <subject> exceed …": a
#: noun phrase with its qualifiers ("the aggregate liability of the Sellers for all claims
#: under Article 8").
GAP = 120
#: What may follow a negator without it negating the statement it stands in.
NON_NEGATING_AFTER_NO = (
    rf"(?:(?:event|case|circumstances?|instance|time)\s+)?(?:{_COMPARATIVES})\s+than",
    # "in no event after …", "in no case before …": a deadline, not a denial
    rf"(?:event|case|circumstances?|instance|time)\s+(?:[\w(),-]+\s+)?(?:{_TEMPORAL}|exceed\w*)\b",
    # "in no event shall the period be shorter than …": the same limit, inverted
    rf"(?:event|case|circumstances?|instance|time)\s+(?:shall|will)\b[^.;]{{0,{GAP}}}?"
    rf"\b(?:(?:{_COMPARATIVES})\s+than|exceed)",
    r"(?:to\s+)?exceed\w*",
    r"(?:(?:be|been)\s+)?in\s+excess\s+of",
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


#: The compact marker terms of each kind, as a human auditor writes them in an exclusion:
#: a short word family each (a stem and `\w*` for a verb), its own word boundaries
#: included. A scoped exclusion takes, for a kind the audit's evidence needed, these terms
#: (`Term.loose`), or their strict spelling when the loose one silences a real sin
#: (`Term.strict`: a negator that states a limit, "no later than", "shall not exceed", is
#: left out). `side`: the term governs what follows it ("before") or disowns what precedes
#: it in its clause ("after").
@dataclass(frozen=True)
class Term:
    kind: str
    side: str  # "before" | "after"
    loose: str
    strict: str = ""
    #: One of the engine's own negators before the match: its guard already sees it.
    engine: bool = False
    #: Written with its kind's family (`scoped_guards`), not only where correct work shows it.
    in_family: bool = True
    #: In the family only of a gate whose sin names a figure: a term that revises a figure
    #: ("reduced from eighteen months", "replacing the 5% cap") contrasts nothing in a
    #: clause or a term, and there would only spend the exclusion's budget that the
    #: family's other terms need ("rather than", "as opposed to").
    figures_only: bool = False

    @property
    def regex(self) -> str:
        """The spelling that finds the term in evidence: the strict one."""
        return self.strict or self.loose


#: A limit, not a denial, after "no"/"not"/"without": a comparative ("no later than", "not
#: more than", "no fewer than", "under no circumstances later than", "at no time later
#: than"), "not to exceed", "not (be) in excess of", "in no event exceed", "in no event
#: after" (a deadline, as `NON_NEGATING_AFTER_NO` reads it), "without undue delay",
#: "without limiting", the inverted "in no event shall the period be shorter than …" (a
#: floor or a ceiling, however many words stand between) and the time bar "no claim may be
#: made more than nine months after …" (it states the period). One lookahead for all of them,
#: short (`NOT_A_LIMIT`): the windows' negator stops hold it, and every scoped exclusion
#: that keeps to the clause holds it within `LIMIT_IDIOM` (the budget does not count it,
#: `scoped_guards.budget_length`; lint's bounds do).
def _limit_after_no(gap: str) -> str:
    return (
        r" (?:(?:event|case|time|circumstances|be) )?(?:\w+ than|(?:to )?exceed|in excess of)"
        r"| (?:event|case|time) (?:after|before|within)"
        rf"| (?:event|case|time|\w+(?: \w+)? may) (?:shall|will|be)\b[^.;]{gap}"
        r"\b(?:(?:more|less|fewer|later|longer|shorter|greater) than|exceed)"
    )


_LIMIT_AFTER_NO = _limit_after_no(f"{{0,{GAP}}}?")
NOT_A_LIMIT = rf"(?!{_LIMIT_AFTER_NO}| undue| limit)"
#: `NOT_A_LIMIT` for the negator stops of a window led in (`guard_windows.with_lead_in`),
#: tried at every character of the window: its gap runs to the end of the clause ("[^.;]*?",
#: which never leaves it) instead of 120 characters. Written out, a bounded gap repeated at
#: every character of a window multiplies the two lengths, and a pattern led in went over
#: the size the scorer compiles (`scoring.dialect.MAX_EXPANDED_SIZE`) with one window.
NOT_A_LIMIT_IN_A_WINDOW = rf"(?!{_limit_after_no('*?')}| undue| limit)"
#: What an exclusion writes after a negator term: no limit (`NOT_A_LIMIT`), and no "not" of
#: "whether or not", which concedes and negates nothing ("whether or not the change arises
#: from the industry" is no denial; a correct answer's "does not disproportionately affect"
#: is). A lookbehind written after the word, so that the terms share it as they share the
#: lookahead.
LIMIT_IDIOM = rf"(?<!whether or not){NOT_A_LIMIT}"
#: A "no" or "not" that states such a limit ("no later than", "shall not exceed", "cannot
#: exceed", "in no event later than"): the statement it stands in is a limit, already
#: negative in form, and is not negated again (`negations`).
STATED_LIMIT = rf"\b(?:not?|cannot)\b(?={_LIMIT_AFTER_NO})"

#: A negator and the "that", "where" or "whether" of the clause it governs, in one term.
DISOWNING_NEGATOR = (
    r"(?:\b(?:not?|nobody|nothing|never|neither|cannot)\b|n['’]t\b)[^.;]{0,60}?\b(?:that|where|whether)\b"
)

#: A verb of rejection, in any person and tense ("reject", "opposes", "declined").
_REJECTION_VERB = r"\b(?:reject|refus|oppos|declin|disput)\w*"
#: Its object, a statement already made: pointed back at ("that", "this", "it", "such terms",
#: "the proposal", "their regulator-access change", "Vendor's request"), or left out, the
#: verb closing its clause ("…, which the client declined.", "…, and we refused.").
_ITS_OBJECT = r"(?: (?:it|this|that|such|th(?:e|eir|ese|ose)|[\w-]+['’]s)\b|(?= ?[.;,:]|$))"
#: An acceptance or agreement denied, "not" written once whatever verb it follows: "cannot
#: accept", "will not agree", "won't possibly accept", "is not acceptable".
_ACCEPTANCE_DENIED = r"(?:\b(?:cannot|not)|n['’]t)(?: \w+)? (?:accept|agree)\w*"

TERMS: tuple[Term, ...] = (
    # negated: the engine's negators (its guard sees them) and their kin beyond its list
    Term("negated", "before", r"\bnobody\b"),
    Term("negated", "before", r"\bnothing\b", engine=True),
    Term("negated", "before", r"\bnever\b", engine=True),
    Term("negated", "before", r"\bneither\b", engine=True),
    Term("negated", "before", r"\bcannot\b", engine=True),
    Term("negated", "before", r"\bnot?\b", rf"\bnot?\b{LIMIT_IDIOM}", engine=True),
    Term("negated", "before", r"\bwithout\b", rf"\bwithout\b{LIMIT_IDIOM}", engine=True),
    Term("negated", "before", r"n['’]t\b", rf"n['’]t\b{LIMIT_IDIOM}", engine=True),
    # a negator governing a clause that states the sin ("it is not the case that …", "we do
    # not accept that …", "nobody has suggested that …"): the only negator a negative sin's
    # correct work is scoped by (`guard_key_choice.own_terms`), its own in any other form
    Term("negated", "before", DISOWNING_NEGATOR),
    # after the key, on its predicate or object: "provider is not entitled", "owns no right"
    Term("negated", "after", r"\b(?:not?|none|nothing|never)\b", rf"\b(?:not?|none|nothing|never)\b{LIMIT_IDIOM}"),
    Term("negated", "after", r"n['’]t\b", rf"n['’]t\b{LIMIT_IDIOM}"),
    # contrasted: a preference for something else
    Term("contrasted", "before", r"\brather than\b"),
    Term("contrasted", "before", r"\bin lieu of\b"),
    Term("contrasted", "before", r"\binstead of\b"),
    Term("contrasted", "before", r"\bas opposed to\b"),
    Term("contrasted", "before", r"\bin place of\b"),
    Term("contrasted", "before", r"\b(?:reduced|down|cut|changed) from\b", figures_only=True),
    Term("contrasted", "before", r"\breplacing\b", figures_only=True),
    # restricted: what the clause grants is confined
    Term("restricted", "after", r"\bonly\b"),
    # A grant confined "solely" or "exclusively" names what it is confined to, which may be
    # the sin itself ("Tenant may sublet the premises solely to its affiliates", where the
    # sin is any right to sublet): written only where correct work shows it, never as the
    # family of an "only to the extent this Lease permits".
    Term("restricted", "after", r"\bsolely\b", in_family=False),
    Term("restricted", "after", r"\bexclusively\b", in_family=False),
    Term("restricted", "after", r"\bto the extent\b"),
    Term("restricted", "after", r"\blimited to\b"),
    # rejected: a verb of rejection or refusal
    Term("rejected", "before", r"\breject\w*"),
    Term("rejected", "before", r"\bdeclin\w*"),
    Term("rejected", "before", r"\brefus\w*"),
    Term("rejected", "before", r"\boppos\w*"),
    Term("rejected", "before", r"\bresist\w*"),
    Term("rejected", "before", r"\bdisput\w*"),
    Term("rejected", "before", r"\bdisagree\w*"),
    Term("rejected", "before", r"\bobject\w*"),
    Term("rejected", "before", r"\bden(?:y|ies|ied|ying)\b"),
    # attributed: someone else's draft or claim, or a statement said to be wrong
    Term(
        "attributed",
        "before",
        r"\b(?:(?:say|argu|contend|claim|insist|suggest|think|believ|assert|assum)\w*|propos(?:e|es|ed)|said|told \w+)"
        r" that\b",
    ),
    Term("attributed", "before", r"\b(?:draft|markup|proposal) (?:says|proposes)\b"),
    Term("attributed", "before", r"\b(?:position|view|contention) (?:is|was) that\b"),
    Term("attributed", "before", r"\b(?:wrong|incorrect|untrue|mistaken) to (?:say|suggest|assume|think)\b"),
    Term("attributed", "before", r"\b(?:looks?|appears?|seems?) (?:as (?:if|though)|to|like)\b"),
    Term("attributed", "before", r"\baccording to\b"),
    # a condition on the analysis side is a supposition: "if we accepted …", "if the law
    # forbade …" (a conditional sin's own "if" stands after its main clause, or behind a comma);
    # an inverted condition, whatever its verb ("were we to accept", "should the client agree",
    # "had the clause said"), which opens its clause: no declarative clause opens with "had",
    # "were" or "should" before its subject, and mid-clause ("Provider had the right") they are
    # no supposition; an assumption ("assuming", "suppose", "hypothetically")
    Term("supposed", "before", r"\bif\b"),
    Term("supposed", "before", r"(?:^\W*|[,;:] )(?:were|should|had) [\w-]+"),
    Term("supposed", "before", r"\b(?:assuming|suppos(?:e|ing)|hypothetically)\b"),
    # disowned: a later clause rejecting what came before (it may follow a ";"): a verb of
    # rejection with a word that points back or no object ("we reject that", "the client
    # opposes this position", "which the client declined", "was refused"), an acceptance or
    # agreement denied ("we cannot possibly accept it", "the client will not agree"), a
    # verdict on it ("unacceptable", "a non-starter")
    Term("disowned", "after", _REJECTION_VERB + _ITS_OBJECT),
    Term("disowned", "after", _ACCEPTANCE_DENIED),
    Term("disowned", "after", r"\b(?:unacceptable|non-starter)\b"),
    Term("disowned", "after", r"[;,] (?:it|this|that) (?:does|is) not\b"),
    # struck: words struck out (never the words inserted)
    Term("struck", "before", r"\bdelet\w*"),
    Term("struck", "before", r"\bstr(?:ik|uck|ick)\w*"),
    Term("struck", "before", r"\bremov\w*"),
    Term("struck", "before", r"\bomit\w*"),
    Term("struck", "after", r"\b(?:is|are) (?:deleted|struck|replaced)\b"),
)

#: Where a clause ends inside a sentence: a marker before it does not govern what follows.
CLAUSE_BARRIERS = r"\b(?:but|provided|except|however|whereas|unless|although|while|yet)\b"
#: Words that introduce inserted text: a strike before them does not reach what follows.
INSERTION = r"\b(?:replac|insert|amend)\w*"

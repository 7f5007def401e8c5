"""Audit codes (`U`): the verdicts of `rubric audit`, declared in the catalogue.

The two cheap verdicts, U001 (gate-never-fires) and U005 (concept-never-earnable), are
lint rules (`rubric_tools.lint.rules.audit`) and are documented there; `code_info`
finds either kind.
"""

from __future__ import annotations

from rubric_tools.catalogue import CodeDoc, declare
from rubric_tools.diagnostics import Severity

GATE_FIRES_ON_CORRECT_WORK = declare(
    "U002",
    "gate-fires-on-correct-work",
    Severity.ERROR,
    "audit",
    """
A gate fires on the matter's own correct work.

The audit runs every gate, through the scorer's matcher, on texts the matter itself
says are right: the sentences of the sections the issue requires citing (the
client's or playbook's position), the hidden answers the agent relays, the
must-not-fire probes, and the texts the reference trajectory submits. A gate that
fires there caps correct work at `critical_failure_score_cap`.

The evidence names the sentence, its source and the pattern that fired. When a
structured guard (`negation_guard`, `negation_scope: before`, `exclude_context`)
removes the finding without losing any must-fire text, the finding proposes it,
marked verified.
""",
)
GATE_FIRES_ON_NEGATED_FRAME = declare(
    "U003",
    "gate-fires-on-negated-frame",
    Severity.WARNING,
    "audit",
    """
A gate fires when careful drafting states the sin only to negate or strike it.

Each must-fire witness of the gate is wrapped the way correct work disclaims it:
state-then-negate ("it is not the case that …", "no law requires that …"), a belt-and-braces prohibition
("neither party shall agree that …"), a savings clause ("nothing in this section
means that …"), a deletion or replacement recital ("the words "…" are deleted"), a
rejection ("we do not accept that …"). The gate fires on the frames named in the
evidence. Add the verified guard the finding proposes, or a probe for the frame.
""",
)
GATE_DODGED = declare(
    "U004",
    "gate-dodged",
    Severity.WARNING,
    "audit",
    """
A meaning-preserving rewrite of the sin walks past every gate of the list.

The audit rewrites each gate's typical witness one way at a time — typographic
apostrophe or quotes, hyphen to space or joined, an inserted adverb or adjective, an
inflection ("re-identify" / "re-identifies" / "re-identifying", "any claim" / "any
claims"), a dotted section reference inside a bounded window, the clause split across
two sentences where a `[^.]{0,N}` window separates subject and predicate ("X. That is
Y") or a parenthetical in that gap, a swapped idiom, a nominalization, a synonym from the
legal thesaurus (`[tool.rubric.audit] thesaurus` extends it) — and no gate of the same
list fires on the rewrite. A must-fire probe that no gate of the list fires on is
reported the same way. The finding proposes a widened pattern and says whether it was
verified (the rewrite now fires and no correct-work text does).
""",
)

#: The codes whose findings texts generated from the gates give (witnesses, frames,
#: habitats, rewrites): an audit that generates none (`rubric check`'s row, unless its
#: `fail-on` names one) reports U004 only for a must-fire probe no gate fires on.
GENERATED_TEXT_CODES = (GATE_FIRES_ON_NEGATED_FRAME.code, GATE_DODGED.code)
CONCEPT_EARNED_BY_UNRELATED_TEXT = declare(
    "U006",
    "concept-earned-by-unrelated-text",
    Severity.WARNING,
    "audit",
    """
A concept is so short, or so common a fragment, that unrelated text earns it.

Concepts are matched as substrings of the normalized text. A two-letter concept
(`ai`, `ip`) is inside "again" and "relationship"; `train` is inside "constraint".
The evidence shows first the matter's own sentences that earn it through
another word (none that is about the concept), then the common words that
contain it ('Any text with the word "constraint" earns it.'). Use a longer phrase
("ip indemnity", "model training").
""",
)
CONCEPT_NOT_IN_READABLE_TEXT = declare(
    "U008",
    "concept-not-in-readable-text",
    Severity.WARNING,
    "audit",
    """
A concept appears in no document the agent can read and in no hidden answer.

The agent must then guess the author's exact wording (concepts are substrings). The
audit looks in every document, the assignment and public facts, the hidden answers,
and the counterparty's counters and messages. Use wording the materials contain, or
add an alias variant.
""",
)
CONCEPT_PUNISHED_ON_OTHER_SURFACE = declare(
    "U009",
    "concept-punished-on-other-surface",
    Severity.ERROR,
    "audit",
    """
The same words are rewarded on one surface and punished on another.

A concept that rewards the fix (a redline, settlement or accept concept) fires a gate
of another surface of the same issue: an agent recommending the fix in its analysis,
or carrying its redline into the settlement, is capped. Required concepts are not
counted: they describe the problem, which a redline gate may rightly punish. Same-surface
conflicts are lint rule G010's.
""",
)

CODES: dict[str, CodeDoc] = {
    c.code: c
    for c in (
        GATE_FIRES_ON_CORRECT_WORK,
        GATE_FIRES_ON_NEGATED_FRAME,
        GATE_DODGED,
        CONCEPT_EARNED_BY_UNRELATED_TEXT,
        CONCEPT_NOT_IN_READABLE_TEXT,
        CONCEPT_PUNISHED_ON_OTHER_SURFACE,
    )
}


def code_info(code: str) -> tuple[str, Severity]:
    """(name, severity) of an audit code, whether declared here or as a lint rule."""
    if code in CODES:
        return CODES[code].name, CODES[code].severity
    from rubric_tools.code_registry import lookup

    entry = lookup(code)
    if entry is None:
        raise KeyError(code)
    return entry.name, entry.severity

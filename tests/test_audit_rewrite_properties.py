"""Property tests of every generator the audit writes evidence with: rewrites (dodges), the
clause a witness is completed into, habitats and frames.

For any witness built from our own drafting words:
- no output repeats a word, a word pair or a phrase ("X and X") that the input did not;
- a rewrite keeps the witness's words, in order, apart from the change its kind declares
  (a synonym replaces exactly its words, an insertion only inserts, an inflection changes
  one word, a number form only the quantity, the passive moves subject and object whole);
- a completion, a habitat and a frame keep the clause's words together and in order, and
  are one sentence (a capital first letter, a final stop).
"""

from __future__ import annotations

import difflib
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from rubric_tools.audit.completion import complete_alone
from rubric_tools.audit.dodges import dodges
from rubric_tools.audit.frames import FRAMES, subjunctive
from rubric_tools.audit.habitats import habitat_texts
from rubric_tools.audit.quantities import is_number_word
from rubric_tools.audit.thesaurus import OBJECT_BEFORE_LAST_WORD
from rubric_tools.audit.thesaurus import build as build_thesaurus
from rubric_tools.audit.wording import doubled, fill
from rubric_tools.scoring.gates import Gate

THESAURUS = build_thesaurus((), {})

SUBJECTS = ["provider", "the customer", "licensor", "each party", "the vendor"]
MODALS = ["may", "shall", "will", "must", "can"]
VERBS = ["use", "disclose", "indemnify", "notify", "terminate", "re-identify", "make use of", "share", "retain"]
OBJECTS = ["customer data", "the agreement", "any claim", "personal data", "residuals", "the licensor's data"]
TAILS = [
    "",
    "to train",
    "within 48 hours",
    "after provider confirms",
    "for five percent of fees",
    "in its sole discretion",
]
FRAGMENTS = [
    "in provider's sole discretion",
    "unenforceable as a matter of law",
    "nine months",
    "five percent of annual fees",
    "customer liability supercap",
    "after provider completed its investigation",
    "shall defend",
    "permits provider to use customer data",
]


@st.composite
def clauses(draw: st.DrawFn) -> str:
    parts = [
        draw(st.sampled_from(SUBJECTS)),
        draw(st.sampled_from(MODALS)),
        *(["not"] if draw(st.booleans()) else []),
        draw(st.sampled_from(VERBS)),
        draw(st.sampled_from(OBJECTS)),
        draw(st.sampled_from(TAILS)),
    ]
    return " ".join(p for p in parts if p)


witnesses = st.one_of(clauses(), st.sampled_from(FRAGMENTS))


def _tokens(text: str) -> list[str]:
    """Words, lowercased, with typographic quotes made plain and commas dropped."""
    plain = text.lower().replace("’", "'").replace("“", '"').replace("”", '"')
    return re.findall(r"[\w§$%'.-]+(?<![.])", plain)


def _no_new_doubles(source: str, output: str) -> None:
    assert set(doubled(output)) <= set(doubled(source)), (source, output)


def _replaced(kind: str) -> tuple[list[str], list[str]] | None:
    """The words a swap declares it replaces: "synonym: use → employ"."""
    match = re.match(r"(?:synonym|swapped idiom|nominalization): (.+) → (.+)$", kind)
    return (_tokens(match.group(1)), _tokens(match.group(2))) if match else None


def _opcodes(before: list[str], after: list[str]) -> list[tuple[str, list[str], list[str]]]:
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    return [(tag, before[i1:i2], after[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _quantity_word(word: str) -> bool:
    if "%" in word or re.fullmatch(r"[\d.,()]+", word):
        return True
    units = ("percent", "per", "cent", "%", "hour", "day", "week", "month", "year", "business", "calendar")
    return word.strip("()").replace("-", "").isdigit() or any(
        is_number_word(part) or part.startswith(units) for part in word.strip("()").split("-")
    )


def _keeps_declared_change(witness: str, kind: str, text: str) -> None:
    before, after = _tokens(witness), _tokens(text)
    changes = _opcodes(before, after)
    swap = _replaced(kind)
    if kind.startswith(("typographic", "hyphen", "space to hyphen")):
        assert re.sub(r"[\s'\"-]", "", " ".join(before)) == re.sub(r"[\s'\"-]", "", " ".join(after)), (witness, text)
    elif kind in ("inserted adverb", "inserted adjective"):
        assert [tag for tag, _, _ in changes] == ["insert"] and len(changes[0][2]) == 1, (witness, text)
    elif kind == "citation inside the clause":
        assert [(tag, new) for tag, _, new in changes] == [("insert", ["under", "section", "6.2"])], (witness, text)
    elif swap is not None:
        old, new = swap
        # Exactly the declared words are replaced, once, and nothing else moves.
        places = [i for i in range(len(before) - len(old) + 1) if before[i : i + len(old)] == old]
        in_place = any(before[:i] + new + before[i + len(old) :] == after for i in places)
        # A member whose object goes before its last word ("makes the landlord whole") takes
        # the words right after the swap inside it, unchanged.
        around = new[-1] in OBJECT_BEFORE_LAST_WORD and any(
            before[:i] + new[:-1] + before[i + len(old) : i + len(old) + k] + new[-1:] + before[i + len(old) + k :]
            == after
            for i in places
            for k in range(1, len(before) - i - len(old) + 1)
        )
        assert in_place or around, (witness, kind, text)
    elif kind.startswith("inflection"):
        assert len(changes) == 1, (witness, kind, text)
        tag, removed, added = changes[0]
        assert tag == "replace" and len(removed) <= 2 and len(added) <= 2, (witness, kind, text)
    elif kind == "number or duration form":
        for _tag, removed, added in changes:
            assert all(_quantity_word(w) for w in [*removed, *added]), (witness, text)
    elif kind == "passive voice":
        # "<subject> <modal> <verb> <object> <rest>" -> "<object> <modal> be <participle> by <subject> <rest>"
        modal = next(i for i, w in enumerate(before) if w in MODALS)
        subject, rest = before[:modal], before[modal + 2 :]
        joined = " ".join(after)
        assert joined.startswith(" ".join(rest[:1])) and f"{before[modal]} be " in joined, (witness, text)
        assert f" by {' '.join(subject)}" in joined, (witness, text)
        assert set(after) - set(before) <= {"be", "by", after[after.index("be") + 1]}, (witness, text)


@settings(max_examples=150, deadline=None)
@given(witnesses)
def test_every_rewrite_keeps_the_witness_words_apart_from_its_declared_change(witness: str) -> None:
    pattern = re.escape(witness).replace("\\ ", " ")
    for dodge in dodges(witness, pattern, THESAURUS):
        _no_new_doubles(witness, dodge.text)
        _keeps_declared_change(witness, dodge.kind, dodge.text)


@settings(max_examples=100, deadline=None)
@given(witnesses)
def test_a_completion_keeps_the_witness_whole_and_reads_as_a_sentence(witness: str) -> None:
    gate = Gate(re.escape(witness).replace("\\ ", " "))
    completion = complete_alone(witness, gate)
    assert witness.lower() in completion.text.lower() or completion.core != witness
    _no_new_doubles(witness, completion.text)
    if completion.is_clause:
        sentence = completion.sentence()
        assert sentence[0].isupper() and sentence.endswith("."), sentence
        for dodge in dodges(completion.core, gate.pattern, THESAURUS)[:6]:
            around = completion.around(dodge.text)
            assert around.lower().startswith(completion.before.lower().strip()[:1]), around
            _no_new_doubles(completion.text, around)


@settings(max_examples=100, deadline=None)
@given(witnesses)
def test_habitats_and_frames_keep_the_clause_together_and_in_order(witness: str) -> None:
    completion = complete_alone(witness, Gate(re.escape(witness).replace("\\ ", " ")))
    clause = _tokens(completion.text)
    for surface in ("issue", "redline", "settlement"):
        habitats = habitat_texts(completion.core, surface, completion.before, completion.after)
        built = [(text, clause) for kind, text in habitats if not kind.startswith("limit idiom")]
        for frame in FRAMES:
            if not frame.quantity_only:
                # A requirement is stated in the subjunctive: that frame holds the clause with
                # its first finite verb in the base form, every other word as it stands.
                held = _tokens(subjunctive(completion.text)) if frame.requirable_only else clause
                built.append((frame.wrap(completion.text), held))
        for text, held in built:
            _no_new_doubles(completion.text, text)
            assert text[0].isupper() or text[0] in '"“', text
            assert text.rstrip('"”').endswith((".", "?", "!")), text
            # The clause's words stand together, in order, somewhere in the sentence (a
            # leading function word may have lost its capital, a leading "that" its place).
            joined, wanted = " ".join(_tokens(text)), " ".join(held[1:])
            assert wanted in joined, (completion.text, text)


def test_the_generators_that_produced_the_reported_slips_no_longer_do() -> None:
    """The issue's own examples: "can make make use of of residuals", "it is not the case that
    in provider's sole discretion.", "vendor will be fined by under §6.2 …"."""
    texts = [d.text for d in dodges("can make use of residuals", "can make use of residuals", THESAURUS)]
    assert not any(doubled(t) for t in texts), texts
    gate = Gate(r"in provider's sole discretion")
    completion = complete_alone("in provider's sole discretion", gate)
    assert completion.is_clause and completion.text == "this applies in provider's sole discretion"
    assert fill("it is not the case that {w}.", completion.text) == (
        "It is not the case that this applies in provider's sole discretion."
    )

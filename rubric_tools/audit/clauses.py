"""Completing a gate's witness into a clause before it is framed, placed in a habitat or
rewritten, so that evidence reads as a lawyer would write it.

A witness built from a regex is often a fragment ("in provider's sole discretion",
"unenforceable as a matter of law"). It is completed, in this order:

1. from the matter's own texts: the smallest clause around a match of the gate in a
   sentence of the matter — first the texts that state the sin (the list's must-fire
   probes and critical trajectories, the clause under review, the counterparty's trap
   counters), then any other text whose sentence disowns the clause (a sentence the gate
   is silent on, holding a clause it fires on: "It is not the case that <clause>"). The
   witness replaces the matched words when they read well in that clause ("Federal
   privacy law prohibits <witness> on member data"); otherwise the matter's own words stay;
2. a witness holding a figure no text of the matter states ("within 73 hours"): the matter's
   clause stating the figure it alters, the figure swapped ("Vendor shall notify Customer
   within 73 hours");
3. when no text of the matter has one, a neutral carrier chosen by the fragment's shape
   (`grammar.shape`, `completion.carrier`): "the other party <modal phrase>", "this agreement <verb phrase>",
   "the clause is <adjective phrase>", "notice is due <temporal phrase>", "the period is
   <duration>", "the <noun phrase> applies", …;
4. a witness that is already a clause stays as it is.

A completion is kept only when the gate fires on it, it holds no negator outside the
sin's own words, and it is no longer than `clause_bounds.MAX_CLAUSE_WORDS`; otherwise the witness stays
a fragment, which only the quoting frames take ('the words "…" are deleted').

Completion happens at run time from the matter being audited; the carriers are generic
words written for this tool. Names are written as the matter writes them (`casing`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from rubric_tools.audit.casing import MatterCasing
from rubric_tools.audit.clause_bounds import smallest_clause, word_span
from rubric_tools.audit.completion import (
    Completion,
    as_clause,
    complete_alone,
    reads_well,
    repair_agreement,
    restore_case,
)
from rubric_tools.audit.corpus import KnownText, sentences
from rubric_tools.audit.habitats import DEFAULT_SECTION, recital_section
from rubric_tools.audit.markers import governing_negator
from rubric_tools.audit.pattern_tree import compiled_branches
from rubric_tools.audit.quantities import Quantity, is_number_word, quantities
from rubric_tools.audit.wording import words
from rubric_tools.gate_analysis.gate_firing import fires, first_span, matched_sentence
from rubric_tools.gate_analysis.regex_shape import cannot_match
from rubric_tools.loading.matter import MatterSource
from rubric_tools.scoring.gates import Gate, sentence_bounds
from rubric_tools.scoring.text import split_citation

#: Sentences of the matter searched per gate (the longest texts are trajectories).
MAX_SENTENCE_CHARACTERS = 1200

_NEGATOR = re.compile(governing_negator(), re.IGNORECASE)
# The clause finder's patterns, asked of every sentence and completion: compiled once.
_LOWERCASE_LETTERS = re.compile(r"[a-z]{2,}")
_SPELLED_WORD = re.compile(r"(?<![\\a-z])([a-z]{2,})(?![a-z])(\\w|\[(?!\^)|\(|\?)?")


# ------------------------------------------------------------------ clauses of the matter


@dataclass(frozen=True)
class MatterSentence:
    """A sentence of the matter's own texts, as written."""

    text: str
    source: str
    #: The matter states it as the sin: a must-fire probe or critical trajectory of this
    #: list, the clause under review, a trap counter.
    sin: bool


@dataclass(frozen=True)
class _Found:
    sentence: MatterSentence
    clause: str
    start: int  # the matched words inside the clause
    end: int


class ClauseFinder:
    """The matter's sentences for one gate list, and clauses of them a gate fires on."""

    def __init__(
        self,
        matter_sentences: Iterable[MatterSentence],
        casing: MatterCasing | None = None,
        section: str = DEFAULT_SECTION,
    ) -> None:
        kept = [s for s in matter_sentences if len(s.text) <= MAX_SENTENCE_CHARACTERS]
        #: The section a recital putting the sin in cites: the clause under review's
        #: (`habitats.recital_section` of the issue's anchor).
        self.section = section
        self.sentences = sorted(dict.fromkeys(kept), key=lambda s: not s.sin)
        #: Each sentence lowercased, once for all the gates of the list (`_found`); not one
        #: with a letter whose lowercase is longer, where positions would not line up.
        self.lowered = [
            (sentence, lowered)
            for sentence in self.sentences
            if len(lowered := sentence.text.lower()) == len(sentence.text)
        ]
        #: How the matter writes its words (names, initialisms, defined terms): the matter's
        #: own (`MatterClauses.casing`), else read from these sentences.
        self.casing = casing or casing_of(s.text for s in self.sentences)
        self.vocabulary = self.casing.vocabulary
        self._found: dict[Gate, list[_Found]] = {}
        self._pattern = ""

    def recased(self, text: str) -> str:
        """`text` with the matter's names written as the matter writes them (`casing`)."""
        return self.casing.recased(text)

    def known_words(self, text: str, pattern: str = "") -> bool:
        """Whether every word of `text` is one the matter, common English or the gate's own
        pattern (`pattern`) uses: a regex stem ("regulat" of `regulat\\w*`) is not."""
        own = pattern_words(pattern)
        return all(
            w in self.vocabulary or w in own or w.isdigit() or is_number_word(w) or w in _FRAME_WORDS
            for w in _LOWERCASE_LETTERS.findall(text.lower())
        )

    def found(self, gate: Gate) -> list[_Found]:
        """Clauses of the matter's sentences the gate fires on (see `_found`), once per gate."""
        if gate not in self._found:
            self._found[gate] = list(_found(self, gate))
        return self._found[gate]

    def complete(self, witness: str, gate: Gate) -> Completion:
        """The witness as a clause (see the module docstring)."""
        self._pattern = gate.pattern
        core = repair_agreement(witness)
        if core != witness and not fires(gate, core):
            core = witness
        for found in _own_branch_first(self.found(gate), core, gate.pattern):
            before, matched, after = self._parts(found.clause, found.start, found.end)
            options = []
            if self._fits(core, matched, before, after):
                options.append(
                    Completion(before, restore_case(core, matched), after, "matter clause", found.sentence.source)
                )
            options.append(Completion(before, matched, after, "matter clause", found.sentence.source))
            for option in options:
                whole = as_clause(option)
                if reads_well(whole.text) and fires(gate, whole.text):
                    return whole
        refigured = self._refigured(core, gate)
        return refigured if refigured is not None else complete_alone(core, gate)

    @cached_property
    def _stated_figures(self) -> list[tuple[MatterSentence, tuple[Quantity, ...]]]:
        """The sentences that state a figure, with their figures: read once per finder."""
        return [(sentence, found) for sentence in self.sentences if (found := quantities(sentence.text))]

    def _refigured(self, core: str, gate: Gate) -> Completion | None:
        """The matter's clause stating the figure the sin alters, the witness's figure in its
        place: a gate on "no later than 73 hours" completes "73 hours" from "Vendor shall
        notify Customer within 72 hours" ("… within 73 hours"), not "the other party may notify".
        A figure of the same kind only (a duration for a duration, a rate for a rate)."""
        figures = quantities(core)
        if len(figures) != 1:
            return None
        wanted = figures[0]
        figure = core[wanted.start : wanted.end]
        for sentence, stated_figures in self._stated_figures:
            for stated in stated_figures:
                if stated.value == wanted.value or _kind(stated) != _kind(wanted):
                    continue
                text = sentence.text[: stated.start] + figure + sentence.text[stated.end :]
                completion = self._clause_around(text, gate, stated.start, stated.start + len(figure))
                if completion is not None:
                    return replace(completion, source=sentence.source)
        return None

    def _clause_around(self, text: str, gate: Gate, start: int, end: int) -> Completion | None:
        """The smallest clause of `text` around the gate's match, when the match holds the
        figure at `start`–`end` and words of the matter besides (a gate of a bare figure
        tells nothing of which figure of the matter it alters), no negator stands outside it
        and the clause reads well."""
        lowered = text.lower()
        if len(lowered) != len(text) or cannot_match(gate.pattern, lowered):
            return None  # most sentences: the search is not run
        span = first_span(gate.pattern, lowered)
        if span is None or not (span[0] <= start and end <= span[1]):
            return None
        if not words(text[span[0] : start]) and not words(text[end : span[1]]):
            return None
        found = _clause_owning(text, span)
        if found is None:
            return None
        whole = as_clause(Completion(*self._parts(*found), "matter clause"))
        return whole if reads_well(whole.text) and fires(gate, whole.text) else None

    def _parts(self, clause: str, start: int, end: int) -> tuple[str, str, str]:
        """The words of `clause` before the match at `start`–`end`, the match and the words
        after it, the capital that only opened the matter's sentence written in lowercase."""
        before, matched, after = clause[:start], clause[start:end], clause[end:]
        if not before and self.casing.opened_a_sentence(matched):
            matched = matched[0].lower() + matched[1:]
        elif before and self.casing.opened_a_sentence(before):
            before = before[0].lower() + before[1:]
        return before, matched, after

    def _fits(self, core: str, matched: str, before: str, after: str) -> bool:
        """Whether the witness can stand where the matter wrote `matched`: its words are
        English the matter uses, it is not shorter than the matched words (a window left
        empty), and it joins the clause as the matched words do (the same first word unless
        nothing comes before, the same last word unless nothing comes after)."""
        mine, theirs = words(core), words(matched)
        if not mine or not theirs or not self.known_words(core, self._pattern) or _subsequence(mine, theirs):
            return False
        if len(mine) < len(theirs):
            return False  # words the matter needs are missing (a window left empty)
        # Only words swapped for words (another alternative of the regex), a few at a time:
        # never words dropped or added ("no CEO sign-off" -> "no sign-off … exclusivity").
        changes = difflib.SequenceMatcher(a=theirs, b=mine, autojunk=False).get_opcodes()
        if any(tag in ("insert", "delete") or max(i2 - i1, j2 - j1) > 3 for tag, i1, i2, j1, j2 in changes):
            return False
        if before.strip() and mine[0] != theirs[0]:
            return False
        return not (after.strip(" .;,") and mine[-1] != theirs[-1])


def _own_branch_first(found: list[_Found], witness: str, pattern: str) -> list[_Found]:
    """The matter's clauses, those whose match the witness's own top-level alternatives
    match first (in their order): a gate `provider owns|data is provider's property` is two
    sins, and a witness of the first is completed from a clause that states the first when
    the matter has one, not from the clause of the other (whose frames the other's witness
    already gives)."""
    branches = compiled_branches(pattern)
    own = [branch for branch in branches if branch.search(witness)]
    if not own or len(own) == len(branches):
        return found
    return sorted(found, key=lambda f: not any(b.search(f.clause[f.start : f.end]) for b in own))


def _kind(quantity: Quantity) -> str:
    """What a figure measures: a duration, whatever its unit, or its unit ("percent")."""
    return "duration" if quantity.unit.is_duration else quantity.unit.name


def pattern_words(pattern: str) -> frozenset[str]:
    """The whole words a regex spells out: not a stem that a `\\w*`, a class or a group
    continues ("regulat" of `regulat\\w*`); a word with an optional last letter both ways
    ("prohibit" and "prohibits" of `prohibits?`)."""
    found: set[str] = set()
    for match in _SPELLED_WORD.finditer(pattern.lower()):
        word, after = match.group(1), match.group(2)
        if after in ("\\w", "[", "("):
            continue
        found.add(word)
        if after == "?":
            found.add(word[:-1])
    return frozenset(found)


def _subsequence(short: Sequence[str], long: Sequence[str]) -> bool:
    remaining = iter(long)
    return all(word in remaining for word in short)


#: Words a witness or a rewrite may hold that no matter text has: the parties' roles, and the
#: words the rewrites themselves insert ("as drafted", "under section 6.2 of the agreement").
_FRAME_WORDS = frozenset(
    "provider customer vendor licensee licensor party parties as drafted under section agreement that those "
    "expressly relevant".split()
)


def _found(finder: ClauseFinder, gate: Gate) -> Iterable[_Found]:
    """Clauses of the matter's sentences the gate fires on: the shortest first within each
    tier (sins stated, then sins disowned)."""
    stated: list[_Found] = []
    disowned: list[_Found] = []
    for sentence, lowered in finder.lowered:
        if cannot_match(gate.pattern, lowered):
            continue  # nine sentences in ten: the search is not run
        span = first_span(gate.pattern, lowered)  # None too when it does not compile or times out
        if span is None or span[0] == span[1]:
            continue
        found = _clause_owning(sentence.text, span)
        if found is None or not fires(gate, found[0]):
            continue
        if not sentence.sin and fires(gate, sentence.text):
            continue  # correct work the gate fires on is U002's evidence, never a sin
        (stated if sentence.sin else disowned).append(_Found(sentence, *found))
    return [*sorted(stated, key=lambda f: len(f.clause)), *sorted(disowned, key=lambda f: len(f.clause))]


def _clause_owning(text: str, span: tuple[int, int]) -> tuple[str, int, int] | None:
    """The smallest clause of `text` around the match at `span` (widened to whole words) and
    where the match stands in it; None when there is none, or a negator outside the match
    disowns it."""
    start, end = word_span(text, *span)
    bounds = smallest_clause(text, start, end)
    if bounds is None:
        return None
    clause = text[bounds[0] : bounds[1]]
    inner_start, inner_end = start - bounds[0], end - bounds[0]
    if _NEGATOR.search(clause[:inner_start] + " " + clause[inner_end:]):
        return None
    return clause, inner_start, inner_end


# ------------------------------------------------------------------ the matter's sentences


def casing_of(texts: Iterable[str]) -> MatterCasing:
    """The casing of the sentences `texts` short enough to complete a clause from."""
    return MatterCasing(list(dict.fromkeys(t for t in texts if len(t) <= MAX_SENTENCE_CHARACTERS)))


def _split(text: str) -> list[str]:
    return [" ".join(s.split()) for s in sentences(text)]


class MatterClauses:
    """A matter's sentences, split once, from which each gate list's finder is made."""

    def __init__(self, source: MatterSource, known: Sequence[KnownText]) -> None:
        self.source = source
        self.known = [(text, _split(text.paragraphs())) for text in known]
        #: Each known text's sentences as every list reads them, and as the lists whose sin
        #: it states read them (a must-fire text): built once, not once per gate list.
        self._known_sentences = [
            (
                text,
                [MatterSentence(part, text.source, False) for part in parts],
                [MatterSentence(part, text.source, True) for part in parts] if text.expect_fire else None,
            )
            for text, parts in self.known
        ]
        self.documents = [
            (f"{document_id} §{token}", sentence)
            for document_id, document in source.matter.documents.items()
            for token, section in document.sections.items()
            for sentence in _split(section)
        ]
        self.answers = [
            MatterSentence(sentence, f"{label} {key}", False)
            for label, answers in (
                ("client answer", source.matter.client_answers),
                ("escalation answer", source.matter.escalation_answers),
            )
            for key, answer in answers.items()
            for sentence in _split(str(answer))
        ]
        #: Each issue's counters, sentence by sentence (a trap's sentences are its sins).
        self.counters = {
            issue_id: [
                MatterSentence(sentence, f"counter {number} of {issue_id}", counter.trap)
                for number, counter in enumerate(position.counters, start=1)
                for part in (counter.text, counter.message)
                for sentence in _split(part)
            ]
            for issue_id, position in source.matter.positions.items()
        }

    @cached_property
    def casing(self) -> MatterCasing:
        """How the matter writes its words, read once from all its sentences (every issue's
        counters among them): every gate list's finder shares it."""
        return casing_of(
            [
                # Read as the scorer joins its parts: a title in Title Case, run on into the
                # analysis, is casing read inside a sentence, as it was tuned on.
                *(part for text, _parts in self.known for part in _split(text.text)),
                *(counter.text for counters in self.counters.values() for counter in counters),
                *(sentence for _citation, sentence in self.documents),
                *(answer.text for answer in self.answers),
            ]
        )

    def finder(self, issue_id: str, surface: str) -> ClauseFinder:
        """The finder of one gate list: its own sins first."""
        issue = self.source.matter.rubric.issues_by_id.get(issue_id)
        cited = split_citation(issue.anchor) if issue else None
        anchor = issue.anchor.strip() if issue and cited else None
        found: list[MatterSentence] = []
        for text, as_read, as_sin in self._known_sentences:
            found += as_sin if as_sin is not None and text.concerns(issue_id, surface) else as_read
        found += self.counters.get(issue_id, [])
        found += [MatterSentence(sentence, citation, citation == anchor) for citation, sentence in self.documents]
        section = recital_section(cited[1] if cited else None)
        return ClauseFinder([*found, *self.answers], self.casing, section)


def sentence_as_written(gate: Gate, text: str) -> str:
    """The sentence of `text` around the gate's first match, as the author wrote it (its
    capitals kept; whitespace folded as the scorer folds it)."""
    written = " ".join(text.split())
    lowered = written.lower()
    if len(lowered) != len(written):
        return matched_sentence(gate, text)
    span = first_span(gate.pattern, lowered)
    if span is None:
        return written
    start, end = sentence_bounds(lowered, *span)
    return written[start:end].strip()

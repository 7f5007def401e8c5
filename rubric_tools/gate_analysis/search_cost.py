"""How much work one run of a structured gate does on a long text, estimated before it runs.

A plain gate is one search. A structured gate (engine.md §4) tries *every* match of its
pattern until one survives: for each match the engine finds the match's sentence, looks
for a negator in it (`negation_guard`) and searches the whole sentence with
`require_context` and `exclude_context`. The cost is therefore (matches) × (sentence
length), and both grow with the text: quadratic. On a text that has no full stop — a
list or a run-on paragraph, which normalization makes one line — the sentence is the
whole text, and a pattern that matches ordinary prose at nearly every character
(`\\S`, `\\w`, `[a-z]`) runs its guards tens of thousands of times over tens of
thousands of characters: minutes in the reference engine.

The estimate, in character visits, for a text of `TEXT_LENGTH` characters forming one
sentence:

    matches × TEXT_LENGTH × (1 + negation guard + require_context + exclude_context)

with 1 for the sentence's location and 1 for each guard or context regex that runs per
match. `matches` is the pattern's density on ordinary prose — the matter's own documents
and a neutral paragraph — times `TEXT_LENGTH` (at least 1). A gate over `WORK_LIMIT` is
refused by lint rule G017, as one too costly to compile is by G016. Catastrophic
backtracking inside one search is G012's (`regex_backtracking`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from rubric_tools.gate_analysis.plain_search import plain_pattern
from rubric_tools.gate_analysis.regex_risk import backtracking_risk
from rubric_tools.scoring.gates import Gate, GateError, compile_pattern
from rubric_tools.scoring.text import normalize

if TYPE_CHECKING:
    from rubric_tools.loading.elements import MatterModel

#: The scored text the estimate assumes: about ten pages, one sentence once normalized.
TEXT_LENGTH = 30_000
#: Character visits above this are too many for the reference engine (tens of seconds at
#: its per-match cost; the scorer's searches stop at their time limit instead).
WORK_LIMIT = 50_000_000
#: Time limit of each density search (a pattern that needs more is G012's business).
DENSITY_TIMEOUT = 0.1

#: Ordinary prose, so that a pattern's density is measured even where a matter has few
#: documents: contract language of the kind rubrics are written against.
NEUTRAL_PROSE = (
    "Customer shall pay the fees set out in the order form within thirty days of the invoice date. "
    "Provider will use commercially reasonable efforts to make the service available ninety-nine "
    "percent of each month, and the credits in the service level schedule are Customer's sole remedy "
    "for any failure to do so. Either party may terminate this agreement for material breach that is "
    "not cured within thirty days after written notice. Neither party shall be liable for indirect or "
    "consequential damages, and each party's aggregate liability shall not exceed the fees paid in the "
    "twelve months before the claim, except for breach of confidentiality or the indemnities in section 9. "
    "Provider shall notify Customer of any security incident without undue delay and in any event within "
    "seventy-two hours, and shall not use Customer Data to train or improve its models."
)


@dataclass(frozen=True)
class SearchCost:
    """The estimate for one gate: its parts, so a message can say where the cost comes from."""

    matches: int  # matches expected on TEXT_LENGTH characters of ordinary prose
    per_match: int  # sentence passes per match (location, guard, contexts)
    density: float

    @property
    def work(self) -> int:
        return self.matches * self.per_match * TEXT_LENGTH

    @property
    def too_costly(self) -> bool:
        return self.work > WORK_LIMIT


#: Characters of a matter's documents a density is measured on: enough for a stable
#: share, little enough that lint stays fast.
SAMPLE_LENGTH = 6_000


def matter_prose(model: MatterModel) -> str:
    """The sample of a matter (`prose_sample` of its documents' sections): what lint rule
    G017 measures a gate on, and the audit a proposed one."""
    return prose_sample(
        text
        for document in model.documents
        if document.source.parsed is not None
        for text in document.source.parsed.sections.values()
    )


def prose_sample(texts: Iterable[str]) -> str:
    """The normalized text a density is measured on: the start of `texts` (a matter's
    documents) and the neutral paragraph."""
    documents = normalize(" ".join(texts))[:SAMPLE_LENGTH]
    return f"{documents} {normalize(NEUTRAL_PROSE)}".strip()


@lru_cache(maxsize=1024)
def density(pattern: str, sample: str) -> float:
    """Matches of `pattern` per character of `sample` (1.0 when the search cannot finish).
    Cached: lint, `rubric check` and the fix loop ask again for the same matter."""
    if not sample or backtracking_risk(pattern) is not None:
        return 0.0  # G012 reports a catastrophic pattern; timing it here would only cost
    plain = plain_pattern(pattern, sample, normalized=True)
    if plain is not None:
        # Where `re`'s search is bounded, it counts: `regex` prepares a long literal in time
        # quadratic in its length, before its time limit is looked at (5,000 letters "a":
        # 35 s on the 6,858 characters of a matter's sample; `re`: under a millisecond).
        return sum(1 for _ in plain.finditer(sample)) / len(sample)
    try:
        regex = compile_pattern(pattern)
        found = sum(1 for _ in regex.finditer(sample, timeout=DENSITY_TIMEOUT))
    except GateError:
        return 0.0  # G003/G016 report it
    except TimeoutError:
        return 1.0
    return found / len(sample)


def search_cost(gate: Gate, sample: str) -> SearchCost | None:
    """The estimate for a structured gate (None for a plain one: a single search)."""
    if not gate.is_structured:
        return None
    per_match = 1 + int(gate.negation_guard) + int(bool(gate.require_context)) + int(bool(gate.exclude_context))
    share = density(gate.pattern, sample)
    matches = max(1, round(share * TEXT_LENGTH))
    return SearchCost(matches, per_match, share)


def describe_cost(cost: SearchCost) -> str:
    """Why a gate's search is too costly, in an author's terms."""
    per = f"{cost.per_match} passes over the sentence" if cost.per_match > 1 else "one pass over the sentence"
    return (
        f"its pattern matches ordinary prose about {cost.matches:,} times in {TEXT_LENGTH:,} characters "
        f"(one match every {max(1, round(1 / cost.density)) if cost.density else TEXT_LENGTH:,} characters), and "
        f"each match costs {per}: about {cost.work:,} character visits on a {TEXT_LENGTH:,}-character submission "
        f"without a full stop, over the {WORK_LIMIT:,} limit"
    )

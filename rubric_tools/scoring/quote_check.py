"""Why a quote was not verified: the closest text of the cited section, with the first
difference marked (a curly apostrophe, "12" for "twelve").

Pure text work on the matter model, for messages only: the score never depends on it.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from rubric_tools.scoring.model import Matter
from rubric_tools.scoring.text import normalize, split_citation

MINIMUM_QUOTE_LENGTH = 15
CONTEXT = 28  # characters shown on each side of the first difference
MINIMUM_SHARED = 12  # a shorter common run is coincidence, not the passage the quote meant


@dataclass(frozen=True)
class QuoteMismatch:
    """One quote of one step that the engine did not verify.

    The closest passage of the cited section is worked out only when an explanation shows
    it (`lines()`, `closest`, `offset`): the JSON outputs never do, and aligning a quote
    with its section is the costly part of an explanation."""

    step: int
    citation: str
    quote: str  # normalized, as the engine compares it
    reason: str
    section: str | None = None  # the cited section's normalized text, when it shares a run with the quote

    @cached_property
    def _alignment(self) -> tuple[str, int] | None:
        return closest_passage(self.quote, self.section) if self.section is not None else None

    @property
    def closest(self) -> str | None:
        """The section's text aligned with the quote (None: no passage to show)."""
        return self._alignment[0] if self._alignment is not None else None

    @property
    def offset(self) -> int:
        """The index of the first difference in `quote` (and in `closest`)."""
        return self._alignment[1] if self._alignment is not None else 0

    def head(self) -> str:
        """The explanation's first line: which quote, and why it was not verified."""
        return f"step {self.step}: quote cited as {self.citation!r} {self.reason}"

    def lines(self) -> list[str]:
        """The explanation, a few lines that fit 80 columns."""
        head = self.head()
        if self.closest is None:
            return [head, f'  quote:   "{_clip(self.quote, 0, len(self.quote))[0]}"']
        start = max(0, self.offset - CONTEXT)
        shown_quote, lead = _clip(self.quote, start, self.offset + CONTEXT)
        shown_text, _ = _clip(self.closest, start, self.offset + CONTEXT)
        caret = " " * (len('  section: "') + lead + self.offset - start) + "^ " + self._difference()
        return [head, f'  quote:   "{shown_quote}"', f'  section: "{shown_text}"', caret]

    def _difference(self) -> str:
        ours = _word_at(self.quote, self.offset)
        theirs = _word_at(self.closest or "", self.offset)
        if len(ours) == 1 == len(theirs) or not ours.strip() or not theirs.strip():
            return f"first difference: {_char(self.quote, self.offset)} vs {_char(self.closest or '', self.offset)}"
        return f"first difference: {ours!r} vs {theirs!r}"


def _clip(text: str, start: int, end: int) -> tuple[str, int]:
    """text[start:end] with ellipses where it was cut; the ellipsis width before it."""
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(text) else ""
    return prefix + text[start:end] + suffix, len(prefix)


def _word_at(text: str, index: int) -> str:
    if index >= len(text):
        return ""
    if not text[index].isalnum():
        return text[index]
    start = index
    while start > 0 and text[start - 1].isalnum():
        start -= 1
    end = index
    while end < len(text) and text[end].isalnum():
        end += 1
    return text[start:end] or text[index]


def _char(text: str, index: int) -> str:
    if index >= len(text):
        return "end of section"
    char = text[index]
    name = unicodedata.name(char, "")
    return f"{char!r} (U+{ord(char):04X}{' ' + name if name else ''})"


#: Quotes up to this length have their alignment remembered (an lru_cache of 512): a cache of
#: agents' text must stay small whatever they send.
REMEMBERED_QUOTE_LENGTH = 2_000


def closest_passage(quote: str, section: str) -> tuple[str, int] | None:
    """The part of `section` the quote most likely meant, aligned at a shared run of
    text, and the index of the first character where the two differ; None when
    no run of `MINIMUM_SHARED` characters is shared."""
    # Remembered: the alignment is the costly part of an explanation, and agents repeat a
    # fabricated quote across steps and episodes of the same matter.
    if len(quote) <= REMEMBERED_QUOTE_LENGTH:
        return _remembered_passage(quote, section)
    return _aligned_passage(quote, section)


@lru_cache(maxsize=512)
def _remembered_passage(quote: str, section: str) -> tuple[str, int] | None:
    return _aligned_passage(quote, section)


def _aligned_passage(quote: str, section: str) -> tuple[str, int] | None:
    matcher = difflib.SequenceMatcher(None, section, quote, autojunk=False)
    # Align on the shared run that starts earliest in the quote: aligning on the longest
    # one would shift the start whenever a word before it differs in length.
    runs = [run for run in matcher.get_matching_blocks() if run.size >= min(MINIMUM_SHARED, len(quote))]
    if not runs:
        return None
    anchor = min(runs, key=lambda run: run.b)
    start = max(0, anchor.a - anchor.b)
    window = section[start : start + len(quote) + CONTEXT]
    offset = next(
        (i for i, (a, b) in enumerate(zip(quote, window, strict=False)) if a != b), min(len(quote), len(window))
    )
    return window, offset


def shares_run(quote: str, section: str) -> bool:
    """Whether `closest_passage(quote, section)` finds a passage, without aligning: a shared run
    of `min(MINIMUM_SHARED, len(quote))` characters exists exactly when some slice of the quote
    that long occurs in the section (the matcher's first block is the longest shared run)."""
    size = min(MINIMUM_SHARED, len(quote))
    return any(quote[start : start + size] in section for start in range(len(quote) - size + 1))


def _quotes(action: Any) -> Sequence[Any]:
    quotes = action.get("quotes") if isinstance(action, Mapping) else None
    return quotes if isinstance(quotes, list) else []


def quote_mismatches(
    matter: Matter, step: int, action: Any, event_quotes: Sequence[Mapping[str, Any]]
) -> list[QuoteMismatch]:
    """An explanation for every quote of the step's action the engine did not verify."""
    found: list[QuoteMismatch] = []
    for quote, status in zip(_quotes(action), event_quotes, strict=False):
        if status.get("status") == "verified":
            continue
        if isinstance(quote, Mapping):
            citation, text = str(quote.get("citation", "")), str(quote.get("text", ""))
        else:
            citation, text = "", str(quote)
        normalized = normalize(text)
        if status.get("status") == "unverified_too_short":
            found.append(
                QuoteMismatch(
                    step,
                    citation,
                    normalized,
                    f"is shorter than {MINIMUM_QUOTE_LENGTH} characters once normalized (−0.25)",
                )
            )
            continue
        parsed = split_citation(citation)
        section = matter.resolve(*parsed) if parsed else None
        if section is None:
            found.append(
                QuoteMismatch(
                    step, citation, normalized, "names no section of the matter, so it cannot be verified (fabricated)"
                )
            )
            continue
        if not shares_run(normalized, section):
            found.append(QuoteMismatch(step, citation, normalized, "matches no passage of that section (fabricated)"))
            continue
        reason = "is not verbatim text of that section (fabricated)"
        found.append(QuoteMismatch(step, citation, normalized, reason, section))
    return found

"""An unverified quote's explanation: the cheap reason (without aligning) says what the
alignment would, and the alignment is worked out only when it is shown."""

from __future__ import annotations

import random

from rubric_tools.scoring.quote_check import MINIMUM_SHARED, QuoteMismatch, closest_passage, shares_run
from rubric_tools.scoring.text import normalize

SECTION = normalize(
    "Fees paid by Customer in the twelve (12) months before the claim. Neither party is liable for "
    "indirect damages; this limitation applies to every claim under this Agreement."
)


def _random_text(rng: random.Random, alphabet: str, length: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(length))


def test_shares_run_is_whether_a_passage_is_found() -> None:
    rng = random.Random(25)
    cases = [("", SECTION), ("x", SECTION), ("fees paid by customer", SECTION), ("unrelated entirely here", SECTION)]
    for _ in range(3000):
        alphabet = rng.choice(["ab", "abc ", "abcdefgh ", "the limitation applies"])
        section = _random_text(rng, alphabet, rng.randint(0, 60))
        if rng.random() < 0.5 and section:  # a quote that borrows a slice of its section
            start = rng.randint(0, len(section) - 1)
            quote = section[start : start + rng.randint(1, 2 * MINIMUM_SHARED)] + _random_text(rng, alphabet, 5)
        else:
            quote = _random_text(rng, alphabet, rng.randint(0, 30))
        cases.append((quote, section))
    for quote, section in cases:
        assert shares_run(quote, section) == (closest_passage(quote, section) is not None), (quote, section)


def test_the_alignment_waits_until_it_is_shown() -> None:
    quote = normalize("Fees paid by Customer in the 12 months before the claim")
    mismatch = QuoteMismatch(3, "msa §10.2", quote, "is not verbatim text of that section (fabricated)", SECTION)
    assert "_alignment" not in mismatch.__dict__  # nothing aligned yet
    assert mismatch.head() == mismatch.lines()[0]
    assert "_alignment" in mismatch.__dict__ and mismatch.closest is not None
    assert "'12' vs 'twelve'" in mismatch.lines()[3]

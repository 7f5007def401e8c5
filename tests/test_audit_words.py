"""The words of a text (`wording.words`), which every check of a candidate sentence asks for."""

from __future__ import annotations

from rubric_tools.audit.wording import words


def test_the_words_of_a_text_are_read_once() -> None:
    """Read once per text, and kept as a tuple no caller can change."""
    first = words("Provider's fees, as of 1 January, are due.")
    assert first == ("provider's", "fees", "as", "of", "1", "january", "are", "due")
    assert words("Provider's fees, as of 1 January, are due.") is first

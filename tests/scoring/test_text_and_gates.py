"""Unit tests: normalization, sections, citations and structured gates."""

from __future__ import annotations

import pytest

from rubric_tools.scoring.gates import Gate, GateRunner, run_gates, sentence_bounds
from rubric_tools.scoring.sections import parse_sections
from rubric_tools.scoring.text import normalize, split_citation


def test_normalize_lowercases_and_folds_unicode_whitespace() -> None:
    assert normalize("  Hello\u00a0\tWORLD \n again ") == "hello world again"


def test_split_citation_at_first_section_sign() -> None:
    assert split_citation(" msa  §  4.2 ") == ("msa", "4.2")
    assert split_citation("a §1 §2") == ("a", "1 §2")
    assert split_citation("msa 4.2") is None


def test_sections_tokens_preamble_merging_and_empty_headings() -> None:
    text = "Intro line\n## 4.2 Use\nbody\n### sub\n## 10. Term\nend\n## 4.2 again\nmore\n##   \nx"
    parsed = parse_sections(text)
    assert list(parsed.sections) == ["full", "4.2", "10"]
    assert parsed.sections["full"] == "Intro line"
    assert "### sub" in parsed.sections["4.2"] and "more" in parsed.sections["4.2"]
    assert [h.line for h in parsed.duplicate_tokens] == [7]
    assert [h.line for h in parsed.empty_headings] == [9]
    assert parsed.sections["4.2"].startswith("## 4.2 Use")


def test_plain_gate_is_polarity_blind() -> None:
    assert Gate("law prohibits training").fires("no law prohibits training")


@pytest.mark.parametrize(
    ("gate", "text", "fires"),
    [
        (Gate("law prohibits training", negation_guard=True), "no law prohibits training.", False),
        (Gate("law prohibits training", negation_guard=True), "no. law prohibits training.", True),
        (Gate("binding on", negation_guard=True), "binding on provider but not binding on customer", True),
        (Gate("in no event later", negation_guard=True), "notice in no event later than", False),
        (
            Gate("in no event later", negation_guard=True, negation_scope="before"),
            "notice in no event later than",
            True,
        ),
        (
            Gate("in no event later", negation_guard=True, negation_scope="before"),
            "it is not enough to give notice in no event later than",
            False,
        ),
        (Gate("may use data", negation_guard=True), "neither party nor provider may use data", False),
        (Gate("permits termination", require_context=r"\bas drafted\b"), "as drafted it permits termination", True),
        (Gate("permits termination", require_context=r"\bas drafted\b"), "as drafted. it permits termination", False),
        (
            Gate("permits termination", exclude_context="avoidance of doubt"),
            "for the avoidance of doubt it permits termination",
            False,
        ),
        (Gate("x", negation_guard=True), "isn't x", False),
        (Gate("x", negation_guard=True), "nobody x", True),  # not a negator
    ],
)
def test_structured_gates(gate: Gate, text: str, fires: bool) -> None:
    assert gate.fires(text) is fires


def test_sentences_do_not_split_before_digits() -> None:
    text = "see §10.2 here. next one"
    start = text.index("here")
    assert sentence_bounds(text, start, start + 4) == (0, text.index(". next"))


def test_any_surviving_occurrence_fires() -> None:
    gate = Gate("pays", negation_guard=True)
    assert gate.fires("it never pays. the lessee pays.")


def test_catastrophic_pattern_times_out_instead_of_hanging() -> None:
    check = run_gates((Gate(r"(a|aa)+$"),), "a" * 40 + "b", timeout=0.05)
    assert check.timed_out == (r"(a|aa)+$",) and check.fired == ()


def test_invalid_regex_is_reported_not_raised() -> None:
    check = run_gates((Gate("(unclosed"), Gate("ok")), "ok")
    assert check.fired == ("ok",) and len(check.errors) == 1


def test_a_runner_times_out_plain_and_structured_gates_and_keeps_their_order() -> None:
    """GateRunner calls `regex`'s search and finditer with positional arguments: a timeout
    in the wrong position would search without a limit (and hang here)."""
    catastrophic = r"(a|aa)+$"
    gates = (Gate(catastrophic), Gate(catastrophic, negation_guard=True), Gate("a+b"), Gate("(x"))
    check = GateRunner(gates).run("a" * 40 + "b", timeout=0.05)
    assert check.timed_out == (catastrophic, catastrophic)
    assert check.fired == ("a+b",) and len(check.errors) == 1


def test_a_runner_finds_what_each_gate_finds() -> None:
    gates = (
        Gate("ſecret"),  # folded: `re` matches it case-insensitively against "secret"
        Gate("law prohibits training", negation_guard=True),
        Gate("permits termination", require_context=r"\bas drafted\b"),
        Gate("pays", exclude_context="never"),
    )
    for text in ("no law prohibits training. as drafted it permits termination", "the secret pays", "it never pays."):
        expected = tuple(gate.pattern for gate in gates if gate.fires(text))
        assert GateRunner(gates).run(text) == run_gates(gates, text)
        assert GateRunner(gates).run(text).fired == expected


def test_an_empty_gate_list_finds_nothing() -> None:
    from rubric_tools.scoring.gates import NOTHING_FOUND

    assert GateRunner(()).run("any text at all") is NOTHING_FOUND
    assert run_gates((), "any text at all") is NOTHING_FOUND

"""Inline suppressions silence exactly what they cover, and are checked themselves."""

from __future__ import annotations

from pathlib import Path

from tests.fix_support import base_copy, codes, run, seed

PREAMBLE = (
    'anchor: "hosting §3.1"\n    severity: medium\n    required_citations: ["hosting §3.1", "guide §2"]',
    'anchor: "hosting §full"\n    severity: medium\n    required_citations: ["hosting §full", "guide §2"]',
)


def _preamble_matter(tmp_path: Path) -> Path:
    root = base_copy(tmp_path)
    seed(root / "rubric.yaml", *PREAMBLE)
    assert "A006" in codes(root)
    return root


def test_a_trailing_suppression_silences_its_node(tmp_path: Path) -> None:
    root = _preamble_matter(tmp_path)
    seed(
        root / "rubric.yaml", 'anchor: "hosting §full"', 'anchor: "hosting §full"  # rubric: ignore[A006] -- order form'
    )
    assert "A006" not in codes(root) and "X103" not in codes(root)


def test_a_suppression_on_the_line_above_silences_the_node_below_only(tmp_path: Path) -> None:
    root = _preamble_matter(tmp_path)
    seed(root / "rubric.yaml", "    severity: medium", "    # rubric: ignore[A006] -- wrong node\n    severity: medium")
    assert "A006" in codes(root) and "X103" in codes(root)


def test_a_rule_name_works_like_its_code(tmp_path: Path) -> None:
    root = _preamble_matter(tmp_path)
    seed(root / "rubric.yaml", "issues:\n", "issues:  # rubric: ignore[anchor-on-preamble] -- all legacy\n")
    assert "A006" not in codes(root)


def test_ignore_file_covers_the_whole_file_and_only_that_file(tmp_path: Path) -> None:
    root = _preamble_matter(tmp_path)
    seed(
        root / "rubric.yaml",
        "critical_failure_score_cap",
        "# rubric: ignore-file[A006] -- legacy\ncritical_failure_score_cap",
    )
    assert "A006" not in codes(root)
    other = _preamble_matter(tmp_path / "other")
    seed(other / "matter.yaml", "matter_id", "# rubric: ignore-file[A006] -- wrong file\nmatter_id")
    assert "A006" in codes(other) and "X103" in codes(other)


def test_a_markdown_comment_silences_a_document_finding(tmp_path: Path) -> None:
    root = base_copy(tmp_path)
    hosting = root / "documents" / "hosting.md"
    seed(hosting, "## 4 Term", "## 3.1 Term")  # a duplicate section token: D006
    assert "D006" in codes(root)
    seed(hosting, "## 3.1 Term", "<!-- rubric: ignore[D006] -- the source contract repeats it -->\n## 3.1 Term")
    assert "D006" not in codes(root) and "X103" not in codes(root)


def test_a_suppression_without_reason_still_applies_but_is_reported(tmp_path: Path) -> None:
    root = _preamble_matter(tmp_path)
    seed(root / "rubric.yaml", 'anchor: "hosting §full"', 'anchor: "hosting §full"  # rubric: ignore[A006]')
    assert codes(root) == ["X101"]


def test_an_unknown_code_is_reported_and_silences_nothing(tmp_path: Path) -> None:
    root = _preamble_matter(tmp_path)
    seed(root / "rubric.yaml", 'anchor: "hosting §full"', 'anchor: "hosting §full"  # rubric: ignore[A06] -- typo')
    assert sorted(codes(root)) == ["A006", "X102"]


def test_unused_codes_of_rules_that_did_not_run_are_not_judged(tmp_path: Path) -> None:
    root = base_copy(tmp_path)
    seed(root / "rubric.yaml", 'anchor: "hosting §3.1"', 'anchor: "hosting §3.1"  # rubric: ignore[A006] -- gone')
    assert codes(root) == ["X103"]
    code, out, _ = run(tmp_path, root, ignore=["A006"])
    assert code == 0 and "X103" not in out


def test_fix_removes_only_the_unused_code(tmp_path: Path) -> None:
    root = _preamble_matter(tmp_path)
    seed(root / "rubric.yaml", 'anchor: "hosting §full"', 'anchor: "hosting §full"  # rubric: ignore[A005, A006] -- ok')
    assert codes(root) == ["X103"]
    run(tmp_path, root, fix=True)
    assert 'anchor: "hosting §full"  # rubric: ignore[A006] -- ok\n' in (root / "rubric.yaml").read_text("utf-8")
    assert codes(root) == []


def test_hashes_inside_quoted_and_block_scalars_are_not_comments(tmp_path: Path) -> None:
    root = base_copy(tmp_path)
    seed(
        root / "counterparty.yaml",
        "      - message: We can offer a smaller credit.",
        '      - message: "We can offer # rubric: ignore[A006] -- quoted\n          a smaller credit."',
    )
    seed(
        root / "counterparty.yaml",
        "    reject_message: That is our final offer.",
        "    reject_message: |  # rubric: ignore[A006] -- a real comment after the indicator\n"
        "      That is # rubric: ignore[A006] -- block text\n      our final offer.",
    )
    found = codes(root)
    assert found == ["X103"]  # only the comment after `|` is a suppression (and unused)


def test_a_markdown_ignore_file_covers_the_document(tmp_path: Path) -> None:
    root = base_copy(tmp_path)
    hosting = root / "documents" / "hosting.md"
    seed(hosting, "## 4 Term", "## 3.1 Term")
    seed(
        hosting,
        "# Hosting Agreement\n",
        "# Hosting Agreement\n<!-- rubric: ignore-file[D006] -- as in the source -->\n",
    )
    assert codes(root) == []


def test_a_markdown_comment_above_a_heading_covers_that_section_only(tmp_path: Path) -> None:
    root = base_copy(tmp_path)
    hosting = root / "documents" / "hosting.md"
    seed(hosting, "## 4 Term", "## 3.1 Term")  # D006 on the second "3.1" heading
    seed(hosting, "## 3.1 Availability", "<!-- rubric: ignore[D006] -- wrong section -->\n## 3.1 Availability")
    assert sorted(codes(root)) == ["D006", "X103"]
    seed(hosting, "<!-- rubric: ignore[D006] -- wrong section -->\n", "")
    seed(hosting, "## 3.1 Term", "<!-- rubric: ignore[D006] -- the source repeats it -->\n## 3.1 Term")
    assert codes(root) == []

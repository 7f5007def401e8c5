"""Writing a verified audit guard into a gate entry: every entry shape, rest of file kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubric_tools.fixing.apply_fixes import apply_to_text
from rubric_tools.fixing.gate_edits import guard_fix
from rubric_tools.loading.yaml_source import parse_yaml_text

HEAD = "issues:\n  - id: cap\n    critical_failure_patterns:  # the sins\n"
TAIL = "    severity: high\n"


@pytest.mark.parametrize(
    ("entry", "change", "expected_entry"),
    [
        (
            '      - "uncapped\\\\s+liability"  # legal asked\n',
            {"negation_guard": True},
            '      - {pattern: "uncapped\\\\s+liability", negation_guard: true}  # legal asked\n',
        ),
        (
            "      - {pattern: 'waive', negation_scope: before}\n",
            {"negation_guard": True, "negation_scope": "span"},
            "      - {pattern: 'waive', negation_scope: 'span', negation_guard: true}\n",
        ),
        (
            "      - pattern: 'waive'  # keep\n        negation_guard: false\n",
            {"negation_guard": True, "exclude_context": "\\b(deleted|struck)\\b"},
            "      - pattern: 'waive'  # keep\n        negation_guard: true\n"
            "        exclude_context: '\\b(deleted|struck)\\b'\n",
        ),
        (
            "      - fines?|penalt(?:y|ies)\n",
            {"negation_guard": True},
            "      - {pattern: 'fines?|penalt(?:y|ies)', negation_guard: true}\n",
        ),
    ],
    ids=["string", "flow-mapping", "block-mapping", "plain-string-with-question-mark"],
)
def test_a_guard_is_written_into_each_entry_shape(entry: str, change: dict[str, object], expected_entry: str) -> None:
    text = HEAD + entry + TAIL
    path = Path("m/rubric.yaml")
    source = parse_yaml_text(path, text)
    fix = guard_fix(source, ("issues", 0, "critical_failure_patterns", 0), change, "add the guard")
    assert fix is not None and not fix.safe
    result = apply_to_text(path, text, [fix])
    assert result.applied == [fix], result.rejected
    assert result.after == HEAD + expected_entry + TAIL

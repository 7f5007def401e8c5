"""The output formats each command accepts. Kept free of heavy imports, so the command
line can declare its options without loading every renderer."""

from __future__ import annotations

from enum import StrEnum


class OutputFormat(StrEnum):
    """`rubric lint --output-format`."""

    FULL = "full"
    CONCISE = "concise"
    JSON = "json"
    SARIF = "sarif"
    GITHUB = "github"


class RulesFormat(StrEnum):
    """`rubric rules --output-format`."""

    TABLE = "table"
    JSON = "json"


class CheckFormat(StrEnum):
    """`rubric check --output-format`."""

    TEXT = "text"
    JSON = "json"
    JUNIT = "junit"


class ReplayFormat(StrEnum):
    """`rubric replay --output-format` (alias `--format`)."""

    TEXT = "text"
    CONCISE = "concise"
    JSON = "json"
    JSONL = "jsonl"


class CoverageFormat(StrEnum):
    """`rubric coverage --output-format`."""

    TEXT = "text"
    JSON = "json"

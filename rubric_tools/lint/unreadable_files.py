"""A matter file whose content could not be read hides the findings that depend on it.

One YAML syntax error (a tab) in rubric.yaml leaves the loader with no rubric: every rule
that compares another file with the rubric would then report the other file's entries as
unknown (N001 on the counterparty's positions, Q006 on the hidden answers), and every
suppression would look unused (X103, with a "safe" fix into the very file that does not
parse). Such findings are noise caused by the one real error, so this step, run after the
rules and the suppressions, keeps only what does not depend on the unreadable content:
the loader's own findings (L…, and D… and Y… where the loader finds them), and the
findings of rules that read nothing but the file they report in (schema, numbers,
encoding, YAML 1.1, provenance, the form of suppression comments) when that file was
read. Once the file parses, the rest is reported again.
"""

from __future__ import annotations

from collections.abc import Sequence

from rubric_tools.catalogue import RuleCode
from rubric_tools.diagnostics import Diagnostic
from rubric_tools.lint.registry import RULES
from rubric_tools.loading import codes as loader_codes
from rubric_tools.loading.codes import (
    FILE_OUTSIDE_MATTER,
    FILE_TOO_LARGE,
    MISSING_FILE,
    NON_UTF8_FILE,
    NOT_A_REGULAR_FILE,
    UNREADABLE_FILE,
    YAML_ALIAS_LIMIT,
    YAML_NESTING_LIMIT,
    YAML_SYNTAX,
)
from rubric_tools.suppressions import UNUSED_CODE

#: Loader findings meaning a file's content is not there to check.
CONTENT_LOST = frozenset(
    code.code
    for code in (
        YAML_SYNTAX,
        UNREADABLE_FILE,
        NON_UTF8_FILE,
        MISSING_FILE,
        YAML_ALIAS_LIMIT,
        FILE_OUTSIDE_MATTER,
        NOT_A_REGULAR_FILE,
        FILE_TOO_LARGE,
        YAML_NESTING_LIMIT,
    )
)
#: Rule families that read only the file they report in (X103 excepted: whether a
#: suppression is used depends on every other rule).
FILE_LOCAL_FAMILIES = frozenset({"schema", "numbers", "encoding", "yaml11", "provenance", "suppressions"})
#: What the loader itself finds while reading a file (L, D, Y005): it stands on its own.
LOADER_CODES = frozenset(value.code for value in vars(loader_codes).values() if isinstance(value, RuleCode))


def unreadable_files(found: Sequence[Diagnostic]) -> set[object]:
    return {d.file for d in found if d.code in CONTENT_LOST}


def hide_dependent_findings(found: list[Diagnostic]) -> list[Diagnostic]:
    """`found` without the findings an unreadable file of the matter makes meaningless."""
    unreadable = unreadable_files(found)
    if not unreadable:
        return found

    def independent(diagnostic: Diagnostic) -> bool:
        rule = RULES.get(diagnostic.code)
        if rule is None or diagnostic.code in LOADER_CODES:
            return True  # the loader's findings, and internal errors, always stand
        local = rule.family in FILE_LOCAL_FAMILIES and rule.code != UNUSED_CODE
        return local and diagnostic.file not in unreadable

    return [d for d in found if independent(d)]

"""`[tool.rubric.audit]`: the audit's thesaurus, evidence limit and the thresholds
`rubric check` fails on.

```toml
[tool.rubric.audit]
fail-on = ["U001", "U002", "U005", "U009"]   # codes that fail `rubric check` (the defaults)
ignore = ["U008"]                            # codes never reported
max-evidence = 3                             # evidence items shown per finding
thesaurus = { "terminate" = ["end"], "licence" = ["license"] }   # one-way synonyms for rewrites
synonym-groups = [["licence", "license"], ["terminate", "bring to an end"]]  # more thesaurus groups
```
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rubric_tools.config.table import SettingsTable, suggest_in_parentheses
from rubric_tools.config.vocabulary import Vocabulary

AUDIT_KEYS = ("fail-on", "ignore", "max-evidence", "thesaurus", "synonym-groups")
_AUDIT_CODE = re.compile(r"^U\d{3}$")


@dataclass(frozen=True)
class AuditSection:
    """What `rubric audit` reports and which of its findings fail `rubric check`."""

    # None: not configured, the audit's own default set applies (`rubric_tools.audit.thresholds`,
    # which can name the codes where they are declared, above this package).
    fail_on: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    max_evidence: int = 3
    thesaurus: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # word -> extra dodge synonyms
    #: Groups of interchangeable words and idioms added to the audit's legal thesaurus.
    synonym_groups: tuple[tuple[str, ...], ...] = ()


def _codes(value: Any, key: str, settings: SettingsTable) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and _AUDIT_CODE.match(v) for v in value):
        raise settings.error(f"audit.{key} must be a list of audit codes (U and three digits)", ("audit", key))
    return tuple(value)


def _max_evidence(value: Any, settings: SettingsTable) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise settings.error(f"audit.max-evidence must be a positive integer, not {value!r}", ("audit", "max-evidence"))
    return value


def _thesaurus(value: Any, settings: SettingsTable) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, Mapping):
        raise settings.error("audit.thesaurus must be a table of word = [synonyms]", ("audit", "thesaurus"))
    table: dict[str, tuple[str, ...]] = {}
    for word, synonyms in value.items():
        if not isinstance(synonyms, list) or not all(isinstance(s, str) and s.strip() for s in synonyms):
            raise settings.error(f"audit.thesaurus.{word} must be a list of words", ("audit", "thesaurus", str(word)))
        table[" ".join(str(word).lower().split())] = tuple(" ".join(s.lower().split()) for s in synonyms)
    return table


def _synonym_groups(value: Any, settings: SettingsTable) -> tuple[tuple[str, ...], ...]:
    where = ("audit", "synonym-groups")
    if not isinstance(value, list):
        raise settings.error("audit.synonym-groups must be a list of lists of words", where)
    groups = []
    for group in value:
        if not isinstance(group, list) or len(group) < 2 or not all(isinstance(s, str) and s.strip() for s in group):
            raise settings.error("audit.synonym-groups: each group must list two or more words or phrases", where)
        groups.append(tuple(" ".join(s.lower().split()) for s in group))
    return tuple(groups)


def parse_audit_section(table: Mapping[str, Any], settings: SettingsTable, vocabulary: Vocabulary) -> AuditSection:
    """The `[tool.rubric.audit]` table; defaults for absent keys. (Audit codes are checked
    by their shape, `U` and three digits, so the vocabulary is not needed.)"""
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key == "fail-on":
            values["fail_on"] = _codes(value, key, settings)
        elif key == "ignore":
            values["ignore"] = _codes(value, key, settings)
        elif key == "max-evidence":
            values["max_evidence"] = _max_evidence(value, settings)
        elif key == "thesaurus":
            values["thesaurus"] = _thesaurus(value, settings)
        elif key == "synonym-groups":
            values["synonym_groups"] = _synonym_groups(value, settings)
        else:
            raise settings.error(
                f"unknown setting audit.{key}{suggest_in_parentheses(str(key), AUDIT_KEYS)}", ("audit", str(key))
            )
    return AuditSection(**values)

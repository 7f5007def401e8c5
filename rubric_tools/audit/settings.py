"""`[tool.rubric.audit]`: the audit's thesaurus, evidence limit and the thresholds
`rubric check` fails on.

```toml
[tool.rubric.audit]
fail-on = ["U001", "U002", "U005", "U009"]   # codes that fail `rubric check` (the defaults)
ignore = ["U008"]                            # codes never reported
max-evidence = 3                             # evidence items shown per finding
thesaurus = { "terminate" = ["end"], "licence" = ["license"] }   # extra dodge synonyms
```
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rubric_tools.audit.codes import CONCEPT_PUNISHED_ON_OTHER_SURFACE, GATE_FIRES_ON_CORRECT_WORK
from rubric_tools.lint.concept_nodes import CONCEPT_NEVER_EARNABLE
from rubric_tools.lint.gate_firing import GATE_NEVER_FIRES

#: The verdicts on the matter's own texts and the can-never kinds.
DEFAULT_FAIL_ON = (
    GATE_NEVER_FIRES.code,
    GATE_FIRES_ON_CORRECT_WORK.code,
    CONCEPT_NEVER_EARNABLE.code,
    CONCEPT_PUNISHED_ON_OTHER_SURFACE.code,
)
KNOWN_SETTINGS = ("fail-on", "ignore", "max-evidence", "thesaurus")
_AUDIT_CODE = re.compile(r"^U\d{3}$")


class AuditSettingsError(Exception):
    """A bad `[tool.rubric.audit]` setting."""


@dataclass(frozen=True)
class AuditSettings:
    fail_on: tuple[str, ...] = DEFAULT_FAIL_ON
    ignore: tuple[str, ...] = ()
    max_evidence: int = 3
    thesaurus: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def describe(self) -> str:
        return f"no finding {', '.join(self.fail_on)}" if self.fail_on else "findings are reported, never failed"


def _codes(value: Any, key: str, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and _AUDIT_CODE.match(v) for v in value):
        example = GATE_FIRES_ON_CORRECT_WORK.code
        raise AuditSettingsError(f'{where}: audit.{key} must be a list of audit codes such as "{example}"')
    return tuple(value)


def _thesaurus(value: Any, where: str) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, Mapping):
        raise AuditSettingsError(f"{where}: audit.thesaurus must be a table of word = [synonyms]")
    table: dict[str, tuple[str, ...]] = {}
    for word, synonyms in value.items():
        if not isinstance(synonyms, list) or not all(isinstance(s, str) and s.strip() for s in synonyms):
            raise AuditSettingsError(f"{where}: audit.thesaurus.{word} must be a list of words")
        table[" ".join(str(word).lower().split())] = tuple(" ".join(s.lower().split()) for s in synonyms)
    return table


def settings_from_config(table: Mapping[str, Any], source: Path | None = None) -> AuditSettings:
    """Settings from the `[tool.rubric.audit]` table; defaults for absent keys."""
    where = str(source) if source is not None else "configuration"
    settings = AuditSettings()
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key == "fail-on":
            values["fail_on"] = _codes(value, key, where)
        elif key == "ignore":
            values["ignore"] = _codes(value, key, where)
        elif key == "max-evidence":
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise AuditSettingsError(f"{where}: audit.max-evidence must be a positive integer, not {value!r}")
            values["max_evidence"] = value
        elif key == "thesaurus":
            values["thesaurus"] = _thesaurus(value, where)
        else:
            close = difflib.get_close_matches(str(key), KNOWN_SETTINGS, n=1)
            suggestion = f" (did you mean {close[0]!r}?)" if close else ""
            raise AuditSettingsError(f"{where}: unknown setting audit.{key}{suggestion}")
    return AuditSettings(**{**settings.__dict__, **values})

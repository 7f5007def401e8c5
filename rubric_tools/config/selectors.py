"""Rule selectors: `select`, `ignore` and `severity` name rules by code (`G003`), code
prefix (`G`, `G0`) or name (`gate-regex-invalid`), validated against the known rules."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rubric_tools.config.discovery import KeyPath
from rubric_tools.config.table import SettingsTable, suggest
from rubric_tools.diagnostics import Severity

if TYPE_CHECKING:
    from rubric_tools.config.vocabulary import NamedRule

SEVERITY_NAMES = tuple(s.value for s in sorted(Severity, key=lambda s: s.rank, reverse=True))


def _rule_words(rules: Sequence[NamedRule]) -> list[str]:
    return [word for r in rules for word in (r.code, r.name)]


def selector_rules(selector: str, rules: Sequence[NamedRule]) -> tuple[list[NamedRule], int]:
    """Rules a selector names, and how specific it is (a full code or name beats a prefix)."""
    text = selector.strip()
    by_name = [r for r in rules if r.name == text.lower()]
    if by_name:
        return by_name, 10
    if re.fullmatch(r"[A-Za-z]\d{0,3}", text):
        return [r for r in rules if r.code.startswith(text.upper())], len(text)
    return [], 0


def check_selectors(values: Any, key: str, rules: Sequence[NamedRule], settings: SettingsTable) -> tuple[str, ...]:
    """Validate a `select`/`ignore` list: every entry must name at least one rule."""
    if not isinstance(values, list):
        raise settings.error(f"'{key}' must be a list of rule codes, prefixes or names", (key,))
    checked: list[str] = []
    for value in values:
        if not isinstance(value, str) or not value.strip():
            raise settings.error(f"'{key}' entries must be non-empty strings, got {value!r}", (key,))
        if not selector_rules(value, rules)[0]:
            raise settings.error(
                f"unknown rule code, prefix or name {value!r} in '{key}'" + suggest(value.strip(), _rule_words(rules)),
                (key,),
                value,
            )
        checked.append(value.strip())
    return tuple(checked)


def severity_value(value: Any, settings: SettingsTable, key: KeyPath) -> Severity:
    """One of the severity names, as a Severity."""
    if isinstance(value, str) and value in SEVERITY_NAMES:
        return Severity(value)
    hint = suggest(str(value).lower(), SEVERITY_NAMES) if isinstance(value, str) else ""
    raise settings.error(f"'{'.'.join(key)}' must be one of {', '.join(SEVERITY_NAMES)}, got {value!r}{hint}", key)


def severity_table(value: Any, rules: Sequence[NamedRule], settings: SettingsTable) -> dict[str, Severity]:
    """Map every rule named by a key to its severity; the most specific key wins."""
    if not isinstance(value, Mapping):
        raise settings.error('\'severity\' must be a table of rule = "error"|"warning"|"info"', ("severity",))
    chosen: dict[str, tuple[int, Severity]] = {}
    for selector, level in value.items():
        key = ("severity", str(selector))
        severity = severity_value(level, settings, key)
        matched, specificity = selector_rules(str(selector), rules)
        if not matched:
            raise settings.error(
                f"unknown rule code, prefix or name {selector!r} in 'severity'"
                + suggest(str(selector), _rule_words(rules)),
                key,
            )
        for matched_rule in matched:
            if specificity >= chosen.get(matched_rule.code, (-1, severity))[0]:
                chosen[matched_rule.code] = (specificity, severity)
    return {code: severity for code, (_, severity) in chosen.items()}

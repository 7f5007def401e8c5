"""The codes of the problems the loader meets while reading a matter (L, D and Y rules).

The loader detects these on the spot, because it has to decide what to do about them
(skip a file, keep the last of two duplicate keys, stop expanding aliases); lint rules of
the same codes re-emit them (`rubric_tools.lint.rules.load`, `documents`, `yaml11`), so
that they can be selected, ignored and re-graded like any other rule. Each code, name and
severity is declared here, once; the rule registered with `@rule(CODE)` documents it.
"""

from __future__ import annotations

from rubric_tools.catalogue import declare_rule_code
from rubric_tools.diagnostics import Severity

YAML_SYNTAX = declare_rule_code("L001", "yaml-syntax", Severity.ERROR)
DUPLICATE_KEY = declare_rule_code("L002", "duplicate-key", Severity.ERROR)
UNREADABLE_FILE = declare_rule_code("L003", "unreadable-file", Severity.ERROR)
NON_UTF8_FILE = declare_rule_code("L004", "non-utf8-file", Severity.ERROR)
MISSING_FILE = declare_rule_code("L005", "missing-file", Severity.ERROR)
YAML_ALIAS_LIMIT = declare_rule_code("L006", "yaml-alias-limit", Severity.ERROR)
FILE_OUTSIDE_MATTER = declare_rule_code("L007", "file-outside-matter", Severity.ERROR)
NOT_A_REGULAR_FILE = declare_rule_code("L008", "not-a-regular-file", Severity.ERROR)
FILE_TOO_LARGE = declare_rule_code("L009", "file-too-large", Severity.ERROR)
YAML_NESTING_LIMIT = declare_rule_code("L010", "yaml-nesting-limit", Severity.ERROR)

DOCUMENT_MISSING = declare_rule_code("D001", "document-missing", Severity.ERROR)
DOCUMENT_OUTSIDE_MATTER = declare_rule_code("D002", "document-outside-matter", Severity.ERROR)
DOCUMENT_NOT_REGULAR_FILE = declare_rule_code("D007", "document-not-regular-file", Severity.ERROR)
DOCUMENT_PATH_INVALID = declare_rule_code("D008", "document-path-invalid", Severity.ERROR)
DOCUMENT_TOO_LARGE = declare_rule_code("D009", "document-too-large", Severity.ERROR)

YAML_UNCONSTRUCTIBLE = declare_rule_code("Y005", "yaml-unconstructible", Severity.ERROR)

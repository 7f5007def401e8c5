"""`rubric check`: the CI gate for matter authors (lint, replay against expectations,
gate probes, attack thresholds).

The names below load on first use (PEP 562): `rubric audit` imports `checking.audit_inputs`
alone, and must not import the check runner (lint, replay, scoring) with it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rubric_tools._lazy import lazy_getattr

if TYPE_CHECKING:
    from rubric_tools.checking.rows import CheckRow
    from rubric_tools.checking.runner import CheckReport, MatterCheck, check_matter, check_paths

_LAZY_NAMES = {
    "CheckRow": "rubric_tools.checking.rows",
    "CheckReport": "rubric_tools.checking.runner",
    "MatterCheck": "rubric_tools.checking.runner",
    "check_matter": "rubric_tools.checking.runner",
    "check_paths": "rubric_tools.checking.runner",
}

__all__ = ["CheckReport", "CheckRow", "MatterCheck", "check_matter", "check_paths"]

__getattr__ = lazy_getattr(__name__, _LAZY_NAMES)

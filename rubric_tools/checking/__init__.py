"""`rubric check`: the CI gate for matter authors (lint, replay against expectations,
gate probes, attack thresholds)."""

from rubric_tools.checking.rows import CheckRow
from rubric_tools.checking.runner import CheckReport, MatterCheck, check_matter, check_paths

__all__ = ["CheckReport", "CheckRow", "MatterCheck", "check_matter", "check_paths"]

"""Loaders: YAML with positions, matter folders, trajectories. They keep every position
so that diagnostics can point at the exact node; they never raise on bad input.

The names below load on first use (PEP 562): importing a light submodule (the caches,
`layout`) must not pull in the YAML parser and the scoring model."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rubric_tools._lazy import lazy_getattr

if TYPE_CHECKING:
    from rubric_tools.loading.matter import MatterSource, find_matter_root, load_matter_source

_LAZY_NAMES = {
    "MatterSource": "rubric_tools.loading.matter",
    "find_matter_root": "rubric_tools.loading.layout",
    "load_matter_source": "rubric_tools.loading.matter",
}


__getattr__ = lazy_getattr(__name__, _LAZY_NAMES)


__all__ = ["MatterSource", "find_matter_root", "load_matter_source"]

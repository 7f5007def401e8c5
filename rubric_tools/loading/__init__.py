"""Loaders: YAML with positions, matter folders, trajectories. They keep every position
so that diagnostics can point at the exact node; they never raise on bad input."""

from rubric_tools.loading.matter import MatterSource, find_matter_root, load_matter_source

__all__ = ["MatterSource", "find_matter_root", "load_matter_source"]

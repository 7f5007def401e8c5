"""Authoring helpers: `rubric new` (a matter skeleton) and `rubric convert` (trajectory
formats)."""

"""Defaults the command line shows in its help, kept in a module that imports nothing, so
declaring an option does not load the machinery that uses it."""

from __future__ import annotations

#: Per-search time limit for a gate regex, in seconds.
DEFAULT_SEARCH_TIMEOUT = 1.0

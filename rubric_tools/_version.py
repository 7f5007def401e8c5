"""The package version, in one place (the YAML cache keys on it too)."""

__version__ = "0.1.0"

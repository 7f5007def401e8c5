"""Lazy public names for package `__init__` modules (PEP 562).

A command imports only what it runs, so a package's `__init__` must not import its
modules eagerly just to re-export their names: it maps each public name to the module
that defines it, and the module is imported on first use.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_getattr(package: str, names: Mapping[str, str]) -> Callable[[str], Any]:
    """A module `__getattr__` for `package` resolving `names` (public name -> defining
    module) on first use; the value is then stored in the package, skipping this hook."""

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__

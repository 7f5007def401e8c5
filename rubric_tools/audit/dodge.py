"""A dodge: one meaning-preserving rewrite of a must-fire witness, and what it changed."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Dodge:
    kind: str  # what the rewrite changed, shown as the evidence's kind ("synonym: may → can")
    text: str

"""The names settings refer to that higher packages define: lint rules, attack strategies.

The configuration package sits below `lint` and `prove`, so it cannot ask their
registries itself; the caller hands them in. Each list is produced on demand, because
importing every rule module costs time that a run configuring no rule selector (a fully
cached lint run, say) would otherwise not spend.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # a Protocol class costs start-up time; only the type checker needs it
    from typing import Protocol

    class NamedRule(Protocol):
        """What selector validation needs of a lint rule: its code (`G003`) and name."""

        @property
        def code(self) -> str: ...

        @property
        def name(self) -> str: ...


class Vocabulary(NamedTuple):
    """Suppliers of the rules `select`/`ignore`/`severity` may name and of the
    strategies `attack.exempt` may name."""

    rules: Callable[[], Sequence[NamedRule]]
    strategies: Callable[[], Sequence[str]]

"""Option parsing in time linear in the number of arguments.

click's option parser (typer's vendored copy, and click's own) walks the command line
with `state.rargs.pop(0)`: every argument shifts the whole rest of the list, so parsing
N arguments costs O(N²): 100,000 paths took 0.35 s in that one line, 90 % of a
`rubric replay` command line's parsing (`benchmarks/arguments.py` measures it).

`linear(parser)` keeps click's parser and all it does (options anywhere, `--`, values,
errors and their messages) and changes only where the loop takes its next argument
from: a short window at the front of `state.rargs`, topped up from the rest of the
command line as it is consumed, so each `pop(0)` shifts a few items, not all of them.
click's option handlers take an option's values from the front of `state.rargs`; the
window always holds the longest option's values after the option itself, so they see
exactly what they would have seen. `tests/test_cli_parsing.py` checks the result (and
the error) against click's own parser on thousands of generated command lines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

#: Arguments moved to the front of `state.rargs` at a time, besides the longest option's
#: values: a `pop(0)` shifts fewer than twice this many, however long the command line.
_WINDOW = 64

_LINEAR_CLASSES: dict[type[Any], type[Any]] = {}


class _LinearOptions:
    """Mixed into click's parser class: its `_process_args_for_options`, fed from a
    window. The loop's body is a copy of click's (the same four cases, in the same order):
    click offers no hook between taking an argument and handling it."""

    _opt_prefixes: set[str]
    _long_opt: dict[str, Any]
    _short_opt: dict[str, Any]
    allow_interspersed_args: bool

    if TYPE_CHECKING:  # click's, found after this class in the method order

        def _process_opts(self, arg: str, state: Any) -> None: ...

    def _process_args_for_options(self, state: Any) -> None:
        options = (*self._long_opt.values(), *self._short_opt.values())
        window = _WINDOW + max((option.nargs for option in options), default=1)
        pending: list[str] = state.rargs
        position = 0
        state.rargs = []
        try:
            while True:
                if len(state.rargs) < window and position < len(pending):
                    state.rargs.extend(pending[position : position + window])
                    position += window
                if not state.rargs:
                    return
                arg = state.rargs.pop(0)
                if arg == "--":  # double dashes always end the options, whatever the prefixes
                    return
                elif arg[:1] in self._opt_prefixes and len(arg) > 1:
                    self._process_opts(arg, state)
                elif self.allow_interspersed_args:
                    state.largs.append(arg)
                else:
                    state.rargs.insert(0, arg)
                    return
        finally:  # whatever the window did not reach is still to parse, in order
            state.rargs.extend(pending[position:])


def linear(parser: Any) -> Any:
    """`parser` (a click option parser, just made) parsing in linear time; returned
    unchanged when its class is not the one whose loop this replaces."""
    base = type(parser)
    if not callable(getattr(base, "_process_args_for_options", None)) or not callable(
        getattr(base, "_process_opts", None)
    ):
        return parser
    if base not in _LINEAR_CLASSES:
        # Our loop first, click's handlers (`_process_opts` and below) from its class.
        _LINEAR_CLASSES[base] = type(f"Linear{base.__name__}", (_LinearOptions, base), {})
    parser.__class__ = _LINEAR_CLASSES[base]
    return parser

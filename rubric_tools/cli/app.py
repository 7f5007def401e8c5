"""The typer application: the root `rubric` group, and `commands`, on which every command
module registers its commands (built only when used, see `rubric_tools.cli.lazy_group`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import typer
import typer.core

from rubric_tools.cli import coercion
from rubric_tools.cli.lazy_group import LazyTyperGroup

_TYPE_LABEL = re.compile(r"^<(?:list\[)?([^\]>]*)\]?>(\.\.\.)?$")
_PLAIN = {
    "bool": "",
    "path": "PATH",
    "file": "FILE",
    "directory": "DIR",
    "str": "TEXT",
    "float": "NUMBER",
    "int": "INTEGER",
}


def _plain(typed: Callable[..., str | None]) -> Callable[..., str | None]:
    """Help shows `PATH...`, `FILE`, `text|json`, `NUMBER` after an option, as click and
    ruff do, instead of typer's `<list[Path]>`, and nothing after a flag (`<bool>`)."""

    def placeholder(self: Any, ctx: Any) -> str | None:
        shown = typed(self, ctx=ctx)
        match = _TYPE_LABEL.match(shown or "")
        if shown is None or match is None:
            return shown
        label, several = match.group(1), shown.startswith("<list[") or bool(match.group(2))
        label = label.removesuffix(" range")  # `<int range>`: the bounds follow as `[x>=1]`
        plain = _PLAIN.get(label.lower(), label)
        return (plain + "..." if several else plain) or None

    return placeholder


# typer >= 0.20 renders Python types; older versions already print click's placeholders.
for _param_class in (getattr(typer.core, "TyperOption", None), getattr(typer.core, "TyperArgument", None)):
    if _param_class is not None and hasattr(_param_class, "display_type_rich"):
        _param_class.display_type_rich = _plain(_param_class.display_type_rich)

coercion.install()  # plain parameters convert without building pydantic adapters

#: Where the command modules register their commands: `@commands.command("lint")`.
commands = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)

#: Every command, in the order help lists them, and the module that registers it: only
#: the module of the command being run is imported (`tests/test_cli_help.py` checks that
#: this table and the registrations agree).
COMMAND_MODULES = {
    "replay": "rubric_tools.cli.replay_cmd",
    "lint": "rubric_tools.cli.lint_cmd",
    "explain": "rubric_tools.cli.lint_cmd",
    "rules": "rubric_tools.cli.lint_cmd",
    "solve": "rubric_tools.cli.prove_cmd",
    "attack": "rubric_tools.cli.prove_cmd",
    "check": "rubric_tools.cli.check_cmd",
    "max-score": "rubric_tools.cli.max_score_cmd",
    "rescore": "rubric_tools.cli.rescore_cmd",
    "audit": "rubric_tools.cli.audit_cmd",
    "new": "rubric_tools.cli.authoring_cmd",
    "convert": "rubric_tools.cli.authoring_cmd",
    "coverage": "rubric_tools.cli.coverage_cmd",
    "lsp": "rubric_tools.cli.lsp_cmd",
}


class RubricGroup(LazyTyperGroup):
    registry = commands
    command_modules = COMMAND_MODULES


# rich_markup_mode=None: help and usage errors are click's plain text (rubric_tools.cli.help).
app = typer.Typer(
    name="rubric",
    cls=RubricGroup,
    help="Lint, replay and check evaluation matters for legal-work agents.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:
    if value:
        from rubric_tools._accelerator import describe
        from rubric_tools._version import __version__

        typer.echo(f"rubric-tools {__version__}\nscorer: {describe()}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="Show the version and exit."
    ),
    debug: bool = typer.Option(
        False, "--debug", help="On an internal error (a bug, code I001), print the traceback too."
    ),
) -> None:
    """Lint, replay and check evaluation matters for legal-work agents."""
    from rubric_tools.commands.common import set_debug

    set_debug(debug)

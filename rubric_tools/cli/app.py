"""The typer application object shared by every command module."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="rubric",
    help="Lint, replay and check evaluation matters for legal-work agents.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

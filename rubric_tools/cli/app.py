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


def _print_version(value: bool) -> None:
    if value:
        from rubric_tools._version import __version__

        typer.echo(f"rubric-tools {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """Lint, replay and check evaluation matters for legal-work agents."""

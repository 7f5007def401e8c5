"""The linear option parser (`rubric_tools.cli.linear_parser`) parses every command line
exactly as click's own parser does: same values, leftovers and order, or the same error.
Checked on generated command lines mixing every kind of option click knows (flags,
values, `--opt=value`, grouped short options, two-value options, repeated options,
`--`, unknown options), with windows small enough that their edges fall everywhere."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated, Any

import pytest
import typer
import typer.main

from rubric_tools.cli import linear_parser, main
from rubric_tools.cli.app import COMMAND_MODULES, app
from rubric_tools.cli.linear_parser import linear

_TOKENS = (
    "a.jsonl",
    "b",
    "-",
    "--",
    "-v",
    "-x",
    "-vx",
    "-xv",
    "-n3",
    "-n",
    "--name",
    "--name=z",
    "--name=",
    "--pair",
    "--flag",
    "--no-flag",
    "--many",
    "--nope",
    "-q",
    "--fla",
    "-",
    "@list",
    "=",
)


def _typer_command() -> Any:
    """A typer command with one parameter of each shape the parser treats differently."""
    app = typer.Typer()

    @app.command()
    def probe(
        paths: Annotated[list[str] | None, typer.Argument()] = None,
        verbose: Annotated[bool, typer.Option("-v", "--verbose")] = False,
        x: Annotated[int, typer.Option("-x", count=True)] = 0,
        name: Annotated[str | None, typer.Option("-n", "--name")] = None,
        pair: Annotated[tuple[str, str] | None, typer.Option("--pair")] = None,
        flag: Annotated[bool, typer.Option("--flag/--no-flag")] = False,
        many: Annotated[list[str] | None, typer.Option("--many")] = None,
    ) -> None:
        pass

    return typer.main.get_command(app)


def _click_command() -> Any | None:
    """The same command in click itself, where it is installed (older typers use it)."""
    try:
        import click
    except ImportError:
        return None
    return click.Command(
        "probe",
        params=[
            click.Argument(["paths"], nargs=-1),
            click.Option(["-v", "--verbose"], is_flag=True),
            click.Option(["-x"], count=True),
            click.Option(["-n", "--name"]),
            click.Option(["--pair"], nargs=2),
            click.Option(["--flag/--no-flag"], default=False),
            click.Option(["--many"], multiple=True),
        ],
    )


def _commands(interspersed: bool) -> list[Any]:
    commands = [command for command in (_typer_command(), _click_command()) if command is not None]
    for command in commands:
        command.allow_interspersed_args = interspersed
    return commands


def _parse(command: Any, args: list[str], *, fast: bool) -> Any:
    ctx = command.context_class(command)
    parser = command.make_parser(ctx)
    if fast:
        parser = linear(parser)
        assert type(parser).__name__.startswith("Linear")
    try:
        opts, largs, order = parser.parse_args(list(args))
    except Exception as exc:  # the same error, with the same message
        return type(exc).__name__, str(exc)
    return opts, largs, [param.name for param in order]


@pytest.mark.parametrize("window", [1, 2, 3, 64])
@pytest.mark.parametrize("interspersed", [True, False])
def test_linear_parsing_is_clicks(monkeypatch: pytest.MonkeyPatch, window: int, interspersed: bool) -> None:
    monkeypatch.setattr(linear_parser, "_WINDOW", window)
    generator = random.Random(f"{window}-{interspersed}")
    for command in _commands(interspersed):
        for _ in range(600):
            args = generator.choices(_TOKENS, k=generator.randint(0, 14))
            expected = _parse(command, args, fast=False)
            assert _parse(command, args, fast=True) == expected, args


def test_a_long_command_line_keeps_every_argument_in_order() -> None:
    for command in _commands(interspersed=True):
        args = [f"p{index}" for index in range(5000)]
        args[1234:1234] = ["--name", "n", "-vx"]
        args[4321:4321] = ["--", "--name"]
        assert _parse(command, args, fast=True) == _parse(command, args, fast=False)


def test_a_parser_of_another_kind_is_left_alone() -> None:
    class Other:
        pass

    other = Other()
    assert linear(other) is other and type(other) is Other


@pytest.mark.parametrize("name", list(COMMAND_MODULES))
def test_every_command_parses_linearly(name: str) -> None:
    command = typer.main.get_command(app).commands[name]
    parser = command.make_parser(command.context_class(command))
    assert isinstance(parser, linear_parser._LinearOptions)


def test_a_long_replay_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Many paths on `rubric replay`'s command line, an option among them: every path is
    replayed, as with click's parser."""
    trajectory = tmp_path / "t.jsonl"
    trajectory.write_text('{"type": "read_document", "document_id": "nope"}\n', encoding="utf-8")
    missing = [str(tmp_path / f"missing{index}.jsonl") for index in range(300)]
    code = main(["replay", *missing[:150], "--output-format", "concise", *missing[150:]])
    captured = capsys.readouterr()
    assert code == 2
    assert [line for line in captured.err.splitlines() if "no such trajectory file" in line] == [
        f"error: {path}: no such trajectory file" for path in missing
    ]

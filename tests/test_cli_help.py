"""Help screens and usage errors: click's plain layout (no rich), every command listed
from its registration, every option shown, colour only on a terminal."""

from __future__ import annotations

import importlib
import inspect
import re
from typing import Any

import pytest
import typer.main

from rubric_tools.cli import main
from rubric_tools.cli.app import COMMAND_MODULES, app, commands
from rubric_tools.cli.help import first_paragraph, plain_help

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _squeezed(text: str) -> str:
    """Text without any whitespace: wrapping (also after a hyphen) does not matter."""
    return "".join(text.split())


def _group() -> Any:
    return typer.main.get_command(app)


def _help_of(name: str) -> str:
    command = _group().commands[name]
    with command.make_context(name, [], resilient_parsing=True) as ctx:
        return str(command.get_help(ctx))


def test_the_command_table_names_every_registered_command_and_its_module() -> None:
    for module in set(COMMAND_MODULES.values()):
        importlib.import_module(module)
    registered = {info.name: info for info in commands.registered_commands}
    assert set(registered) == set(COMMAND_MODULES)
    for name, info in registered.items():
        assert info.callback is not None and info.callback.__module__ == COMMAND_MODULES[name], name


def test_rubric_help_lists_every_command_with_its_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Usage: ") and out.splitlines()[0].endswith(" [OPTIONS] COMMAND [ARGS]...")
    assert "--version" in out and "--debug" in out and "-h, --help" in out
    listed = re.findall(r"^  (\S+)", out.split("\nCommands:\n", 1)[1], flags=re.MULTILINE)
    assert listed == list(COMMAND_MODULES)
    for name in COMMAND_MODULES:
        info = _group().registration(name)
        summary = plain_help(first_paragraph(inspect.getdoc(info.callback)))
        assert summary and _squeezed(summary) in _squeezed(out), name


def test_no_arguments_show_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    captured = capsys.readouterr()
    assert "Commands:" in captured.out + captured.err


@pytest.mark.parametrize("name", list(COMMAND_MODULES))
def test_a_commands_help_shows_each_argument_and_option_with_its_text(name: str) -> None:
    text = _help_of(name)
    assert text.startswith(f"Usage: {name} ")
    assert "\\[" not in text and "╭" not in text
    for parameter in _group().commands[name].params:
        if parameter.param_type_name == "option":
            for flag in [*parameter.opts, *parameter.secondary_opts]:
                assert re.search(rf"(^|[\s,]){re.escape(flag)}([\s,]|$)", text, flags=re.MULTILINE), (name, flag)
        if parameter.help:
            assert _squeezed(parameter.help) in _squeezed(text), (name, parameter.name)


def test_defaults_ranges_and_configuration_tables_are_shown() -> None:
    assert "[default: full]" in _help_of("lint")
    assert "[default: the configured matter-dirs, else .]" in " ".join(_help_of("lint").split())
    assert "[default: 1; x>=0]" in " ".join(_help_of("replay").split())
    assert "[tool.rubric.attack]" in _help_of("attack")


def test_help_is_coloured_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = _help_of("lint")
    assert not _ANSI.search(plain)  # pytest's stdout is no terminal
    monkeypatch.setattr("rubric_tools.cli.help.wants_color", lambda stream, no_color: True)
    coloured = _help_of("lint")
    assert "\x1b[1mOptions\x1b[0m:" in coloured and "\x1b[36m--fix\x1b[0m" in coloured
    assert _ANSI.sub("", coloured) == plain  # the same layout: click measures without the codes


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["lint", "--bogus"], "No such option: --bogus"),
        (["lnt"], "No such command 'lnt'. Did you mean 'lint'?"),
        (["replay"], "Missing argument 'TRAJECTORY...'"),
    ],
)
def test_usage_errors_are_plain_text_on_stderr(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "Try '" in captured.err
    assert "╭" not in captured.err and not captured.out

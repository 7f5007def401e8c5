"""Subcommands built when they are used, and help screens without rich.

Typer turns every registered function into a click command before parsing anything:
it reads each signature and builds every option, for all commands, on every run.
`LazyTyperGroup` knows each command by name and the module that registers it; a command
is imported and built only when it is invoked (click's "lazy loading subcommands"
pattern), and `rubric --help` lists the commands from their registrations' docstrings
without building them.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from importlib import import_module
from typing import Any, ClassVar

import typer
import typer.core
import typer.main
import typer.models

from rubric_tools.cli.help import first_paragraph, plain_help, render_help, unescape_help_texts
from rubric_tools.cli.linear_parser import linear


class PlainHelpCommand(typer.core.TyperCommand):
    """A typer command whose help is click's plain layout (see `rubric_tools.cli.help`)."""

    def __init__(self, name: str | None, **attributes: Any) -> None:
        super().__init__(name, **attributes)
        unescape_help_texts(self)

    def get_help(self, ctx: Any) -> str:
        return render_help(self, ctx)

    def make_parser(self, ctx: Any) -> Any:
        """click's parser, walking a long command line (100k paths) in linear time."""
        return linear(super().make_parser(ctx))


class _LazyCommands(MutableMapping[str, Any]):
    """A group's commands by name; each built on first access by `build(name)`."""

    def __init__(self, names: list[str], build: Callable[[str], Any], built: Mapping[str, Any]) -> None:
        self._names = names + [name for name in built if name not in names]
        self._build = build
        self._built = dict(built)

    def __getitem__(self, name: str) -> Any:
        if name not in self._built:
            if name not in self._names:
                raise KeyError(name)
            self._built[name] = self._build(name)
        return self._built[name]

    def __setitem__(self, name: str, command: Any) -> None:
        if name not in self._names:
            self._names.append(name)
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        self._names.remove(name)
        self._built.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._names))

    def __len__(self) -> int:
        return len(self._names)


class LazyTyperGroup(typer.core.TyperGroup):
    """A typer group whose subcommands live in `registry` (a `typer.Typer` the command
    modules register on) and are imported from `command_modules` (name -> module, in help
    order) and built one at a time, when used."""

    registry: ClassVar[typer.Typer]
    command_modules: ClassVar[Mapping[str, str]]

    def __init__(self, **attributes: Any) -> None:
        super().__init__(**attributes)
        unescape_help_texts(self)
        self.commands = _LazyCommands(list(self.command_modules), self._build_command, self.commands)

    @classmethod
    def registration(cls, name: str) -> typer.models.CommandInfo:
        """The registration of command `name`, importing the module that makes it."""
        import_module(cls.command_modules[name])
        for info in cls.registry.registered_commands:
            if (info.name or typer.main.get_command_name(info.callback.__name__ if info.callback else "")) == name:
                return info
        raise LookupError(f"{cls.command_modules[name]} registers no command {name!r}")

    def _build_command(self, name: str) -> Any:
        info = copy.copy(self.registration(name))
        if info.cls in (None, typer.core.TyperCommand):  # typer's default: give it plain help
            info.cls = PlainHelpCommand
        return typer.main.get_command_from_info(
            info, pretty_exceptions_short=self.registry.pretty_exceptions_short, rich_markup_mode=None
        )

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.commands)

    def get_help(self, ctx: Any) -> str:
        return render_help(self, ctx)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """Each command with the first paragraph of its text, read from its registration:
        listing the commands builds none of them."""
        rows = []
        for name in self.list_commands(ctx):
            if name in self.command_modules:
                info = self.registration(name)
                hidden, text = info.hidden, info.short_help or info.help or inspect.getdoc(info.callback)
            else:  # added to the group as a click command
                command = self.commands[name]
                hidden, text = command.hidden, command.short_help or command.help
            if not hidden:
                rows.append((name, plain_help(first_paragraph(text)) or ""))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

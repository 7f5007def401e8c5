"""`rubric lsp`: argument parsing only; the server is `rubric_tools.commands.lsp`."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from rubric_tools.cli.app import commands

_HELP = """Run the language server for matter files (LSP over stdio), for an editor.

Diagnostics as you type (lint, trajectory, expectation and probe checks; the audit on
save), quick fixes and suppressions, hover (rule docs, cited section text, an id's
points and uses, a gate's audit), go to definition and references, completion (schema
keys, citations, ids, rule codes) and an outline. Needs the lsp extra:
pip install 'rubric-tools[lsp]'.

The editor starts `rubric lsp` itself; point it at the command for YAML, Markdown and
JSONL files. Settings (initializationOptions or the `rubric` configuration section):
audit.onSave, debounce (ms), configFile, docs.baseUrl, diagnostics.scope (open or
workspace). The project's own settings come from rubric.toml or [tool.rubric] as for
`rubric lint`.

\b
VS Code: a generic LSP client extension pointed at `rubric lsp` for yaml,
markdown and jsonl; e.g. "Generic LSP Client" (llllvvuu.glspc), settings.json:
  "glspc.server.command": "rubric",
  "glspc.server.commandArguments": ["lsp"],
  "glspc.server.languageId": ["yaml", "markdown", "jsonl"]

\b
Neovim (0.10+), init.lua:
  vim.api.nvim_create_autocmd("FileType", {
    pattern = { "yaml", "markdown", "jsonl" },
    callback = function(args)
      vim.lsp.start({ name = "rubric", cmd = { "rubric", "lsp" },
        root_dir = vim.fs.root(args.buf, { "matter.yaml", "pyproject.toml", ".git" }) })
    end,
  })

\b
Helix, languages.toml:
  [language-server.rubric]
  command = "rubric"
  args = ["lsp"]
  [[language]]
  name = "yaml"
  language-servers = ["yaml-language-server", "rubric"]

See README.md ("Editor integration") for Markdown and JSONL files and every setting.
"""


@commands.command("lsp", help=_HELP)
def lsp_command(
    stdio: Annotated[
        bool, typer.Option("--stdio", help="Talk over stdin and stdout: the only transport (editors may pass it).")
    ] = False,
) -> None:
    """Run the language server for matter files (LSP over stdio), for an editor."""
    from rubric_tools.commands.lsp import run_lsp  # pygls: only when run

    raise typer.Exit(run_lsp(sys.stderr))

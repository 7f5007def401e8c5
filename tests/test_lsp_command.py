"""`rubric lsp` without its extra: the help explains editor wiring, running it says how to
install the extra (one line, exit 2), and neither imports pygls. (With the extra, the
server itself is tested end to end in tests/lsp/.)"""

from __future__ import annotations

import subprocess
import sys

#: Run the command line with pygls and lsprotocol unimportable, as without the extra.
_WITHOUT_EXTRA = (
    "import sys; sys.modules['pygls'] = None; sys.modules['lsprotocol'] = None; "
    "from rubric_tools.cli import main; code = main({argv!r}); "
    "assert 'pygls.server' not in sys.modules; sys.exit(code)"
)


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _WITHOUT_EXTRA.format(argv=list(argv))],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def test_help_works_without_the_extra_and_says_how_to_wire_an_editor() -> None:
    done = _run("lsp", "--help")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert text.startswith("Usage: ") and " lsp [OPTIONS]" in text.splitlines()[0]
    assert "pip install 'rubric-tools[lsp]'" in text
    for editor in ("VS Code", "Neovim", "Helix"):
        assert editor in text
    assert '"glspc.server.command": "rubric"' in text and 'cmd = { "rubric", "lsp" }' in text
    assert 'command = "rubric"' in text and 'args = ["lsp"]' in text


def test_without_the_extra_the_command_says_what_to_install() -> None:
    done = _run("lsp")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "error: `rubric lsp` needs the lsp extra (lsprotocol is not installed): pip install 'rubric-tools[lsp]'"
    ]


def test_the_command_is_listed() -> None:
    done = _run("--help")
    assert done.returncode == 0
    assert any(line.split()[:1] == ["lsp"] for line in done.stdout.splitlines())

"""What `rubric lsp` does: run the language server over stdio until the client exits.

pygls and lsprotocol are the optional `lsp` extra, imported only here, when the command
runs; without them the command says how to install them (exit 2).
"""

from __future__ import annotations

import sys
from typing import BinaryIO, TextIO, cast

from rubric_tools.commands.common import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE

INSTALL_HINT = "pip install 'rubric-tools[lsp]'"


def run_lsp(stderr: TextIO) -> int:
    """Serve on the process's own stdin and stdout; exit 0 after `shutdown` then `exit`,
    1 when the client left without shutting the server down (as the protocol says)."""
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError as exc:
        print(f"error: `rubric lsp` needs the lsp extra ({exc.name} is not installed): {INSTALL_HINT}", file=stderr)
        return EXIT_USAGE
    from rubric_tools.lsp.features import create_server

    server = create_server()
    # The raw streams: the protocol is bytes with Content-Length headers, and nothing else
    # may ever be written to stdout.
    stdin, stdout = sys.__stdin__, sys.__stdout__
    if stdin is None or stdout is None:
        print("error: `rubric lsp` talks over stdin and stdout, and one of them is closed", file=stderr)
        return EXIT_USAGE
    server.start_io(cast(BinaryIO, stdin.buffer), cast(BinaryIO, stdout.buffer))
    return EXIT_OK if server.shut_down else EXIT_FINDINGS

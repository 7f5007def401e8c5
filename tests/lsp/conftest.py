"""Fixtures of the `rubric lsp` end-to-end tests: a real server over stdio, driven by
pytest-lsp's client. Without the `lsp` extra these tests skip (see `support.require_extra`)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.lsp.support import copy_matters

try:
    import pytest_lsp
    from lsprotocol import types
    from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
except ImportError:  # the test modules skip themselves
    pytest_lsp = None

#: The server as an editor starts it.
SERVER = [sys.executable, "-m", "rubric_tools", "lsp"]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return copy_matters(tmp_path / "workspace")


def initialize_params(
    folders: list[Path], options: dict[str, Any] | None = None, client: str = "visual-studio-code"
) -> Any:
    capabilities = client_capabilities(client)
    return types.InitializeParams(
        capabilities=capabilities,
        workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name=folder.name) for folder in folders],
        root_uri=folders[0].as_uri() if folders else None,
        initialization_options=options or {"rubric": {"debounce": 100}},
    )


if pytest_lsp is not None:

    def accept_registrations(client: LanguageClient) -> list[types.Registration]:
        """pytest-lsp's client does not answer `client/registerCapability`: record and accept."""
        registered: list[types.Registration] = []

        @client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register(ls: LanguageClient, params: types.RegistrationParams) -> None:
            registered.extend(params.registrations)

        return registered

    @pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
    async def client(lsp_client: LanguageClient, workspace: Path) -> AsyncIterator[None]:
        lsp_client.registrations = accept_registrations(lsp_client)  # type: ignore[attr-defined]
        await lsp_client.initialize_session(initialize_params([workspace]))
        yield
        await lsp_client.shutdown_session()

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
    from pygls.protocol import default_converter
    from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
    from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features
except ImportError:  # the test modules skip themselves
    pytest_lsp = None

#: The server as an editor starts it.
SERVER = [sys.executable, "-m", "rubric_tools", "lsp"]
#: Short, so that the tests wait little; the default (250 ms) is for typing.
TEST_DEBOUNCE_MS = 50


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return copy_matters(tmp_path / "workspace")


def initialize_params(
    folders: list[Path], options: dict[str, Any] | None = None, client: str = "visual-studio-code"
) -> Any:
    return types.InitializeParams(
        capabilities=client_capabilities(client),
        workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name=folder.name) for folder in folders],
        root_uri=folders[0].as_uri() if folders else None,
        initialization_options=options if options is not None else {"rubric": {"debounce": TEST_DEBOUNCE_MS}},
    )


if pytest_lsp is not None:

    def recording_client() -> LanguageClient:
        """pytest-lsp's client, keeping every publishDiagnostics (not only each file's
        last) and accepting `client/registerCapability`, which it does not answer."""
        client = LanguageClient(converter_factory=default_converter)
        client.published = []  # type: ignore[attr-defined]
        client.registrations = []  # type: ignore[attr-defined]
        features = dict(DEFAULT_CLIENT_FEATURES)
        record = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

        def publish(ls: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
            ls.published.append(params)  # type: ignore[attr-defined]
            record(ls, params)

        def register(ls: LanguageClient, params: types.RegistrationParams) -> None:
            ls.registrations.extend(params.registrations)  # type: ignore[attr-defined]

        features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish
        features[types.CLIENT_REGISTER_CAPABILITY] = register
        register_lsp_features(client, features)
        return client

    CONFIG = ClientServerConfig(server_command=SERVER, client_factory=recording_client)

    @pytest_lsp.fixture(config=CONFIG)
    async def client(lsp_client: LanguageClient, workspace: Path) -> AsyncIterator[None]:
        """A server started on the workspace, as VS Code starts it."""
        await lsp_client.initialize_session(initialize_params([workspace]))
        yield
        await lsp_client.shutdown_session()

    @pytest_lsp.fixture(config=CONFIG)
    async def bare_client(lsp_client: LanguageClient) -> AsyncIterator[None]:
        """A started server the test initializes itself."""
        yield
        await lsp_client.shutdown_session()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """pytest-lsp checks what the server sends against the client's capabilities: a server
    that sends what a client did not say it takes fails here, not only in that editor."""
    if pytest_lsp is None:
        return
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.filterwarnings("error::pytest_lsp.checks.LspSpecificationWarning"))

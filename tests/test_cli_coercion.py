"""Plain parameters convert without typer's pydantic adapters, to the same values and
with the same errors as typer's own conversion."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import typer
from typer._click.exceptions import BadParameter
from typer._param_types import coerce_cli_path

from rubric_tools.cli.coercion import _converter


def _info(**checks: Any) -> Any:
    return typer.Option(None, **checks)


@pytest.mark.parametrize(
    "checks",
    [{}, {"exists": True}, {"dir_okay": False}, {"file_okay": False}, {"readable": False}, {"resolve_path": True}],
)
def test_paths_convert_as_typer_converts_them(tmp_path: Path, checks: dict[str, Any]) -> None:
    (tmp_path / "file.yaml").write_text("x: 1\n", encoding="utf-8")
    info = _info(**checks)
    convert = _converter(list[Path] | None, info)
    assert convert is not None
    for name in ("file.yaml", "", "missing.yaml"):
        given = str(tmp_path / name)
        try:
            expected: Any = coerce_cli_path(Path(given), info, path_type=Path)
        except BadParameter as error:
            with pytest.raises(BadParameter, match=str(error.message)):
                convert([given], None, None)
        else:
            assert convert([given], None, None) == [expected]
            assert type(convert([given], None, None)[0]) is type(expected)


def test_a_path_list_converts_each_path(tmp_path: Path) -> None:
    convert = _converter(list[Path] | None, _info())
    assert convert is not None
    given = [str(tmp_path), str(tmp_path / "nowhere"), Path("relative")]
    assert convert(given, None, None) == [tmp_path, tmp_path / "nowhere", Path("relative")]

"""The token both local servers ask for: the home's ``mcp.token`` (made once, private,
the same for every server that starts at once) and token files read safely."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path
from typing import Any

import pytest

from mnemic.errors import ConfigError
from mnemic.ops import access_token
from mnemic.ops.access_token import home_token, read_token_file


def test_the_home_token_is_made_once_private_and_kept(tmp_path: Path) -> None:
    token, path = home_token(tmp_path)
    assert path == str(tmp_path / "mcp.token") and len(token) == 43
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert home_token(tmp_path) == (token, path)
    assert [p.name for p in tmp_path.iterdir()] == ["mcp.token"]  # no temp file left


def test_servers_starting_at_once_on_a_new_home_agree_on_one_token(tmp_path: Path) -> None:
    found: list[str] = []
    start = threading.Barrier(8)

    def server() -> None:
        start.wait()
        found.append(home_token(tmp_path)[0])

    threads = [threading.Thread(target=server) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(found) == 8 and len(set(found)) == 1
    assert (tmp_path / "mcp.token").read_text().strip() == found[0]


def test_a_server_that_finds_no_token_takes_the_one_another_server_just_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The interleaving the race above hits now and then, made certain: right after this
    server reads that there is no token file, another server links its own into place.
    This one must take that token (it once failed with "the token file does not exist",
    having seen the file appear between its read and its check)."""
    other = "o" * 43
    real = access_token.read_text_strict

    def read_then_another_server_creates(path: Any, **kwargs: Any) -> str | None:
        text = real(path, **kwargs)
        if text is None and not (tmp_path / "mcp.token").exists():
            (tmp_path / "mcp.token").write_text(other + "\n")
            (tmp_path / "mcp.token").chmod(0o600)
        return text

    monkeypatch.setattr(access_token, "read_text_strict", read_then_another_server_creates)
    assert home_token(tmp_path)[0] == other


def test_a_home_token_others_can_read_is_refused_not_replaced(tmp_path: Path) -> None:
    token, path = home_token(tmp_path)
    os.chmod(path, 0o644)
    with pytest.raises(ConfigError) as err:
        home_token(tmp_path)
    assert f"chmod 600 {path}" in str(err.value)
    assert Path(path).read_text().strip() == token


@pytest.mark.parametrize("text", ["\n", "  \n\t"])
def test_an_empty_token_file_is_an_error_naming_it(tmp_path: Path, text: str) -> None:
    path = tmp_path / "token"
    path.write_text(text)
    path.chmod(0o600)
    with pytest.raises(ConfigError) as err:
        read_token_file(path, key="ui.token", source="--token-file")
    assert f"the token file {path} is empty" in str(err.value)
    assert str(err.value).startswith("--token-file: ui.token: ")


def test_a_token_file_is_read_stripped_and_not_as_utf8_garbage(tmp_path: Path) -> None:
    path = tmp_path / "token"
    path.write_bytes(b"  abc-token  \n")
    path.chmod(0o600)
    assert read_token_file(path, key="k", source="s") == "abc-token"
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(ConfigError) as err:
        read_token_file(path, key="k", source="s")
    assert "not valid UTF-8" in str(err.value)

"""Settings: defaults, validation that names the key, environment overrides, homes."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from mnemic.config import _SECTIONS, RANGES, Settings, load_settings
from mnemic.errors import ConfigError
from mnemic.home import Home, home_dir, resolve_home


def write_config(home: Path, text: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(text, encoding="utf-8")


def test_defaults_without_file(tmp_path: Path) -> None:
    s = load_settings(tmp_path, {})
    assert s == Settings()
    assert s.memory.memory_char_limit == 2200
    assert s.memory.user_char_limit == 1375
    assert s.char_limit("user") == 1375 and s.char_limit("memory") == 2200


def test_values_from_file(tmp_path: Path) -> None:
    write_config(
        tmp_path,
        "[memory]\nmemory_char_limit = 3000\nuser_profile_enabled = false\n"
        '[sessions]\nhidden_sources = ["bot"]\n',
    )
    s = load_settings(tmp_path, {})
    assert s.memory.memory_char_limit == 3000
    assert s.memory.user_profile_enabled is False
    assert s.sessions.hidden_sources == ("bot",)


@pytest.mark.parametrize(
    ("text", "key", "fragment"),
    [
        ('[memory]\nmemory_char_limit = "3000"\n', "memory.memory_char_limit", "integer"),
        ("[memory]\nuser_char_limt = 5\n", "memory.user_char_limt", "user_char_limit"),
        ("[memroy]\nx = 1\n", "memroy", "memory"),
        ("[memory]\nmemory_enabled = 1\n", "memory.memory_enabled", "true or false"),
        ("[memory]\nmemory_char_limit = 5\n", "memory.memory_char_limit", "100 and 10,000,000"),
        ("[memory]\npressure_ratio = 1.5\n", "memory.pressure_ratio", "between 0.01 and 1"),
        ('store = "mysql://x"\n', "store", "postgresql"),
        ("memory = 3\n", "memory", "table"),
        ('[sessions]\ntext_floor = "never"\n', "sessions.text_floor", "auto, off"),
    ],
)
def test_bad_values_name_the_key(tmp_path: Path, text: str, key: str, fragment: str) -> None:
    write_config(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_settings(tmp_path, {})
    assert info.value.key == key
    assert fragment in str(info.value)


def test_invalid_toml_is_a_config_error(tmp_path: Path) -> None:
    write_config(tmp_path, "[memory\n")
    with pytest.raises(ConfigError) as info:
        load_settings(tmp_path, {})
    assert "TOML" in str(info.value)


def test_any_valid_toml_loads_and_a_duplicate_key_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(
        '[memory]\nmemory_char_limit = 1_800\n[scan]\nlevel = "stri\\u0063t"\n'
    )
    s = load_settings(tmp_path, environ={})
    assert s.memory.memory_char_limit == 1800
    assert s.scan.level == "strict"
    duplicate = "[memory]\nmemory_char_limit = 1\nmemory_char_limit = 2\n"
    (tmp_path / "config.toml").write_text(duplicate)
    with pytest.raises(ConfigError, match="not valid TOML") as info:
        load_settings(tmp_path, environ={})
    assert info.value.source == str(tmp_path / "config.toml")


def test_env_overrides_file_and_names_variable_on_error(tmp_path: Path) -> None:
    write_config(tmp_path, "[memory]\nmemory_char_limit = 3000\n")
    s = load_settings(tmp_path, {"MNEMIC_MEMORY_MEMORY_CHAR_LIMIT": "4000"})
    assert s.memory.memory_char_limit == 4000
    s = load_settings(tmp_path, {"MNEMIC_LLM_BASE_URL": "http://127.0.0.1:9/v1"})
    assert s.llm.base_url == "http://127.0.0.1:9/v1"
    with pytest.raises(ConfigError) as info:
        load_settings(tmp_path, {"MNEMIC_MEMORY_USER_CHAR_LIMIT": "lots"})
    assert "MNEMIC_MEMORY_USER_CHAR_LIMIT" in info.value.source


@pytest.mark.parametrize("literal", ["nan", "inf", "-inf", "+nan"])
@pytest.mark.parametrize(
    "key", ["memory.lock_timeout", "skills.lock_timeout", "sessions.write_timeout", "llm.timeout"]
)
def test_non_finite_numbers_are_refused_naming_the_key_and_range(
    tmp_path: Path, key: str, literal: str
) -> None:
    section, name = key.split(".")
    write_config(tmp_path, f"[{section}]\n{name} = {literal}\n")
    with pytest.raises(ConfigError) as info:
        load_settings(tmp_path, {})
    high = RANGES[key][1]
    assert info.value.key == key
    assert "finite" in info.value.problem and f"{high:g}" in info.value.problem


@pytest.mark.parametrize("value", ["nan", "inf", "1e9", "-1"])
def test_lock_timeout_from_the_environment_is_checked_and_names_the_variable(
    tmp_path: Path, value: str
) -> None:
    with pytest.raises(ConfigError) as info:
        load_settings(tmp_path, {"MNEMIC_MEMORY_LOCK_TIMEOUT": value})
    assert info.value.source == "environment variable MNEMIC_MEMORY_LOCK_TIMEOUT"
    assert "between 0 and 3600" in info.value.problem


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("[memory]\nlock_timeout = 1e400\n", "memory.lock_timeout"),  # TOML reads inf
        ("[memory]\nlock_timeout = 1" + "0" * 400 + "\n", "memory.lock_timeout"),
        ("[memory]\nhistory_limit = 10000000000000000000000\n", "memory.history_limit"),
        ("[mcp]\nport = 70000\n", "mcp.port"),
        ("[postgres]\nconnect_timeout = 0\n", "postgres.connect_timeout"),
        ("[agent]\ncompress_at = 2.0\n", "agent.compress_at"),
    ],
)
def test_numbers_out_of_range_are_refused(tmp_path: Path, text: str, key: str) -> None:
    write_config(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_settings(tmp_path, {})
    assert info.value.key == key


def test_every_numeric_setting_declares_its_range_and_the_default_is_inside() -> None:
    numeric = {}
    for section, cls in _SECTIONS.items():
        default = cls()
        for field in dataclasses.fields(cls):
            name, value = field.name, getattr(default, field.name)
            if isinstance(value, int | float) and not isinstance(value, bool):
                numeric[f"{section}.{name}"] = value
    assert set(numeric) == set(RANGES)
    for key, value in numeric.items():
        low, high = RANGES[key]
        assert low <= value <= high, key


def test_settings_are_read_only() -> None:
    s = Settings()
    with pytest.raises(AttributeError):
        s.store = "x"  # type: ignore[misc]
    assert dataclasses.replace(s.memory, memory_char_limit=500).memory_char_limit == 500
    assert s.memory.memory_char_limit == 2200


def test_home_resolution_order(tmp_path: Path) -> None:
    env = {"MNEMIC_HOME": str(tmp_path / "env")}
    assert resolve_home(tmp_path / "explicit", None, env) == tmp_path / "explicit"
    assert resolve_home(None, None, env) == tmp_path / "env"
    assert resolve_home(None, "work", env) == tmp_path / "env" / "profiles" / "work"
    assert resolve_home(None, "default", env) == tmp_path / "env"
    env2 = {**env, "MNEMIC_PROFILE": "p2"}
    assert home_dir(None, None, env2) == str(tmp_path / "env" / "profiles" / "p2")


def test_platform_default_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert resolve_home(None, None, {"XDG_DATA_HOME": str(tmp_path / "xdg")}) == (
        tmp_path / "xdg" / "mnemic"
    )


@pytest.mark.parametrize("name", ["../x", "a/b", "", ".hidden", "x" * 65, "spa ce"])
def test_bad_profile_names(name: str, tmp_path: Path) -> None:
    if name == "":
        assert resolve_home(tmp_path, name, {}) == tmp_path
        return
    with pytest.raises(ConfigError) as info:
        resolve_home(tmp_path, name, {})
    assert info.value.key == "profile"


def test_home_open_is_private_and_profiles_are_isolated(tmp_path: Path) -> None:
    main = Home.open(tmp_path / "h", environ={})
    work = Home.open(tmp_path / "h", "work", environ={})
    assert (main.root.stat().st_mode & 0o777) == 0o700
    assert work.root == main.root / "profiles" / "work"
    assert (work.root.stat().st_mode & 0o777) == 0o700


def test_the_store_scope_is_set_by_mnemic_never_by_config_toml(tmp_path: Path) -> None:
    """``Settings.scope`` names the project store a database serves (set when a project
    is opened): a config.toml that tries to set it is refused, as any unknown key."""
    write_config(tmp_path, 'scope = "other-project-0123456789ab"\n')
    with pytest.raises(ConfigError) as info:
        load_settings(tmp_path, {})
    assert info.value.key == "scope" and "unknown key" in str(info.value)
    assert load_settings(tmp_path / "none", {}).scope == ""


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[memory]\nmemory_char_limit = true\n", "expected an integer, got true"),
        ('[memory]\nmemory_char_limit = "lots"\n', 'expected an integer, got "lots"'),
        ("[memory]\nmemory_enabled = 'yes'\n", 'expected true or false, got "yes"'),
        ("[memory]\nlock_timeout = [1, 2]\n", "expected a number, got [1, 2]"),
        ("[sessions]\nhidden_sources = [1]\n", "expected a list of strings, got [1]"),
        ("[scan]\nlevel = 'loud'\n", 'got "loud"'),
        ("memory = 3\n", "expected a table, got 3"),
        ("memory = 1979-05-27\n", "expected a table, got 1979-05-27"),
    ],
)
def test_a_wrong_value_is_shown_as_toml_writes_it(tmp_path: Path, text: str, said: str) -> None:
    """A person edits TOML: the refusal showed Python's spelling of what they wrote (got
    True, got 'lots', expected a table, got int)."""
    write_config(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_settings(tmp_path, {})
    assert said in str(info.value)
    assert not re.search(r"got (True|False|int|str|list|')", str(info.value))


def test_a_file_that_is_not_toml_says_what_to_do(tmp_path: Path) -> None:
    write_config(tmp_path, "[memory]\nmemory_char_limit = \n")
    with pytest.raises(ConfigError) as info:
        load_settings(tmp_path, {})
    said = str(info.value)
    assert "not valid TOML" in said and "line 2" in said
    assert "Fix that line" in said and "move the file away to use the defaults" in said


@pytest.mark.parametrize(
    ("section", "key", "choices"),
    [
        ("scan", "level", "strict, balanced, lenient"),
        ("sessions", "semantic", "auto, off"),
        ("sessions", "text_floor", "auto, off"),
        ("memory", "group_commit", "off, queue"),
        ("memory", "durability", "files, journal"),
        ("memory", "on_full", "refuse, archive_oldest, archive_least_used"),
        ("memory", "on_full_user", "refuse, archive_oldest, archive_least_used"),
        ("llm", "api", "openai, anthropic (the API the endpoint speaks)"),
        ("approval", "memory_mcp", "allow, ask, stage, block"),
        ("approval", "skills_ui", "allow, ask, stage, block"),
    ],
)
def test_a_setting_with_choices_refuses_another_value_naming_them(
    tmp_path: Path, section: str, key: str, choices: str
) -> None:
    write_config(tmp_path, f'[{section}]\n{key} = "nope"\n')
    with pytest.raises(ConfigError) as info:
        load_settings(tmp_path, {})
    assert info.value.key == f"{section}.{key}"
    assert info.value.problem == f'expected one of {choices}, got "nope"'

"""The stand-in for ``@dataclass(frozen=True)`` that ``mnemic.config`` takes at run time
(:mod:`mnemic._frozen`): its classes behave as the standard decorator's, and importing
the settings compiles no code."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import subprocess
import sys
from typing import Any, ClassVar

import pytest

from mnemic import _frozen
from mnemic.config import MemorySettings, Settings


def _pair() -> tuple[type[Any], type[Any]]:
    """The same class made by the standard decorator and by the stand-in."""
    made = []
    for decorate in (dataclasses.dataclass(frozen=True), _frozen.dataclass(frozen=True)):

        class Section:
            """A section."""

            limit: int = 10
            name: str = "x"
            sources: tuple[str, ...] = ("a", "b")

        made.append(decorate(Section))
    return made[0], made[1]


def test_the_stand_in_makes_what_the_standard_decorator_makes() -> None:
    std, fast = _pair()
    for args, kwargs in [((), {}), ((3,), {}), ((3, "y"), {"sources": ()}), ((), {"name": "z"})]:
        a, b = std(*args, **kwargs), fast(*args, **kwargs)
        assert repr(a) == repr(b)
        assert hash(a) == hash(b)
        assert dataclasses.asdict(a) == dataclasses.asdict(b)
        assert b == fast(*args, **kwargs) and b != fast(99) and b != a  # another class
        assert dataclasses.replace(b, limit=7) == fast(7, *args[1:], **kwargs)
        assert copy.deepcopy(b) == b
    assert [f.name for f in dataclasses.fields(fast)] == ["limit", "name", "sources"]
    assert fast.__match_args__ == std.__match_args__
    assert dataclasses.is_dataclass(fast) and fast.__doc__ == "A section."


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [((1, "a", (), 4), {}), ((), {"size": 1}), ((1,), {"limit": 2})],
    ids=["too-many", "unknown-keyword", "twice"],
)
def test_wrong_arguments_are_refused_as_by_the_standard_decorator(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    std, fast = _pair()
    with pytest.raises(TypeError) as expected:
        std(*args, **kwargs)
    with pytest.raises(TypeError) as got:
        fast(*args, **kwargs)
    assert str(got.value) == str(expected.value)


def test_its_instances_are_frozen() -> None:
    settings = Settings()
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'store'"):
        settings.store = "elsewhere"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'memory'"):
        del settings.memory  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.extra = 1  # type: ignore[attr-defined]
    assert MemorySettings(3000) == MemorySettings(memory_char_limit=3000)
    assert dataclasses.replace(settings, scope="p").memory is settings.memory
    assert pickle.loads(pickle.dumps(settings)) == settings


def test_what_it_does_not_handle_goes_to_the_standard_decorator() -> None:
    @_frozen.dataclass(frozen=True)
    class Listed:
        items: list[str] = dataclasses.field(default_factory=list)
        kinds: ClassVar[int] = 3

    assert Listed().items == [] and Listed().items is not Listed().items
    assert [f.name for f in dataclasses.fields(Listed)] == ["items"]
    assert Listed.__dataclass_params__.frozen  # type: ignore[attr-defined]


@pytest.mark.skipif(
    not hasattr(dataclasses, "_create_fn"), reason="this Python builds dataclasses otherwise"
)
def test_importing_the_settings_compiles_no_dataclass_method() -> None:
    """Counted by wrapping the standard library's private code builder (no other way to
    see it) in a fresh interpreter."""
    code = (
        "import dataclasses\n"
        "calls = []\n"
        "make = dataclasses._create_fn\n"
        "dataclasses._create_fn = lambda *a, **k: calls.append(a[0]) or make(*a, **k)\n"
        "import mnemic.config\n"
        "mnemic.config.load_settings('/nonexistent-home')\n"
        "print(len(calls), calls[:6])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split()[0] == "0", out.stdout


def test_a_mutable_default_is_refused_as_by_the_standard_decorator() -> None:
    with pytest.raises(ValueError, match="mutable default"):

        @_frozen.dataclass(frozen=True)
        class Section:
            sources: list[str] = []  # noqa: RUF012

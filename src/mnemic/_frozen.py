"""``@dataclass(frozen=True)`` for plain records, without compiling code at import.

The standard decorator writes the source of ``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, ``__setattr__`` and ``__delattr__`` for each class and compiles it: six
``exec`` calls a class, about half a millisecond on a loaded machine. ``mnemic.config``
declares fifteen such classes and is imported by every command and hook, the Claude Code
session start included, so it takes this stand-in at run time (type checkers still see
:func:`dataclasses.dataclass`)::

    if TYPE_CHECKING:
        from dataclasses import dataclass
    else:
        from ._frozen import dataclass

:func:`dataclass` accepts ``frozen=True`` only, on a class whose every field has a plain
default (no ``field()``, no ``ClassVar``, no base dataclass); anything else goes to the
standard decorator. The class is a real dataclass (:func:`dataclasses.fields`,
:func:`~dataclasses.replace`, :func:`~dataclasses.asdict` work), with the standard
behaviour: keyword or positional arguments in field order, the same ``repr``, equality
and hash over the fields, and :class:`dataclasses.FrozenInstanceError` on assignment
(only its ``__dataclass_params__`` say what the standard decorator was asked for: no
``init``, ``repr``, ``eq`` or ``frozen``, which the stand-in adds itself).
"""

from __future__ import annotations

import dataclasses
import inspect
import reprlib
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["dataclass"]

T = TypeVar("T")


def dataclass(*, frozen: bool) -> Callable[[type[T]], type[T]]:
    """``@dataclass(frozen=True)`` (see the module)."""
    standard = dataclasses.dataclass(frozen=frozen)

    def wrap(cls: type[T]) -> type[T]:
        if not frozen or not _plain(cls):
            return standard(cls)
        made: type[T] = dataclasses.dataclass(init=False, repr=False, eq=False)(cls)
        names = tuple(f.name for f in dataclasses.fields(made))  # type: ignore[arg-type]
        _install(made, names)
        return made

    return wrap


def _plain(cls: type[Any]) -> bool:
    """Whether every annotated field of ``cls`` has a plain default, and nothing of it
    asks for more than the stand-in does."""
    if any(dataclasses.is_dataclass(base) for base in cls.__mro__[1:]):
        return False
    for name, annotation in inspect.get_annotations(cls).items():
        if "ClassVar" in str(annotation) or "InitVar" in str(annotation):
            return False
        if name not in cls.__dict__ or isinstance(cls.__dict__[name], dataclasses.Field):
            return False
    own = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")
    return not any(method in cls.__dict__ for method in own)


def _install(cls: type[Any], names: tuple[str, ...]) -> None:
    defaults = {name: cls.__dict__[name] for name in names}
    qualname = cls.__qualname__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(names):
            takes = (
                f"from 1 to {len(names) + 1} positional arguments"
                if names
                else ("1 positional argument")
            )
            raise TypeError(f"{qualname}.__init__() takes {takes} but {len(args) + 1} were given")
        values = dict(zip(names, args, strict=False))
        for key, value in kwargs.items():
            if key not in defaults:
                raise TypeError(f"{qualname}.__init__() got an unexpected keyword argument {key!r}")
            if key in values:
                raise TypeError(f"{qualname}.__init__() got multiple values for argument {key!r}")
            values[key] = value
        for name in names:
            object.__setattr__(self, name, values.get(name, defaults[name]))

    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is self.__class__:
            return _values(self) == _values(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(_values(self))

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def _values(obj: Any) -> tuple[Any, ...]:
        return tuple(getattr(obj, name) for name in names)

    for method in (__init__, __repr__, __eq__, __hash__, __setattr__, __delattr__):
        method.__qualname__ = f"{qualname}.{method.__name__}"
        setattr(cls, method.__name__, method)

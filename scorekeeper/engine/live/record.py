"""An immutable record whose changed copies are cheap (the live hand's states).

Applying an event must cost next to nothing (the app replays a hand's log on every
tap): ``but(**changes)`` copies one dict where ``dataclasses.replace`` rebuilds the
object field by field.

>>> class Point(Record):
...     x: int
...     y: int = 0
>>> p = Point(1)
>>> p.but(y=2), p
(Point(x=1, y=2), Point(x=1, y=0))
"""

from __future__ import annotations

from typing import ClassVar, Self


class Record:
    """An immutable record of named fields whose changed copies are cheap.

    The fields are written once, as a subclass's annotations (with a default where one may be
    left out), the way a dataclass's are; ``FIELDS`` and ``DEFAULTS`` are read from them.
    Equality, hashing and ``repr`` read ``FIELDS`` only; other entries of the instance dict are
    caches of values derived from the fields (dropped by ``but`` where they could go stale).
    """

    FIELDS: ClassVar[tuple[str, ...]] = ()
    DEFAULTS: ClassVar[dict[str, object]] = {}  # of the fields that may be left out
    CACHES: ClassVar[tuple[str, ...]] = ()  # derived entries: dropped when any field changes

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        fields: list[str] = []
        for klass in reversed(cls.__mro__[: cls.__mro__.index(Record)]):
            for name, note in vars(klass).get("__annotations__", {}).items():
                if "ClassVar" not in str(note) and name not in fields:
                    fields.append(name)
        cls.FIELDS = tuple(fields)
        cls.DEFAULTS = {name: getattr(cls, name) for name in fields if hasattr(cls, name)}

    def __init__(self, *args: object, **kwargs: object) -> None:
        values = dict(zip(self.FIELDS, args))
        values.update(kwargs)
        d = {name: values[name] if name in values else self.DEFAULTS[name] for name in self.FIELDS}
        object.__setattr__(self, "__dict__", d)

    def but(self, **changes: object) -> Self:
        """A copy with ``changes``: the only way to 'change' a record."""
        d = self.__dict__.copy()
        d.update(changes)
        for name in self.CACHES:
            d.pop(name, None)
        new = object.__new__(type(self))
        object.__setattr__(new, "__dict__", d)
        return new

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: use but({name}=...)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _values(self) -> tuple:
        d = self.__dict__
        return tuple(d[name] for name in self.FIELDS)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self is other or self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        d = self.__dict__
        return f"{type(self).__name__}({', '.join(f'{n}={d[n]!r}' for n in self.FIELDS)})"

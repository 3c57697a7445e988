"""Frozen dataclasses as plain JSON data and back, driven by their fields' type hints.

This is how results are cached: as data, never as code (no pickle). :func:`to_jsonable`
turns an object into lists, dicts, strings, numbers, booleans and None; :func:`from_jsonable`
rebuilds it from such data and the type it should have, checking every value against the
type hint of its field on the way. Anything that does not have the expected shape raises
:class:`ShapeError`, so a corrupted or forged cache entry is a miss, never a crash and never
a wrong object. A field added to a result class round-trips without touching this module, as
long as its type is built from the supported pieces:

``str``, ``int``, ``float`` (nan and ±inf written as strings), ``bool``, ``None``,
``Literal[...]``, ``X | Y`` / ``Optional[X]``, ``tuple[X, ...]``, ``tuple[X, Y]``,
``list[X]``, ``dict[str, X]``, other dataclasses, and ``Any`` (plain JSON values only).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import operator
import types
import typing
from typing import Any, Literal, Union

NON_FINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


class ShapeError(ValueError):
    """Data does not have the shape its type asks for (or a value has no JSON form)."""


def to_jsonable(value: Any, hint: Any = None) -> Any:
    """``value`` as JSON-able data; ``hint`` is its type (default: the value's own class)."""
    return _encode(value, type(value) if hint is None else hint, "value")


def from_jsonable(hint: Any, data: Any) -> Any:
    """Rebuild an object of type ``hint`` from :func:`to_jsonable` data; ShapeError if it
    does not fit."""
    return _decode(hint, data, "value")


@functools.lru_cache(maxsize=None)
def _fields(cls: type) -> tuple[tuple[str, Any], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls) if f.init)


def _is_union(origin: Any) -> bool:
    return origin is Union or origin is types.UnionType


def _encode(value: Any, hint: Any, where: str) -> Any:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any or hint is object:
        return _plain(value, where)
    if hint is None or hint is type(None):
        if value is not None:
            raise ShapeError(f"{where}: expected None, got {type(value).__name__}")
        return None
    if _is_union(origin):
        for arm in args:
            try:
                return _encode(value, arm, where)
            except ShapeError:
                continue
        raise ShapeError(f"{where}: {value!r:.80} fits none of {hint}")
    if origin is Literal:
        if not any(value == a and type(value) is type(a) for a in args):
            raise ShapeError(f"{where}: {value!r:.80} is not one of {args}")
        return value
    if hint is bool:
        value = _item(value)
        if not isinstance(value, bool):
            raise ShapeError(f"{where}: expected a bool, got {type(value).__name__}")
        return value
    if hint is int:
        if isinstance(_item(value), bool):
            raise ShapeError(f"{where}: expected an int, got a bool")
        try:
            return operator.index(value)
        except TypeError:
            raise ShapeError(f"{where}: expected an int, got {type(value).__name__}") from None
    if hint is float:
        value = _item(value)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ShapeError(f"{where}: expected a number, got {type(value).__name__}")
        value = float(value)
        return value if math.isfinite(value) else repr(value)
    if hint is str:
        if not isinstance(value, str):
            raise ShapeError(f"{where}: expected a str, got {type(value).__name__}")
        return value
    if origin in (tuple, list):
        items = _sequence(value, where)
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            if len(items) != len(args):
                raise ShapeError(f"{where}: expected {len(args)} items, got {len(items)}")
            return [_encode(v, a, f"{where}[{i}]") for i, (v, a) in enumerate(zip(items, args))]
        item = args[0] if args else Any
        return [_encode(v, item, f"{where}[{i}]") for i, v in enumerate(items)]
    if origin is dict:
        if not isinstance(value, dict):
            raise ShapeError(f"{where}: expected a dict, got {type(value).__name__}")
        item = args[1] if len(args) == 2 else Any
        if not all(isinstance(k, str) for k in value):
            raise ShapeError(f"{where}: only dicts with str keys can be stored")
        return {k: _encode(v, item, f"{where}[{k!r}]") for k, v in value.items()}
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(value, hint):
            raise ShapeError(f"{where}: expected {hint.__name__}, got {type(value).__name__}")
        return {name: _encode(getattr(value, name), field_hint, f"{where}.{name}")
                for name, field_hint in _fields(hint)}
    raise ShapeError(f"{where}: values of type {hint} cannot be stored")


def _decode(hint: Any, data: Any, where: str) -> Any:
    return _decoder(hint)(data, where)


@functools.lru_cache(maxsize=None)
def _decoder(hint: Any):
    """A function (data, where) -> value for ``hint``, built once per type (reading a cached
    run decodes thousands of values)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any or hint is object:
        return _plain
    if hint is None or hint is type(None):
        def none(data, where):
            if data is not None:
                raise ShapeError(f"{where}: expected null")
            return None
        return none
    if _is_union(origin):
        arms = [_decoder(arm) for arm in args]
        if len(args) == 2 and type(None) in args:  # X | None: no need to try X on null
            value = arms[args.index(type(None)) ^ 1]

            def optional(data, where):
                return None if data is None else value(data, where)
            return optional

        def union(data, where):
            for arm in arms:
                try:
                    return arm(data, where)
                except ShapeError:
                    continue
            raise ShapeError(f"{where}: {data!r:.80} fits none of {hint}")
        return union
    if origin is Literal:
        allowed = {(type(a), a) for a in args}

        def literal(data, where):
            if (type(data), data) not in allowed:
                raise ShapeError(f"{where}: {data!r:.80} is not one of {args}")
            return data
        return literal
    if hint in (bool, int, str):
        def scalar(data, where):
            if type(data) is not hint:
                raise ShapeError(f"{where}: expected {hint.__name__}, got {type(data).__name__}")
            return data
        return scalar
    if hint is float:
        def number(data, where):
            kind = type(data)
            if kind is float or kind is int:
                return float(data)
            if kind is str and data in NON_FINITE:
                return NON_FINITE[data]
            raise ShapeError(f"{where}: expected a number")
        return number
    if origin in (tuple, list):
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            parts = [_decoder(a) for a in args]

            def fixed(data, where):
                if type(data) is not list or len(data) != len(parts):
                    raise ShapeError(f"{where}: expected a list of {len(parts)} items")
                return tuple(part(v, f"{where}[{i}]") for i, (part, v) in enumerate(zip(parts, data)))
            return fixed
        item_hint = args[0] if args else Any
        item = _decoder(item_hint)
        build = tuple if origin is tuple else list
        if item_hint in (bool, int, str):  # a list of scalars is checked in one pass
            def scalars(data, where):
                if type(data) is not list or not all(type(v) is item_hint for v in data):
                    raise ShapeError(f"{where}: expected a list of {item_hint.__name__}")
                return build(data)
            return scalars

        def sequence(data, where):
            if type(data) is not list:
                raise ShapeError(f"{where}: expected a list")
            return build([item(v, where) for v in data])
        return sequence
    if origin is dict:
        item = _decoder(args[1] if len(args) == 2 else Any)

        def mapping(data, where):
            if type(data) is not dict:
                raise ShapeError(f"{where}: expected an object")
            return {k: item(v, f"{where}[{k!r}]") for k, v in data.items()}
        return mapping
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        def instance(data, where):
            fields = _field_decoders(hint)  # not above: a class may refer to itself
            if type(data) is not dict:
                raise ShapeError(f"{where}: expected an object for {hint.__name__}")
            if data.keys() != fields.keys():
                extra, missing = sorted(set(data) - set(fields)), sorted(set(fields) - set(data))
                raise ShapeError(f"{where}: {hint.__name__} fields differ "
                                 f"(unexpected {extra}, missing {missing})")
            values = {name: decode(data[name], where) for name, decode in fields.items()}
            try:
                return hint(**values)
            except Exception as exc:  # a __post_init__ that rejects the values
                raise ShapeError(f"{where}: {hint.__name__} rejects these values: {exc}") from None
        return instance

    def unsupported(data, where):
        raise ShapeError(f"{where}: values of type {hint} cannot be read")
    return unsupported


@functools.lru_cache(maxsize=None)
def _field_decoders(cls: type) -> dict[str, Any]:
    return {name: _decoder(hint) for name, hint in _fields(cls)}


def _item(value: Any) -> Any:
    """A NumPy scalar (numpy.bool_, numpy.float64) as the Python value it holds."""
    item = getattr(value, "item", None)
    if callable(item) and not isinstance(value, (bool, int, float, str)) \
            and getattr(value, "shape", None) == ():
        return item()
    return value


def _sequence(value: Any, where: str) -> list:
    if isinstance(value, (tuple, list)):
        return list(value)
    tolist = getattr(value, "tolist", None)  # a NumPy array
    if callable(tolist) and getattr(value, "ndim", 0) >= 1:
        return list(value)
    raise ShapeError(f"{where}: expected a sequence, got {type(value).__name__}")


def _plain(value: Any, where: str) -> Any:
    """Plain JSON values only (for fields typed ``Any``)."""
    value = _item(value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ShapeError(f"{where}: a non-finite number in an untyped field")
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {k: _plain(v, f"{where}[{k!r}]") for k, v in value.items()}
    raise ShapeError(f"{where}: {type(value).__name__} is not plain JSON data")

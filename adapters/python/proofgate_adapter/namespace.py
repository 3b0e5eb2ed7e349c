"""Namespace probes (capability `namespace`, docs/conformance.md "Namespace probes").

The library reads a probe into a `Probe`, calls the adapter's `namespace(probe)`, and turns the
byte strings it returns into the answer: names checked, values as lowercase hex.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Union

from .events import BlockTable, JsonObject, MessageError, Topology, _int, _str, _table

NAME = re.compile(r"[a-z][a-z0-9_.-]{0,63}\Z")
MAX_NAMES = 32
MAX_HEX_DIGITS = 8192

#: What an adapter's `namespace(probe)` returns: a dict of name -> bytes (a str is taken as its
#: UTF-8 bytes). Mapping, not dict, in the type only so that a `dict[str, bytes]` is one.
Values = Mapping[str, Union[bytes, bytearray, str]]


class NamespaceError(ValueError):
    """An answer to a probe that the protocol does not allow."""


@dataclass(frozen=True)
class Identity:
    """What a cache keys on besides the tokens; `""` is none for `cache_salt` and `lora`."""

    model: str
    dtype: str
    cache_salt: str
    lora: str


@dataclass(frozen=True)
class Probe:
    set: str
    probe: str
    topology: Topology
    identity: Identity
    prompt_tokens: int
    token_ids: list[int]
    span: int
    block_ids: BlockTable
    recurrent: list[list[int]]  # [group, block] pairs
    raw: JsonObject = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_json(cls, obj: JsonObject) -> Probe:
        identity = obj.get("identity")
        if not isinstance(identity, dict):
            raise MessageError("the probe has no identity object")
        tokens = obj.get("token_ids")
        if not isinstance(tokens, list) or not all(isinstance(t, int) and not isinstance(t, bool) for t in tokens):
            raise MessageError("the probe's token_ids is not a list of integers")
        recurrent = obj.get("recurrent", [])
        if not isinstance(recurrent, list) or not all(isinstance(p, list) and len(p) == 2 for p in recurrent):
            raise MessageError("the probe's recurrent is not a list of [group, block] pairs")
        return cls(_str(obj, "set", "the probe"), _str(obj, "probe", "the probe"), Topology.from_json(obj.get("topology")),
                   Identity(*(_str(identity, name, "the probe's identity") for name in ("model", "dtype", "cache_salt", "lora"))),
                   _int(obj, "prompt_tokens", "the probe", minimum=1), list(tokens), _int(obj, "span", "the probe", minimum=0),
                   _table(obj.get("block_ids"), "the probe's block_ids"), [list(p) for p in recurrent], obj)


def answer(values: object) -> JsonObject:
    """The `namespace` answer line for `values`, a mapping of name -> bytes (a str is taken as
    its UTF-8 bytes): `Values` as `namespace()` should return it, checked here whatever it is."""
    if not isinstance(values, dict):
        raise NamespaceError("namespace() returned %s, not a dict of name -> bytes" % type(values).__name__)
    if len(values) > MAX_NAMES:
        raise NamespaceError("namespace() returned %d names; at most %d" % (len(values), MAX_NAMES))
    out: dict[str, str] = {}
    for name in sorted(values):
        value = values[name]
        if not isinstance(name, str) or not NAME.match(name):
            raise NamespaceError("namespace name %r is not 1 to 64 characters of a-z, 0-9, _, ., - starting with a letter"
                                 % (name,))
        if isinstance(value, str):
            value = value.encode("utf-8")
        if not isinstance(value, (bytes, bytearray)):
            raise NamespaceError("namespace value %r is %s, not bytes" % (name, type(value).__name__))
        if len(value) * 2 > MAX_HEX_DIGITS:
            raise NamespaceError("namespace value %r is %d bytes; at most %d (hash longer values)"
                                 % (name, len(value), MAX_HEX_DIGITS // 2))
        out[name] = bytes(value).hex()
    return {"kind": "namespace", "values": out}

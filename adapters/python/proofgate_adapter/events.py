"""The kit's messages as typed values: the topology with its defaults applied, and the events.

Field names follow docs/protocol.md section 5 (`proofgate-events/v1`). Every event keeps the line
as the kit sent it in `raw`, for an adapter that needs a field as the log has it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from types import EllipsisType
from typing import Any, ClassVar, Optional, TypedDict, Union, overload

#: A JSON object as decoded from a line of the kit: its values are whatever the kit sent, checked
#: where they are read (Any, not a JSON union that each reader would narrow again).
JsonObject = dict[str, Any]

#: A block table: the block ids of each KV-cache group, in group order.
BlockTable = list[list[int]]

POLICIES = ("full", "sliding", "recurrent_align")


class _Defaults(TypedDict):  # DEFAULTS' type: each field's own
    tp_degree: int
    hash_block_size: int
    min_span_tokens: int
    max_span_tokens: None


#: Defaults of protocol section 5 for the fields a hand-written topology may leave out.
DEFAULTS: _Defaults = {"tp_degree": 1, "hash_block_size": 256, "min_span_tokens": 1024, "max_span_tokens": None}


class MessageError(ValueError):
    """A message the library cannot read as the protocol says; answered with the protocol's error."""


class DuplicateKeys:
    """A JSON object in which a key appears twice, as found inside `recurrent_boundary_blocks`.

    Protocol section 3, row 2: such a field is not a mapping. It is deliberately neither a dict nor
    a list, so that a connector's `isinstance(value, dict)` check sees what the protocol sees.
    Outside the evidence, a repeated key is a structural error the kit never sends.
    """

    __slots__ = ("pairs",)

    def __init__(self, pairs: Sequence[tuple[str, Any]]) -> None:
        self.pairs = list(pairs)

    def __repr__(self) -> str:
        return "DuplicateKeys(%r)" % (self.pairs,)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DuplicateKeys) and other.pairs == self.pairs

    __hash__ = None  # type: ignore[assignment]  # unhashable, as a dict is


def object_pairs(pairs: list[tuple[str, Any]]) -> Union[JsonObject, DuplicateKeys]:
    """`json.loads` hook: a dict, or `DuplicateKeys` when a key appears twice."""
    mapping = dict(pairs)
    return mapping if len(mapping) == len(pairs) else DuplicateKeys(pairs)


@overload
def _int(obj: JsonObject, name: str, where: str, default: Union[int, EllipsisType] = ...,
         minimum: Optional[int] = None) -> int: ...


@overload
def _int(obj: JsonObject, name: str, where: str, default: None, minimum: Optional[int] = None) -> Optional[int]: ...


def _int(obj: JsonObject, name: str, where: str, default: Union[int, None, EllipsisType] = ...,
         minimum: Optional[int] = None) -> Optional[int]:
    if name not in obj or (obj[name] is None and default is None):
        if default is ...:
            raise MessageError("%s has no %r" % (where, name))
        return default
    value = obj[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise MessageError("%s: %r is not an integer: %r" % (where, name, value))
    if minimum is not None and value < minimum:
        raise MessageError("%s: %r is below %d: %r" % (where, name, minimum, value))
    return value


def _str(obj: JsonObject, name: str, where: str) -> str:
    value = obj.get(name)
    if not isinstance(value, str):
        raise MessageError("%s: %r is not a string: %r" % (where, name, value))
    return value


def _table(value: object, where: str) -> BlockTable:
    if not isinstance(value, list) or not all(isinstance(g, list) for g in value):
        raise MessageError("%s is not a list of lists of block ids: %r" % (where, value))
    for group in value:
        for block in group:
            if isinstance(block, bool) or not isinstance(block, int):
                raise MessageError("%s holds a block id that is not an integer: %r" % (where, block))
    return [list(group) for group in value]


@dataclass(frozen=True)
class Group:
    """One KV-cache group. `window_tokens` is None unless the policy is `sliding` (generated
    topologies carry `window_tokens: 0` on other groups; protocol section 5 reads 0 as absent)."""

    policy: str
    block_tokens: int
    window_tokens: Optional[int] = None

    @property
    def recurrent(self) -> bool:
        return self.policy == "recurrent_align"


@dataclass(frozen=True)
class Topology:
    """A topology line with protocol section 5's defaults applied: `tp_degree` 1,
    `hash_block_size` 256, `min_span_tokens` 1024, `max_span_tokens` None (unbounded)."""

    groups: tuple[Group, ...]
    tp_degree: int = 1
    hash_block_size: int = 256
    min_span_tokens: int = 1024
    max_span_tokens: Optional[int] = None
    raw: JsonObject = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_json(cls, obj: object) -> Topology:
        if not isinstance(obj, dict):
            raise MessageError("the topology is not an object")
        groups = obj.get("groups")
        if not isinstance(groups, list) or not groups:
            raise MessageError("the topology has no groups")
        parsed = []
        for i, g in enumerate(groups):
            where = "group %d" % i
            if not isinstance(g, dict) or g.get("policy") not in POLICIES:
                raise MessageError("%s has no policy of %s: %r" % (where, ", ".join(POLICIES), g))
            window = _int(g, "window_tokens", where, default=None, minimum=0)
            if g["policy"] == "sliding":
                if not window:
                    raise MessageError("%s is sliding without window_tokens" % where)
            else:
                window = None  # 0 or absent: not a sliding group
            parsed.append(Group(g["policy"], _int(g, "block_tokens", where, minimum=1), window))
        return cls(
            groups=tuple(parsed),
            tp_degree=_int(obj, "tp_degree", "the topology", DEFAULTS["tp_degree"], 1),
            hash_block_size=_int(obj, "hash_block_size", "the topology", DEFAULTS["hash_block_size"], 1),
            min_span_tokens=_int(obj, "min_span_tokens", "the topology", DEFAULTS["min_span_tokens"], 0),
            max_span_tokens=_int(obj, "max_span_tokens", "the topology", None, 0),
            raw=obj,
        )

    def to_json(self) -> JsonObject:
        """The topology line with every field present (as a namespace probe carries it)."""
        groups = []
        for g in self.groups:
            groups.append({"policy": g.policy, "block_tokens": g.block_tokens, "window_tokens": g.window_tokens or 0})
        return {"kind": "topology", "schema": "proofgate-events/v1", "tp_degree": self.tp_degree,
                "hash_block_size": self.hash_block_size, "min_span_tokens": self.min_span_tokens,
                "max_span_tokens": self.max_span_tokens, "groups": groups}

    @property
    def recurrent_groups(self) -> tuple[int, ...]:
        """The indices of the `recurrent_align` groups, in index order."""
        return tuple(i for i, g in enumerate(self.groups) if g.recurrent)

    def target(self, prompt_tokens: int) -> int:
        """The target of protocol section 2: the largest multiple of `hash_block_size` strictly
        below the prompt's end."""
        return (prompt_tokens - 1) // self.hash_block_size * self.hash_block_size

    def tracked(self, target: int) -> bool:
        """Whether a request with this target is a store candidate (`min <= target <= max`)."""
        return self.min_span_tokens <= target and (self.max_span_tokens is None or target <= self.max_span_tokens)


@dataclass(frozen=True)
class NewRequest:
    """A request in its first scheduled step. `external` of its `computed` tokens are the
    connector's hit, which the connector loads into its blocks (a `load(...)` answer); 0 in a
    `proofgate-events/v1` log."""

    id: str
    digest: str
    prompt_tokens: int
    computed: int
    scheduled: int
    block_ids: BlockTable
    external: int = 0


@dataclass(frozen=True)
class CachedRequest:
    id: str
    computed: int
    scheduled: int
    new_block_ids: BlockTable
    resumed: bool = False


@dataclass(frozen=True)
class Step:
    """A `step` event. `evidence` is `recurrent_boundary_blocks` as the log has it (None when
    absent or null, which protocol section 3 treats alike); `has_evidence` tells them apart."""

    step: int
    new: list[NewRequest]
    cached: list[CachedRequest]
    preempted: list[str]
    evidence: Any = None  # any JSON value, or DuplicateKeys: the connector judges it
    has_evidence: bool = False
    raw: JsonObject = field(default_factory=dict, compare=False, repr=False)

    kind: ClassVar[str] = "step"

    @classmethod
    def from_json(cls, obj: JsonObject) -> Step:
        new = []
        for i, r in enumerate(obj.get("new") or []):
            where = "new[%d]" % i
            if not isinstance(r, dict):
                raise MessageError("%s is not an object" % where)
            new.append(NewRequest(_str(r, "id", where), _str(r, "digest", where), _int(r, "prompt_tokens", where, minimum=1),
                                  _int(r, "computed", where, minimum=0), _int(r, "scheduled", where, minimum=0),
                                  _table(r.get("block_ids"), where + ".block_ids"),
                                  _int(r, "external", where, 0, minimum=0)))
        cached = []
        for i, r in enumerate(obj.get("cached") or []):
            where = "cached[%d]" % i
            if not isinstance(r, dict):
                raise MessageError("%s is not an object" % where)
            resumed = r.get("resumed", False)
            if not isinstance(resumed, bool):
                raise MessageError("%s: 'resumed' is not a boolean: %r" % (where, resumed))
            cached.append(CachedRequest(_str(r, "id", where), _int(r, "computed", where, minimum=0),
                                        _int(r, "scheduled", where, minimum=0),
                                        _table(r.get("new_block_ids"), where + ".new_block_ids"), resumed))
        preempted = obj.get("preempted") or []
        if not isinstance(preempted, list) or not all(isinstance(p, str) for p in preempted):
            raise MessageError("'preempted' is not a list of request ids: %r" % (preempted,))
        return cls(_int(obj, "step", "the step"), new, cached, list(preempted),
                   obj.get("recurrent_boundary_blocks"), "recurrent_boundary_blocks" in obj, obj)

    def order(self) -> dict[str, int]:
        """Request id -> its position in the step's decision order (new, then cached; protocol section 3)."""
        ids = [r.id for r in self.new] + [r.id for r in self.cached]
        return {request_id: i for i, request_id in enumerate(ids)}


@dataclass(frozen=True)
class Finished:
    id: str
    raw: JsonObject = field(default_factory=dict, compare=False, repr=False)

    kind: ClassVar[str] = "finished"

    @classmethod
    def from_json(cls, obj: JsonObject) -> Finished:
        return cls(_str(obj, "id", "the finished event"), obj)


@dataclass(frozen=True)
class Held:
    """A `held` report: `rank` holds `digest`. A rank outside `0..tp_degree-1` is one the real
    connector ignores and counts (protocol section 6); the event still reaches the adapter."""

    rank: int
    digest: str
    raw: JsonObject = field(default_factory=dict, compare=False, repr=False)

    kind: ClassVar[str] = "held"

    @classmethod
    def from_json(cls, obj: JsonObject) -> Held:
        return cls(_int(obj, "rank", "the held event"), _str(obj, "digest", "the held event"), obj)


@dataclass(frozen=True)
class Lookup:
    """A `lookup` (`proofgate-events/v2`): vLLM asks how many tokens of request `id`'s prompt the
    connector can load beyond the `computed` tokens vLLM's own prefix cache gives
    (`get_num_new_matched_tokens`). Answered with one `hit(...)`; the request's first step then
    comes with that many `external` tokens."""

    id: str
    digest: str
    prompt_tokens: int
    computed: int
    raw: JsonObject = field(default_factory=dict, compare=False, repr=False)

    kind: ClassVar[str] = "lookup"

    @classmethod
    def from_json(cls, obj: JsonObject) -> Lookup:
        where = "the lookup event"
        return cls(_str(obj, "id", where), _str(obj, "digest", where), _int(obj, "prompt_tokens", where, minimum=1),
                   _int(obj, "computed", where, minimum=0), obj)


EVENTS: dict[str, Union[type[Step], type[Finished], type[Held], type[Lookup]]] = {
    "step": Step, "finished": Finished, "held": Held, "lookup": Lookup}

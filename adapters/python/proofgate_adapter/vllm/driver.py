"""A driver for scheduler-side vLLM KV connectors (`KVConnectorBase_V1`, `SupportsHMA`).

From each event it builds what vLLM's scheduler would hand the connector and calls it; what is
particular to a connector (where it states its store plans and rejections, how it learns from its
workers that a rank holds a prefix) is a small mapping the author writes by subclassing
`VllmConnectorAdapter`:

    class MyMapping(VllmConnectorAdapter):
        name = "my connector"
        def create_connector(self, vllm_config, kv_cache_config): ...   # the connector, scheduler role
        def read_step(self, metadata, scheduler_output): ...            # its plans, rejections and loads, as verdicts
        def deliver_held(self, rank, request, target): ...              # a held report, its own way
        def pending(self): ...                                           # its pending stores (PendingStore)

What the driver does per event (docs/conformance.md, "The vLLM driver"):

- topology: a `VllmConfig` and `KVCacheConfig` with one group per topology group (full attention,
  sliding window with `window_tokens`, Mamba in align mode), `block_tokens` as each group's block
  size, `hash_block_size` as `cache_config.block_size`, `tp_degree` as the tensor-parallel size,
  and `hash_block_size`, `min_span_tokens`, `max_span_tokens` in `kv_connector_extra_config`;
  `bind_gpu_block_pool` with a block pool stand-in, for a connector that pins blocks through it;
- step: a `Request` per new request, whose prompt tokens derive from the digest label (equal
  labels give equal tokens, so equal prefixes at equal targets), with `block_hashes` as vLLM
  computes them at `hash_block_size` (`block_hashes()`); `update_state_after_alloc(request,
  blocks, external)` for each request admitted (its external tokens: 0 but for a restore) or
  resumed (0); a `SchedulerOutput` with
  `NewRequestData` and one `CachedRequestData`, `num_scheduled_tokens`, `preempted_req_ids`,
  `finished_req_ids` (the requests finished since the last step) and the evidence in the field the
  connector's vLLM has (`kv_connector_block_state`, `partial_tail_offloads`, or the seed's fork's
  `recurrent_boundary_blocks` as the log has it; a typed field that cannot carry the scenario's
  evidence makes it not applicable); one `build_connector_meta` call; the verdicts from `read_step`, put in the
  step's decision order; a pending store that disappeared without a verdict at a cached step is
  retired for quorum (the only way protocol section 3 lets it go);
- finished: `request_finished_all_groups(request, block_ids)` (or `request_finished(request,
  block_ids[0])` for a connector without `SupportsHMA`) with the table the request holds; a
  pending store it drops is retired for `finished`;
- lookup (a mapping that declares `restore`): the waiting request, with its prompt tokens and
  block hashes and vLLM's `computed` tokens, and `get_num_new_matched_tokens(request, computed)`;
  the tokens it answers are the hit (None, "ask again later", is 0: the scenario schedules the
  request next). The request's first step then passes that `Request` to
  `update_state_after_alloc(request, blocks, external)` with the step's external tokens, and
  `read_step` reports the load (`self.load(...)`) from the connector's metadata;
- held: `deliver_held(rank, request, target)` for every real prefix of the label seen so far, and
  again for each new prefix of the label that a later request brings (the scenarios give one
  label to requests of different targets; a content-addressed connector hashes `tokens[:target]`, so
  a label is several digests).

Counters and `ignored_held` are counted from the verdicts and events unless the mapping reads the
connector's own (`counters()`, and `ignored_held()`, which is held against the driver's deliveries:
see that method). The state line's `held` is always the driver's
record of the reports it was sent, not the connector's: a report the connector loses shows only
through the verdicts it changes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import pickle
import random
import sys
from collections.abc import Collection, Iterable, Mapping
from typing import Any, Optional, TypeVar, Union, cast

from ..events import BlockTable, Finished, Held, Lookup, Step, Topology
from ..protocol import Adapter, NotApplicable
from ..verdicts import (Blocks, Counters, Fact, Hit, Load, Pairs, PendingStore, Plan, Rejected, Retired, Saved, State,
                        _check_int, hit as make_hit, load as make_load, plan as make_plan, rejected as make_rejected,
                        retired as make_retired, saved as make_saved)
from . import standins

_T = TypeVar("_T")

#: A verdict of the driver's making, or the end of a plan's copy: each names its request (`id`),
#: which orders them.
DriverVerdict = Union[Plan, Rejected, Retired, Saved, Hit, Load]

# vLLM's objects or the stand-ins' (a request, a scheduler output, the connector) are typed Any:
# vLLM's classes are not the stand-ins' subclasses, and a mapping may annotate either.

#: PROOFGATE_VLLM_CLASSES: `auto` (vLLM's classes when `vllm` imports, else the stand-ins),
#: `standins`, or `vllm` (fail when vLLM does not import).
CLASSES_VARIABLE = "PROOFGATE_VLLM_CLASSES"

#: PROOFGATE_VLLM_EVIDENCE: the `SchedulerOutput` field that carries vLLM's recurrent boundary
#: hand-offs: `auto` (the field the installed vLLM's `SchedulerOutput` has; with the stand-ins, the
#: seed's fork's), or one of EVIDENCE_FIELDS. A mapping may name one (`evidence_field`).
EVIDENCE_VARIABLE = "PROOFGATE_VLLM_EVIDENCE"
#: vLLM 0.29 and later; vLLM 0.28; the seed's fork (standins.py says what each holds).
EVIDENCE_FIELDS = ("kv_connector_block_state", "partial_tail_offloads", "recurrent_boundary_blocks")


def typed_offloads(evidence: Any, field_name: str) -> dict[str, list[tuple[int, int, int]]]:
    """The evidence as vLLM's typed field holds it, `dict[str, list[tuple[int, int, int]]]` (absent
    or null: empty); evidence that field cannot carry makes the scenario not applicable."""
    if evidence is None:
        return {}
    if isinstance(evidence, dict) and all(isinstance(k, str) and isinstance(v, list) for k, v in evidence.items()):
        typed: dict[str, list[tuple[int, int, int]]] = {}
        for request_id, entries in evidence.items():
            converted = []
            for entry in entries:
                if not (isinstance(entry, list) and len(entry) == 3
                        and all(isinstance(x, int) and not isinstance(x, bool) for x in entry)):
                    break
                converted.append((entry[0], entry[1], entry[2]))
            else:
                typed[request_id] = converted
                continue
            break
        else:
            return typed
    raise NotApplicable("SchedulerOutput.%s (dict[str, list[tuple[int, int, int]]]) cannot carry the scenario's"
                        " evidence" % field_name)


class Classes:
    """The classes the driver builds: vLLM's own where importable, else the stand-ins."""

    # set in __init__ by name: vLLM's classes or the stand-ins'
    NewRequestData: type[Any]
    CachedRequestData: type[Any]
    SchedulerOutput: type[Any]
    KVConnectorOutput: type[Any]
    Request: type[Any]
    KVConnectorRole: type[Any]
    KVConnectorMetadata: type[Any]
    KVConnectorBase_V1: type[Any]
    SupportsHMA: type[Any]

    KVConnectorBlockState: type[Any]

    def __init__(self, choice: Optional[str] = None) -> None:
        choice = choice or os.environ.get(CLASSES_VARIABLE, "auto")
        if choice not in ("auto", "standins", "vllm"):
            raise ValueError("%s must be auto, standins or vllm, not %r" % (CLASSES_VARIABLE, choice))
        self.real = False
        # class -> its field names and required fields (dataclasses.fields is slow per call)
        self._fields: dict[type[Any], tuple[frozenset[str], list[str]]] = {}
        # (class, the names given) -> what make() does with them
        self._shapes: dict[tuple[type[Any], tuple[str, ...]], tuple[bool, tuple[str, ...], tuple[str, ...]]] = {}
        for name in ("NewRequestData", "CachedRequestData", "SchedulerOutput", "KVConnectorOutput", "Request",
                     "KVConnectorRole", "KVConnectorMetadata", "KVConnectorBase_V1", "SupportsHMA", "KVConnectorBlockState"):
            setattr(self, name, getattr(standins, name))
        if choice == "standins":
            return
        try:
            from vllm.distributed.kv_transfer.kv_connector.v1.base import (KVConnectorBase_V1, KVConnectorMetadata,
                                                                           KVConnectorRole, SupportsHMA)
            from vllm.v1.core.sched.output import CachedRequestData, NewRequestData, SchedulerOutput
            from vllm.v1.outputs import KVConnectorOutput
        except ImportError:
            if choice == "vllm":
                raise
            return
        self.real = True
        try:
            from vllm.v1.core.sched.output import KVConnectorBlockState  # vLLM 0.29 and later
            self.KVConnectorBlockState = KVConnectorBlockState
        except ImportError:
            pass
        self.NewRequestData, self.CachedRequestData, self.SchedulerOutput = NewRequestData, CachedRequestData, SchedulerOutput
        self.KVConnectorOutput, self.KVConnectorRole = KVConnectorOutput, KVConnectorRole
        self.KVConnectorMetadata = KVConnectorMetadata
        self.KVConnectorBase_V1, self.SupportsHMA = KVConnectorBase_V1, SupportsHMA

    def make(self, cls: type[_T], **values: Any) -> _T:
        """An instance of a vLLM dataclass from the values the driver knows, by field name: a field
        the class does not have is set as an attribute after construction (so that
        `recurrent_boundary_blocks` reaches a vLLM without it), an older field name is filled from
        the newer one, and a required field the driver cannot fill is an error that names it."""
        key = (cls, tuple(values))  # each call site passes the same names in the same order
        shape = self._shapes.get(key)
        if shape is None:
            shape = self._shapes[key] = self._shape(cls, values)
        legacy, inside, outside = shape
        if legacy:  # vLLM before late 2025
            values["resumed_from_preemption"] = [r in values["resumed_req_ids"] for r in values["req_ids"]]
        instance = cls(**{k: values[k] for k in inside})
        for k in outside:
            setattr(instance, k, values[k])
        return instance

    def _shape(self, cls: type[Any], values: Mapping[str, Any]) -> tuple[bool, tuple[str, ...], tuple[str, ...]]:
        """Which of these names `cls` takes as fields (the legacy one added where it has it), and
        which are set as attributes after construction; a required field missing is an error."""
        names, required = self._fields.get(cls) or self._fields.setdefault(cls, _fields(cls))
        legacy = "resumed_from_preemption" in names and "resumed_req_ids" in values
        inside = tuple(k for k in values if k in names) + (("resumed_from_preemption",) if legacy else ())
        missing = [n for n in required if n not in inside]
        if missing:
            raise TypeError("%s.%s has fields the driver does not fill: %s (the driver is documented against %s)"
                            % (cls.__module__, cls.__name__, ", ".join(missing), standins.VLLM_REFERENCE))
        return legacy, inside, tuple(k for k in values if k not in names and k != "resumed_req_ids")

    def evidence_field(self, named: Optional[str] = None) -> str:
        """The field the evidence goes in: `named` (a mapping's choice), else PROOFGATE_VLLM_EVIDENCE,
        else the one the SchedulerOutput class has (the seed's fork's for the stand-ins)."""
        choice = named or os.environ.get(EVIDENCE_VARIABLE, "auto")
        if choice == "auto":
            if not self.real:
                return "recurrent_boundary_blocks"
            names = _fields(self.SchedulerOutput)[0]
            return next((f for f in EVIDENCE_FIELDS if f in names), "recurrent_boundary_blocks")
        if choice not in EVIDENCE_FIELDS:
            raise ValueError("%s must be auto or one of %s, not %r" % (EVIDENCE_VARIABLE, ", ".join(EVIDENCE_FIELDS), choice))
        return choice

    def block_state(self, block_ids: dict[str, tuple[list[int], ...]],
                    offloads: dict[str, list[tuple[int, int, int]]]) -> Any:
        """A KVConnectorBlockState: the stand-in's fields, or a vLLM that resolves tables on access."""
        try:
            return self.KVConnectorBlockState(block_ids=block_ids, boundary_state_offloads=offloads)
        except TypeError:
            return self.KVConnectorBlockState(req_ids=set(block_ids) | set(offloads),
                                              resolve_block_ids=lambda r: block_ids.get(r, ()),
                                              boundary_state_offloads=offloads)

    def request(self, request_id: str, prompt_token_ids: list[int]) -> Any:
        if self.real:
            try:
                from vllm import SamplingParams
                from vllm.v1.request import Request
                return Request(request_id=request_id, prompt_token_ids=prompt_token_ids,
                               sampling_params=SamplingParams(max_tokens=1), pooling_params=None, eos_token_id=None)
            except (ImportError, TypeError) as e:  # Request's constructor changes between versions
                print("proofgate_adapter.vllm: vLLM's Request could not be built (%s); using the stand-in" % e,
                      file=sys.stderr)
        return standins.Request(request_id, prompt_token_ids)


def _binds_pool(connector: Any) -> bool:
    """Whether the connector asks for vLLM's block pool: it defines `bind_gpu_block_pool` below
    vLLM's connector base class (which, in recent vLLM, has a default that binds nothing)."""
    for cls in type(connector).__mro__:
        if "bind_gpu_block_pool" in vars(cls):
            return cls.__name__ != "KVConnectorBase_V1"
    return False


def _decided(verdicts: Iterable[DriverVerdict]) -> set[str]:
    """The requests a verdict decided: a saved line ends a copy, it decides nothing."""
    return {v.id for v in verdicts if not isinstance(v, Saved)}


def _override(counted: Counters, own: Mapping[str, int]) -> Counters:
    """The driver's counts with the connector's own for the counters it names."""
    names = {f.name for f in dataclasses.fields(Counters)}
    unknown = sorted(set(own) - names)
    if unknown:
        raise ValueError("counters() names counters the protocol does not have: %s (it has %s)"
                         % (", ".join(unknown), ", ".join(sorted(names))))
    return dataclasses.replace(counted, **{name: _check_int(value, "counters()[%r]" % name) for name, value in own.items()})


def _fields(cls: type[Any]) -> tuple[frozenset[str], list[str]]:
    fields = dataclasses.fields(cls)
    return (frozenset(f.name for f in fields),
            [f.name for f in fields if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING])


_TOKENS: dict[str, list[int]] = {}


def prompt_token_ids(label: str, count: int) -> list[int]:
    """`count` prompt tokens for a digest label: the same label gives the same tokens in every
    process, so requests of one label share prefixes; different labels differ from the first
    token on with overwhelming odds. Token ids are 1 to 32000."""
    tokens = _TOKENS.get(label)
    if tokens is None or len(tokens) < count:
        rng = random.Random("proofgate-digest-label:" + label)
        tokens = [1 + rng.randrange(32000) for _ in range(max(count, 2 * len(tokens or ()), 4096))]
        _TOKENS[label] = tokens
    return tokens[:count]


_HASHES: dict[tuple[str, int], list[bytes]] = {}


def block_hashes(label: str, count: int, hash_block_size: int) -> list[bytes]:
    """The block hashes of the first `count` prompt tokens of a label, as vLLM's request block
    hasher computes them with its default hash function: one per full block of `hash_block_size`
    tokens, each the SHA-256 of the pickled triple (the previous block's hash, the block's tokens
    as a tuple, no extra keys), the first block's previous hash being the hash of the seed. vLLM
    seeds from PYTHONHASHSEED, or at random when it is unset; the driver from PYTHONHASHSEED, or
    from a fixed seed, so that a connector keyed by these hashes answers alike in every run (the
    connector audit runs each scenario again and compares). Equal labels share hashes."""
    hashes = _HASHES.setdefault((label, hash_block_size), [])
    wanted = count // hash_block_size
    if len(hashes) < wanted:
        tokens = prompt_token_ids(label, wanted * hash_block_size)
        parent = hashes[-1] if hashes else _sha256(os.environ.get("PYTHONHASHSEED", "proofgate"))
        for i in range(len(hashes), wanted):
            parent = _sha256((parent, tuple(tokens[i * hash_block_size:(i + 1) * hash_block_size]), None))
            hashes.append(parent)
    return hashes[:wanted]


def _sha256(value: object) -> bytes:
    return hashlib.sha256(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)).digest()


def topology_config(topology: Topology, classes: Classes) -> tuple[standins.VllmConfig, standins.KVCacheConfig]:
    """The stand-in `VllmConfig` and `KVCacheConfig` of a topology."""
    groups = []
    for i, group in enumerate(topology.groups):
        spec: standins.KVCacheSpec
        if group.policy == "full":
            spec = standins.FullAttentionSpec(group.block_tokens)
        elif group.policy == "sliding":  # a sliding group has its window (Topology.from_json)
            spec = standins.SlidingWindowSpec(group.block_tokens, cast(int, group.window_tokens))
        else:
            spec = standins.MambaSpec(group.block_tokens, "align")
        groups.append(standins.KVCacheGroupSpec(["group.%d" % i], spec))
    extra = {"hash_block_size": topology.hash_block_size, "min_span_tokens": topology.min_span_tokens,
             "max_span_tokens": topology.max_span_tokens}
    vllm_config = standins.VllmConfig(standins.CacheConfig(topology.hash_block_size),
                                      standins.ParallelConfig(topology.tp_degree),
                                      standins.KVTransferConfig(kv_connector_extra_config=extra))
    return vllm_config, standins.KVCacheConfig(num_blocks=0, kv_cache_tensors=[], kv_cache_groups=groups)


class LogCapture(logging.Handler):
    """The records a connector logs on one logger, for a mapping that reads its decisions from
    its log: `take()` returns those logged since the last call."""

    def __init__(self, logger_name: str, level: int = logging.DEBUG) -> None:
        super().__init__(level)
        self.records: list[logging.LogRecord] = []
        logger = logging.getLogger(logger_name)
        logger.addHandler(self)
        logger.setLevel(min(logger.level or level, level))
        logger.propagate = False

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def take(self) -> list[logging.LogRecord]:
        records, self.records = self.records, []
        return records


class VllmConnectorAdapter(Adapter):
    """The driver. Subclass it and write the mapping (see the module's docstring)."""

    name = "vLLM connector"
    capabilities: tuple[str, ...] = ("sliding",)
    #: the SchedulerOutput field the connector reads the hand-offs from (EVIDENCE_FIELDS), or None
    #: for PROOFGATE_VLLM_EVIDENCE's choice
    evidence_field: Optional[str] = None

    # --- the mapping: the part particular to a connector

    def create_connector(self, vllm_config: standins.VllmConfig, kv_cache_config: standins.KVCacheConfig) -> Any:
        """The connector under test in the scheduler role."""
        raise NotImplementedError("create_connector()")

    def read_step(self, metadata: Any, scheduler_output: Any) -> Optional[Iterable[DriverVerdict]]:
        """The verdicts `build_connector_meta` decided: `self.plan(...)` and `self.rejected(...)`."""
        raise NotImplementedError("read_step()")

    def deliver_held(self, rank: int, request: Any, target: int) -> None:
        """Tell the connector that `rank` holds the prefix `request.prompt_token_ids[:target]`, the
        way its workers would (for example `update_connector_output(KVConnectorOutput(...))`)."""
        raise NotImplementedError("deliver_held()")

    def pending(self) -> Iterable[PendingStore]:
        """The connector's pending stores as `PendingStore`s (`done` and `table` are compared only
        with the `state` capability; give 0 and [] when the connector does not keep them)."""
        raise NotImplementedError("pending()")

    def read_finished(self, request: Any) -> Optional[Iterable[DriverVerdict]]:
        """The verdicts the connector decided when its request finished (`request_finished`), for a
        connector that publishes then; by default none, and a pending store it dropped is retired
        for `finished`."""
        return None

    def read_held(self) -> Optional[Iterable[DriverVerdict]]:
        """The verdicts the connector decided on its workers' output (`update_connector_output`,
        after `deliver_held`); by default none."""
        return None

    def counters(self) -> Union[Counters, Mapping[str, int], None]:
        """The connector's own counters: all of them (`Counters`), some of them by name (a mapping
        such as `{"plans": n}`, the others counted from the verdicts), or None to count every one
        from the verdicts."""
        return None

    @property
    def counted(self) -> Counters:
        """The counters as the driver counts them from the verdicts and events (a copy)."""
        return dataclasses.replace(self._counted)

    def ignored_held(self) -> Optional[int]:
        """The connector's own count of held reports from ranks it does not have, or None to count
        the reports from ranks outside the topology.

        The connector counts what it was given: the driver gives a report once per target of its
        label, none before a request of the label, and none again for a report repeated. So its
        count is held against the driver's deliveries from such ranks, and the summary states the
        events' count moved by the difference: a delivery the connector did not skip shows as
        `ignored_held differs`, and fan-out alone never does."""
        return None

    # --- helpers for the mapping

    def prefix_key(self, request: Any, target: int) -> Any:
        """The key the connector stores the prefix of `request`'s first `target` prompt tokens
        under (its prefix digest, say), for `plan(..., key=...)` to check; None (the default) for
        a mapping that states no keys."""
        return None

    def plan(self, request_id: str, target: int, blocks_by_group: Blocks, recurrent: Pairs, copy: str = "in_step",
             pinned: Optional[bool] = None, key: Any = None) -> Plan:
        """A plan of the current step; the digest is the request's label. `key`: the key the
        connector publishes the plan under (its prefix digest); given, it must be `prefix_key()`
        of the request and target, or the plan is reported under a digest no prefix of the
        scenario has (the label with `?wrong-key`), so that the kit judges its pages as another
        prefix's: a connector that files a prefix under another prefix's key is unsafe. A key the
        scenario has already seen for another prefix (another label, or the same label at another
        target) is reported the same way (`?shared-key`): `prefix_key()` is the connector's own
        digest, so it agrees with a digest that files two prefixes under one key, and a later
        lookup of either restores the other. A key must be hashable. Without a key the kit cannot
        see the connector's key at all. `copy="async"` for a
        connector whose workers copy the blocks after the step (then `saved()` when they are done).
        Whether it pins them meanwhile: for a connector bound to the block pool
        (`bind_gpu_block_pool`), read from the pool (every block of the plan held with `touch` and
        not yet freed), and a `pinned=True` the pool contradicts is refused; for another, the
        mapping's `pinned` (False when not given)."""
        digest = self._labels[request_id]
        if key is not None:
            expected = self.prefix_key(self._requests[request_id], target)
            if expected is None:
                raise ValueError("plan(key=...) for %s needs the mapping's prefix_key() to check the key against"
                                 % request_id)
            if key != expected:
                digest += "?wrong-key"
            else:
                try:
                    filed = self._keys.setdefault(key, (digest, target))
                except TypeError:
                    raise ValueError("plan(key=...) for %s: the key %r is not hashable, so two prefixes filed under"
                                     " it cannot be told" % (request_id, key)) from None
                if filed != (digest, target):
                    digest += "?shared-key"
        self._published[(request_id, target)] = digest
        if copy == "async" and pinned is not False and self._bound:
            blocks = [b for group in blocks_by_group for b in group]
            loose = [b for b in blocks if not self.block_pool.held(b)]
            if pinned is True and loose:
                raise ValueError("the mapping says the plan of %s for %d tokens is pinned, but the connector holds no"
                                 " reference to block %d in the block pool" % (request_id, target, loose[0]))
            pinned = not loose
            if pinned:
                self._pinned.append((request_id, target, blocks))
        # a pin without an async copy is refused there, as plan() refuses it
        return make_plan(self.last_step, request_id, digest, target, blocks_by_group, recurrent, copy, bool(pinned))

    def saved(self, request_id: str, target: int) -> Saved:
        """The workers have copied the asynchronous plan of the request for `target` tokens (from
        `read_step`, `read_finished` or `read_held`, whichever call learns it)."""
        for i, (pinned_id, pinned_target, _) in enumerate(self._pinned):
            if (pinned_id, pinned_target) == (request_id, target):
                del self._pinned[i]  # the oldest: one saved line ends one copy, as the kit matches them
                break
        # under the digest its plan was reported under, which the kit matches it by
        return make_saved(self.last_step, request_id,
                          self._published.get((request_id, target), self._labels[request_id]), target)

    def _check_pins(self) -> None:
        """A pin read from the pool must last until the plan's saved line: a connector that frees
        a block while its workers may still copy it lets vLLM reuse the block under them."""
        for request_id, target, blocks in self._pinned:
            for b in blocks:
                if not self.block_pool.held(b):
                    raise ValueError("the connector freed block %d of the plan of %s for %d tokens before its saved"
                                     " line: the pin ended while its workers may still copy it" % (b, request_id, target))

    def load(self, request_id: str, restored: int, blocks_by_group: Blocks) -> Load:
        """The load of a request the current step schedules with the connector's hit: the state of
        its prefix at `restored` tokens (vLLM's own and the hit) into `blocks_by_group` (from
        `read_step`, as the connector's metadata tells its workers)."""
        return make_load(self.last_step, request_id, self._labels[request_id], restored, blocks_by_group)

    def rejected(self, request_id: str, code: str, **facts: Fact) -> Rejected:
        """A rejection of the current step."""
        return make_rejected(self.last_step, request_id, code, **facts)

    def checked_plan(self, request_id: str, target: int, blocks_by_group: Blocks, recurrent: Pairs) -> Union[Plan, Rejected]:
        """A plan, or the `invalid_selection` rejection protocol section 3 asks for, for a connector
        whose scheduler side leaves that check to its workers: fewer blocks than the target needs
        (`short_table`), a block `<= 0` (`null_block`), one block twice (`repeated_block`)."""
        for g, (group, blocks) in enumerate(zip(self.topology_.groups, blocks_by_group)):
            if not group.recurrent:
                # not full and not recurrent: sliding, which has its window (Topology.from_json)
                first = 0 if group.policy == "full" else max(0, target - cast(int, group.window_tokens)) // group.block_tokens
                if len(blocks) < -(-target // group.block_tokens) - first:
                    return self.rejected(request_id, "invalid_selection", target=target, group=g, problem="short_table")
            for block in blocks:
                if block <= 0:
                    return self.rejected(request_id, "invalid_selection", target=target, group=g, block=block,
                                         problem="null_block")
        seen: set[int] = set()
        repeated: Optional[tuple[int, int]] = None
        for g, blocks in enumerate(blocks_by_group):
            for block in blocks:
                if block in seen and (repeated is None or block < repeated[1]):
                    repeated = (g, block)
                seen.add(block)
        if repeated:
            return self.rejected(request_id, "invalid_selection", target=target, group=repeated[0], block=repeated[1],
                                 problem="repeated_block")
        return self.plan(request_id, target, blocks_by_group, recurrent)

    def capture_log(self, logger_name: str) -> LogCapture:
        """A `LogCapture` on the connector's logger, emptied at each topology. One per logger for the
        process: attaching a handler and setting a level clears every logger's cache, which cost
        about 3% of a conformance run when done at each topology."""
        capture = self._captures.get(logger_name)
        if capture is None:
            capture = self._captures[logger_name] = LogCapture(logger_name)
        capture.take()
        return capture

    def label(self, request: Any) -> str:
        """The digest label the scenario gave `request`. Equal labels give equal prompt tokens in
        every scenario of the process, so a mapping may keep what it derives from a prefix's tokens
        (such as its digest) by label and target."""
        return self._labels[request.request_id]

    # --- the protocol side (the library calls these)

    def __init__(self) -> None:
        self.classes = Classes()
        self._evidence_field = self.classes.evidence_field(self.evidence_field)
        self._captures: dict[str, LogCapture] = {}  # logger name -> LogCapture

    def topology(self, topology: Topology) -> None:
        for capture in self._captures.values():
            capture.take()  # what the last scenario's connector logged is not this one's
        self.topology_ = topology
        self.last_step = 0
        self._requests: dict[str, Any] = {}  # id -> Request, for requests scheduled and not finished
        self._labels: dict[str, str] = {}  # id -> digest label
        self._tables: dict[str, BlockTable] = {}  # id -> the block table per group, as the scheduler holds it
        self._prefixes: dict[str, dict[int, Any]] = {}  # label -> {target: a Request of that label and target}
        self._reports: dict[str, list[int]] = {}  # label -> ranks reported, in the order they came
        self._delivered: set[tuple[str, int, int]] = set()  # (label, target, rank)
        self._delivered_ignored = 0  # deliveries from ranks outside the topology, which the connector must skip
        self._finished_ids: set[str] = set()
        self._waiting: dict[str, Any] = {}  # id -> the Request of a lookup, until its first step
        self._counted = Counters()
        self._ignored = 0
        vllm_config, kv_cache_config = topology_config(topology, self.classes)
        self.connector: Any = self.create_connector(vllm_config, kv_cache_config)
        # vLLM's scheduler binds its GPU block pool to a connector that asks for it
        self.block_pool = standins.BlockPool()
        self._bound = _binds_pool(self.connector)
        if self._bound:
            self.connector.bind_gpu_block_pool(self.block_pool)
        # the async plans pinned through the pool whose saved line has not come: (id, target, blocks)
        self._pinned: list[tuple[str, int, list[int]]] = []
        # the digest each plan was reported under, by (id, target): its saved line says the same
        self._published: dict[tuple[str, int], str] = {}
        # the prefix (label, target) each key a plan gave was first filed for
        self._keys: dict[Any, tuple[str, int]] = {}

    def _pending_ids(self) -> set[str]:
        return {store.id for store in self.pending()}

    def _fan_out(self, label: str) -> None:
        for target, request in sorted(self._prefixes.get(label, {}).items()):
            for rank in self._reports.get(label, ()):
                if (label, target, rank) not in self._delivered:
                    self._delivered.add((label, target, rank))
                    if not 0 <= rank < self.topology_.tp_degree:
                        self._delivered_ignored += 1
                    self.deliver_held(rank, request, target)

    def _full_quorum(self, label: str) -> bool:
        return set(range(self.topology_.tp_degree)) <= set(self._reports.get(label, ()))

    def _request(self, request_id: str, label: str, prompt_tokens: int, computed: int) -> Any:
        request = self.classes.request(request_id, prompt_token_ids(label, prompt_tokens))
        request.block_hashes = block_hashes(label, prompt_tokens, self.topology_.hash_block_size)
        request.num_computed_tokens = computed
        return request

    def lookup(self, event: Lookup) -> list[DriverVerdict]:
        """vLLM asks the connector how many tokens beyond its own it can load for a waiting request."""
        request = self._request(event.id, event.digest, event.prompt_tokens, event.computed)
        self._waiting[event.id] = request
        self._labels[event.id] = event.digest
        tokens, _ = self.connector.get_num_new_matched_tokens(request, event.computed)
        return [make_hit(self.last_step, event.id, tokens or 0)]

    def step(self, step: Step) -> list[DriverVerdict]:
        c = self.classes
        self.last_step = step.step
        new_data = []
        for r in step.new:
            waiting = self._waiting.pop(r.id, None)
            request = waiting if waiting is not None else self._request(r.id, r.digest, r.prompt_tokens, r.computed)
            request.num_computed_tokens = r.computed
            self._requests[r.id], self._labels[r.id] = request, r.digest
            self._tables[r.id] = [list(blocks) for blocks in r.block_ids]
            self._prefixes.setdefault(r.digest, {}).setdefault(self.topology_.target(r.prompt_tokens), request)
            self._fan_out(r.digest)
            new_data.append(c.make(c.NewRequestData, req_id=r.id, prompt_token_ids=request.prompt_token_ids,
                                   mm_features=[], sampling_params=None, pooling_params=None,
                                   block_ids=tuple(list(b) for b in r.block_ids), num_computed_tokens=r.computed,
                                   lora_request=None))
        for cr in step.cached:
            table = self._tables.setdefault(cr.id, [[] for _ in self.topology_.groups])
            if cr.resumed:
                table[:] = [list(blocks) for blocks in cr.new_block_ids]
            else:
                for g, blocks in enumerate(cr.new_block_ids):
                    table[g].extend(blocks)
            if cr.id in self._requests:
                self._requests[cr.id].num_computed_tokens = cr.computed
        # vLLM tells the connector of the blocks it allocated to a request it admits or resumes,
        # before it builds the step's metadata
        for r in step.new:
            self.connector.update_state_after_alloc(self._requests[r.id], standins.KVCacheBlocks(tuple(self._tables[r.id])),
                                                    r.external)
        for cr in step.cached:
            if cr.resumed and cr.id in self._requests:
                self.connector.update_state_after_alloc(self._requests[cr.id],
                                                        standins.KVCacheBlocks(tuple(self._tables[cr.id])), 0)
        cached = c.make(c.CachedRequestData, req_ids=[r.id for r in step.cached],
                        resumed_req_ids={r.id for r in step.cached if r.resumed},
                        new_token_ids=[[] for _ in step.cached], all_token_ids={},
                        new_block_ids=[tuple(list(b) for b in r.new_block_ids) for r in step.cached],
                        num_computed_tokens=[r.computed for r in step.cached], num_output_tokens=[0 for _ in step.cached])
        scheduled = {r.id: r.scheduled for r in step.new}
        scheduled.update({r.id: r.scheduled for r in step.cached})
        evidence: dict[str, Any]
        if self._evidence_field == "recurrent_boundary_blocks":
            evidence = {"recurrent_boundary_blocks": step.evidence}
        elif self._evidence_field == "partial_tail_offloads":
            evidence = {"partial_tail_offloads": typed_offloads(step.evidence, self._evidence_field)}
        else:
            tables = {i: tuple(list(b) for b in self._tables[i]) for i in scheduled if i in self._tables}
            evidence = {"kv_connector_block_state": c.block_state(tables, typed_offloads(step.evidence, self._evidence_field))}
        output = c.make(c.SchedulerOutput, scheduled_new_reqs=new_data, scheduled_cached_reqs=cached,
                        num_scheduled_tokens=scheduled, total_num_scheduled_tokens=sum(scheduled.values()),
                        scheduled_spec_decode_tokens={}, scheduled_encoder_inputs={},
                        num_common_prefix_blocks=[0] * len(self.topology_.groups),
                        finished_req_ids=set(self._finished_ids), free_encoder_mm_hashes=[],
                        preempted_req_ids=set(step.preempted), **evidence)
        self._finished_ids.clear()
        # the pending ids before the call matter only for the step's cached requests (a store that
        # went without a verdict); the mapping's pending() is a query, asked only where its answer is read
        before: Collection[str] = self._pending_ids() if step.cached else ()
        metadata = self.connector.build_connector_meta(output)
        verdicts = list(self.read_step(metadata, output) or ())
        after: Optional[set[str]] = None
        decided = _decided(verdicts)
        if before:
            after = self._pending_ids()
            for cr in step.cached:  # a pending store that went without a verdict: full quorum (protocol section 3)
                if cr.id in before and cr.id not in after and cr.id not in decided:
                    verdicts.append(self._retired(cr.id, "quorum"))
        for r in step.new:  # a new request of a label at full quorum, not tracked: counted, no verdict
            if (self.topology_.tracked(self.topology_.target(r.prompt_tokens)) and r.id not in decided
                    and self._full_quorum(r.digest)):
                if after is None:
                    after = self._pending_ids()
                if r.id not in after:
                    self._counted.store_skipped_quorum += 1
        if len(verdicts) > 1:
            order = step.order()
            verdicts.sort(key=lambda v: order.get(v.id, len(order)))
        self._counted.count(verdicts)
        self._check_pins()
        return verdicts

    def _retired(self, request_id: str, cause: str) -> Retired:
        return make_retired(self.last_step, request_id, cause)

    def finished(self, event: Finished) -> list[DriverVerdict]:
        self._waiting.pop(event.id, None)  # a request finished while waiting: vLLM never scheduled it
        request = self._requests.pop(event.id, None)
        if request is None:  # the scheduler frees only what it scheduled
            return []
        table = tuple(self._tables.pop(event.id, ()))
        self._finished_ids.add(event.id)
        before = self._pending_ids()
        if hasattr(self.connector, "request_finished_all_groups"):  # SupportsHMA
            self.connector.request_finished_all_groups(request, table)
        else:
            self.connector.request_finished(request, list(table[0]) if table else [])
        verdicts: list[DriverVerdict] = list(self.read_finished(request) or ())
        if event.id in before and event.id not in self._pending_ids() and event.id not in _decided(verdicts):
            verdicts.append(self._retired(event.id, "finished"))
        self._counted.count(verdicts)
        self._check_pins()
        return verdicts

    def held(self, event: Held) -> list[DriverVerdict]:
        reports = self._reports.setdefault(event.digest, [])
        if event.rank not in reports:
            reports.append(event.rank)
        if not 0 <= event.rank < self.topology_.tp_degree:
            self._ignored += 1
        self._fan_out(event.digest)
        verdicts = list(self.read_held() or ())
        self._counted.count(verdicts)
        self._check_pins()
        return verdicts

    def state(self) -> State:
        held = {label: [r for r in ranks if 0 <= r < self.topology_.tp_degree] for label, ranks in self._reports.items()}
        own = self.counters()
        counters = own if isinstance(own, Counters) or own is None else _override(self._counted, own)
        ignored = self.ignored_held()
        if ignored is not None:  # the connector's count of deliveries, against the events' (ignored_held())
            ignored = self._ignored + _check_int(ignored, "ignored_held()") - self._delivered_ignored
        return State(list(self.pending()), {k: v for k, v in held.items() if v},
                     counters if counters is not None else self._counted, ignored if ignored is not None else self._ignored)

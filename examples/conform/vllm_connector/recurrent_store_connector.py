"""A small scheduler-side KV connector in the shape of vLLM's connector API, written for proofgate.

`RecurrentStoreConnector` decides, on the scheduler side, when a request's prompt prefix may be
stored and which blocks make up the store, for a hybrid model whose Mamba groups keep one state
block (docs/protocol.md section 1). It is content-addressed: a prefix is named by the SHA-256 of
its tokens up to the span, and the workers report which tensor-parallel ranks hold a prefix.

- `build_connector_meta` reads the scheduler output (new and cached requests, scheduled token
  counts, preemptions, `recurrent_boundary_blocks`) and returns `RecurrentStoreMetadata`, whose
  `stores` are the plans the workers execute;
- a rejected proof is logged on the `recurrent_store_connector` logger (a warning whose arguments
  are the request id and the code) and counted in `stats`;
- workers report held prefixes as `HeldPrefixes` in `KVConnectorOutput.kv_connector_worker_meta`,
  which `update_connector_output` reads;
- `request_finished_all_groups` (it supports the hybrid allocator) drops a pending store.

It has one planted bug: it does not drop the latched proof of a preempted request (vLLM unpins
those blocks, so a resumed request needs a fresh proof). `FIXED = True` mends it; the example's
adapter sets it with `--fixed`.

With vLLM installed it subclasses vLLM's own base classes; without, the stand-ins of
`proofgate_adapter.vllm.standins`, which have the same names.
"""

from __future__ import annotations

import hashlib
import logging
from array import array
from dataclasses import dataclass, field

try:
    from vllm.distributed.kv_transfer.kv_connector.v1.base import (KVConnectorBase_V1, KVConnectorMetadata,
                                                                   KVConnectorRole, SupportsHMA)
except ImportError:
    from proofgate_adapter.vllm.standins import KVConnectorBase_V1, KVConnectorMetadata, KVConnectorRole, SupportsHMA

logger = logging.getLogger("recurrent_store_connector")

FIXED = False
DIGEST_SALT = b"recurrent-store-connector/v1"


@dataclass
class StorePlan:
    request_id: str
    prefix_digest: str
    span: int
    block_ids: list  # per group, in group order
    recurrent_blocks: list  # [group, block] per recurrent group


@dataclass
class RecurrentStoreMetadata(KVConnectorMetadata):
    stores: list = field(default_factory=list)


@dataclass
class HeldPrefixes:
    """Worker-to-scheduler metadata: (rank, prefix digest) pairs the rank holds."""

    held: list


@dataclass
class _Tracker:
    digest: str
    span: int
    done: int
    table: list
    latch: dict = field(default_factory=dict)  # group -> block


class _Reject(Exception):
    pass


def _policy(spec) -> str:
    name = type(spec).__name__
    if name == "SlidingWindowSpec":
        return "sliding"
    if name == "MambaSpec":
        return "recurrent_align"
    return "full"


class RecurrentStoreConnector(KVConnectorBase_V1, SupportsHMA):

    def __init__(self, vllm_config, role, kv_cache_config=None):
        super().__init__(vllm_config, role, kv_cache_config)
        assert role == KVConnectorRole.SCHEDULER, "only the scheduler side is written"
        extra = vllm_config.kv_transfer_config.kv_connector_extra_config
        self.hash_block_size = extra.get("hash_block_size", vllm_config.cache_config.block_size)
        self.min_span = extra.get("min_span_tokens", 1024)
        self.max_span = extra.get("max_span_tokens")
        self.tp_size = vllm_config.parallel_config.tensor_parallel_size
        self.groups = [(_policy(g.kv_cache_spec), g.kv_cache_spec.block_size,
                        getattr(g.kv_cache_spec, "sliding_window", None)) for g in kv_cache_config.kv_cache_groups]
        self.mamba_groups = [i for i, g in enumerate(self.groups) if g[0] == "recurrent_align"]
        self._pending: dict[str, _Tracker] = {}
        self._holders: dict[str, set] = {}
        self.stats = dict.fromkeys(("stores_planned", "recurrent_boundary_metadata_rejected", "store_skipped_quorum",
                                    "retired_finished", "held_reports_ignored"), 0)

    # --- scheduler side

    def prefix_digest(self, token_ids) -> str:
        return hashlib.sha256(DIGEST_SALT + array("I", token_ids).tobytes()).hexdigest()

    def pending_stores(self) -> dict:
        return dict(self._pending)

    def get_num_new_matched_tokens(self, request, num_computed_tokens):
        return 0, False  # a store-only connector: it loads nothing

    def update_state_after_alloc(self, request, blocks, num_external_tokens):
        return

    def build_connector_meta(self, scheduler_output):
        meta = RecurrentStoreMetadata()
        evidence = getattr(scheduler_output, "recurrent_boundary_blocks", None)
        if FIXED:
            for request_id in scheduler_output.preempted_req_ids or ():
                if request_id in self._pending:
                    self._pending[request_id].latch = {}  # vLLM unpinned the proven blocks
        for new in scheduler_output.scheduled_new_reqs:
            span = (len(new.prompt_token_ids) - 1) // self.hash_block_size * self.hash_block_size
            if span < self.min_span or (self.max_span is not None and span > self.max_span):
                continue
            digest = self.prefix_digest(new.prompt_token_ids[:span])
            if self._quorum(digest):
                self.stats["store_skipped_quorum"] += 1
                continue
            try:
                proof = self._proof(evidence, new.req_id, span) if self.mamba_groups else None
            except _Reject as reject:
                self._reject(new.req_id, str(reject))
                continue
            done = new.num_computed_tokens + scheduler_output.num_scheduled_tokens[new.req_id]
            tracker = _Tracker(digest, span, done, [list(b) for b in new.block_ids], proof or {})
            self._pending[new.req_id] = tracker
            if not self.mamba_groups and done >= span:
                self._publish(new.req_id, meta)
        cached = scheduler_output.scheduled_cached_reqs
        for i, request_id in enumerate(cached.req_ids):
            tracker = self._pending.get(request_id)
            if tracker is None:
                continue
            if self._quorum(tracker.digest):
                del self._pending[request_id]
                self.stats["store_skipped_quorum"] += 1
                continue
            if self.mamba_groups:
                try:
                    proof = self._proof(evidence, request_id, tracker.span)
                    if proof and tracker.latch and proof != tracker.latch:
                        raise _Reject("conflict")
                except _Reject as reject:
                    del self._pending[request_id]
                    self._reject(request_id, str(reject))
                    continue
                tracker.latch = tracker.latch or proof or {}
            blocks = cached.new_block_ids[i] or tuple([] for _ in self.groups)
            if request_id in cached.resumed_req_ids:
                tracker.table = [list(b) for b in blocks]
            else:
                for g, b in enumerate(blocks):
                    tracker.table[g].extend(b)
            tracker.done = cached.num_computed_tokens[i] + scheduler_output.num_scheduled_tokens[request_id]
            if tracker.done >= tracker.span and (tracker.latch or not self.mamba_groups):
                self._publish(request_id, meta)
        return meta

    def _quorum(self, digest) -> bool:
        return len(self._holders.get(digest, ())) == self.tp_size

    def _reject(self, request_id, code):
        self.stats["recurrent_boundary_metadata_rejected"] += 1
        logger.warning("rejected the recurrent boundary metadata of %s: %s", request_id, code)

    def _proof(self, evidence, request_id, span):
        """The exact-span proof {group: block}, or None; raises _Reject(code)."""
        if evidence is None:
            return None
        if not isinstance(evidence, dict):
            raise _Reject("not_a_mapping")
        entries = evidence.get(request_id)
        if entries is None:
            return None
        if not isinstance(entries, list):
            raise _Reject("not_a_list")
        if len(entries) == 0:
            raise _Reject("empty")
        proof = {}
        for entry in entries:
            if not (isinstance(entry, list) and len(entry) == 3
                    and all(type(x) is int for x in entry)):  # noqa: E721 - bool is not an integer here
                raise _Reject("malformed_entry")
            group, block, boundary = entry
            if not 0 <= group < len(self.groups):
                raise _Reject("unknown_group")
            if group not in self.mamba_groups:
                raise _Reject("non_recurrent_group")
            if block <= 0:
                raise _Reject("null_block")
            if boundary > span:
                raise _Reject("future_boundary")
            if boundary == span:
                if group in proof:
                    raise _Reject("duplicate_group")
                proof[group] = block
        if proof and set(proof) != set(self.mamba_groups):
            raise _Reject("incomplete")
        return proof or None

    def _publish(self, request_id, meta):
        tracker = self._pending.pop(request_id)
        block_ids = []
        for g, (policy, size, window) in enumerate(self.groups):
            if policy == "recurrent_align":
                block_ids.append([tracker.latch[g]])
                continue
            end = -(-tracker.span // size)
            start = max(0, tracker.span - window) // size if policy == "sliding" else 0
            if end > len(tracker.table[g]) or min(tracker.table[g][start:end], default=1) <= 0:
                return self._reject(request_id, "invalid_selection")
            block_ids.append(tracker.table[g][start:end])
        flat = [b for blocks in block_ids for b in blocks]
        if len(set(flat)) != len(flat):
            return self._reject(request_id, "invalid_selection")
        self.stats["stores_planned"] += 1
        meta.stores.append(StorePlan(request_id, tracker.digest, tracker.span, block_ids,
                                     [[g, tracker.latch[g]] for g in self.mamba_groups]))

    def update_connector_output(self, connector_output):
        held = getattr(connector_output, "kv_connector_worker_meta", None)
        if isinstance(held, HeldPrefixes):
            for rank, digest in held.held:
                if 0 <= rank < self.tp_size:
                    self._holders.setdefault(digest, set()).add(rank)
                else:
                    self.stats["held_reports_ignored"] += 1

    def request_finished(self, request, block_ids):
        return self.request_finished_all_groups(request, (block_ids,))

    def request_finished_all_groups(self, request, block_ids):
        if self._pending.pop(request.request_id, None) is not None:
            self.stats["retired_finished"] += 1
        return False, None

    # --- worker side: not written (this example is the scheduler's decisions only)

    def start_load_kv(self, forward_context, **kwargs):
        return

    def wait_for_layer_load(self, layer_name):
        return

    def save_kv_layer(self, layer_name, kv_layer, attn_metadata, **kwargs):
        return

    def wait_for_save(self):
        return

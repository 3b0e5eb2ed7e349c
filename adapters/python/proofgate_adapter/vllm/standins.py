"""Stand-ins for the vLLM classes a scheduler-side KV connector sees, for a machine without vLLM.

Same class names and field names as vLLM's, documented against vLLM's main branch of early 2026,
after vllm-project/vllm#31964 (the worker-to-scheduler `kv_connector_worker_meta` channel). The
commits read:

- `vllm/v1/core/sched/output.py` at 00e8f1fd0936d138370d01dbe1b4f8e12baf63b1: `NewRequestData`,
  `CachedRequestData` (with `resumed_req_ids`, which replaced the list `resumed_from_preemption`
  in late 2025), `SchedulerOutput` (with `preempted_req_ids`);
- `vllm/distributed/kv_transfer/kv_connector/v1/base.py` at
  13f4ad0f55b08ca1d37d1459f50ce950feaeb547: `KVConnectorBase_V1`'s scheduler-side methods,
  `KVConnectorRole`, `KVConnectorMetadata`, `SupportsHMA.request_finished_all_groups`;
- `vllm/v1/outputs.py` at 0087e005dec9ed37e5564c4d13b38d350ce61992: `KVConnectorOutput`.

vLLM's recurrent boundary hand-off (protocol section 1: request id -> [(group, block,
boundary_tokens)]) has three spellings, and the driver fills the one the connector's vLLM has
(`PROOFGATE_VLLM_EVIDENCE`, driver.py):

- `SchedulerOutput.kv_connector_block_state`, a `KVConnectorBlockState` with `block_ids` (the
  scheduled requests' block tables) and `boundary_state_offloads`
  (`dict[str, list[tuple[int, int, int]]]`): vLLM 0.29 and later (vllm-project/vllm#51358);
- `SchedulerOutput.partial_tail_offloads`, the same mapping flat: vLLM 0.28;
- `SchedulerOutput.recurrent_boundary_blocks`, the mapping as the log has it, malformed or not:
  the seed's fork.

The configuration classes (`VllmConfig` and the KV-cache specs) are always stand-ins: vLLM's real
`VllmConfig` cannot be built without a model. They carry the attribute paths a connector reads.
Only what a scheduler-side connector uses is here: torch-typed fields are left out.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Optional, Union

VLLM_REFERENCE = "vLLM main, early 2026 (output.py 00e8f1fd, base.py 13f4ad0f, outputs.py 0087e005)"


# --- vllm/v1/core/sched/output.py

@dataclass
class NewRequestData:
    req_id: str
    prompt_token_ids: Optional[list[int]]
    mm_features: list[Any]
    sampling_params: Any
    pooling_params: Any
    block_ids: tuple[list[int], ...]
    num_computed_tokens: int
    lora_request: Any
    prompt_embeds: Any = None
    prefill_token_ids: Optional[list[int]] = None


@dataclass
class CachedRequestData:
    req_ids: list[str]
    # for ids not in resumed_req_ids, new_block_ids are appended to the request's table; for
    # those in it, they replace the table
    resumed_req_ids: set[str]
    new_token_ids: list[list[int]]
    all_token_ids: dict[str, list[int]]
    new_block_ids: list[Optional[tuple[list[int], ...]]]
    num_computed_tokens: list[int]
    num_output_tokens: list[int]

    @property
    def num_reqs(self) -> int:
        return len(self.req_ids)

    @classmethod
    def make_empty(cls) -> CachedRequestData:
        return cls([], set(), [], {}, [], [], [])


@dataclass
class SchedulerOutput:
    scheduled_new_reqs: list[NewRequestData]
    scheduled_cached_reqs: CachedRequestData
    num_scheduled_tokens: dict[str, int]
    total_num_scheduled_tokens: int
    scheduled_spec_decode_tokens: dict[str, list[int]]
    scheduled_encoder_inputs: dict[str, list[int]]
    num_common_prefix_blocks: list[int]
    finished_req_ids: set[str]
    free_encoder_mm_hashes: list[str]
    preempted_req_ids: Optional[set[str]] = None
    pending_structured_output_tokens: bool = False
    kv_connector_metadata: Optional[KVConnectorMetadata] = None
    ec_connector_metadata: Any = None
    # the recurrent boundary hand-off in its three spellings (see the module's docstring)
    kv_connector_block_state: Optional[KVConnectorBlockState] = None
    partial_tail_offloads: Optional[dict[str, list[tuple[int, int, int]]]] = None
    # Any, not a typed mapping: the seed's fork passes the evidence as the log has it, malformed or not
    recurrent_boundary_blocks: Any = None


@dataclass
class KVConnectorBlockState:
    """vLLM 0.29's scheduler-local block state for a producer-side connector."""

    block_ids: dict[str, tuple[list[int], ...]]
    boundary_state_offloads: dict[str, list[tuple[int, int, int]]]

    def get_block_ids(self, req_id: str) -> Optional[tuple[list[int], ...]]:
        return self.block_ids.get(req_id)


# --- vllm/v1/outputs.py

@dataclass
class KVConnectorOutput:
    finished_sending: Optional[set[str]] = None
    finished_recving: Optional[set[str]] = None
    kv_connector_stats: Any = None
    kv_cache_events: Any = None
    kv_connector_worker_meta: Any = None
    invalid_block_ids: set[int] = field(default_factory=set)
    expected_finished_count: int = 0


# --- vllm/v1/request.py (the fields a scheduler-side connector reads)

class RequestStatus(enum.Enum):
    WAITING = enum.auto()
    RUNNING = enum.auto()
    PREEMPTED = enum.auto()
    FINISHED_STOPPED = enum.auto()


class Request:
    def __init__(self, request_id: str, prompt_token_ids: list[int], cache_salt: Optional[str] = None,
                 lora_request: Any = None) -> None:
        self.request_id = request_id
        self.prompt_token_ids = prompt_token_ids
        self.num_prompt_tokens = len(prompt_token_ids)
        self.output_token_ids: list[int] = []
        self.all_token_ids = list(prompt_token_ids)
        self.num_computed_tokens = 0
        self.cache_salt = cache_salt
        self.lora_request = lora_request
        self.sampling_params: Any = None
        self.pooling_params: Any = None
        self.mm_features: list[Any] = []
        self.block_hashes: list[bytes] = []  # the driver sets them as vLLM's hasher computes them (driver.block_hashes)
        self.status = RequestStatus.WAITING

    @property
    def num_tokens(self) -> int:
        return len(self.all_token_ids)

    def __repr__(self) -> str:
        return "Request(%r, %d prompt tokens)" % (self.request_id, self.num_prompt_tokens)


# --- vllm/v1/core/kv_cache_manager.py (what update_state_after_alloc is given)

@dataclass
class KVCacheBlocks:
    """The blocks allocated to a request, per group; a stand-in even beside a real vLLM (vLLM's
    holds KVCacheBlock objects of its pool, which a scheduler-side connector reads by id)."""

    block_ids: tuple[list[int], ...]

    def get_block_ids(self, allow_none: bool = False) -> tuple[list[int], ...]:
        return tuple(list(b) for b in self.block_ids)

    def get_unhashed_block_ids(self) -> list[int]:
        return [b for b in self.block_ids[0] if b > 0] if self.block_ids else []


# --- vllm/v1/core/block_pool.py (what a connector bound to the pool touches and frees)

@dataclass
class KVCacheBlock:
    block_id: int
    ref_cnt: int = 0
    block_hash: Optional[bytes] = None


class BlockPool:
    """The GPU block pool as a connector bound to it (`bind_gpu_block_pool`) sees it: `blocks` by
    id, `touch` to hold blocks (one reference more each) and `free_blocks` to let them go. Only the
    connector's references are counted: the block ids come from the log, which allocates and
    frees them as vLLM did, so a reference here is what keeps a block from vLLM's next allocation
    (the driver reads `held` to know whether a plan's blocks are pinned)."""

    def __init__(self) -> None:
        self.blocks = _Blocks()

    def touch(self, blocks: Any) -> None:
        for block in _flat(blocks):
            block.ref_cnt += 1

    def free_blocks(self, ordered_blocks: Any) -> None:
        for block in _flat(ordered_blocks):
            if block.ref_cnt <= 0:
                raise ValueError("free_blocks: block %d has no reference to free" % block.block_id)
            block.ref_cnt -= 1

    def held(self, block_id: int) -> bool:
        """Whether the connector holds a reference to the block."""
        block = self.blocks.get(block_id)
        return block is not None and block.ref_cnt > 0


class _Blocks(dict[int, KVCacheBlock]):
    """Blocks by id, made on first use: the log names the ids, the pool has every one."""

    def __missing__(self, block_id: int) -> KVCacheBlock:
        block = KVCacheBlock(block_id)
        self[block_id] = block
        return block


def _flat(blocks: Any) -> list[KVCacheBlock]:
    """Blocks given flat, or per group (vLLM's `touch` takes a tuple of per-group lists)."""
    out: list[KVCacheBlock] = []
    for item in blocks:
        if isinstance(item, KVCacheBlock):
            out.append(item)
        else:
            out.extend(item)
    return out


# --- vllm/distributed/kv_transfer/kv_connector/v1/base.py

class KVConnectorRole(enum.Enum):
    SCHEDULER = 0
    WORKER = 1


class KVConnectorMetadata(ABC):  # noqa: B024 - abstract as in vLLM, without abstract methods
    pass


class KVConnectorBase_V1(ABC):  # noqa: N801 - vLLM's name
    """The scheduler-side part of vLLM's connector base class (the worker side is not driven)."""

    def __init__(self, vllm_config: VllmConfig, role: KVConnectorRole,
                 kv_cache_config: Optional[KVCacheConfig] = None) -> None:
        self._connector_metadata: Optional[KVConnectorMetadata] = None
        self._vllm_config = vllm_config
        if vllm_config.kv_transfer_config is None:
            raise ValueError("kv_transfer_config must be set for KVConnectorBase_V1")
        self._kv_transfer_config = vllm_config.kv_transfer_config
        self._kv_cache_config = kv_cache_config
        self._role = role

    @property
    def role(self) -> KVConnectorRole:
        return self._role

    @abstractmethod
    def get_num_new_matched_tokens(self, request: Request, num_computed_tokens: int) -> tuple[Optional[int], bool]:
        ...

    @abstractmethod
    def update_state_after_alloc(self, request: Request, blocks: Any, num_external_tokens: int) -> None:
        ...

    @abstractmethod
    def build_connector_meta(self, scheduler_output: SchedulerOutput) -> KVConnectorMetadata:
        ...

    def update_connector_output(self, connector_output: KVConnectorOutput) -> None:
        return

    def request_finished(self, request: Request, block_ids: list[int]) -> tuple[bool, Optional[dict[str, Any]]]:
        return False, None

    def take_events(self) -> Iterable[Any]:
        return ()


class SupportsHMA(ABC):
    """A connector that supports the hybrid memory allocator: finished for all groups at once."""

    @abstractmethod
    def request_finished_all_groups(self, request: Request,
                                    block_ids: tuple[list[int], ...]) -> tuple[bool, Optional[dict[str, Any]]]:
        raise NotImplementedError


# --- configuration (always stand-ins; see the module's docstring)

@dataclass
class FullAttentionSpec:
    block_size: int


@dataclass
class SlidingWindowSpec:
    block_size: int
    sliding_window: int


@dataclass
class MambaSpec:
    block_size: int
    mamba_cache_mode: str = "align"


KVCacheSpec = Union[FullAttentionSpec, SlidingWindowSpec, MambaSpec]


@dataclass
class KVCacheGroupSpec:
    layer_names: list[str]
    kv_cache_spec: KVCacheSpec


@dataclass
class KVCacheConfig:
    num_blocks: int
    kv_cache_tensors: list[Any]
    kv_cache_groups: list[KVCacheGroupSpec]


@dataclass
class CacheConfig:
    block_size: int
    enable_prefix_caching: bool = True


@dataclass
class ParallelConfig:
    tensor_parallel_size: int = 1


@dataclass
class KVTransferConfig:
    kv_connector: str = ""
    kv_role: str = "kv_both"
    kv_connector_extra_config: dict[str, Any] = field(default_factory=dict)

    def get_from_extra_config(self, key: str, default: Any) -> Any:
        return self.kv_connector_extra_config.get(key, default)


@dataclass
class ModelConfig:
    model: str = "proofgate/stand-in"
    dtype: str = "bfloat16"


@dataclass
class VllmConfig:
    cache_config: CacheConfig
    parallel_config: ParallelConfig
    kv_transfer_config: KVTransferConfig
    model_config: ModelConfig = field(default_factory=ModelConfig)

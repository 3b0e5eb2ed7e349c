"""The vLLM driver: what it hands the connector, the fan-out of held reports, inferred verdicts,
a mapping that raises, a connector that raises what the library may not catch, the stand-ins'
field names, and the example connector on the seed logs."""

import dataclasses
import hashlib
import os
import pickle
import sys
import unittest
from collections.abc import Iterable
from typing import Any, NoReturn, Optional, cast

from support import HELLO, REPOSITORY, TOPOLOGY, UNCAUGHT_LINE, Message, answers, expected, ran, seed_log

os.environ["PROOFGATE_VLLM_CLASSES"] = "standins"  # the same classes whether or not vLLM is installed here

from proofgate_adapter import PendingStore  # noqa: E402
from proofgate_adapter.vllm import Classes, VllmConnectorAdapter, block_hashes, prompt_token_ids, standins  # noqa: E402
from proofgate_adapter.vllm.driver import DriverVerdict  # noqa: E402


class Recording(standins.KVConnectorBase_V1, standins.SupportsHMA):
    """A connector that records its calls; it keeps every new request pending, and drops one for
    quorum when it has heard of the request's prefix from every rank."""

    def __init__(self, vllm_config: standins.VllmConfig, role: standins.KVConnectorRole,
                 kv_cache_config: Optional[standins.KVCacheConfig] = None) -> None:
        super().__init__(vllm_config, role, kv_cache_config)
        self.calls: list[tuple[Any, ...]] = []
        self.pending: dict[str, tuple[int, ...]] = {}  # id -> the prompt's tokens up to the target
        self.held: set[tuple[int, tuple[int, ...]]] = set()  # (rank, tokens)
        self.hashes: dict[str, list[bytes]] = {}  # id -> the block hashes its request carried

    def get_num_new_matched_tokens(self, request: standins.Request, num_computed_tokens: int) -> tuple[int, bool]:
        return 0, False

    def update_state_after_alloc(self, request: standins.Request, blocks: Any, num_external_tokens: int) -> None:
        self.calls.append(("update_state_after_alloc", request.request_id, blocks.get_block_ids(), num_external_tokens))
        self.hashes[request.request_id] = request.block_hashes

    def build_connector_meta(self, scheduler_output: standins.SchedulerOutput) -> standins.KVConnectorMetadata:
        self.calls.append(("build_connector_meta", scheduler_output))
        for new in scheduler_output.scheduled_new_reqs:
            assert new.prompt_token_ids is not None  # the driver always gives them
            self.pending[new.req_id] = tuple(new.prompt_token_ids[:6912])
        for request_id in scheduler_output.scheduled_cached_reqs.req_ids:
            if request_id in self.pending and all((r, self.pending[request_id]) in self.held for r in range(2)):
                del self.pending[request_id]
        return standins.KVConnectorMetadata()

    def request_finished_all_groups(self, request: standins.Request,
                                    block_ids: tuple[list[int], ...]) -> tuple[bool, None]:
        self.calls.append(("request_finished_all_groups", request.request_id, block_ids))
        self.pending.pop(request.request_id, None)
        return False, None


class Mapping(VllmConnectorAdapter):
    name = "recording"

    def __init__(self, fail: bool = False) -> None:
        super().__init__()
        self.fail = fail
        self.delivered: list[tuple[int, str, int]] = []

    def create_connector(self, vllm_config: standins.VllmConfig, kv_cache_config: standins.KVCacheConfig) -> Recording:
        self.config = (vllm_config, kv_cache_config)
        return Recording(vllm_config, standins.KVConnectorRole.SCHEDULER, kv_cache_config)

    def read_step(self, metadata: Any, scheduler_output: Any) -> Optional[Iterable[DriverVerdict]]:
        if self.fail and scheduler_output.recurrent_boundary_blocks:
            raise RuntimeError("no store plan in %s" % type(metadata).__name__)
        return []

    def deliver_held(self, rank: int, request: Any, target: int) -> None:
        self.delivered.append((rank, request.request_id, target))
        self.connector.held.add((rank, tuple(request.prompt_token_ids[:target])))

    def pending(self) -> list[PendingStore]:
        return [PendingStore(i, 0, [], ()) for i in self.connector.pending]


def new(request_id: str, digest: str, prompt_tokens: int, computed: int = 0, scheduled: int = 4608) -> dict[str, Any]:
    return {"id": request_id, "digest": digest, "prompt_tokens": prompt_tokens, "computed": computed,
            "scheduled": scheduled, "block_ids": [[11, 12], [0, 71]]}


TP2 = dict(TOPOLOGY, tp_degree=2, hash_block_size=256)


class DriverTest(unittest.TestCase):

    def test_the_topology_becomes_vllm_configuration(self) -> None:
        mapping = Mapping()
        answers(mapping, {"kind": "topology", "schema": "proofgate-events/v1", "tp_degree": 4, "groups": [
            {"policy": "full", "block_tokens": 2304, "window_tokens": 0},
            {"policy": "sliding", "block_tokens": 2304, "window_tokens": 4096},
            {"policy": "recurrent_align", "block_tokens": 2304}]})
        vllm_config, kv_cache_config = mapping.config
        self.assertEqual((256, 4), (vllm_config.cache_config.block_size, vllm_config.parallel_config.tensor_parallel_size))
        self.assertEqual({"hash_block_size": 256, "min_span_tokens": 1024, "max_span_tokens": None},
                         vllm_config.kv_transfer_config.kv_connector_extra_config)
        self.assertEqual([standins.FullAttentionSpec(2304), standins.SlidingWindowSpec(2304, 4096),
                          standins.MambaSpec(2304, "align")], [g.kv_cache_spec for g in kv_cache_config.kv_cache_groups])

    def test_a_step_becomes_one_scheduler_output_and_one_build_connector_meta(self) -> None:
        mapping = Mapping()
        evidence = {"r1": [[1, 42, 6912]], "r9": "anything"}
        answers(mapping, TOPOLOGY, {"kind": "step", "step": 1, "new": [new("r1", "d1", 6992)]},
                {"kind": "finished", "id": "r0"},
                {"kind": "step", "step": 2, "cached": [{"id": "r1", "computed": 4608, "scheduled": 2304,
                                                        "new_block_ids": [[13], [72]], "resumed": True}],
                 "preempted": ["r7"], "recurrent_boundary_blocks": evidence},
                {"kind": "finished", "id": "r1"}, {"kind": "step", "step": 3})
        allocs = [c for c in mapping.connector.calls if c[0] == "update_state_after_alloc"]
        # the admitted request's blocks, then the resumed one's, no external tokens
        self.assertEqual([("update_state_after_alloc", "r1", ([11, 12], [0, 71]), 0),
                          ("update_state_after_alloc", "r1", ([13], [72]), 0)], allocs)
        calls = [c for c in mapping.connector.calls if c[0] != "update_state_after_alloc"]
        self.assertEqual(["build_connector_meta", "build_connector_meta", "request_finished_all_groups",
                          "build_connector_meta"], [c[0] for c in calls])
        first, second, third = calls[0][1], calls[1][1], calls[3][1]
        data = first.scheduled_new_reqs[0]
        self.assertEqual(("r1", 6992, ([11, 12], [0, 71]), 0), (data.req_id, len(data.prompt_token_ids), data.block_ids,
                                                                data.num_computed_tokens))
        self.assertEqual({"r1": 4608}, first.num_scheduled_tokens)
        self.assertIsNone(first.recurrent_boundary_blocks)
        cached = second.scheduled_cached_reqs
        self.assertEqual((["r1"], {"r1"}, [([13], [72])], [4608]), (cached.req_ids, cached.resumed_req_ids,
                                                                    cached.new_block_ids, cached.num_computed_tokens))
        self.assertEqual(({"r7"}, evidence, 2304), (second.preempted_req_ids, second.recurrent_boundary_blocks,
                                                    second.total_num_scheduled_tokens))
        # a resumed request's new blocks replace its table; finishing hands the table over, all groups at once
        self.assertEqual(("r1", ([13], [72])), calls[2][1:])
        self.assertEqual(set(), second.finished_req_ids)  # r0 was never scheduled: the scheduler frees nothing
        self.assertEqual({"r1"}, third.finished_req_ids)

    def test_a_lookup_asks_get_num_new_matched_tokens_and_the_request_is_allocated_with_the_hit(self) -> None:
        class Restoring(Recording):
            def get_num_new_matched_tokens(self, request: standins.Request, num_computed_tokens: int) -> tuple[int, bool]:
                self.calls.append(("get_num_new_matched_tokens", request.request_id, len(request.prompt_token_ids),
                                   len(request.block_hashes), num_computed_tokens))
                self.asked = request
                return 4608 - num_computed_tokens, False

            def update_state_after_alloc(self, request: standins.Request, blocks: Any, num_external_tokens: int) -> None:
                super().update_state_after_alloc(request, blocks, num_external_tokens)
                self.loading = (request, num_external_tokens)

        class Loading(Mapping):
            capabilities = ("sliding", "restore")

            def create_connector(self, vllm_config: standins.VllmConfig,
                                 kv_cache_config: standins.KVCacheConfig) -> Recording:
                return Restoring(vllm_config, standins.KVConnectorRole.SCHEDULER, kv_cache_config)

            def read_step(self, metadata: Any, scheduler_output: Any) -> Optional[Iterable[DriverVerdict]]:
                request, external = self.connector.loading
                return [self.load(request.request_id, request.num_computed_tokens, [[11, 12], [71]])] if external else []
        mapping = Loading()
        got = answers(mapping, HELLO, TOPOLOGY, {"kind": "lookup", "id": "r1", "digest": "d1", "prompt_tokens": 6992,
                                                 "computed": 2304},
                      {"kind": "step", "step": 1, "new": [dict(new("r1", "d1", 6992, computed=4608, scheduled=2384),
                                                               external=2304)]})
        self.assertIn("restore", got[0][0]["capabilities"])
        self.assertEqual([{"kind": "hit", "step": 0, "id": "r1", "tokens": 2304}], got[2])
        self.assertEqual([{"kind": "load", "step": 1, "id": "r1", "digest": "d1", "span": 4608,
                           "blocks_by_group": [[11, 12], [71]]}], got[3])
        connector = cast(Restoring, mapping.connector)
        # vLLM's own tokens passed; the prompt and its block hashes as a new request has them
        self.assertEqual(("get_num_new_matched_tokens", "r1", 6992, 27, 2304), connector.calls[0])
        # the request asked about is the one allocated, with the hit as its external tokens
        self.assertIs(connector.asked, connector.loading[0])
        self.assertEqual(("update_state_after_alloc", "r1", ([11, 12], [0, 71]), 2304), connector.calls[1])

    def test_the_evidence_goes_in_the_field_of_the_connectors_vllm(self) -> None:
        evidence = {"r1": [[1, 42, 6912]]}
        step2 = {"kind": "step", "step": 2, "cached": [{"id": "r1", "computed": 4608, "scheduled": 2304,
                                                        "new_block_ids": [[13], [72]], "resumed": False}],
                 "recurrent_boundary_blocks": evidence}
        seen = {}
        for field_name in ("kv_connector_block_state", "partial_tail_offloads", "recurrent_boundary_blocks"):
            mapping = Mapping()
            mapping.evidence_field = field_name
            mapping._evidence_field = mapping.classes.evidence_field(field_name)
            answers(mapping, TOPOLOGY, {"kind": "step", "step": 1, "new": [new("r1", "d1", 6992)]}, step2)
            seen[field_name] = [c for c in mapping.connector.calls if c[0] == "build_connector_meta"][1][1]
        block_state = seen["kv_connector_block_state"].kv_connector_block_state
        self.assertEqual({"r1": [(1, 42, 6912)]}, block_state.boundary_state_offloads)
        self.assertEqual({"r1": ([11, 12, 13], [0, 71, 72])}, block_state.block_ids)  # the whole table, as vLLM holds it
        self.assertIsNone(seen["kv_connector_block_state"].recurrent_boundary_blocks)
        self.assertEqual({"r1": [(1, 42, 6912)]}, seen["partial_tail_offloads"].partial_tail_offloads)
        self.assertIsNone(seen["partial_tail_offloads"].kv_connector_block_state)
        self.assertEqual(evidence, seen["recurrent_boundary_blocks"].recurrent_boundary_blocks)
        self.assertEqual("recurrent_boundary_blocks", Classes("standins").evidence_field(),
                         "with the stand-ins, auto is the seed's fork")
        with self.assertRaisesRegex(ValueError, "PROOFGATE_VLLM_EVIDENCE must be auto or one of"):
            Classes("standins").evidence_field("boundary_state_offloads")

    def test_evidence_a_typed_field_cannot_carry_makes_the_scenario_not_applicable(self) -> None:
        mapping = Mapping()
        mapping._evidence_field = "kv_connector_block_state"
        said = answers(mapping, TOPOLOGY, {"kind": "step", "step": 1, "new": [new("r1", "d1", 6992)],
                                           "recurrent_boundary_blocks": {"r1": [[1, True, 6912]]}},
                       {"kind": "finished", "id": "r1"}, {"kind": "summary"})
        reason = ("SchedulerOutput.kv_connector_block_state (dict[str, list[tuple[int, int, int]]]) cannot carry the"
                  " scenario's evidence")
        inapplicable = [{"kind": "not_applicable", "reason": reason}]
        self.assertEqual([[], inapplicable, inapplicable, inapplicable], said)
        # the next scenario starts afresh
        self.assertEqual([[], []], answers(mapping, TOPOLOGY, {"kind": "step", "step": 1, "new": [new("r1", "d1", 6992)]}))

    def test_the_extra_config_answers_get_from_extra_config(self) -> None:
        mapping = Mapping()
        answers(mapping, TOPOLOGY)
        config = mapping.config[0].kv_transfer_config
        self.assertEqual((256, "fallback"), (config.get_from_extra_config("hash_block_size", 0),
                                             config.get_from_extra_config("absent", "fallback")))

    def test_a_mapping_gives_some_counters_of_its_own_and_the_driver_counts_the_rest(self) -> None:
        class OwnPlans(Mapping):
            def counters(self) -> dict[str, int]:
                return {"plans": 7}
        mapping = OwnPlans()
        said = answers(mapping, TOPOLOGY, {"kind": "step", "step": 1, "new": [new("r1", "d1", 6992)]},
                       {"kind": "finished", "id": "r1"}, {"kind": "summary"})
        summary = said[-1][0]
        self.assertEqual((7, 0, 0, 1), (summary["plans"], summary["rejected"], summary["store_skipped_quorum"],
                                        summary["retired_finished"]))
        self.assertEqual(1, mapping.counted.retired_finished)

        class Misspelt(Mapping):
            def counters(self) -> dict[str, int]:
                return {"plan": 7}
        said = answers(Misspelt(), TOPOLOGY, {"kind": "summary"})
        self.assertIn("counters() names counters the protocol does not have: plan", said[-1][0]["message"])

    def test_a_mapping_reports_verdicts_after_finished_and_after_its_workers_output(self) -> None:
        class Late(Mapping):
            def read_finished(self, request: Any) -> list[DriverVerdict]:
                return [self.plan(request.request_id, 6912, [[11, 12, 13], [42]], [[1, 42]])]

            def read_held(self) -> list[DriverVerdict]:
                return [self.rejected("r1", "no_boundary_mapping")] if self.delivered else []
        said = answers(Late(), TP2, {"kind": "step", "step": 1, "new": [new("r1", "d1", 6992)]},
                       {"kind": "held", "rank": 0, "digest": "d1"}, {"kind": "finished", "id": "r1"}, {"kind": "summary"})
        self.assertEqual([{"kind": "rejected", "step": 1, "id": "r1", "code": "no_boundary_mapping"}], said[2])
        # the mapping's plan at finish, and no retirement besides: the store went with a verdict
        self.assertEqual([("plan", "r1", 6912)], [(v["kind"], v["id"], v["span"]) for v in said[3]])
        self.assertEqual((1, 1, 0), (said[4][0]["plans"], said[4][0]["rejected"], said[4][0]["retired_finished"]))

    def test_a_mapping_reports_an_async_copy_and_its_end_which_decides_nothing(self) -> None:
        class Copier(Mapping):
            def read_step(self, metadata: Any, scheduler_output: Any) -> list[DriverVerdict]:
                if self.last_step == 1:
                    return [self.plan("r1", 6912, [[11, 12, 13], [42]], [[1, 42]], copy="async", pinned=True)]
                return [self.saved("r1", 6912)]  # its workers are done; the store goes for quorum, unannounced
        said = answers(Copier(), TP2, {"kind": "step", "step": 1, "new": [new("r1", "d1", 6992)]},
                       {"kind": "held", "rank": 0, "digest": "d1"}, {"kind": "held", "rank": 1, "digest": "d1"},
                       {"kind": "step", "step": 2, "cached": [{"id": "r1", "computed": 4608, "scheduled": 2304,
                                                               "new_block_ids": [[13], [72]], "resumed": False}]})
        self.assertEqual(("async", True), (said[1][0]["copy"], said[1][0]["pinned"]))
        self.assertEqual([{"kind": "saved", "step": 2, "id": "r1", "digest": "d1", "span": 6912},
                          {"kind": "retired", "step": 2, "id": "r1", "cause": "quorum"}], said[4])

    def test_a_connector_bound_to_the_block_pool_pins_what_it_touches_until_it_frees_it(self) -> None:
        class Pinning(Recording):
            touches = True

            def bind_gpu_block_pool(self, pool: standins.BlockPool) -> None:
                self.pool = pool

            def build_connector_meta(self, scheduler_output: standins.SchedulerOutput) -> standins.KVConnectorMetadata:
                if self.touches and scheduler_output.recurrent_boundary_blocks:
                    self.pool.touch([self.pool.blocks[b] for b in (11, 12, 13, 42)])
                return super().build_connector_meta(scheduler_output)

            def update_connector_output(self, connector_output: standins.KVConnectorOutput) -> None:
                self.pool.free_blocks([self.pool.blocks[b] for b in (42, 13, 12, 11)])  # the workers are done

        class Copier(Mapping):
            claim: Optional[bool] = None
            early = False

            def create_connector(self, vllm_config: standins.VllmConfig,
                                 kv_cache_config: standins.KVCacheConfig) -> Recording:
                return Pinning(vllm_config, standins.KVConnectorRole.SCHEDULER, kv_cache_config)

            def read_step(self, metadata: Any, scheduler_output: Any) -> list[DriverVerdict]:
                if self.last_step == 1:
                    return [self.plan("r1", 6912, [[11, 12, 13], [42]], [[1, 42]], copy="async", pinned=self.claim)]
                self.connector.update_connector_output(standins.KVConnectorOutput())
                out: list[DriverVerdict] = [] if self.early else [self.saved("r1", 6912)]  # its workers are done
                return out + [self.plan("r2", 6912, [[11, 12, 13], [42]], [[1, 42]], copy="async")]

        step1 = {"kind": "step", "step": 1, "new": [new("r1", "d1", 6992)], "recurrent_boundary_blocks": {"r1": [[1, 42, 6912]]}}
        step2 = {"kind": "step", "step": 2, "new": [new("r2", "d1", 6992)]}
        said = answers(Copier(), TOPOLOGY, step1, step2)
        # held while the workers copy; once freed, the next plan's blocks are not
        later = {line["kind"]: line for line in said[2]}
        self.assertEqual([True, False], [said[1][0]["pinned"], later["plan"].get("pinned", False)])
        self.assertEqual(("r1", 6912), (later["saved"]["id"], later["saved"]["span"]))
        # freed before the saved line: the pin ended under the workers, an error of that event
        early = Copier()
        early.early = True
        error = answers(early, TOPOLOGY, step1, step2)[2][0]
        self.assertEqual("error", error["kind"])
        self.assertIn("the connector freed block 11 of the plan of r1 for 6912 tokens before its saved line", error["message"])

        # a pin without an async copy is refused, as plan() refuses it
        class InStep(Copier):
            def read_step(self, metadata: Any, scheduler_output: Any) -> list[DriverVerdict]:
                return [self.plan("r1", 6912, [[11, 12, 13], [42]], [[1, 42]], pinned=True)]
        self.assertIn("pinned only for an async copy", answers(InStep(), TOPOLOGY, step1)[1][0]["message"])
        loose = Copier()
        cast(Any, loose).create_connector = lambda v, k: type("Loose", (Pinning,), {"touches": False})(
            v, standins.KVConnectorRole.SCHEDULER, k)
        self.assertNotIn("pinned", answers(loose, TOPOLOGY, step1)[1][0], "nothing touched, nothing pinned")
        claiming = Copier()
        claiming.claim = True
        cast(Any, claiming).create_connector = loose.create_connector
        error = answers(claiming, TOPOLOGY, step1)[1][0]
        self.assertEqual("error", error["kind"])
        self.assertIn("says the plan of r1 for 6912 tokens is pinned, but the connector holds no reference to block 11",
                      error["message"])

    def test_a_connector_asks_for_the_pool_by_defining_bind_gpu_block_pool_below_vllms_base_class(self) -> None:
        from proofgate_adapter.vllm.driver import _binds_pool

        class KVConnectorBase_V1:  # noqa: N801 - recent vLLM's base class has a default that binds nothing
            def bind_gpu_block_pool(self, pool: Any) -> None:
                return None

        class Plain(KVConnectorBase_V1):
            pass

        class Binding(KVConnectorBase_V1):
            def bind_gpu_block_pool(self, pool: Any) -> None:
                self.pool = pool
        self.assertEqual([False, True, False], [_binds_pool(Plain()), _binds_pool(Binding()), _binds_pool(object())])

    def test_prompt_tokens_derive_from_the_label(self) -> None:
        self.assertEqual(prompt_token_ids("d1", 7000)[:300], prompt_token_ids("d1", 300))
        self.assertNotEqual(prompt_token_ids("d1", 300), prompt_token_ids("d2", 300))
        self.assertEqual(prompt_token_ids("d1", 9000), prompt_token_ids("d1", 9000))
        self.assertTrue(all(1 <= t <= 32000 for t in prompt_token_ids("d3", 5000)))

    def test_block_hashes_chain_every_full_hash_block_as_vllms_hasher_does(self) -> None:
        def sha256(value: object) -> bytes:  # vLLM's default hash function, written out here again
            return hashlib.sha256(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)).digest()
        hashes = block_hashes("d1", 6992, 256)
        self.assertEqual(27, len(hashes), "one per full block of 256 tokens")
        tokens = prompt_token_ids("d1", 512)
        first = sha256((sha256(os.environ.get("PYTHONHASHSEED", "proofgate")), tuple(tokens[:256]), None))
        self.assertEqual([first, sha256((first, tuple(tokens[256:]), None))], hashes[:2])
        self.assertEqual(hashes[:10], block_hashes("d1", 2600, 256), "a prefix's hashes begin the longer prompt's")
        self.assertNotEqual(hashes[0], block_hashes("d2", 256, 256)[0])
        self.assertEqual([], block_hashes("d1", 255, 256))
        mapping = Mapping()
        answers(mapping, TOPOLOGY, {"kind": "step", "step": 1, "new": [new("r1", "d1", 6992)]})
        self.assertEqual(hashes, mapping.connector.hashes["r1"], "the request the connector is given carries them")

    def test_a_held_report_reaches_every_real_prefix_of_its_label_seen_before_and_after(self) -> None:
        mapping = Mapping()
        answers(mapping, TP2,
                {"kind": "step", "step": 1, "new": [new("r1", "d1", 6992), new("r2", "d1", 8256), new("r3", "d2", 6992)]},
                {"kind": "held", "rank": 0, "digest": "d1"},
                {"kind": "held", "rank": 0, "digest": "d1"},
                {"kind": "step", "step": 2, "new": [new("r4", "d1", 4000), new("r5", "d1", 6992)]},
                {"kind": "held", "rank": 1, "digest": "d1"})
        self.assertEqual([(0, "r1", 6912), (0, "r2", 8192),  # at the report: both targets of d1 seen so far
                          (0, "r4", 3840),  # a new target of d1, before its step is built; r5's target was delivered already
                          (1, "r4", 3840), (1, "r1", 6912), (1, "r2", 8192)], mapping.delivered)

    def test_a_log_capture_is_one_handler_for_the_process_and_starts_empty_at_each_topology(self) -> None:
        import logging
        logger = logging.getLogger("proofgate-test-capture")

        class Logging(Mapping):
            def create_connector(self, vllm_config: standins.VllmConfig,
                                 kv_cache_config: standins.KVCacheConfig) -> Recording:
                self.log = self.capture_log(logger.name)
                return super().create_connector(vllm_config, kv_cache_config)

            def read_step(self, metadata: Any, scheduler_output: Any) -> Optional[Iterable[DriverVerdict]]:
                logger.warning("step %d", scheduler_output.total_num_scheduled_tokens)
                self.taken = [r.args for r in self.log.take()]
                return []

        mapping = Logging()
        answers(mapping, TOPOLOGY, {"kind": "step", "step": 1, "new": [new("r1", "d1", 6992)]})
        self.assertEqual([(4608,)], mapping.taken)
        logger.warning("after the step: the next topology must not see it")
        answers(mapping, TOPOLOGY, {"kind": "step", "step": 1, "new": [new("r1", "d1", 6992, scheduled=2304)]})
        self.assertEqual([(2304,)], mapping.taken)
        self.assertEqual(1, sum(isinstance(h, type(mapping.log)) for h in logger.handlers))

    def test_a_request_tells_its_label(self) -> None:
        mapping = Mapping()
        answers(mapping, TOPOLOGY, {"kind": "step", "step": 1, "new": [new("r1", "d1", 6992), new("r2", "d7", 6992)]})
        self.assertEqual(["d1", "d7"], [mapping.label(mapping._requests[r]) for r in ("r1", "r2")])

    def test_a_label_reported_before_any_request_reaches_the_first_request_before_its_step(self) -> None:
        mapping = Mapping()
        got = answers(mapping, TP2, {"kind": "held", "rank": 0, "digest": "d1"}, {"kind": "held", "rank": 1, "digest": "d1"},
                      {"kind": "step", "step": 1, "new": [new("r1", "d1", 6992)]},
                      {"kind": "step", "step": 2, "cached": [{"id": "r1", "computed": 4608, "scheduled": 2304,
                                                              "new_block_ids": [[13], [72]]}]}, {"kind": "summary"})
        self.assertEqual([(0, "r1", 6912), (1, "r1", 6912)], mapping.delivered)
        # the connector dropped the pending store without a verdict: retired for quorum, and counted
        self.assertEqual([{"kind": "retired", "step": 2, "id": "r1", "cause": "quorum"}], got[4])
        self.assertEqual(1, got[5][0]["store_skipped_quorum"])

    def test_a_pending_store_dropped_at_finished_is_retired(self) -> None:
        got = answers(Mapping(), TOPOLOGY, {"kind": "step", "step": 3, "new": [new("r1", "d1", 6992)]},
                      {"kind": "finished", "id": "r1"}, {"kind": "finished", "id": "r1"}, {"kind": "summary"})
        self.assertEqual([[{"kind": "retired", "step": 3, "id": "r1", "cause": "finished"}], []], got[2:4])
        self.assertEqual(1, got[4][0]["retired_finished"])

    def test_held_reports_from_ranks_outside_the_topology_are_counted(self) -> None:
        got = answers(Mapping(), TOPOLOGY, {"kind": "held", "rank": 1, "digest": "d1"},
                      {"kind": "held", "rank": 1, "digest": "d1"}, {"kind": "summary"})
        self.assertEqual(2, got[3][0]["ignored_held"])

    def test_a_connectors_own_ignored_count_is_held_against_the_deliveries_not_the_events(self) -> None:
        class Counting(Mapping):
            """Reads the connector's own count of the reports it skipped; `skips` says whether it does."""

            def __init__(self, skips: bool) -> None:
                super().__init__()
                self.skips, self.skipped = skips, 0

            def deliver_held(self, rank: int, request: Any, target: int) -> None:
                if self.skips and rank >= 2:
                    self.skipped += 1
                else:
                    super().deliver_held(rank, request, target)

            def ignored_held(self) -> Optional[int]:
                return self.skipped

        held = {"kind": "held", "rank": 5, "digest": "d1"}
        one = {"kind": "step", "step": 1, "new": [new("r1", "d1", 6992)]}
        two = {"kind": "step", "step": 1, "new": [new("r1", "d1", 6992), new("r2", "d1", 8256)]}
        # a report before any request of its label (no delivery), on one target, on two targets, and repeated
        cases: tuple[tuple[list[dict[str, Any]], int], ...] = (([held], 1), ([one, held], 1), ([two, held], 1),
                                                               ([one, held, held], 2))
        for events, reports in cases:
            summary = answers(Counting(True), TP2, *events, {"kind": "summary"})[-1][0]
            self.assertEqual(reports, summary.get("ignored_held", 0), events)
            # a connector that takes the delivered report as held is found, however often it was delivered
            summary = answers(Counting(False), TP2, *events, {"kind": "summary"})[-1][0]
            delivered = 0 if events == [held] else len(events[0]["new"])
            self.assertEqual(reports - delivered, summary.get("ignored_held", 0), events)
            if delivered:
                self.assertNotEqual(reports, summary.get("ignored_held", 0), events)

        class Broken(Counting):
            def __init__(self, count: Any) -> None:  # Any: also counts that are not integers, which are refused
                super().__init__(True)
                self.count = count

            def ignored_held(self) -> Optional[int]:
                return self.count  # type: ignore[no-any-return]  # not always an int: the library checks it

        # a count that is not the connector's own number of skipped reports is not moved into one
        self.assertEqual(-1, answers(Broken(-1), TP2, {"kind": "summary"})[-1][0]["ignored_held"])
        for count in (True, "1", 1.0):
            refused = answers(Broken(count), TP2, {"kind": "summary"})[-1][0]
            self.assertEqual("error", refused["kind"], count)
            self.assertIn("ignored_held() is not an integer", refused["message"])

    def test_a_mapping_that_raises_is_the_protocols_error_and_the_run_goes_on(self) -> None:
        step = {"kind": "step", "step": 1, "new": [new("r1", "d1", 6992)], "recurrent_boundary_blocks": {"r1": []}}
        got = answers(Mapping(fail=True), HELLO, TOPOLOGY, step, {"kind": "summary"}, TOPOLOGY,
                      dict(step, recurrent_boundary_blocks=None), {"kind": "summary"})
        self.assertEqual(1, len(got[2]))
        self.assertRegex(got[2][0]["message"], r"^step event 1: RuntimeError: no store plan in KVConnectorMetadata"
                                               r" \(test_vllm.py:\d+ in read_step\)$")
        self.assertEqual("error", got[3][0]["kind"])
        self.assertEqual([], got[5])
        self.assertEqual(["r1"], got[6][0]["pending"])

    def test_a_connector_or_mapping_that_raises_what_the_library_may_not_catch_ends_the_adapter_with_status_3(self) -> None:
        class Interrupting(Recording):
            def build_connector_meta(self, scheduler_output: standins.SchedulerOutput) -> standins.KVConnectorMetadata:
                if scheduler_output.scheduled_cached_reqs.req_ids:
                    raise KeyboardInterrupt
                return super().build_connector_meta(scheduler_output)

        class Exits(Mapping):
            def create_connector(self, vllm_config: standins.VllmConfig,
                                 kv_cache_config: standins.KVCacheConfig) -> Interrupting:
                return Interrupting(vllm_config, standins.KVConnectorRole.SCHEDULER, kv_cache_config)

            def deliver_held(self, rank: int, request: Any, target: int) -> NoReturn:
                sys.exit(1)
        step = {"kind": "step", "step": 1, "new": [new("r1", "d1", 6992)]}
        cached = {"kind": "step", "step": 2, "cached": [{"id": "r1", "computed": 4608, "scheduled": 2304,
                                                         "new_block_ids": [[13], [72]]}]}
        cases: tuple[tuple[Message, int, str, str], ...] = (
                (cached, 3, "KeyboardInterrupt", "build_connector_meta"),
                ({"kind": "held", "rank": 0, "digest": "d1"}, 3, "SystemExit: 1", "deliver_held"))
        for last, answered, described, function in cases:
            with self.subTest(function):
                status, stdout, stderr = ran(Exits(), HELLO, TOPOLOGY, step, last, {"kind": "summary"})
                self.assertEqual(3, status, stderr)
                self.assertEqual(answered, stdout.count('{"kind":"end"}'), stdout)
                self.assertRegex(stderr.splitlines()[-1], "^%s$" % UNCAUGHT_LINE % (described, "test_vllm.py", function))


class CheckedPlanTest(unittest.TestCase):
    """`checked_plan`: protocol section 3's selection checks for a connector that leaves them to its workers."""

    def setUp(self) -> None:
        self.mapping = Mapping()
        answers(self.mapping, dict(TOPOLOGY, groups=[{"policy": "full", "block_tokens": 2304},
                                                     {"policy": "sliding", "block_tokens": 2304, "window_tokens": 4608},
                                                     {"policy": "recurrent_align", "block_tokens": 2304}]),
                {"kind": "step", "step": 2, "new": [{"id": "r1", "digest": "d1", "prompt_tokens": 6992, "computed": 0,
                                                     "scheduled": 4608, "block_ids": [[11], [21], [31]]}]})

    def check(self, blocks: list[list[int]]) -> dict[str, Any]:
        return self.mapping.checked_plan("r1", 6912, blocks, {2: blocks[2][0]}).to_json()

    def test_a_valid_selection_is_the_plan(self) -> None:
        line = self.check([[11, 12, 13], [22, 23], [42]])
        self.assertEqual(("plan", "d1", [[2, 42]]), (line["kind"], line["digest"], line["recurrent"]))

    def test_short_null_and_repeated_selections_are_invalid_selection_with_their_facts(self) -> None:
        self.assertEqual("the plan's block selection is invalid target=6912 group=1 problem=short_table",
                         self.check([[11, 12, 13], [23], [42]])["reason"])
        self.assertEqual("the plan's block selection is invalid target=6912 group=0 block=0 problem=null_block",
                         self.check([[11, 0, 13], [22, 23], [42]])["reason"])
        self.assertEqual("the plan's block selection is invalid target=6912 group=2 block=13 problem=repeated_block",
                         self.check([[11, 12, 13], [22, 23], [13]])["reason"])


class StandInTest(unittest.TestCase):

    def test_the_stand_ins_have_vllms_field_names(self) -> None:
        def names(cls: type[Any]) -> list[str]:
            return [f.name for f in dataclasses.fields(cls)]
        self.assertEqual(["req_id", "prompt_token_ids", "mm_features", "sampling_params", "pooling_params", "block_ids",
                          "num_computed_tokens", "lora_request", "prompt_embeds", "prefill_token_ids"],
                         names(standins.NewRequestData))
        self.assertEqual(["req_ids", "resumed_req_ids", "new_token_ids", "all_token_ids", "new_block_ids",
                          "num_computed_tokens", "num_output_tokens"], names(standins.CachedRequestData))
        self.assertEqual(["scheduled_new_reqs", "scheduled_cached_reqs", "num_scheduled_tokens",
                          "total_num_scheduled_tokens", "scheduled_spec_decode_tokens", "scheduled_encoder_inputs",
                          "num_common_prefix_blocks", "finished_req_ids", "free_encoder_mm_hashes", "preempted_req_ids",
                          "pending_structured_output_tokens", "kv_connector_metadata", "ec_connector_metadata",
                          "kv_connector_block_state", "partial_tail_offloads", "recurrent_boundary_blocks"],
                         names(standins.SchedulerOutput))
        self.assertEqual(["block_ids", "boundary_state_offloads"], names(standins.KVConnectorBlockState))
        self.assertIn("kv_connector_worker_meta", names(standins.KVConnectorOutput))

    def test_an_older_vllm_gets_resumed_from_preemption_and_a_missing_field_as_an_attribute(self) -> None:
        @dataclasses.dataclass
        class OldCachedRequestData:
            req_ids: list[str]
            resumed_from_preemption: list[bool]
            new_block_ids: list[tuple[list[int], ...]]

        classes = Classes("standins")
        for resumed in ({"r2"}, {"r1"}):  # the second call reuses what the first learnt of the class
            made = classes.make(OldCachedRequestData, req_ids=["r1", "r2"], resumed_req_ids=resumed,
                                new_block_ids=[], recurrent_boundary_blocks={"r1": []})
            self.assertEqual(["r1" in resumed, "r2" in resumed], made.resumed_from_preemption)
            self.assertEqual({"r1": []}, made.recurrent_boundary_blocks)  # type: ignore[attr-defined]  # not a field: set
            self.assertFalse(hasattr(made, "resumed_req_ids"))

        @dataclasses.dataclass
        class Newer:
            req_ids: list[str]
            something_new: int
        for _ in range(2):  # every time, not only the first
            with self.assertRaisesRegex(TypeError, "something_new"):
                classes.make(Newer, req_ids=[])


class ExampleConnectorTest(unittest.TestCase):
    """The example connector through its mapping, on the seed's hand-written logs (all of them
    through `conform` runs in CI; this is the quick check)."""

    def run_log(self, name: str, argv: list[str]) -> list[dict[str, Any]]:
        from support import load_example
        mapping = load_example("examples/conform/vllm_connector/adapter.py", "vllm_example_" + "_".join(argv), argv)
        got = answers(mapping.RecurrentStoreMapping(), *seed_log(name), {"kind": "summary"})
        return [line for answer in got for line in answer if line["kind"] != "state"]

    def test_with_the_fix_it_says_what_replay_says_on_every_seed_log(self) -> None:
        logs = sorted(f[:-6] for f in os.listdir(os.path.join(REPOSITORY, "validator/src/test/resources/scenarios/seed"))
                      if f.endswith(".jsonl"))
        self.assertEqual(10, len(logs))
        for name in logs:
            words = [{k: v for k, v in line.items() if k not in ("observed", "target", "group", "block", "reason")}
                     for line in expected(name)]
            self.assertEqual(words, self.run_log(name, ["--fixed"]), name)

    def test_its_planted_bug_keeps_a_preempted_requests_proof(self) -> None:
        self.assertEqual("conflict", self.run_log("09-preempt-then-resume", [])[0]["code"])


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""The mapping of recurrent_store_connector.py onto proofgate's vLLM driver: the whole adapter.

    ./proofgate conform --exec "python3 examples/conform/vllm_connector/adapter.py"          # the planted bug
    ./proofgate conform --exec "python3 examples/conform/vllm_connector/adapter.py --fixed"  # without it
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, os.pardir, os.pardir, os.pardir, "adapters", "python")]

import recurrent_store_connector as rsc  # noqa: E402
from proofgate_adapter import Counters, PendingStore, main  # noqa: E402
from proofgate_adapter.vllm import VllmConnectorAdapter  # noqa: E402

rsc.FIXED = "--fixed" in sys.argv[1:]
DIGESTS = {}  # (label, target) -> the connector's digest of that prefix


class RecurrentStoreMapping(VllmConnectorAdapter):
    name = "recurrent store connector (vLLM connector API)"
    capabilities = ("state", "sliding")

    def create_connector(self, vllm_config, kv_cache_config):
        self.log = self.capture_log(rsc.logger.name)  # its rejections are warnings on its logger
        return rsc.RecurrentStoreConnector(vllm_config, rsc.KVConnectorRole.SCHEDULER, kv_cache_config)

    def read_step(self, metadata, scheduler_output):
        for record in self.log.take():
            request_id, code = record.args
            yield self.rejected(request_id, code)
        for store in metadata.stores:
            yield self.plan(store.request_id, store.span, store.block_ids, store.recurrent_blocks,
                            key=store.prefix_digest)

    def prefix_key(self, request, target):
        # this connector's digest is of the tokens alone, and a label's tokens are the same in every
        # scenario: each prefix is hashed once per process, not once per plan, rank and scenario
        key = (self.label(request), target)
        digest = DIGESTS.get(key)
        if digest is None:
            digest = DIGESTS[key] = self.connector.prefix_digest(request.prompt_token_ids[:target])
        return digest

    def deliver_held(self, rank, request, target):
        digest = self.prefix_key(request, target)
        output = self.classes.KVConnectorOutput(kv_connector_worker_meta=rsc.HeldPrefixes([(rank, digest)]))
        self.connector.update_connector_output(output)

    def pending(self):
        for request_id, tracker in self.connector.pending_stores().items():
            yield PendingStore(request_id, tracker.done, tracker.table, tracker.latch)

    def counters(self):
        stats = self.connector.stats
        return Counters(stats["stores_planned"], stats["recurrent_boundary_metadata_rejected"],
                        stats["store_skipped_quorum"], stats["retired_finished"])

    def ignored_held(self):
        return self.connector.stats["held_reports_ignored"]


if __name__ == "__main__":
    main(RecurrentStoreMapping())

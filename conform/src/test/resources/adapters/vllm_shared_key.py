#!/usr/bin/env python3
"""The vLLM connector example (examples/conform/vllm_connector), without its planted bug, but with
a prefix digest of the first 1,024 tokens alone: every prefix of a prompt is filed under one key,
so a lookup of one restores another. Its pages are right, and so is every key by the mapping's
prefix_key(), which asks the connector's own digest. For ConformTest: the driver tells the second
prefix filed under a key."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(HERE, os.pardir, os.pardir, os.pardir, os.pardir, os.pardir, "examples", "conform",
                       "vllm_connector")
sys.argv.append("--fixed")
sys.path[:0] = [EXAMPLE]

import adapter  # noqa: E402
import recurrent_store_connector as rsc  # noqa: E402
from proofgate_adapter import main  # noqa: E402


class SharedKey(rsc.RecurrentStoreConnector):
    def prefix_digest(self, token_ids):
        return super().prefix_digest(token_ids[:1024])


class SharedKeyMapping(adapter.RecurrentStoreMapping):
    def create_connector(self, vllm_config, kv_cache_config):
        self.log = self.capture_log(rsc.logger.name)
        return SharedKey(vllm_config, rsc.KVConnectorRole.SCHEDULER, kv_cache_config)


main(SharedKeyMapping())

#!/usr/bin/env python3
"""The vLLM connector example (examples/conform/vllm_connector), without its planted bug, but
filing every plan under the key of another prefix (the one-token prompt [0]): its pages are
right, its key is not, so every request that later looks the key up restores another prefix.
For ConformTest: through the driver's plan(key=...) the kit sees it."""

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


class WrongKey(rsc.RecurrentStoreConnector):
    def build_connector_meta(self, scheduler_output):
        meta = super().build_connector_meta(scheduler_output)
        for store in meta.stores:
            store.prefix_digest = self.prefix_digest([0])
        return meta


class WrongKeyMapping(adapter.RecurrentStoreMapping):
    def create_connector(self, vllm_config, kv_cache_config):
        self.log = self.capture_log(rsc.logger.name)
        return WrongKey(vllm_config, rsc.KVConnectorRole.SCHEDULER, kv_cache_config)


main(WrongKeyMapping())

#!/usr/bin/env python3
"""The vLLM connector example (examples/conform/vllm_connector), without its planted bug, in
variants whose pages are right and whose keys are not, for ConformTest. Usage:
vllm_variants.py MODE.

- wrong-key: files every plan under the key of another prefix (the one-token prompt [0]), so every
  request that later looks the key up restores another prefix. Through the driver's
  plan(key=...) the kit sees it.
- shared-key: a prefix digest of the first 1,024 tokens alone, so every prefix of a prompt is filed
  under one key and a lookup of one restores another. Every key agrees with the mapping's
  prefix_key(), which asks the connector's own digest; the driver tells the second prefix filed
  under a key.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(HERE, os.pardir, os.pardir, os.pardir, os.pardir, os.pardir, "examples", "conform",
                       "vllm_connector")
MODE = sys.argv.pop(1)
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


class SharedKey(rsc.RecurrentStoreConnector):
    def prefix_digest(self, token_ids):
        return super().prefix_digest(token_ids[:1024])


class VariantMapping(adapter.RecurrentStoreMapping):
    def create_connector(self, vllm_config, kv_cache_config):
        self.log = self.capture_log(rsc.logger.name)
        connector = {"wrong-key": WrongKey, "shared-key": SharedKey}[MODE]
        return connector(vllm_config, rsc.KVConnectorRole.SCHEDULER, kv_cache_config)


main(VariantMapping())

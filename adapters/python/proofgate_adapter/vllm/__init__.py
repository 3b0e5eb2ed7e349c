"""proofgate_adapter.vllm: drive a scheduler-side vLLM KV connector through proofgate's kit.

The author writes a mapping (a subclass of `VllmConnectorAdapter`); the driver builds what vLLM's
scheduler would pass the connector from each event. vLLM's own classes are used when `vllm`
imports, the stand-ins of `standins` otherwise (set PROOFGATE_VLLM_CLASSES=standins|vllm to
choose). See docs/conformance.md, "The vLLM driver".
"""

from . import standins
from .driver import Classes, LogCapture, VllmConnectorAdapter, block_hashes, prompt_token_ids, topology_config
from .standins import VLLM_REFERENCE

__all__ = ["Classes", "LogCapture", "VLLM_REFERENCE", "VllmConnectorAdapter", "block_hashes", "prompt_token_ids", "standins",
           "topology_config"]

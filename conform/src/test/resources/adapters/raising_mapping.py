#!/usr/bin/env python3
"""The vLLM example's mapping (examples/conform/vllm_connector/adapter.py, fixed) with a mistake of
the mapping's own: it cannot read two kinds of rejection, and raises. The kit must see each as a
refusal of that scenario's event (the protocol's error), grouped by its message, and the run must
go on with the other scenarios."""

import os
import sys

REPOSITORY = os.path.join(os.path.dirname(os.path.abspath(__file__)), *[os.pardir] * 5)
sys.path[:0] = [os.path.join(REPOSITORY, "examples", "conform", "vllm_connector"), os.path.join(REPOSITORY, "adapters", "python")]
sys.argv[1:] = ["--fixed"]

from adapter import RecurrentStoreMapping  # noqa: E402
from proofgate_adapter import main  # noqa: E402


class RaisingMapping(RecurrentStoreMapping):
    def read_step(self, metadata, scheduler_output):
        verdicts = list(super().read_step(metadata, scheduler_output))
        for verdict in verdicts:
            if verdict.kind == "rejected" and verdict.code == "future_boundary":
                raise LookupError("no reader for the rejection of " + verdict.id)
            if verdict.kind == "rejected" and verdict.code == "empty":
                raise ValueError("an empty proof of " + verdict.id + " is not logged")
        return verdicts


if __name__ == "__main__":
    main(RaisingMapping())

"""proofgate_adapter: write a proofgate-adapter/v1 adapter as one class.

    from proofgate_adapter import Adapter, main, plan, rejected, retired, State, PendingStore, Counters

    class MyAdapter(Adapter):
        name = "my connector"
        capabilities = ("state", "sliding")
        def topology(self, topology): ...      # a fresh connector, defaults applied
        def step(self, step): ...              # the verdicts of a step event
        def finished(self, event): ...
        def held(self, event): ...
        def state(self): ...                   # a State; the summary is derived from it
        def lookup(self, event): ...           # optional, with "restore": one hit(...) per lookup

    if __name__ == "__main__":
        main(MyAdapter())

Standard library only, Python 3.10 or later. For vLLM connectors, see `proofgate_adapter.vllm`.
Documentation: docs/conformance.md, "Writing an adapter".
"""

from .events import (CachedRequest, DuplicateKeys, Finished, Group, Held, Lookup, MessageError, NewRequest, Step,
                     Topology)
from .namespace import Identity, Probe
from .protocol import CAPABILITIES, PROTOCOL, Adapter, NotApplicable, Session, main, run
from .verdicts import (Counters, Hit, Load, PendingStore, Plan, Rejected, Retired, Saved, State, Verdict, VerdictError,
                       hit, load, plan, rejected, retired, saved)

__version__ = "1.0.0"

__all__ = ["Adapter", "NotApplicable", "CAPABILITIES", "CachedRequest", "Counters", "DuplicateKeys", "Finished", "Group", "Held",
           "Hit", "Identity", "Load", "Lookup", "MessageError", "NewRequest", "PROTOCOL", "PendingStore", "Plan", "Probe",
           "Rejected", "Retired", "Saved", "Session", "State", "Step", "Topology", "Verdict", "VerdictError", "hit", "load",
           "main", "plan", "rejected", "retired", "run", "saved"]

#!/usr/bin/env python3
"""The toy connector (examples/conform/toy_connector.py) in variants that hide an unsafe plan, for
ConformTest. Usage: toy_variants.py MODE [--fixed] (--fixed as the toy reads it).

- dodging: says at the summary request that the scenario does not apply to its connector, after
  its plans were printed (it declares no state, so the state is asked for only there).
- misstated: a connector of its own policy whose plans name other blocks in `recurrent` than the
  recurrent groups' blocks in `blocks_by_group`.
- misstepped: a connector of its own policy whose plans say a later step than their event's.
- latched-hit: answers a lookup from a prefix it has latched but not yet published, whose copy has
  not begun: the store holds no state there.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, os.pardir, os.pardir, os.pardir, os.pardir, os.pardir)
sys.path[:0] = [os.path.join(ROOT, "examples", "conform"), os.path.join(ROOT, "adapters", "python")]

import toy_connector  # noqa: E402
from proofgate_adapter import NotApplicable, main  # noqa: E402

MODE = sys.argv[1]


class Dodging(toy_connector.ToyAdapter):
    capabilities = ("sliding", "namespace")

    def state(self):
        raise NotApplicable("the connector keeps no summary")


class OwnPlans(toy_connector.ToyAdapter):
    """A connector of its own policy whose plans are the toy's, each rewritten by `plan`."""
    capabilities = ("sliding", "namespace")
    connector_policy = "own"

    def plan(self, line):
        return line

    def step(self, step):
        out = []
        for verdict in super().step(step) or ():
            line = verdict if isinstance(verdict, dict) else verdict.to_json()
            out.append(self.plan(line) if line["kind"] == "plan" else line)
        return out


class Misstated(OwnPlans):
    def plan(self, line):
        line["recurrent"] = [[group, block + 1000000] for group, block in line["recurrent"]]
        return line


class Misstepped(OwnPlans):
    def plan(self, line):
        line["step"] += 7
        return line


class LatchedHit(toy_connector.ToyAdapter):
    def lookup(self, event):
        # the toy's own lookup, with the spans it has latched counted as published for its length
        connector = self.connector
        published = connector.published.get(event.digest, set())
        latched = {p["span"] for p in connector.pending.values() if p["digest"] == event.digest and p["latch"]}
        connector.published[event.digest] = published | latched
        try:
            return connector.lookup(event)
        finally:
            connector.published[event.digest] = published


main({"dodging": Dodging, "misstated": Misstated, "misstepped": Misstepped, "latched-hit": LatchedHit}[MODE]())

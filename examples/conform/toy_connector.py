#!/usr/bin/env python3
"""A toy prefix-cache connector behind proofgate's adapter protocol, on the adapter library
(adapters/python, `proofgate_adapter`).

It states the publication rules of docs/protocol.md section 3 in plain Python, the way a
connector team's scheduler-side code would, with one planted bug: a published plan takes a
recurrent group's block from the request's block table (its last slot) instead of the latched
proof. Run the kit on it:

    ./proofgate conform --exec "python3 examples/conform/toy_connector.py"

and without the bug (every scenario it runs passes):

    ./proofgate conform --exec "python3 examples/conform/toy_connector.py --fixed"

It also restores (the restore half, section 3 "Restore rules"): a lookup's hit is the longest prefix
it published that the prompt extends, on every recurrent group's block grid and strictly below the
prompt's end; the load puts it into the request's blocks.

Standard library only; it finds the library beside it in the repository, nothing to install. It
declares `state`, `sliding`, `restore` and `namespace` (it answers namespace probes with
`prefix_digest`, `span` and `plan_selection`); it does not state reasons' facts and does not handle
integers beyond 64 bits, so the kit leaves those out.
"""

import hashlib
import json
import os
import sys
from math import lcm

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "adapters", "python"))

from proofgate_adapter import Adapter, Counters, PendingStore, State, hit, load, main, plan, retired  # noqa: E402

FIXED = "--fixed" in sys.argv[1:]
DIGEST_SALT = b"toy-connector/v1"  # the namespace of the toy's prefix digests


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


class Poison(Exception):
    def __init__(self, code):
        super().__init__(code)
        self.code = code


class Connector:
    def __init__(self, topology):
        self.topology = topology
        self.groups = topology.groups
        self.recurrent = topology.recurrent_groups
        self.pending = {}  # id -> {"digest", "span", "done", "table", "latch"}
        self.held = {}  # digest -> set of ranks
        self.counters = Counters()
        self.last_step = 0
        self.ignored_held = 0
        self.published = {}  # digest -> the spans of its plans: what a lookup may restore
        self.looked_up = {}  # request id -> the tokens vLLM had at its lookup
        self.grid = lcm(*(self.groups[g].block_tokens for g in self.recurrent)) if self.recurrent else 1

    # --- evidence validation (section 3, rows 1 to 17)

    def judge(self, field, request_id, target):
        """None (no proof), or the proof {group: block}; raises Poison."""
        if field is None:
            return None
        if not isinstance(field, dict):
            raise Poison("not_a_mapping")
        value = field.get(request_id)
        if value is None:
            return None
        if not isinstance(value, list):
            raise Poison("not_a_list")
        if not value:
            raise Poison("empty")
        exact = {}
        for entry in value:
            if not isinstance(entry, list) or len(entry) != 3 or not all(is_int(x) for x in entry):
                raise Poison("malformed_entry")
            group, block, boundary = entry
            if group < 0 or group >= len(self.groups):
                raise Poison("unknown_group")
            if not self.groups[group].recurrent:
                raise Poison("non_recurrent_group")
            if block <= 0:
                raise Poison("null_block")
            if boundary > target:
                raise Poison("future_boundary")
            if boundary < target:
                continue
            if group in exact:
                raise Poison("duplicate_group")
            exact[group] = block
        if not exact:
            return None
        if any(g not in exact for g in self.recurrent):
            raise Poison("incomplete")
        return exact

    # --- step processing

    def full_quorum(self, digest):
        return len(self.held.get(digest, ())) == self.topology.tp_degree

    def reject(self, step, request_id, code, out):
        self.counters.rejected += 1
        out.append({"kind": "rejected", "step": step, "id": request_id, "code": code})

    def step(self, event, out):
        step = self.last_step = event.step
        for request_id in event.preempted:
            if request_id in self.pending:
                self.pending[request_id]["latch"] = {}
        for request in event.new:
            if request.external:
                out.append(self.load(step, request))
            span = self.topology.target(request.prompt_tokens)
            if not self.topology.tracked(span):
                continue
            if self.full_quorum(request.digest):
                self.counters.store_skipped_quorum += 1
                continue
            proof = None
            if self.recurrent:
                try:
                    proof = self.judge(event.evidence, request.id, span)
                except Poison as poison:
                    self.reject(step, request.id, poison.code, out)
                    continue
            store = {"digest": request.digest, "span": span, "done": request.computed + request.scheduled,
                     "table": [list(blocks) for blocks in request.block_ids], "latch": proof or {}}
            self.pending[request.id] = store
            if not self.recurrent and store["done"] >= span:
                self.publish(step, request.id, out)
        for request in event.cached:
            store = self.pending.get(request.id)
            if store is None:
                continue
            if self.full_quorum(store["digest"]):
                del self.pending[request.id]
                self.counters.store_skipped_quorum += 1
                out.append(retired(step, request.id, "quorum"))
                continue
            if self.recurrent:
                try:
                    proof = self.judge(event.evidence, request.id, store["span"])
                except Poison as poison:
                    del self.pending[request.id]
                    self.reject(step, request.id, poison.code, out)
                    continue
                if proof is not None:
                    if not store["latch"]:
                        store["latch"] = proof
                    elif store["latch"] != proof:
                        del self.pending[request.id]
                        self.reject(step, request.id, "conflict", out)
                        continue
            if request.resumed:
                store["table"] = [list(blocks) for blocks in request.new_block_ids]
            else:
                for g, blocks in enumerate(request.new_block_ids):
                    store["table"][g].extend(blocks)
            store["done"] = request.computed + request.scheduled
            if store["done"] >= store["span"] and (not self.recurrent or store["latch"]):
                self.publish(step, request.id, out)

    def publish(self, step, request_id, out):
        store = self.pending.pop(request_id)
        selection = self.select(store)
        if selection is None:
            self.reject(step, request_id, "invalid_selection", out)
            return
        self.counters.plans += 1
        self.published.setdefault(store["digest"], set()).add(store["span"])
        out.append(plan(step, request_id, store["digest"], store["span"], *selection))

    # --- the restore half (section 3, "Restore rules")

    def lookup(self, event):
        spans = [s for s in self.published.get(event.digest, ())
                 if event.computed < s < event.prompt_tokens and s % self.grid == 0]
        self.looked_up[event.id] = event.computed
        return [hit(self.last_step, event.id, max(spans) - event.computed if spans else 0)]

    def load(self, step, request):
        """The restored prefix into the request's blocks: an attention group's from the tokens vLLM
        had to the hit (a sliding group's in its window), a recurrent group's at the hit's column."""
        start, span = self.looked_up.pop(request.id), request.computed
        blocks = []
        for g, group in enumerate(self.groups):
            size, row = group.block_tokens, request.block_ids[g]
            if group.recurrent:
                columns = [span // size - 1]
            else:
                first = start if group.policy == "full" else max(start, span - group.window_tokens)
                columns = range(first // size, -(-span // size))
            blocks.append([row[i] for i in columns if 0 <= i < len(row) and row[i] > 0])
        return load(step, request.id, request.digest, span, blocks)

    def select(self, store):
        """(blocks_by_group, recurrent) of the plan for a store, or None for an invalid selection."""
        span = store["span"]
        selected, recurrent = [], []
        for g, group in enumerate(self.groups):
            size = group.block_tokens
            table = store["table"][g]
            if group.recurrent:
                # THE PLANTED BUG: the table's recurrent slot keeps advancing past the target;
                # only the latched proof names the state at the boundary.
                block = store["latch"][g] if FIXED else table[-1]
                selected.append([block])
                recurrent.append([g, block])
                continue
            first = 0 if group.policy == "full" else max(0, span - group.window_tokens) // size
            last = -(-span // size)
            if last > len(table) or any(b <= 0 for b in table[first:last]):
                return None  # short_table, then null_block, group by group
            selected.append(table[first:last])
        blocks = [b for group in selected for b in group]
        if any(b <= 0 for b in blocks) or len(set(blocks)) != len(blocks):
            return None  # repeated_block, once every group passed
        return selected, recurrent

    def finished(self, event):
        self.looked_up.pop(event.id, None)
        if self.pending.pop(event.id, None) is None:
            return []
        self.counters.retired_finished += 1
        return [retired(self.last_step, event.id, "finished")]

    def held_by(self, event):
        if 0 <= event.rank < self.topology.tp_degree:
            self.held.setdefault(event.digest, set()).add(event.rank)
        else:
            self.ignored_held += 1  # the real connector skips a rank it does not have, and goes on

    def state(self):
        return State([PendingStore(i, s["done"], s["table"], s["latch"]) for i, s in self.pending.items()],
                     self.held, self.counters, self.ignored_held)


class ToyAdapter(Adapter):
    name = "toy connector (Python)"
    capabilities = ("state", "sliding", "restore", "namespace")

    def topology(self, topology):
        self.connector = Connector(topology)

    def step(self, step):
        out = []
        self.connector.step(step, out)
        return out

    def finished(self, event):
        return self.connector.finished(event)

    def held(self, event):
        self.connector.held_by(event)

    def lookup(self, event):
        return self.connector.lookup(event)

    def state(self):
        return self.connector.state()

    def namespace(self, probe):
        """What stored data means and where it is found: the prefix digest, the span, the plan."""
        connector = Connector(probe.topology)
        span = probe.topology.target(probe.prompt_tokens)
        identity = [probe.identity.model, probe.identity.dtype, probe.identity.cache_salt, probe.identity.lora]
        digest = hashlib.sha256(DIGEST_SALT + json.dumps([identity, probe.token_ids[:span]]).encode()).digest()
        store = {"span": span, "table": probe.block_ids, "latch": {g: b for g, b in probe.recurrent}}
        selection = connector.select(store)
        text = "invalid_selection" if selection is None else json.dumps(selection, separators=(",", ":"))
        return {"prefix_digest": digest, "span": str(span), "plan_selection": text}


if __name__ == "__main__":
    main(ToyAdapter())

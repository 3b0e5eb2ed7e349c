#!/usr/bin/env python3
"""A toy prefix-cache connector behind proofgate's adapter protocol (proofgate-adapter/v1).

It states the publication rules of docs/protocol.md section 3 in plain Python, the way a
connector team's scheduler-side code would, with one planted bug: a published plan takes a
recurrent group's block from the request's block table (its last slot) instead of the latched
proof. Run the kit on it:

    ./proofgate conform --exec "python3 examples/conform/toy_connector.py"

and without the bug (every scenario it runs passes):

    ./proofgate conform --exec "python3 examples/conform/toy_connector.py --fixed"

Standard library only. It declares the capabilities `state` and `sliding`; it does not state
reasons' facts and does not handle integers beyond 64 bits, so the kit leaves those out.
"""

import json
import sys

PROTOCOL = "proofgate-adapter/v1"
FIXED = "--fixed" in sys.argv[1:]


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


class Poison(Exception):
    def __init__(self, code):
        super().__init__(code)
        self.code = code


class Connector:
    def __init__(self, topology):
        self.groups = topology["groups"]
        self.tp = topology.get("tp_degree", 1)
        self.hash_block = topology.get("hash_block_size", 256)
        self.min_span = topology.get("min_span_tokens", 1024)
        self.max_span = topology.get("max_span_tokens")
        self.recurrent = [g for g, group in enumerate(self.groups) if group["policy"] == "recurrent_align"]
        self.pending = {}  # id -> {"digest", "span", "done", "table", "latch"}
        self.held = {}  # digest -> set of ranks
        self.counters = {"plans": 0, "rejected": 0, "store_skipped_quorum": 0, "retired_finished": 0}
        self.last_step = 0
        self.ignored_held = 0

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
            if self.groups[group]["policy"] != "recurrent_align":
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
        return len(self.held.get(digest, ())) == self.tp

    def reject(self, step, request_id, code, out):
        self.counters["rejected"] += 1
        out.append({"kind": "rejected", "step": step, "id": request_id, "code": code})

    def step(self, event, out):
        step = event["step"]
        self.last_step = step
        evidence = event.get("recurrent_boundary_blocks")
        for request_id in event.get("preempted", []):
            if request_id in self.pending:
                self.pending[request_id]["latch"] = {}
        for request in event.get("new", []):
            span = (request["prompt_tokens"] - 1) // self.hash_block * self.hash_block
            if span < self.min_span or (self.max_span is not None and span > self.max_span):
                continue
            if self.full_quorum(request["digest"]):
                self.counters["store_skipped_quorum"] += 1
                continue
            proof = None
            if self.recurrent:
                try:
                    proof = self.judge(evidence, request["id"], span)
                except Poison as poison:
                    self.reject(step, request["id"], poison.code, out)
                    continue
            store = {"digest": request["digest"], "span": span, "done": request["computed"] + request["scheduled"],
                     "table": [list(blocks) for blocks in request["block_ids"]], "latch": proof or {}}
            self.pending[request["id"]] = store
            if not self.recurrent and store["done"] >= span:
                self.publish(step, request["id"], out)
        for request in event.get("cached", []):
            request_id = request["id"]
            store = self.pending.get(request_id)
            if store is None:
                continue
            if self.full_quorum(store["digest"]):
                del self.pending[request_id]
                self.counters["store_skipped_quorum"] += 1
                out.append({"kind": "retired", "step": step, "id": request_id, "cause": "quorum"})
                continue
            if self.recurrent:
                try:
                    proof = self.judge(evidence, request_id, store["span"])
                except Poison as poison:
                    del self.pending[request_id]
                    self.reject(step, request_id, poison.code, out)
                    continue
                if proof is not None:
                    if not store["latch"]:
                        store["latch"] = proof
                    elif store["latch"] != proof:
                        del self.pending[request_id]
                        self.reject(step, request_id, "conflict", out)
                        continue
            if request.get("resumed", False):
                store["table"] = [list(blocks) for blocks in request["new_block_ids"]]
            else:
                for g, blocks in enumerate(request["new_block_ids"]):
                    store["table"][g].extend(blocks)
            store["done"] = request["computed"] + request["scheduled"]
            if store["done"] >= store["span"] and (not self.recurrent or store["latch"]):
                self.publish(step, request_id, out)

    def publish(self, step, request_id, out):
        store = self.pending.pop(request_id)
        span = store["span"]
        selected, recurrent = [], []
        for g, group in enumerate(self.groups):
            size = group["block_tokens"]
            table = store["table"][g]
            if group["policy"] == "recurrent_align":
                # THE PLANTED BUG: the table's recurrent slot keeps advancing past the target;
                # only the latched proof names the state at the boundary.
                block = store["latch"][g] if FIXED else table[-1]
                selected.append([block])
                recurrent.append([g, block])
                continue
            first = 0 if group["policy"] == "full" else max(0, span - group["window_tokens"]) // size
            last = -(-span // size)
            if last > len(table) or any(b <= 0 for b in table[first:last]):
                self.reject(step, request_id, "invalid_selection", out)  # short_table, then null_block, group by group
                return
            selected.append(table[first:last])
        blocks = [b for group in selected for b in group]
        if any(b <= 0 for b in blocks) or len(set(blocks)) != len(blocks):
            self.reject(step, request_id, "invalid_selection", out)  # repeated_block, once every group passed
            return
        self.counters["plans"] += 1
        out.append({"kind": "plan", "step": step, "id": request_id, "digest": store["digest"], "span": span,
                    "blocks_by_group": selected, "recurrent": recurrent})

    def finished(self, event, out):
        if self.pending.pop(event["id"], None) is not None:
            self.counters["retired_finished"] += 1
            out.append({"kind": "retired", "step": self.last_step, "id": event["id"], "cause": "finished"})

    def held_by(self, event):
        if 0 <= event["rank"] < self.tp:
            self.held.setdefault(event["digest"], set()).add(event["rank"])
        else:
            self.ignored_held += 1  # the real connector skips a rank it does not have, and goes on

    # --- what the kit reads

    def state(self):
        return {"kind": "state",
                "pending": [{"id": i, "done": s["done"], "table": s["table"],
                             "latch": sorted([g, b] for g, b in s["latch"].items())}
                            for i, s in sorted(self.pending.items())],
                "held": {d: sorted(r) for d, r in sorted(self.held.items())},
                "counters": dict(self.counters)}

    def summary(self):
        summary = dict({"kind": "summary"}, **self.counters)
        if self.ignored_held:
            summary["ignored_held"] = self.ignored_held
        return dict(summary, pending=sorted(self.pending),
                    latched={i: sorted([g, b] for g, b in s["latch"].items())
                             for i, s in sorted(self.pending.items()) if s["latch"]})


def main():
    connector = None
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("kind")
        out = []
        if kind == "hello":
            out.append({"kind": "hello", "protocol": PROTOCOL, "implementation": "toy connector (Python)",
                        "capabilities": ["state", "sliding"]})
        elif kind == "topology":
            connector = Connector(message)
        elif connector is None and kind in ("summary", "step", "finished", "held"):
            out.append({"kind": "error", "message": "a %s before any topology" % kind})
        elif kind == "summary":
            out.append(connector.summary())
        elif kind in ("step", "finished", "held"):
            if kind == "step":
                connector.step(message, out)
            elif kind == "finished":
                connector.finished(message, out)
            else:
                connector.held_by(message)
            out.append(connector.state())
        else:
            out.append({"kind": "error", "message": "unknown message kind %r" % kind})
        out.append({"kind": "end"})
        sys.stdout.write("".join(json.dumps(o, separators=(",", ":")) + "\n" for o in out))
        sys.stdout.flush()


if __name__ == "__main__":
    main()

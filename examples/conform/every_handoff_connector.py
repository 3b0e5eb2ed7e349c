#!/usr/bin/env python3
"""A connector with a policy of its own, every-handoff, behind proofgate's adapter protocol.

It files every usable hand-off vLLM offers under the prefix that ends at its boundary, in the
step it is offered, the way PegaFlow and vLLM's Mooncake store describe their policy (written
here from that description, not from their code): a boundary is published when every recurrent
group has one usable entry for it (a list of three integers, a recurrent group, a block that is
not null, a boundary that is a multiple of hash_block_size and that the request has computed by
the end of the step), together with the attention blocks the prefix needs (none null, none named
twice); entries it cannot use are ignored one by one, where the seed's connector poisons the
request. Its workers copy a plan's blocks in the step of the plan; with --async they copy them
later, by two steps after it, and it pins the blocks until then, so that a preemption or finish
meanwhile does not free them (PegaFlow's way). It declares the connector policy "own", so the kit
judges the safety of every plan it publishes and compares nothing else (docs/conformance.md,
"Safety and policies"):

    ./proofgate conform --exec "python3 examples/conform/every_handoff_connector.py"

Planted unsafe variants, each of which the kit reports as unsafe with a witness:

    --positional  saves the block at the boundary's position in the request's table instead of
                  the block the hand-off names
    --deferred    files the hand-offs when offered but publishes them when the request finishes,
                  after vLLM has let the blocks go
    --no-pin      copies as --async does, but does not pin the blocks while its workers copy them
    --slow        with --async or --no-pin, the workers take four steps to copy instead of two, long
                  enough for vLLM to give a block it let go to another request meanwhile
    --tracker     a positional tracker that reads no hand-off: for every block boundary the step
                  computes, the block at that boundary's column of the request's table as the
                  events built it (LMCache's before its fix: with speculative decoding that column
                  may hold a moved scratch block)
    --sorted-table  names an attention group's blocks in the order of their ids, not the table's
                  (to coalesce copies): vLLM's free-block queue hands blocks out in any order, so
                  chunk i is filed from the block of another chunk

It also answers lookups (the restore half, capability "restore"): the hit is the longest prefix it
saved (a plan whose copy is over) that the prompt extends, on every recurrent group's block grid
and strictly below the prompt's end; for a request vLLM schedules with it, the load puts that
prefix into the request's blocks (protocol section 3, "Restore rules"). Planted restore mistakes:

    --token-twice  a hit may reach the prompt's end, so vLLM computes the last token again from a
                   state that has applied it
    --group-lacks  files each recurrent group's hand-off on its own and answers a hit where any
                   group has its state, not every one
    --load-shorter  answers the longest prefix it saved, but loads the shortest one beyond vLLM's
                   own tokens, so vLLM computes on from a state that lacks the tokens between

Standard library only; it finds the library beside it in the repository, nothing to install.
"""

import os
import sys
from math import gcd
from typing import Any, Optional

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "adapters", "python"))

from proofgate_adapter import Adapter, Counters, State, hit, load, main, plan, saved  # noqa: E402
from proofgate_adapter.events import Finished, Held, Lookup, NewRequest, Step, Topology  # noqa: E402

POSITIONAL = "--positional" in sys.argv[1:]
DEFERRED = "--deferred" in sys.argv[1:]
NO_PIN = "--no-pin" in sys.argv[1:]
TOKEN_TWICE = "--token-twice" in sys.argv[1:]
GROUP_LACKS = "--group-lacks" in sys.argv[1:]
LOAD_SHORTER = "--load-shorter" in sys.argv[1:]
SORTED_TABLE = "--sorted-table" in sys.argv[1:]
TRACKER = "--tracker" in sys.argv[1:]
ASYNC = "--async" in sys.argv[1:] or NO_PIN
#: Steps after a plan's step by which every worker has copied its blocks (--slow: four).
COPY_STEPS = 4 if "--slow" in sys.argv[1:] else 2


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Request:
    def __init__(self, digest: str, table: list[list[int]]) -> None:
        self.digest = digest
        self.table = [list(group) for group in table]
        self.done = 0
        self.filed: set[int] = set()  # boundaries published (or, deferred, set aside) in this request's life
        self.later: list[Any] = []  # deferred plans, published at finish


class EveryHandoff(Adapter):
    name = "every-handoff connector (Python)"
    capabilities = ("sliding", "restore")
    connector_policy = "own"

    def topology(self, topology: Topology) -> None:
        self.groups = topology.groups
        self.hash_block = topology.hash_block_size
        self.ranks = topology.tp_degree
        self.last_step = 0
        self.requests: dict[str, Request] = {}
        self.holding: dict[str, set[int]] = {}
        self.plans = 0
        self.copying: list[tuple[int, str, str, int]] = []  # (step, id, digest, span) of copies under way
        self.stored: dict[str, set[int]] = {}  # spans whose copy is over, by digest: what a hit may restore
        self.partial: dict[str, set[int]] = {}  # --group-lacks: spans some recurrent group's hand-off was offered for
        self.grid = 1
        for group in topology.groups:
            if group.recurrent:
                self.grid = self.grid * group.block_tokens // gcd(self.grid, group.block_tokens)
        self.looked_up: dict[str, int] = {}  # request -> the tokens vLLM had at its lookup

    def step(self, step: Step) -> list[Any]:
        self.last_step = step.step
        done = [c for c in self.copying if step.step >= c[0] + COPY_STEPS]
        self.copying = [c for c in self.copying if step.step < c[0] + COPY_STEPS]
        for request_id in step.preempted:
            preempted = self.requests.get(request_id)
            if preempted is not None:  # vLLM let its blocks go: the resumed request comes with a new table
                preempted.table = [[] for _ in self.groups]
                preempted.filed.clear()
        scheduled = []
        computed: dict[str, int] = {}  # what each scheduled request had before the step
        for new in step.new:
            request = Request(new.digest, new.block_ids)
            request.done = new.computed + new.scheduled
            self.requests[new.id] = request
            scheduled.append(new.id)
            computed[new.id] = new.computed
        for cached in step.cached:
            known = self.requests.get(cached.id)
            if known is None:
                continue  # never seen new: its prefix is unknown
            if cached.resumed:
                known.table = [list(group) for group in cached.new_block_ids]
            else:
                for g, more in enumerate(cached.new_block_ids):
                    known.table[g].extend(more)
            known.done = cached.computed + cached.scheduled
            scheduled.append(cached.id)
            computed[cached.id] = cached.computed
        for _, _, digest, span in done:
            self.stored.setdefault(digest, set()).add(span)
        out: list[Any] = [saved(step.step, request_id, digest, span) for _, request_id, digest, span in done]
        out.extend(self.load(step.step, new) for new in step.new if new.external > 0)
        if TRACKER:
            for request_id in scheduled:
                out.extend(self.track(step.step, request_id, self.requests[request_id], computed[request_id]))
            return out
        evidence = step.evidence if isinstance(step.evidence, dict) else {}
        for request_id in scheduled:
            entries = evidence.get(request_id)
            if isinstance(entries, list):
                out.extend(self.file(step.step, request_id, self.requests[request_id], entries))
        return out

    def file(self, step: int, request_id: str, request: Request, entries: list[Any]) -> list[Any]:
        """The plans for every boundary at which each recurrent group has exactly one usable entry."""
        recurrent = [g for g, group in enumerate(self.groups) if group.recurrent]
        by_boundary: dict[int, dict[int, set[int]]] = {}
        for entry in entries:
            if not (isinstance(entry, list) and len(entry) == 3 and all(is_int(x) for x in entry)):
                continue
            g, block, boundary = entry
            if g in recurrent and block > 0 and 0 < boundary <= request.done and boundary % self.hash_block == 0:
                by_boundary.setdefault(boundary, {}).setdefault(g, set()).add(block)
                # THE PLANTED BUG (--group-lacks): one group's state filed as if the prefix were held
                self.partial.setdefault(request.digest, set()).add(boundary)
        out = []
        for boundary in sorted(by_boundary):
            blocks = by_boundary[boundary]
            if boundary in request.filed or any(len(blocks.get(g, ())) != 1 for g in recurrent):
                continue  # filed already, or not every group has one block for it
            selection = self.select(request, boundary, {g: next(iter(blocks[g])) for g in recurrent})
            if selection is None:
                continue
            request.filed.add(boundary)
            if DEFERRED:
                request.later.append((request_id, request.digest, boundary, selection))
            else:
                out.append(self.publish(step, request_id, request.digest, boundary, selection))
        return out

    def track(self, step: int, request_id: str, request: Request, before: int) -> list[Any]:
        """THE PLANTED BUG (--tracker): every block boundary the step computes, from the table's block
        at that boundary's column in every recurrent group, the hand-offs unread."""
        out = []
        for boundary in range(before + 1, request.done + 1):
            if boundary % self.grid or boundary % self.hash_block or boundary in request.filed:
                continue
            handed = {}
            for g, group in enumerate(self.groups):
                column = boundary // group.block_tokens - 1
                if group.recurrent and column < len(request.table[g]) and request.table[g][column] > 0:
                    handed[g] = request.table[g][column]
            if len(handed) != sum(1 for group in self.groups if group.recurrent):
                continue
            selection = self.select(request, boundary, handed)
            if selection is not None:
                request.filed.add(boundary)
                out.append(self.publish(step, request_id, request.digest, boundary, selection))
        return out

    def publish(self, step: int, request_id: str, digest: str, span: int, selection: Any) -> Any:
        """A plan its workers copy in its step or, --async, by COPY_STEPS steps later, pinned until
        then (THE PLANTED BUG, --no-pin: not pinned)."""
        self.plans += 1
        if not ASYNC:
            self.stored.setdefault(digest, set()).add(span)  # copied in the step
            return plan(step, request_id, digest, span, *selection)
        self.copying.append((step, request_id, digest, span))
        return plan(step, request_id, digest, span, *selection, copy="async", pinned=not NO_PIN)

    def select(self, request: Request, span: int, handed: dict[int, int]) -> Optional[tuple[list[list[int]], list[list[int]]]]:
        """(blocks_by_group, recurrent) for the prefix of span tokens, or None where the table cannot give it."""
        selected, pairs = [], []
        for g, group in enumerate(self.groups):
            size = group.block_tokens
            if group.recurrent:
                # THE PLANTED BUG (--positional): the table's block at the boundary's position
                block = request.table[g][-(-span // size) - 1] if POSITIONAL and len(request.table[g]) >= -(-span // size) \
                    else handed[g]
                selected.append([block])
                pairs.append([g, block])
                continue
            first = 0 if group.policy == "full" else max(0, span - (group.window_tokens or 0)) // size
            last = -(-span // size)
            blocks = request.table[g][first:last]
            if len(request.table[g]) < last or any(b <= 0 for b in blocks):
                return None
            selected.append(sorted(blocks) if SORTED_TABLE else blocks)  # THE PLANTED BUG (--sorted-table)
        every = [b for group in selected for b in group]
        if len(set(every)) != len(every):
            return None  # a block named twice holds one of the two things the plan would say it holds
        return selected, pairs

    def lookup(self, event: Lookup) -> list[Any]:
        """The longest prefix held that the prompt extends: on the grid, below the prompt's end."""
        held = self.partial if GROUP_LACKS else self.stored
        limit = event.prompt_tokens + 1 if TOKEN_TWICE else event.prompt_tokens  # THE PLANTED BUG (--token-twice)
        spans = [s for s in held.get(event.digest, ()) if event.computed < s < limit and s % self.grid == 0]
        self.looked_up[event.id] = event.computed
        return [hit(self.last_step, event.id, max(spans) - event.computed if spans else 0)]

    def load(self, step: int, new: NewRequest) -> Any:
        """The restored prefix into the request's own blocks: an attention group's from the tokens
        vLLM had to the hit (a sliding group's in its window), a recurrent group's at the hit's column."""
        start, span = self.looked_up.pop(new.id, new.computed - new.external), new.computed
        if LOAD_SHORTER:  # THE PLANTED BUG (--load-shorter)
            span = min([s for s in self.stored.get(new.digest, ()) if start < s and s % self.grid == 0] or [span])
        blocks = []
        for g, group in enumerate(self.groups):
            size, row = group.block_tokens, new.block_ids[g]
            if group.recurrent:
                columns = range(span // size - 1, span // size)
            else:
                first = start if group.policy == "full" else max(start, span - (group.window_tokens or 0))
                columns = range(first // size, -(-span // size))
            blocks.append([row[i] for i in columns if 0 <= i < len(row) and row[i] > 0])
        return load(step, new.id, new.digest, span, blocks)

    def finished(self, event: Finished) -> list[Any]:
        request = self.requests.pop(event.id, None)
        if request is None or not request.later:
            return []
        return [self.publish(self.last_step, request_id, digest, boundary, selection)
                for request_id, digest, boundary, selection in request.later]

    def held(self, event: Held) -> None:
        if 0 <= event.rank < self.ranks:
            self.holding.setdefault(event.digest, set()).add(event.rank)

    def state(self) -> State:
        return State([], self.holding, Counters(self.plans, 0, 0, 0), 0)


if __name__ == "__main__":
    main(EveryHandoff())

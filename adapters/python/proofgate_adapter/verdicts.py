"""What an adapter answers: verdicts (`plan`, `rejected`, `retired`; for the restore half `hit`
and `load`), the end of an asynchronous plan's copy (`saved`), and the connector's state.

The constructors check what they are given, so that a mistake in an adapter is reported as the
protocol's error for that event, with the adapter's own words, rather than as a broken line the
kit cannot judge.
"""

from __future__ import annotations

import re

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeGuard, Union, cast

from .events import BlockTable, JsonObject

#: Blocks as an adapter gives them: per group, its block ids (lists or tuples; written as lists).
Blocks = Sequence[Sequence[int]]
#: [group, block] pairs as an adapter gives them: a list of pairs or a {group: block} mapping
#: (written as a list of pairs in group order).
Pairs = Union[Mapping[int, int], Sequence[Sequence[int]]]
#: The value of a reason's fact: an integer, or a word such as a JSON kind or a policy; None is
#: the fact left out.
Fact = Union[int, str, None]

#: The codes of protocol section 3 and the sentence of each (section 6, "Reasons").
SENTENCES = {
    "not_a_mapping": "recurrent_boundary_blocks is not a mapping",
    "not_a_list": "the evidence for the request is not a list",
    "empty": "the evidence for the request is an empty list",
    "malformed_entry": "an entry is not a list of three integers",
    "unknown_group": "an entry names a group outside the topology",
    "non_recurrent_group": "an entry names a group that is not recurrent_align",
    "null_block": "an entry names a null block",
    "future_boundary": "entry boundary is ahead of the store plan",
    "duplicate_group": "two exact-target entries name the same group",
    "incomplete": "exact-target entries do not cover every recurrent group",
    "conflict": "exact-target entries differ from the latched proof",
    "invalid_selection": "the plan's block selection is invalid",
}

#: The facts of a reason, in the order protocol section 6 fixes.
FACTS = ("observed", "target", "group", "block", "entry", "length", "element", "found", "policy", "first",
         "latched", "problem")
#: The facts that are also fields of the `rejected` line.
FIELDS = ("observed", "target", "group", "block")

CAUSES = ("quorum", "finished")

#: When a plan's blocks are copied by the connector's workers: in the step of the event it answers,
#: or later, up to the adapter's `saved` line for it (docs/conformance.md, "Safety and policies").
COPIES = ("in_step", "async")


class VerdictError(ValueError):
    """A verdict or state an adapter built against the protocol's field rules."""


def _is_int(value: object) -> TypeGuard[int]:
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


def _check_int(value: object, what: str) -> int:
    if type(value) is not int and not _is_int(value):  # the first test is the common case, and cheap
        raise VerdictError("%s is not an integer: %r" % (what, value))
    return value


#: A rejection code of the connector's own: one word, so that a line's words cannot read it as a
#: code and its facts (docs/conformance.md, "Safety and policies").
_OWN_CODE = re.compile(r"[a-z][a-z0-9_]{0,63}")


def _check_code(code: object) -> None:
    if code not in SENTENCES and not (isinstance(code, str) and _OWN_CODE.fullmatch(code)):
        raise VerdictError("rejection code %r is neither one of protocol section 3 (%s) nor a word of its own "
                           "(lower-case letters, digits and underscores, at most 64)" % (code, ", ".join(SENTENCES)))


def _check_cause(cause: object) -> None:
    if cause not in CAUSES:
        raise VerdictError("unknown retirement cause %r (quorum or finished)" % (cause,))


def _check_id(value: object, what: str = "a request id") -> str:
    if not isinstance(value, str):
        raise VerdictError("%s is not a string: %r" % (what, value))
    return value


def _blocks(value: object, what: str) -> BlockTable:
    if not isinstance(value, (list, tuple)) or not all(isinstance(g, (list, tuple)) for g in value):
        raise VerdictError("%s is not a list of lists of block ids: %r" % (what, value))
    out: BlockTable = []
    for g in value:
        if all(type(b) is int for b in g):  # the common case, without building a message per block
            out.append(list(g))
        else:
            out.append([_check_int(b, what + " block") for b in g])
    return out


def _pairs(value: Any, what: str) -> list[list[int]]:
    """[group, block] pairs from a list of pairs or a {group: block} mapping (Any: also a verdict
    dict's field, unchecked until here; what does not iterate raises TypeError, as it always has)."""
    items = value.items() if isinstance(value, dict) else value
    pairs = []
    for pair in items:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise VerdictError("%s is not a list of [group, block] pairs: %r" % (what, value))
        pairs.append([_check_int(pair[0], what + " group"), _check_int(pair[1], what + " block")])
    return pairs


class Verdict:
    """A decision about one request in one event."""

    kind: ClassVar[str] = ""

    def to_json(self) -> JsonObject:
        raise NotImplementedError


@dataclass(frozen=True)
class Plan(Verdict):
    step: int
    id: str
    digest: str
    span: int
    blocks_by_group: Blocks  # a list of lists once made
    recurrent: Pairs  # a list of [group, block] pairs in group order once made
    copy: str = "in_step"  # or "async": copied later, up to a Saved for it
    pinned: bool = False  # with "async": the connector keeps vLLM from freeing the blocks until then

    kind: ClassVar[str] = "plan"

    def __post_init__(self) -> None:
        # checked when made, so that a Plan made directly is held to plan()'s rules
        _check_int(self.step, "a plan's step")
        _check_id(self.id)
        _check_id(self.digest, "a plan's digest")
        _check_int(self.span, "a plan's span")
        object.__setattr__(self, "blocks_by_group", _blocks(self.blocks_by_group, "a plan's blocks_by_group"))
        object.__setattr__(self, "recurrent", sorted(_pairs(self.recurrent, "a plan's recurrent")))
        _check_copy(self.copy, self.pinned)

    def to_json(self) -> JsonObject:
        line: JsonObject = {"kind": "plan", "step": self.step, "id": self.id, "digest": self.digest, "span": self.span,
                            "blocks_by_group": self.blocks_by_group, "recurrent": self.recurrent}
        if self.copy != "in_step":
            line["copy"] = self.copy
        if self.pinned:
            line["pinned"] = True
        return line


def _check_copy(copy: object, pinned: object) -> None:
    if copy not in COPIES:
        raise VerdictError("a plan's copy is in_step or async, not %r" % (copy,))
    if type(pinned) is not bool:
        raise VerdictError("a plan's pinned is True or False, not %r" % (pinned,))
    if pinned and copy != "async":
        raise VerdictError("a plan is pinned only for an async copy (a copy in its step needs no pin)")


@dataclass(frozen=True)
class Saved(Verdict):
    """Every rank's worker has copied an asynchronous plan's blocks (the plan of request `id` for
    `digest` and `span`): the copy is over, and with it the plan's pins. Not a verdict of the
    protocol: the kit judges it for safety and compares it with no policy."""

    step: int
    id: str
    digest: str
    span: int

    kind: ClassVar[str] = "saved"

    def __post_init__(self) -> None:
        _check_int(self.step, "a saved line's step")
        _check_id(self.id)
        _check_id(self.digest, "a saved line's digest")
        _check_int(self.span, "a saved line's span")

    def to_json(self) -> JsonObject:
        return {"kind": "saved", "step": self.step, "id": self.id, "digest": self.digest, "span": self.span}


@dataclass(frozen=True)
class Rejected(Verdict):
    step: int
    id: str
    code: str
    facts: dict[str, Fact] = field(default_factory=dict)

    kind: ClassVar[str] = "rejected"

    def __post_init__(self) -> None:
        # checked when made, so that a Rejected made directly is held to rejected()'s rules
        _check_int(self.step, "a rejection's step")
        _check_id(self.id)
        _check_code(self.code)
        if not isinstance(self.facts, dict):
            raise VerdictError("a rejection's facts are not a mapping: %r" % (self.facts,))
        unknown = sorted(set(self.facts) - set(FACTS))
        if unknown:
            raise VerdictError("unknown reason facts %s (protocol section 6 has %s)" % (", ".join(unknown), ", ".join(FACTS)))
        for name in FIELDS:
            if name in self.facts:
                _check_int(self.facts[name], "the fact %r" % name)
        object.__setattr__(self, "facts", {name: self.facts[name] for name in FACTS
                                           if name in self.facts and self.facts[name] is not None})

    @property
    def reason(self) -> str:
        words = ["%s=%s" % (name, self.facts[name]) for name in FACTS if name in self.facts]
        sentence = SENTENCES.get(self.code, "rejected for a reason of the connector's own")
        return " ".join([sentence] + words)

    def to_json(self) -> JsonObject:
        line: JsonObject = {"kind": "rejected", "step": self.step, "id": self.id, "code": self.code}
        for name in FIELDS:
            if name in self.facts:
                line[name] = self.facts[name]
        if self.facts:
            line["reason"] = self.reason
        return line


@dataclass(frozen=True)
class Retired(Verdict):
    step: int
    id: str
    cause: str

    kind: ClassVar[str] = "retired"

    def __post_init__(self) -> None:
        # checked when made, so that a Retired made directly is held to retired()'s rules
        _check_int(self.step, "a retirement's step")
        _check_id(self.id)
        _check_cause(self.cause)

    def to_json(self) -> JsonObject:
        return {"kind": "retired", "step": self.step, "id": self.id, "cause": self.cause}


@dataclass(frozen=True)
class Hit(Verdict):
    """The answer to a lookup: the connector can load `tokens` of the prompt beyond the tokens
    vLLM has (0: none)."""

    step: int
    id: str
    tokens: int

    kind: ClassVar[str] = "hit"

    def __post_init__(self) -> None:
        _check_int(self.step, "a hit's step")
        _check_id(self.id)
        if _check_int(self.tokens, "a hit's tokens") < 0:
            raise VerdictError("a hit's tokens are a count, not %r" % (self.tokens,))

    def to_json(self) -> JsonObject:
        return {"kind": "hit", "step": self.step, "id": self.id, "tokens": self.tokens}


@dataclass(frozen=True)
class Load(Verdict):
    """What the connector's workers load for a request vLLM scheduled with its hit: the state of
    prefix `digest` at `span` tokens, into the request's blocks `blocks_by_group` (an attention
    group's that hold the tokens from what vLLM had to the span, a recurrent group's state block
    at the span's column)."""

    step: int
    id: str
    digest: str
    span: int
    blocks_by_group: Blocks

    kind: ClassVar[str] = "load"

    def __post_init__(self) -> None:
        _check_int(self.step, "a load's step")
        _check_id(self.id)
        _check_id(self.digest, "a load's digest")
        _check_int(self.span, "a load's span")
        object.__setattr__(self, "blocks_by_group", _blocks(self.blocks_by_group, "a load's blocks_by_group"))

    def to_json(self) -> JsonObject:
        return {"kind": "load", "step": self.step, "id": self.id, "digest": self.digest, "span": self.span,
                "blocks_by_group": self.blocks_by_group}


def hit(step: int, request_id: str, tokens: int) -> Hit:
    """The answer to a lookup: `tokens` of the prompt beyond what vLLM has (0: none)."""
    return Hit(step, request_id, tokens)


def load(step: int, request_id: str, digest: str, span: int, blocks_by_group: Blocks) -> Load:
    """The load of a request scheduled with the connector's hit: the state of `digest` at `span`
    tokens, into `blocks_by_group`."""
    return Load(step, request_id, digest, span, blocks_by_group)


def plan(step: int, request_id: str, digest: str, span: int, blocks_by_group: Blocks, recurrent: Pairs,
         copy: str = "in_step", pinned: bool = False) -> Plan:
    """A published plan. `recurrent` is a list of [group, block] pairs or a {group: block} mapping;
    it is written in group order. `copy="async"`: the connector's workers copy the blocks after
    the step, up to a `saved()` for the plan; `pinned=True` with it: the connector keeps vLLM from
    freeing them until then."""
    return Plan(step, request_id, digest, span, blocks_by_group, recurrent, copy, pinned)


def saved(step: int, request_id: str, digest: str, span: int) -> Saved:
    """Every rank has copied the asynchronous plan of `request_id` for `digest` and `span`."""
    return Saved(step, request_id, digest, span)


def rejected(step: int, request_id: str, code: str, **facts: Fact) -> Rejected:
    """A rejection with a code of protocol section 3 and, optionally, its facts (section 6):
    `observed`, `target`, `group`, `block`, `entry`, `length`, `element`, `found`, `policy`,
    `first`, `latched`, `problem`. With facts, the line carries the fields of those names and a
    reason built from the code's sentence; an adapter that states facts declares `reason_facts`."""
    return Rejected(step, request_id, code, facts)


def retired(step: int, request_id: str, cause: str) -> Retired:
    """A retirement: `quorum` (full quorum at a cached step) or `finished`."""
    return Retired(step, request_id, cause)


def check_line(line: JsonObject) -> JsonObject:
    """A verdict written as a dict, as `replay` prints it (`{"kind": "rejected", "step": 2, "id":
    "r3", "code": "empty"}`), checked against the field rules; returned as it is, so that fields
    such as `reason` reach the kit unchanged, except a plan's `recurrent` given as a {group: block}
    mapping, which is written as pairs in group order, as `plan()` writes it."""
    kind = line.get("kind")
    if kind not in ("plan", "saved", "rejected", "retired", "hit", "load"):
        raise VerdictError("a verdict's kind is plan, saved, rejected, retired, hit or load, not %r" % (kind,))
    _check_int(line.get("step"), "a %s's step" % kind)
    _check_id(line.get("id"))
    if kind == "saved":
        _check_id(line.get("digest"), "a saved line's digest")
        _check_int(line.get("span"), "a saved line's span")
    elif kind == "hit":
        if _check_int(line.get("tokens"), "a hit's tokens") < 0:
            raise VerdictError("a hit's tokens are a count, not %r" % (line.get("tokens"),))
    elif kind == "load":
        _check_id(line.get("digest"), "a load's digest")
        _check_int(line.get("span"), "a load's span")
        _blocks(line.get("blocks_by_group"), "a load's blocks_by_group")
    elif kind == "plan":
        _check_id(line.get("digest"), "a plan's digest")
        _check_int(line.get("span"), "a plan's span")
        _check_copy(line.get("copy", "in_step"), line.get("pinned", False))
        _blocks(line.get("blocks_by_group"), "a plan's blocks_by_group")
        pairs = _pairs(line.get("recurrent"), "a plan's recurrent")
        if isinstance(line.get("recurrent"), dict):  # a {group: block} mapping would be written with text keys
            line = dict(line, recurrent=sorted(pairs))
    elif kind == "rejected":
        _check_code(line.get("code"))
        for name in FIELDS:
            if name in line:
                _check_int(line[name], "the field %r" % name)
        if "reason" in line and not isinstance(line["reason"], str):
            raise VerdictError("a rejection's reason is not a string: %r" % (line["reason"],))
    else:
        _check_cause(line.get("cause"))
    return line


@dataclass
class Counters:
    """The connector's counters, as `replay` names them."""

    plans: int = 0
    rejected: int = 0
    store_skipped_quorum: int = 0
    retired_finished: int = 0

    def count(self, verdicts: Iterable[Union[Verdict, JsonObject]]) -> None:
        """Counts verdicts: a plan, a rejection, a retirement (for quorum in `store_skipped_quorum`).
        A new request skipped for quorum has no verdict: count it yourself."""
        for v in verdicts:
            kind = v["kind"] if isinstance(v, dict) else v.kind
            if kind == "plan":
                self.plans += 1
            elif kind == "rejected":
                self.rejected += 1
            elif kind == "retired":
                # a Verdict of kind retired is a Retired (cast: the kind says it, not the type)
                if (v["cause"] if isinstance(v, dict) else cast(Retired, v).cause) == "finished":
                    self.retired_finished += 1
                else:
                    self.store_skipped_quorum += 1

    def to_json(self) -> JsonObject:
        return {"plans": _check_int(self.plans, "the counter plans"),
                "rejected": _check_int(self.rejected, "the counter rejected"),
                "store_skipped_quorum": _check_int(self.store_skipped_quorum, "the counter store_skipped_quorum"),
                "retired_finished": _check_int(self.retired_finished, "the counter retired_finished")}


@dataclass
class PendingStore:
    """One pending store: `done` tokens, the block `table` per group, and the `latch` as [group,
    block] pairs or a {group: block} mapping (empty when unproven)."""

    id: str
    done: int
    table: Blocks
    latch: Pairs = ()


@dataclass
class State:
    """What the connector holds after an event. `held` maps a digest label to the ranks that
    reported it (from 0..tp_degree-1 only: the ignored ones count in `ignored_held`)."""

    pending: Sequence[PendingStore] = field(default_factory=list)
    held: Mapping[str, Iterable[int]] = field(default_factory=dict)
    counters: Counters = field(default_factory=Counters)
    ignored_held: int = 0

    def _pending(self) -> list[tuple[str, PendingStore]]:
        seen = set()
        out = []
        for store in self.pending:
            if not isinstance(store, PendingStore):
                raise VerdictError("a pending store is not a PendingStore: %r" % (store,))
            _check_id(store.id, "a pending store's id")
            if store.id in seen:
                raise VerdictError("two pending stores of request %r" % store.id)
            seen.add(store.id)
            out.append((store.id, store))
        return sorted(out, key=lambda item: item[0])

    def to_json(self) -> JsonObject:
        pending = [{"id": i, "done": _check_int(s.done, "a pending store's done"),
                    "table": _blocks(s.table, "a pending store's table"),
                    "latch": sorted(_pairs(s.latch, "a pending store's latch"))} for i, s in self._pending()]
        held: dict[str, list[int]] = {}
        for digest, ranks in sorted(self.held.items()):
            held[_check_id(digest, "a held digest")] = sorted(_check_int(r, "a rank") for r in ranks)
        return {"kind": "state", "pending": pending, "held": held, "counters": self.counters.to_json()}

    def summary(self) -> JsonObject:
        """The summary line `replay` prints for this state."""
        line: JsonObject = {"kind": "summary"}
        line.update(self.counters.to_json())
        if _check_int(self.ignored_held, "ignored_held"):
            line["ignored_held"] = self.ignored_held
        pending = self._pending()
        line["pending"] = [i for i, _ in pending]
        line["latched"] = {i: sorted(_pairs(s.latch, "a pending store's latch")) for i, s in pending if s.latch}
        return line

"""The protocol loop: greeting, answers and end markers, errors, defaults, state and summary."""

import contextlib
import io
import json
import os
import time
import unittest

from support import HELLO, TOPOLOGY, answers

from proofgate_adapter import (Adapter, Counters, MessageError, PendingStore, State, Topology, plan, rejected,
                               retired, run)
from proofgate_adapter.events import DuplicateKeys, Step


class Writes(io.StringIO):
    """An output that keeps each write."""

    def __init__(self):
        super().__init__()
        self.writes = []

    def write(self, text):
        self.writes.append(text)
        return super().write(text)


@contextlib.contextmanager
def piped(data: bytes):
    """A stream with a descriptor, as the standard input is, holding `data` and then its end."""
    read, write = os.pipe()
    os.write(write, data)  # a pipe holds 64 KiB: all of it is waiting before the first read
    os.close(write)
    with open(read, "r") as stream:
        yield stream


class Recorder(Adapter):
    """Publishes every new request at once; raises where told to."""

    name = "recorder"
    capabilities = ("state",)

    def __init__(self, fail_on=None):
        self.fail_on = fail_on
        self.topologies = []

    def topology(self, topology):
        self.topologies.append(topology)
        self.pending = {}
        self.counters = Counters()

    def step(self, step):
        if self.fail_on == step.step:
            raise KeyError("new")
        out = []
        for r in step.new:
            self.pending[r.id] = PendingStore(r.id, r.computed + r.scheduled, r.block_ids, {})
        for r in step.cached:
            if r.id in self.pending:
                del self.pending[r.id]
                out.append(plan(step.step, r.id, "d1", 6912, [[11, 12, 13], [42]], {1: 42}))
        self.counters.count(out)
        return out

    def finished(self, event):
        if self.pending.pop(event.id, None):
            verdict = retired(2, event.id, "finished")
            self.counters.count([verdict])
            return [verdict]
        return []

    def held(self, event):
        return None

    def state(self):
        return State(list(self.pending.values()), {}, self.counters)


NEW = {"kind": "step", "step": 1, "new": [{"id": "r1", "digest": "d1", "prompt_tokens": 6992, "computed": 0,
                                            "scheduled": 4608, "block_ids": [[11, 12], [0, 71]]}]}
CACHED = {"kind": "step", "step": 2, "cached": [{"id": "r1", "computed": 4608, "scheduled": 2304,
                                                  "new_block_ids": [[13], [72]]}]}
SUMMARY = {"kind": "summary"}


class ProtocolTest(unittest.TestCase):

    def test_the_greeting_names_the_adapter_and_its_capabilities(self):
        self.assertEqual([[{"kind": "hello", "protocol": "proofgate-adapter/v1", "implementation": "recorder",
                            "capabilities": ["state"]}]], answers(Recorder(), HELLO))

    def test_each_message_gets_its_verdicts_then_the_state_then_an_end_marker(self):
        topology, new, cached, summary = answers(Recorder(), TOPOLOGY, NEW, CACHED, SUMMARY)
        self.assertEqual([], topology)
        self.assertEqual([{"kind": "state", "pending": [{"id": "r1", "done": 4608, "table": [[11, 12], [0, 71]],
                                                         "latch": []}], "held": {},
                           "counters": {"plans": 0, "rejected": 0, "store_skipped_quorum": 0, "retired_finished": 0}}],
                         new)
        self.assertEqual("plan", cached[0]["kind"])
        self.assertEqual([[1, 42]], cached[0]["recurrent"])
        self.assertEqual("state", cached[1]["kind"])
        self.assertEqual([{"kind": "summary", "plans": 1, "rejected": 0, "store_skipped_quorum": 0, "retired_finished": 0,
                           "pending": [], "latched": {}}], summary)

    def test_an_exception_of_the_authors_code_is_the_protocols_error_and_the_adapter_keeps_answering(self):
        adapter = Recorder(fail_on=1)
        got = answers(adapter, TOPOLOGY, NEW, CACHED, SUMMARY, TOPOLOGY, dict(NEW, step=5), SUMMARY)
        self.assertEqual("error", got[1][0]["kind"])
        self.assertRegex(got[1][0]["message"], r"^step event 1: KeyError: 'new' \(test_protocol.py:\d+ in step\)$")
        # the rest of the scenario, which the kit has already sent, is answered (refused, naming the first error)
        self.assertEqual("error", got[2][0]["kind"])
        self.assertTrue(got[2][0]["message"].startswith("not run: the connector failed at the step event 1 (KeyError"))
        self.assertEqual("error", got[3][0]["kind"])
        # the next scenario starts afresh
        self.assertEqual([], got[4])
        self.assertEqual("state", got[5][0]["kind"])
        self.assertEqual("summary", got[6][0]["kind"])

    def test_a_verdict_against_the_field_rules_is_an_error_of_that_event(self):
        class Bad(Recorder):
            def step(self, step):
                return [plan(step.step, "r1", "d1", 6912, [[11, "12"]], [])]
        got = answers(Bad(), TOPOLOGY, NEW)
        self.assertEqual("error", got[1][0]["kind"])
        self.assertIn("VerdictError: a plan's blocks_by_group block is not an integer: '12'", got[1][0]["message"])

    def test_a_verdict_may_be_a_dict_as_replay_prints_it_and_is_checked(self):
        class Dicts(Recorder):
            def step(self, step):
                return [{"kind": "rejected", "step": step.step, "id": "r1", "code": "empty", "reason": "rejected: empty"}]
        self.assertEqual([{"kind": "rejected", "step": 1, "id": "r1", "code": "empty", "reason": "rejected: empty"}],
                         answers(Dicts(), TOPOLOGY, NEW)[1][:1])

        class BadDicts(Recorder):
            def step(self, step):
                return [{"kind": "rejected", "step": step.step, "id": "r1", "code": "poisoned"}]
        self.assertIn("unknown rejection code 'poisoned'", answers(BadDicts(), TOPOLOGY, NEW)[1][0]["message"])

    def test_events_before_any_topology_and_unknown_kinds_are_refused(self):
        got = answers(Recorder(), NEW, SUMMARY, {"kind": "nonsense"}, "not json")
        self.assertEqual(["a step before any topology", "a summary before any topology", "unknown message kind 'nonsense'"],
                         [g[0]["message"] for g in got[:3]])
        self.assertTrue(got[3][0]["message"].startswith("the message is not JSON"))

    def test_a_print_in_the_connector_does_not_reach_the_protocols_stdout(self):
        class Chatty(Recorder):
            def step(self, step):
                print("connector ready")
                return super().step(step)
        stdin = io.StringIO("\n".join(json.dumps(m) for m in (HELLO, TOPOLOGY, NEW, SUMMARY)) + "\n\n")
        stdout = io.StringIO()
        import contextlib
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr):
            self.assertEqual(0, run(Chatty(), stdin, stdout))
        self.assertNotIn("connector ready", stdout.getvalue())
        self.assertIn("connector ready", stderr.getvalue())
        self.assertEqual(4, stdout.getvalue().count('{"kind":"end"}'))

    def test_messages_that_arrived_together_are_answered_in_one_write(self):
        # each write wakes the kit: a scenario sent ahead is answered in one, whatever the stream's buffering
        stdout = Writes()
        message = "\n".join(json.dumps(m) for m in (HELLO, TOPOLOGY, NEW, CACHED, SUMMARY)) + "\n"
        with piped(message.encode("utf-8")) as stdin:
            self.assertEqual(0, run(Recorder(), stdin, stdout))
        self.assertEqual(1, len([w for w in stdout.writes if w]), stdout.writes)
        self.assertEqual(5, stdout.getvalue().count('{"kind":"end"}'))

    def test_an_exit_of_the_connector_still_writes_the_answers_before_it(self):
        # the kit then finds the adapter gone at the message it exited on, not at an earlier one
        class Exits(Recorder):
            def step(self, step):
                if step.step == 2:
                    raise SystemExit(3)
                return super().step(step)
        stdout = Writes()
        message = "\n".join(json.dumps(m) for m in (HELLO, TOPOLOGY, NEW, CACHED, SUMMARY)) + "\n"
        with piped(message.encode("utf-8")) as stdin:
            with self.assertRaises(SystemExit):
                run(Exits(), stdin, stdout)
        self.assertEqual(3, stdout.getvalue().count('{"kind":"end"}'), stdout.getvalue())

    def test_an_answer_does_not_wait_for_a_slow_one_after_it(self):
        # the kit's patience bounds each answer: the ones before a slow event are written while it runs
        stdout = Writes()

        class Slow(Recorder):
            def step(self, step):
                if step.step == 2:  # waits until the answers before it were written, for at most 60 s
                    deadline = time.monotonic() + 60
                    while not [w for w in stdout.writes if w] and time.monotonic() < deadline:
                        time.sleep(0.005)
                return super().step(step)
        message = "\n".join(json.dumps(m) for m in (HELLO, TOPOLOGY, NEW, CACHED, SUMMARY)) + "\n"
        with piped(message.encode("utf-8")) as stdin:
            self.assertEqual(0, run(Slow(), stdin, stdout))
        writes = [w for w in stdout.writes if w]
        self.assertEqual(3, writes[0].count('{"kind":"end"}'), writes)
        self.assertEqual(5, stdout.getvalue().count('{"kind":"end"}'))

    def test_a_message_that_is_not_utf8_is_refused_as_such_and_the_next_is_answered(self):
        stdout = Writes()
        message = (json.dumps(TOPOLOGY) + "\n").encode("utf-8") + b'{"kind":"summary\xff"}\n' + json.dumps(SUMMARY).encode()
        with piped(message) as stdin:
            self.assertEqual(0, run(Recorder(), stdin, stdout))
        got = [json.loads(line) for line in stdout.getvalue().splitlines()]
        self.assertEqual(["end", "error", "end", "summary", "end"], [g["kind"] for g in got])
        self.assertTrue(got[1]["message"].startswith("the message is not UTF-8: "), got[1])

    def test_an_unknown_capability_stops_the_adapter_before_it_greets(self):
        class Misspelt(Recorder):
            capabilities = ("states",)
        import contextlib
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr):
            self.assertEqual(2, run(Misspelt(), io.StringIO(json.dumps(HELLO) + "\n"), io.StringIO()))
        self.assertIn("unknown capabilities 'states'", stderr.getvalue())


class DefaultsTest(unittest.TestCase):

    def test_a_hand_written_topology_gets_the_protocols_defaults(self):
        topology = Topology.from_json(TOPOLOGY)
        self.assertEqual((1, 256, 1024, None), (topology.tp_degree, topology.hash_block_size, topology.min_span_tokens,
                                                topology.max_span_tokens))
        self.assertEqual((1,), topology.recurrent_groups)
        self.assertEqual(6912, topology.target(6992))
        self.assertTrue(topology.tracked(6912))
        self.assertFalse(topology.tracked(768))

    def test_window_tokens_zero_on_a_group_that_is_not_sliding_reads_as_absent(self):
        topology = Topology.from_json({"kind": "topology", "groups": [
            {"policy": "full", "block_tokens": 2304, "window_tokens": 0},
            {"policy": "sliding", "block_tokens": 2304, "window_tokens": 4096}], "max_span_tokens": 1000000})
        self.assertEqual([None, 4096], [g.window_tokens for g in topology.groups])
        self.assertEqual(1000000, topology.max_span_tokens)
        with self.assertRaises(MessageError):
            Topology.from_json({"kind": "topology", "groups": [{"policy": "sliding", "block_tokens": 2304}]})

    def test_a_step_has_its_optional_fields_and_its_evidence_as_logged(self):
        step = Step.from_json({"kind": "step", "step": 3})
        self.assertEqual(([], [], [], None, False), (step.new, step.cached, step.preempted, step.evidence, step.has_evidence))
        step = Step.from_json(json.loads('{"kind":"step","step":3,"recurrent_boundary_blocks":null}'))
        self.assertEqual((None, True), (step.evidence, step.has_evidence))

    def test_evidence_with_a_repeated_key_is_not_a_mapping(self):
        from proofgate_adapter.events import object_pairs
        evidence = json.loads('{"r1":[[1,42,6912]],"r1":[[1,43,6912]]}', object_pairs_hook=object_pairs)
        self.assertIsInstance(evidence, DuplicateKeys)
        self.assertNotIsInstance(evidence, dict)


class VerdictTest(unittest.TestCase):

    def test_a_rejection_with_facts_carries_the_fields_and_the_reason_in_section_6s_order(self):
        line = rejected(2, "r3", "future_boundary", entry=0, block=142, group=1, target=8192, observed=8448).to_json()
        self.assertEqual({"kind": "rejected", "step": 2, "id": "r3", "code": "future_boundary", "observed": 8448,
                          "target": 8192, "group": 1, "block": 142,
                          "reason": "entry boundary is ahead of the store plan observed=8448 target=8192 group=1 block=142 entry=0"},
                         line)
        self.assertEqual({"kind": "rejected", "step": 2, "id": "r3", "code": "empty"}, rejected(2, "r3", "empty").to_json())

    def test_unknown_codes_causes_and_facts_are_refused(self):
        from proofgate_adapter import VerdictError
        for make in (lambda: rejected(1, "r1", "poisoned"), lambda: rejected(1, "r1", "empty", colour=1),
                     lambda: retired(1, "r1", "evicted"), lambda: plan(1, 7, "d1", 0, [], [])):
            with self.assertRaises(VerdictError):
                make()

    def test_verdicts_made_directly_are_held_to_the_same_rules(self):
        from proofgate_adapter import Plan, Rejected, Retired, VerdictError
        for make in (lambda: Plan(1, "r1", "d1", 6912.0, [[11]], []), lambda: Plan(1, "r1", "d1", 6912, [[11, "12"]], []),
                     lambda: Plan("1", "r1", "d1", 6912, [[11]], []), lambda: Rejected(1, "r1", "null_block target=6912"),
                     lambda: Rejected(1, "r1", "empty", {"colour": 1}), lambda: Rejected(1, "r1", "empty", {"group": "1"}),
                     lambda: Retired(1, "r1", "quorum "), lambda: Retired(1, 7, "quorum")):
            with self.assertRaises(VerdictError):
                make()
        self.assertEqual([[1, 42], [2, 43]], Plan(1, "r1", "d1", 6912, [[11]], {2: 43, 1: 42}).to_json()["recurrent"])

    def test_a_dict_plans_recurrent_mapping_is_written_as_pairs(self):
        class Mapping(Recorder):
            def step(self, step):
                return [{"kind": "plan", "step": step.step, "id": "r1", "digest": "d1", "span": 6912,
                         "blocks_by_group": [[11]], "recurrent": {1: 42}}]
        got = answers(Mapping(), TOPOLOGY, {"kind": "step", "step": 1})
        self.assertEqual([[1, 42]], got[1][0]["recurrent"])

    def test_two_pending_stores_of_one_request_are_refused(self):
        from proofgate_adapter import VerdictError
        with self.assertRaises(VerdictError):
            State([PendingStore("r1", 0, [[]], ()), PendingStore("r1", 0, [[]], ())]).to_json()


if __name__ == "__main__":
    unittest.main()

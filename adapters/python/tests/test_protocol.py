"""The protocol loop: hello, answers and end markers, errors, what the library may not catch, defaults,
state and summary."""

import contextlib
import io
import json
import os
import signal
import sys
import time
import unittest
from collections.abc import Callable, Iterable, Iterator
from typing import NoReturn, Optional, Union

from support import HELLO, TOPOLOGY, UNCAUGHT_LINE, Message, answers, piped, ran

from proofgate_adapter import (Adapter, Counters, Finished, Held, Lookup, MessageError, PendingStore, Plan, Probe, State,
                               Topology, Verdict, VerdictError, hit, load, plan, rejected, retired, run)
from proofgate_adapter.verdicts import check_line
from proofgate_adapter.events import DuplicateKeys, JsonObject, Step
from proofgate_adapter.protocol import Verdicts


class Writes(io.StringIO):
    """An output that keeps each write."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[str] = []

    def write(self, text: str) -> int:
        self.writes.append(text)
        return super().write(text)


class Recorder(Adapter):
    """Publishes every new request at once; raises where told to."""

    name = "recorder"
    capabilities: tuple[str, ...] = ("state",)

    def __init__(self, fail_on: Optional[int] = None) -> None:
        self.fail_on = fail_on
        self.topologies: list[Topology] = []

    def topology(self, topology: Topology) -> None:
        self.topologies.append(topology)
        self.pending: dict[str, PendingStore] = {}
        self.counters = Counters()

    def step(self, step: Step) -> Iterable[Union[Verdict, JsonObject]]:
        if self.fail_on == step.step:
            raise KeyError("new")
        out: list[Verdict] = []
        for r in step.new:
            self.pending[r.id] = PendingStore(r.id, r.computed + r.scheduled, r.block_ids, {})
        for cr in step.cached:
            if cr.id in self.pending:
                del self.pending[cr.id]
                out.append(plan(step.step, cr.id, "d1", 6912, [[11, 12, 13], [42]], {1: 42}))
        self.counters.count(out)
        return out

    def finished(self, event: Finished) -> Verdicts:
        if self.pending.pop(event.id, None):
            verdict = retired(2, event.id, "finished")
            self.counters.count([verdict])
            return [verdict]
        return []

    def held(self, event: Held) -> Verdicts:
        return None

    def state(self) -> State:
        return State(list(self.pending.values()), {}, self.counters)


NEW = {"kind": "step", "step": 1, "new": [{"id": "r1", "digest": "d1", "prompt_tokens": 6992, "computed": 0,
                                           "scheduled": 4608, "block_ids": [[11, 12], [0, 71]]}]}
CACHED = {"kind": "step", "step": 2, "cached": [{"id": "r1", "computed": 4608, "scheduled": 2304,
                                                 "new_block_ids": [[13], [72]]}]}
SUMMARY = {"kind": "summary"}


class ProtocolTest(unittest.TestCase):

    def test_the_hello_names_the_adapter_and_its_capabilities(self) -> None:
        self.assertEqual([[{"kind": "hello", "protocol": "proofgate-adapter/v1", "implementation": "recorder",
                            "capabilities": ["state"], "connector_policy": "latch-at-target"}]], answers(Recorder(), HELLO))

    def test_the_hello_names_a_policy_of_the_connectors_own(self) -> None:
        recorder = Recorder()
        recorder.connector_policy = "own"
        self.assertEqual("own", answers(recorder, HELLO)[0][0]["connector_policy"])

    def test_an_unknown_connector_policy_is_refused_at_start(self) -> None:
        recorder = Recorder()
        recorder.connector_policy = "latch-at-boundary"
        with self.assertRaisesRegex(ValueError, "unknown connector policy 'latch-at-boundary'"):
            answers(recorder, HELLO)

    def test_each_message_gets_its_verdicts_then_the_state_then_an_end_marker(self) -> None:
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

    def test_an_exception_of_the_authors_code_is_the_protocols_error_and_the_adapter_keeps_answering(self) -> None:
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

    def test_a_verdict_against_the_field_rules_is_an_error_of_that_event(self) -> None:
        class Bad(Recorder):
            def step(self, step: Step) -> list[Verdict]:
                # a block id that is not an integer, against the types: what the library refuses
                return [plan(step.step, "r1", "d1", 6912, [[11, "12"]], [])]  # type: ignore[list-item]
        got = answers(Bad(), TOPOLOGY, NEW)
        self.assertEqual("error", got[1][0]["kind"])
        self.assertIn("VerdictError: a plan's blocks_by_group block is not an integer: '12'", got[1][0]["message"])

    def test_a_verdict_may_be_a_dict_as_replay_prints_it_and_is_checked(self) -> None:
        class Dicts(Recorder):
            def step(self, step: Step) -> list[JsonObject]:
                return [{"kind": "rejected", "step": step.step, "id": "r1", "code": "empty", "reason": "rejected: empty"}]
        self.assertEqual([{"kind": "rejected", "step": 1, "id": "r1", "code": "empty", "reason": "rejected: empty"}],
                         answers(Dicts(), TOPOLOGY, NEW)[1][:1])

        class BadDicts(Recorder):
            def step(self, step: Step) -> list[JsonObject]:
                return [{"kind": "rejected", "step": step.step, "id": "r1", "code": "poisoned observed=1"}]
        self.assertIn("rejection code 'poisoned observed=1' is neither one of protocol section 3",
                      answers(BadDicts(), TOPOLOGY, NEW)[1][0]["message"])

    def test_events_before_any_topology_and_unknown_kinds_are_refused(self) -> None:
        got = answers(Recorder(), NEW, SUMMARY, {"kind": "nonsense"}, "not json")
        self.assertEqual(["a step before any topology", "a summary before any topology", "unknown message kind 'nonsense'"],
                         [g[0]["message"] for g in got[:3]])
        self.assertTrue(got[3][0]["message"].startswith("the message is not JSON"))

    def test_a_print_in_the_connector_does_not_reach_the_protocols_stdout(self) -> None:
        class Chatty(Recorder):
            def step(self, step: Step) -> Iterable[Union[Verdict, JsonObject]]:
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

    def test_messages_that_arrived_together_are_answered_in_one_write(self) -> None:
        # each write wakes the kit: a scenario sent ahead is answered in one, whatever the stream's buffering
        stdout = Writes()
        message = "\n".join(json.dumps(m) for m in (HELLO, TOPOLOGY, NEW, CACHED, SUMMARY)) + "\n"
        with piped(message.encode("utf-8")) as stdin:
            self.assertEqual(0, run(Recorder(), stdin, stdout))
        self.assertEqual(1, len([w for w in stdout.writes if w]), stdout.writes)
        self.assertEqual(5, stdout.getvalue().count('{"kind":"end"}'))

    def test_an_exit_of_the_connector_still_writes_the_answers_before_it(self) -> None:
        # the kit then finds the adapter gone at the message it exited on, not at an earlier one; the
        # status is the library's (3: what it may not catch), whatever the connector's
        class Exits(Recorder):
            def step(self, step: Step) -> Iterable[Union[Verdict, JsonObject]]:
                if step.step == 2:
                    raise SystemExit(5)
                return super().step(step)
        status, stdout, stderr = ran(Exits(), HELLO, TOPOLOGY, NEW, CACHED, SUMMARY)
        self.assertEqual(3, status, stderr)
        self.assertEqual(3, stdout.count('{"kind":"end"}'), stdout)

    def test_an_answer_does_not_wait_for_a_slow_one_after_it(self) -> None:
        # the kit's patience bounds each answer: the ones before a slow event are written while it runs
        stdout = Writes()

        class Slow(Recorder):
            def step(self, step: Step) -> Iterable[Union[Verdict, JsonObject]]:
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

    def test_a_message_that_is_not_utf8_is_refused_as_such_and_the_next_is_answered(self) -> None:
        stdout = Writes()
        message = (json.dumps(TOPOLOGY) + "\n").encode("utf-8") + b'{"kind":"summary\xff"}\n' + json.dumps(SUMMARY).encode()
        with piped(message) as stdin:
            self.assertEqual(0, run(Recorder(), stdin, stdout))
        got = [json.loads(line) for line in stdout.getvalue().splitlines()]
        self.assertEqual(["end", "error", "end", "summary", "end"], [g["kind"] for g in got])
        self.assertTrue(got[1]["message"].startswith("the message is not UTF-8: "), got[1])

    def test_an_unknown_capability_stops_the_adapter_before_it_says_hello(self) -> None:
        class Misspelt(Recorder):
            capabilities = ("states",)
        import contextlib
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr):
            self.assertEqual(2, run(Misspelt(), io.StringIO(json.dumps(HELLO) + "\n"), io.StringIO()))
        self.assertIn("unknown capabilities 'states'", stderr.getvalue())


class Restoring(Recorder):
    """Hits 2304 tokens of d1, and loads what a step schedules with external tokens."""

    capabilities: tuple[str, ...] = ("state", "restore")

    def lookup(self, event: Lookup) -> Verdicts:
        self.looked_up = event
        return [hit(1, event.id, 2304 if event.digest == "d1" else 0)]

    def step(self, step: Step) -> Iterable[Union[Verdict, JsonObject]]:
        out = list(super().step(step))
        out.extend(load(step.step, r.id, r.digest, r.computed, [[11], [71]]) for r in step.new if r.external)
        return out


class RestoreTest(unittest.TestCase):
    """The restore half: a lookup reaches `lookup()` and is answered with a hit; a new request's
    external tokens reach `step()`, which answers with a load."""

    LOOKUP = {"kind": "lookup", "id": "r1", "digest": "d1", "prompt_tokens": 6992, "computed": 0}
    RESTORED = {"kind": "step", "step": 2, "new": [{"id": "r1", "digest": "d1", "prompt_tokens": 6992, "computed": 2304,
                                                    "external": 2304, "scheduled": 4688,
                                                    "block_ids": [[11, 12, 13], [71, 72, 73]]}]}

    def test_a_lookup_is_answered_with_its_hit_and_the_restored_request_with_its_load(self) -> None:
        adapter = Restoring()
        got = answers(adapter, HELLO, TOPOLOGY, self.LOOKUP, self.RESTORED)
        self.assertIn("restore", got[0][0]["capabilities"])
        self.assertEqual(Lookup("r1", "d1", 6992, 0), adapter.looked_up)
        self.assertEqual({"kind": "hit", "step": 1, "id": "r1", "tokens": 2304}, got[2][0])
        self.assertEqual({"kind": "load", "step": 2, "id": "r1", "digest": "d1", "span": 2304, "blocks_by_group": [[11], [71]]},
                         got[3][0])

    def test_a_new_requests_external_tokens_default_to_none(self) -> None:
        self.assertEqual(0, Step.from_json(NEW).new[0].external)
        self.assertEqual(2304, Step.from_json(self.RESTORED).new[0].external)

    def test_a_hit_and_a_load_are_checked_when_made(self) -> None:
        with self.assertRaises(VerdictError):
            hit(1, "r1", -1)
        with self.assertRaises(VerdictError):
            load(1, "r1", "d1", 2304, [[11], ["71"]])  # type: ignore[list-item]
        with self.assertRaises(VerdictError):
            check_line({"kind": "hit", "step": 1, "id": "r1"})

    def test_the_restore_capability_needs_a_lookup_method(self) -> None:
        class Declared(Recorder):
            capabilities = ("restore",)
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr):
            self.assertEqual(2, run(Declared(), io.StringIO(json.dumps(HELLO) + "\n"), io.StringIO()))
        self.assertIn("the restore capability is declared but the adapter has no lookup(event)", stderr.getvalue())

        class Undeclared(Restoring):  # a lookup method alone declares nothing: the kit sends it no lookups
            capabilities = ("state",)
        self.assertNotIn("restore", answers(Undeclared(), HELLO)[0][0]["capabilities"])


class UncaughtTest(unittest.TestCase):
    """What the library may not catch from the connector (a BaseException that is not an
    Exception) ends the adapter with status 3, named on stderr's last line."""

    def test_a_keyboard_interrupt_in_step_ends_the_adapter_with_status_3_and_names_it_last_on_stderr(self) -> None:
        class Fatal(BaseException):
            pass
        cases: tuple[tuple[Union[BaseException, type[BaseException]], str], ...] = (
            (KeyboardInterrupt, "KeyboardInterrupt"), (GeneratorExit, "GeneratorExit"),
            (Fatal("the GPU is gone"), "Fatal: the GPU is gone"))
        for raised, name in cases:
            class Interrupted(Recorder):
                def step(self, step: Step) -> Iterator[Union[Verdict, JsonObject]]:
                    if step.step == 2:  # one verdict given, then the raise: no part of this answer is written
                        yield plan(step.step, "r1", "d1", 6912, [[11, 12, 13], [42]], {1: 42})
                        raise raised
                    yield from super().step(step)
            with self.subTest(name):
                status, stdout, stderr = ran(Interrupted(), HELLO, TOPOLOGY, NEW, CACHED, SUMMARY)
                self.assertEqual(3, status, stderr)
                # the answers to the messages before are written, none for the step it raised in
                self.assertEqual(["hello", "end", "end", "state", "end"],
                                 [json.loads(line)["kind"] for line in stdout.splitlines()])
                lines = stderr.splitlines()
                self.assertRegex(lines[-1], "^%s$" % UNCAUGHT_LINE % (name, "test_protocol.py", "step"))
                self.assertIn("Traceback (most recent call last):", lines)
                self.assertTrue(lines[-2].endswith(name), lines)  # the traceback, just before

    def test_a_sys_exit_in_any_hook_ends_the_adapter_with_status_3_not_silently(self) -> None:
        # sys.exit(0) would otherwise read as a clean end of the adapter, in the middle of a scenario
        class Exits(Recorder):
            capabilities = ("state", "namespace")

            def __init__(self, hook: str) -> None:
                super().__init__()
                self.hook = hook

            def topology(self, topology: Topology) -> None:
                super().topology(topology)
                if self.hook == "topology":
                    sys.exit(0)

            def finished(self, event: Finished) -> Verdicts:
                if self.hook == "finished":
                    sys.exit("the connector gave up")
                return super().finished(event)

            def state(self) -> State:
                if self.hook == "state" and self.topologies:
                    sys.exit(2)
                return super().state()

            def namespace(self, probe: Probe) -> NoReturn:
                sys.exit()
        probe = {"kind": "namespace", "set": "proofgate-namespace/v1", "probe": "p1", "topology": TOPOLOGY,
                 "identity": {"model": "m", "dtype": "bfloat16", "cache_salt": "", "lora": ""}, "prompt_tokens": 4,
                 "token_ids": [1, 2, 3, 4], "span": 0, "block_ids": [[11], [42]]}
        hooks: tuple[tuple[str, tuple[Message, ...], int, str], ...] = (
                ("topology", (TOPOLOGY, NEW), 1, "SystemExit: 0"),
                ("finished", (TOPOLOGY, NEW, {"kind": "finished", "id": "r1"}), 3, "SystemExit: the connector gave up"),
                ("state", (TOPOLOGY, NEW), 2, "SystemExit: 2"),
                ("namespace", (probe,), 1, "SystemExit"))
        for hook, messages, answered, described in hooks:
            with self.subTest(hook):
                status, stdout, stderr = ran(Exits(hook), HELLO, *messages)
                self.assertEqual(3, status, stderr)
                self.assertEqual(answered, stdout.count('{"kind":"end"}'), stdout)
                # sys.exit is not a frame of the traceback: the hook that called it is named
                self.assertRegex(stderr.splitlines()[-1], "^%s$" % UNCAUGHT_LINE % (described, "test_protocol.py", hook))

    def test_a_sys_exit_while_the_library_reads_the_capabilities_is_named_before_the_hello(self) -> None:
        class Exits(Recorder):
            @property  # type: ignore[override]  # a property where Adapter has an attribute: the library reads either
            def capabilities(self) -> NoReturn:
                raise SystemExit(0)
        status, stdout, stderr = ran(Exits(), HELLO)
        self.assertEqual((3, ""), (status, stdout))
        self.assertRegex(stderr.splitlines()[-1], "^%s$" % UNCAUGHT_LINE % ("SystemExit: 0", "test_protocol.py",
                                                                            "capabilities"))

    def test_an_exception_is_still_the_protocols_error_with_its_first_traceback_on_stderr(self) -> None:
        status, stdout, stderr = ran(Recorder(fail_on=1), HELLO, TOPOLOGY, NEW, CACHED, SUMMARY)
        self.assertEqual(0, status)
        got = [json.loads(line) for line in stdout.splitlines()]
        self.assertEqual(5, got.count({"kind": "end"}))
        self.assertRegex(got[3]["message"], r"^step event 1: KeyError: 'new' \(test_protocol.py:\d+ in step\)$")
        self.assertEqual(1, stderr.count("Traceback (most recent call last):"), stderr)
        self.assertRegex(stderr, r"^proofgate_adapter: step event 1: KeyError: 'new' \(test_protocol.py:\d+ in step\)\n")
        self.assertNotIn("may not catch", stderr)

    def test_as_a_process_the_adapter_exits_with_status_3_and_stderrs_last_line_names_what_was_raised(self) -> None:
        status, stdout, stderr = adapter_process("""
            def step(self, step):
                raise KeyboardInterrupt
        """, HELLO, TOPOLOGY, NEW, SUMMARY)
        self.assertEqual(3, status, stderr)
        self.assertEqual(2 * '{"kind":"end"}\n', stdout[stdout.index("\n") + 1:])  # the hello's and the topology's
        self.assertRegex(stderr.splitlines()[-1], "^%s$" % UNCAUGHT_LINE % ("KeyboardInterrupt", "toy_connector.py",
                                                                            "step"))

    def test_a_sigint_is_not_the_connectors_and_ends_the_adapter_with_status_1_as_before(self) -> None:
        status, stdout, stderr = adapter_process("""
            def step(self, step):
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(60)
        """, HELLO, TOPOLOGY, NEW, SUMMARY)
        self.assertEqual(1, status, stderr)
        self.assertNotIn("may not catch", stderr)


def adapter_process(methods: str, *messages: Message) -> tuple[int, str, str]:
    """An adapter script (`toy_connector.py`) with these methods run as a process on the
    messages, its stdin then closed: (exit status, stdout, stderr)."""
    import subprocess
    import tempfile
    import textwrap
    from support import LIBRARY
    script = textwrap.dedent("""
        import os, signal, sys, time
        sys.path.insert(0, %r)
        from proofgate_adapter import Adapter, State, main

        class Toy(Adapter):
            name = "toy"

            def topology(self, topology):
                pass

            def state(self):
                return State([], {})
        """) % LIBRARY + textwrap.indent(textwrap.dedent(methods), "    ") + "\n\nmain(Toy())\n"
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "toy_connector.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(script)
        # SIGINT back to its default in the child: a process started in the background of a
        # non-interactive shell inherits it ignored, and Python then never raises KeyboardInterrupt
        done = subprocess.run([sys.executable, path], input="".join(json.dumps(m) + "\n" for m in messages),
                              capture_output=True, text=True, timeout=60,
                              env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    return done.returncode, done.stdout, done.stderr


class DefaultsTest(unittest.TestCase):

    def test_a_hand_written_topology_gets_the_protocols_defaults(self) -> None:
        topology = Topology.from_json(TOPOLOGY)
        self.assertEqual((1, 256, 1024, None), (topology.tp_degree, topology.hash_block_size, topology.min_span_tokens,
                                                topology.max_span_tokens))
        self.assertEqual((1,), topology.recurrent_groups)
        self.assertEqual(6912, topology.target(6992))
        self.assertTrue(topology.tracked(6912))
        self.assertFalse(topology.tracked(768))

    def test_window_tokens_zero_on_a_group_that_is_not_sliding_reads_as_absent(self) -> None:
        topology = Topology.from_json({"kind": "topology", "groups": [
            {"policy": "full", "block_tokens": 2304, "window_tokens": 0},
            {"policy": "sliding", "block_tokens": 2304, "window_tokens": 4096}], "max_span_tokens": 1000000})
        self.assertEqual([None, 4096], [g.window_tokens for g in topology.groups])
        self.assertEqual(1000000, topology.max_span_tokens)
        with self.assertRaises(MessageError):
            Topology.from_json({"kind": "topology", "groups": [{"policy": "sliding", "block_tokens": 2304}]})

    def test_a_step_has_its_optional_fields_and_its_evidence_as_logged(self) -> None:
        step = Step.from_json({"kind": "step", "step": 3})
        self.assertEqual(([], [], [], None, False), (step.new, step.cached, step.preempted, step.evidence, step.has_evidence))
        step = Step.from_json(json.loads('{"kind":"step","step":3,"recurrent_boundary_blocks":null}'))
        self.assertEqual((None, True), (step.evidence, step.has_evidence))

    def test_evidence_with_a_repeated_key_is_not_a_mapping(self) -> None:
        from proofgate_adapter.events import object_pairs
        evidence = json.loads('{"r1":[[1,42,6912]],"r1":[[1,43,6912]]}', object_pairs_hook=object_pairs)
        self.assertIsInstance(evidence, DuplicateKeys)
        self.assertNotIsInstance(evidence, dict)


class VerdictTest(unittest.TestCase):

    def test_a_rejection_with_facts_carries_the_fields_and_the_reason_in_section_6s_order(self) -> None:
        line = rejected(2, "r3", "future_boundary", entry=0, block=142, group=1, target=8192, observed=8448).to_json()
        self.assertEqual({"kind": "rejected", "step": 2, "id": "r3", "code": "future_boundary", "observed": 8448,
                          "target": 8192, "group": 1, "block": 142,
                          "reason": "entry boundary is ahead of the store plan"
                                    " observed=8448 target=8192 group=1 block=142 entry=0"},
                         line)
        self.assertEqual({"kind": "rejected", "step": 2, "id": "r3", "code": "empty"}, rejected(2, "r3", "empty").to_json())

    def test_a_code_of_the_connectors_own_is_a_verdict_with_its_own_sentence(self) -> None:
        line = rejected(3, "r1", "no_boundary_mapping", target=6912).to_json()
        self.assertEqual({"kind": "rejected", "step": 3, "id": "r1", "code": "no_boundary_mapping", "target": 6912,
                          "reason": "rejected for a reason of the connector's own target=6912"}, line)

    def test_unknown_codes_causes_and_facts_are_refused(self) -> None:
        from proofgate_adapter import VerdictError
        # the last against the types on purpose (a request id that is not a string): the library checks it too
        makes: tuple[Callable[[], Verdict], ...] = (
            lambda: rejected(1, "r1", "Poisoned Now"), lambda: rejected(1, "r1", "empty", colour=1),
            lambda: retired(1, "r1", "evicted"), lambda: plan(1, 7, "d1", 0, [], []))  # type: ignore[arg-type]
        for make in makes:
            with self.assertRaises(VerdictError):
                make()

    def test_verdicts_made_directly_are_held_to_the_same_rules(self) -> None:
        from proofgate_adapter import Rejected, Retired, VerdictError
        # some against the types on purpose (a float span, a text block or step, an integer id): the library checks them too
        makes: tuple[Callable[[], Verdict], ...] = (
            lambda: Plan(1, "r1", "d1", 6912.0, [[11]], []),  # type: ignore[arg-type]
            lambda: Plan(1, "r1", "d1", 6912, [[11, "12"]], []),  # type: ignore[list-item]
            lambda: Plan("1", "r1", "d1", 6912, [[11]], []),  # type: ignore[arg-type]
            lambda: Rejected(1, "r1", "null_block target=6912"),
            lambda: Rejected(1, "r1", "empty", {"colour": 1}), lambda: Rejected(1, "r1", "empty", {"group": "1"}),
            lambda: Retired(1, "r1", "quorum "), lambda: Retired(1, 7, "quorum"))  # type: ignore[arg-type]
        for make in makes:
            with self.assertRaises(VerdictError):
                make()
        self.assertEqual([[1, 42], [2, 43]], Plan(1, "r1", "d1", 6912, [[11]], {2: 43, 1: 42}).to_json()["recurrent"])

    def test_a_dict_plans_recurrent_mapping_is_written_as_pairs(self) -> None:
        class Mapping(Recorder):
            def step(self, step: Step) -> list[JsonObject]:
                return [{"kind": "plan", "step": step.step, "id": "r1", "digest": "d1", "span": 6912,
                         "blocks_by_group": [[11]], "recurrent": {1: 42}}]
        got = answers(Mapping(), TOPOLOGY, {"kind": "step", "step": 1})
        self.assertEqual([[1, 42]], got[1][0]["recurrent"])

    def test_an_async_plan_says_how_it_is_copied_and_its_saved_line_ends_the_copy(self) -> None:
        from proofgate_adapter import VerdictError, saved
        self.assertNotIn("copy", plan(1, "r1", "d1", 6912, [[11]], [[1, 42]]).to_json(), "a copy in the step is the default")
        line = plan(1, "r1", "d1", 6912, [[11]], [[1, 42]], copy="async", pinned=True).to_json()
        self.assertEqual(("async", True), (line["copy"], line["pinned"]))
        self.assertNotIn("pinned", plan(1, "r1", "d1", 6912, [[11]], [[1, 42]], copy="async").to_json())
        self.assertEqual({"kind": "saved", "step": 3, "id": "r1", "digest": "d1", "span": 6912},
                         saved(3, "r1", "d1", 6912).to_json())
        makes: tuple[Callable[[], Verdict], ...] = (
                     lambda: plan(1, "r1", "d1", 6912, [[11]], [], copy="later"),
                     lambda: plan(1, "r1", "d1", 6912, [[11]], [], pinned=True),
                     lambda: plan(1, "r1", "d1", 6912, [[11]], [], copy="async", pinned=1),  # type: ignore[arg-type]
                     lambda: saved(3, "r1", "d1", "6912"))  # type: ignore[arg-type]
        for make in makes:
            with self.assertRaises(VerdictError):
                make()

        class Copier(Recorder):
            def step(self, step: Step) -> list[JsonObject]:
                return [{"kind": "saved", "step": step.step, "id": "r1", "digest": "d1", "span": 6912},
                        {"kind": "plan", "step": step.step, "id": "r1", "digest": "d1", "span": 6912,
                         "blocks_by_group": [[11]], "recurrent": [], "pinned": True}]
        got = answers(Copier(), TOPOLOGY, {"kind": "step", "step": 1})
        self.assertEqual("error", got[1][0]["kind"], "a dict's pin without an async copy is refused as plan() refuses it")

    def test_two_pending_stores_of_one_request_are_refused(self) -> None:
        from proofgate_adapter import VerdictError
        with self.assertRaises(VerdictError):
            State([PendingStore("r1", 0, [[]], ()), PendingStore("r1", 0, [[]], ())]).to_json()


if __name__ == "__main__":
    unittest.main()

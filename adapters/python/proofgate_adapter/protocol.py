"""The adapter protocol `proofgate-adapter/v1` (docs/conformance.md): the loop that reads the
kit's messages, calls the author's `Adapter`, and writes its answers and end markers.

What the loop does for the author:

- answers the hello with the adapter's name and capabilities (checked at start: an unknown
  capability, or `namespace` without a `namespace()` method, stops the adapter before it says hello);
- applies the topology defaults and gives typed events (`events.py`);
- writes verdicts as `replay` prints them, then the `state` line with the `state` capability,
  then `{"kind":"end"}`; answers the summary request from `state()`;
- turns an exception of the author's code into `{"kind":"error","message":...}` for that
  message, and keeps answering: the kit has already sent the rest of the scenario and reads every
  answer. Until the next topology line, later events of the scenario are answered with an error
  that names the first one (the connector's state is not trusted after an exception);
- keeps the protocol's stdout clean: the author's `print()` goes to stderr;
- does not catch what is not an `Exception` (KeyboardInterrupt, SystemExit from `sys.exit()`,
  GeneratorExit, any other BaseException) when the author's code raises it: it writes the answers
  to the messages before, no answer to the one being handled, the traceback and then, as the last
  line on stderr, `proofgate_adapter: the connector raised KeyboardInterrupt (connector.py:88 in
  step), which the library may not catch; exiting with status 3`, and exits with status 3
  (`UNCAUGHT`), which means that and nothing else. A SIGINT sent to the adapter is not the
  connector's: it ends the adapter with status 1, as it does while the library waits for input;
- under `proofgate audit-connector --exec`, refuses to run code loaded from the repository's working tree
  instead of the revision audited (`revision.py`): it exits with status 2 before its hello, or
  at the first message (a topology, an event, a namespace probe) after which such a module is in
  `sys.modules`, without answering that message.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import FrameType
from typing import NoReturn, Optional, TextIO, Union

from .events import EVENTS, Finished, Held, JsonObject, Lookup, Step, Topology, object_pairs
from .namespace import Probe, Values, answer as namespace_answer
from .revision import OutsideRevision, RevisionCheck
from .verdicts import State, Verdict, check_line

#: What an event's hook returns: its verdicts in decision order, each made by `plan()`,
#: `rejected()`, `retired()` or a dict as `replay` prints it; None for none.
Verdicts = Optional[Iterable[Union[Verdict, JsonObject]]]

PROTOCOL = "proofgate-adapter/v1"

# one encoder and one decoder for the session: json.dumps and json.loads with arguments build a new one per call
_encode = json.JSONEncoder(separators=(",", ":")).encode
_DECODER = json.JSONDecoder(object_pairs_hook=object_pairs)

#: The capabilities of docs/conformance.md, "Capabilities".
CAPABILITIES = ("reason_facts", "state", "sliding", "wide_integers", "restore", "namespace")

#: The connector policies of docs/conformance.md, "Safety and policies": the kit compares answers
#: with latch-at-target's; an adapter of its own policy is judged on the safety of its plans alone.
CONNECTOR_POLICIES = ("latch-at-target", "own")

END = '{"kind":"end"}\n'

#: The exit status of an adapter whose connector raised what the library may not catch (a
#: BaseException that is not an Exception: KeyboardInterrupt, SystemExit, GeneratorExit). 1 is
#: Python's own for an uncaught exception and a broken pipe, 2 the library's refusal to run.
UNCAUGHT = 3


class NotApplicable(Exception):
    """Raised by an adapter's event handler when the scenario does not apply to its connector (for
    example, the vLLM field the connector reads cannot carry the scenario's evidence). The kit
    counts the scenario as not run, with this reason, never as passed (though a plan printed
    before it is judged for safety all the same); the library answers the scenario's later
    messages alike, until the next topology."""


class Adapter:
    """Subclass this and implement `topology`, `step`, `finished`, `held` and `state`.

    - `name`: the implementation's name in the hello.
    - `capabilities`: what the adapter reports (docs/conformance.md, "Capabilities"); declare only
      what it really reports.
    - `connector_policy`: "latch-at-target" (the default: the kit compares every answer with it)
      or "own" (a policy the kit does not model: judged on the safety of every plan alone).
    - `topology(topology)`: start a fresh connector for this `Topology` (defaults applied).
    - `step(step)`, `finished(event)`, `held(event)`: the event's verdicts, in decision order, as
      an iterable of `plan(...)`, `rejected(...)`, `retired(...)`, or dicts as `replay` prints
      them (checked, then written as they are), or None for none.
    - `state()`: a `State` (pending stores, held digests, counters, ignored held reports). The
      library prints it after each event with the `state` capability, and derives the summary
      from it in any case.
    - optionally `namespace(probe)`: a dict of name -> bytes for a namespace probe; declare
      `namespace` with it.
    - optionally `lookup(event)`: the restore half; one `hit(...)` for the `Lookup`, and in
      `step`, a `load(...)` for each new request whose `external` tokens are the hit. Declare
      `restore` with it: the kit sends lookups only then (declaring it without the method is
      refused at start).
    """

    name: str = "proofgate adapter (Python)"
    capabilities: tuple[str, ...] = ()
    connector_policy: str = "latch-at-target"
    # Declared, not defined: an adapter answers namespace probes when it has this method, and
    # the library reads its presence (check_capabilities).
    namespace: Callable[[Probe], Values]

    def topology(self, topology: Topology) -> None:
        raise NotImplementedError("topology()")

    def step(self, step: Step) -> Verdicts:
        raise NotImplementedError("step()")

    def finished(self, event: Finished) -> Verdicts:
        raise NotImplementedError("finished()")

    def held(self, event: Held) -> Verdicts:
        raise NotImplementedError("held()")

    def state(self) -> State:
        raise NotImplementedError("state()")

    def lookup(self, event: Lookup) -> Verdicts:
        raise NotImplementedError("lookup() (declare the restore capability with it)")


def check_capabilities(adapter: Adapter) -> tuple[str, ...]:
    declared = tuple(adapter.capabilities)
    unknown = [c for c in declared if c not in CAPABILITIES]
    if unknown:
        raise ValueError("unknown capabilities %s (the kit knows %s)" % (", ".join(map(repr, unknown)), ", ".join(CAPABILITIES)))
    # a lookup method without the capability is allowed: the vLLM driver has one for every mapping,
    # and the kit sends lookups only to an adapter that declares restore
    if "restore" in declared and type(adapter).lookup is Adapter.lookup:
        raise ValueError("the restore capability is declared but the adapter has no lookup(event) method")
    has_method = callable(getattr(adapter, "namespace", None))
    if "namespace" in declared and not has_method:
        raise ValueError("the namespace capability is declared but the adapter has no namespace(probe) method")
    if has_method and "namespace" not in declared:
        raise ValueError("the adapter has a namespace(probe) method but does not declare the namespace capability")
    return declared


def describe(error: BaseException) -> str:
    """An exception as one line: its type and message, and where in the author's code it was raised."""
    text = "%s: %s" % (type(error).__name__, error) if str(error) else type(error).__name__
    frames = traceback.extract_tb(error.__traceback__)
    if frames:
        last = frames[-1]
        # lineno is None only for a frame without line numbers, which raised code does not have
        text += " (%s:%d in %s)" % (os.path.basename(last.filename), last.lineno, last.name)  # type: ignore[str-format]
    return text if len(text) <= 600 else text[:597] + "..."


class Session:
    """One adapter process's conversation with the kit. `handle` answers one message line."""

    def __init__(self, adapter: Adapter, err: Optional[TextIO] = None) -> None:
        self.adapter = adapter
        self.capabilities = check_capabilities(adapter)
        if adapter.connector_policy not in CONNECTOR_POLICIES:
            raise ValueError("unknown connector policy %r (the kit knows %s)"
                             % (adapter.connector_policy, ", ".join(CONNECTOR_POLICIES)))
        self.connector_policy = adapter.connector_policy
        self.state_capability = "state" in self.capabilities
        self.topology: Optional[Topology] = None
        self.broken: Optional[str] = None  # why later events of this scenario are refused
        self.inapplicable: Optional[str] = None  # why the scenario does not apply to the connector
        self.err = err if err is not None else sys.stderr
        self.every_traceback = bool(os.environ.get("PROOFGATE_ADAPTER_TRACEBACKS"))
        self.failures = 0
        self.revision = RevisionCheck()

    def _error(self, message: str) -> str:
        return _encode({"kind": "error", "message": message}) + "\n"

    def _not_applicable(self, reason: str) -> str:
        return _encode({"kind": "not_applicable", "reason": reason}) + "\n" + END

    def _failed(self, where: str, error: BaseException) -> str:
        message = "%s: %s" % (where, describe(error))
        self.failures += 1
        if self.failures == 1 or self.every_traceback:  # on stderr: the first traceback, or every one
            print("proofgate_adapter: %s" % message, file=self.err)
            traceback.print_exception(type(error), error, error.__traceback__, file=self.err)
            if not self.every_traceback:
                print("proofgate_adapter: later tracebacks are not printed (PROOFGATE_ADAPTER_TRACEBACKS=1 prints them)",
                      file=self.err)
        return self._error(message)

    def handle(self, line: str) -> str:
        """The whole answer to one message line, end marker included ('' for a blank line).

        Under an audit, raises `OutsideRevision` instead of answering when the message made the
        connector load a module from the working tree: a connector may import its modules at any
        message (a namespace probe's hashing, a step's first use of a helper), and an answer
        computed with the working tree's code must not reach the kit as the revision's.

        A BaseException that is not an `Exception`, raised by the author's code, is not caught:
        it leaves `handle` as it was raised, and `run` ends the adapter with it (`UNCAUGHT`).
        """
        answer = self._answer(line)
        self.revision.check()
        return answer

    def _answer(self, line: str) -> str:
        if not line.strip():
            return ""
        try:
            message = _DECODER.decode(line)
        except ValueError as e:
            return self._error("the message is not JSON: %s" % e) + END
        kind = message.get("kind") if isinstance(message, dict) else None
        if kind == "hello":
            return _encode({"kind": "hello", "protocol": PROTOCOL, "implementation": str(self.adapter.name),
                            "capabilities": list(self.capabilities),
                            "connector_policy": self.connector_policy}) + "\n" + END
        if kind == "topology":
            self.topology, self.broken, self.inapplicable = None, None, None
            try:
                topology = Topology.from_json(message)
                self.adapter.topology(topology)
                self.topology = topology
            except Exception as e:  # noqa: BLE001 - the author's code: any exception is the protocol's error
                self.broken = "the topology was refused"
                return self._failed("the topology", e) + END
            return END
        if kind in EVENTS or kind == "summary":
            if self.inapplicable is not None:
                return self._not_applicable(self.inapplicable)
            if self.broken is not None:
                return self._error("not run: %s" % self.broken) + END
            if self.topology is None:
                return self._error("a %s before any topology" % kind) + END
            return self._event(kind, message)
        if kind == "namespace":
            if "namespace" not in self.capabilities:
                return self._error("namespace probes need the namespace capability") + END
            try:
                return json.dumps(namespace_answer(self.adapter.namespace(Probe.from_json(message))),
                                  separators=(",", ":")) + "\n" + END
            except Exception as e:  # noqa: BLE001
                return self._failed("namespace probe %s" % message.get("probe"), e) + END
        return self._error("unknown message kind %r" % (kind,)) + END

    def _event(self, kind: str, message: JsonObject) -> str:
        try:
            if kind == "summary":
                return _encode(self._state().summary()) + "\n" + END
            event = EVENTS[kind].from_json(message)
            verdicts = getattr(self.adapter, kind)(event)
            lines: list[str] = []
            for verdict in verdicts or ():
                if isinstance(verdict, dict):
                    line = check_line(verdict)
                elif isinstance(verdict, Verdict):
                    line = verdict.to_json()
                else:
                    raise TypeError("%s() gave %r, not a verdict (plan(), rejected(), retired(), or a dict as replay "
                                    "prints it)" % (kind, verdict))
                lines.append(_encode(line))
            if self.state_capability:
                lines.append(_encode(self._state().to_json()))
            return "".join(line + "\n" for line in lines) + END
        except NotApplicable as e:
            self.inapplicable = str(e) or "not applicable"
            return self._not_applicable(self.inapplicable)
        except Exception as e:  # noqa: BLE001
            # named only here: formatting it for every event cost about 2% of an adapter's time
            where = "the summary request" if kind == "summary" else "%s event%s" % (
                kind, " %s" % message.get("step") if kind == "step" else "")
            self.broken = "the connector failed at the %s (%s)" % (where, describe(e))
            return self._failed(where, e) + END

    def _state(self) -> State:
        state = self.adapter.state()
        if not isinstance(state, State):
            raise TypeError("state() gave %r, not a State" % (state,))
        return state


def run(adapter: Adapter, stdin: Optional[TextIO] = None, stdout: Optional[TextIO] = None) -> int:
    """Speaks the protocol on stdin and stdout until stdin closes; returns the exit status.

    While it runs, `sys.stdout` is stderr, so that a `print()` in the connector cannot break the
    protocol; answers go to the real stdout. The answers to messages that arrived together are
    written together (each write wakes the kit: a scenario sent ahead is answered in one), but
    none waits more than about `HOLD` seconds for the ones after it, so that the kit's patience
    still bounds each answer and a connector that hangs is found at the message it hangs on; and
    whatever was answered is written before the loop ends.

    Statuses: 0 when stdin closed; 1 for a broken pipe or a SIGINT; 2 when the library refuses
    to run the adapter (`_refuse`); `UNCAUGHT` (3) when the connector raised a BaseException that
    is not an `Exception`, named in the last line on stderr.
    """
    out = stdout if stdout is not None else sys.stdout
    interrupts = _Interrupts()
    try:
        try:
            session = Session(adapter)  # reads the adapter's capabilities and namespace attributes
        except ValueError as e:
            _refuse(e)
            return 2
        except Exception:
            raise  # a mistake of the adapter's class, shown as Python shows it
        except BaseException as e:  # noqa: BLE001 - the author's code raised it: named, not caught (_uncaught)
            return _uncaught(e, interrupts)
        try:
            session.revision.check()
        except OutsideRevision as e:
            _refuse(e)
            return 2
        saved, sys.stdout = sys.stdout, sys.stderr
        held = _Held(out)
        try:
            raised = _serve(session, held, stdin if stdin is not None else sys.stdin)
        except (BrokenPipeError, KeyboardInterrupt):
            return 1
        except OutsideRevision as e:
            _refuse(e)
            return 2
        finally:
            sys.stdout = saved
            held.close()  # the loop ended or broke: what was answered still goes out, before the reason on stderr
        return 0 if raised is None else _uncaught(raised, interrupts)
    finally:
        interrupts.restore()


def _serve(session: Session, held: _Held, stdin: TextIO) -> Optional[BaseException]:
    """Answers the input until it ends (None), or returns the BaseException that is not an
    `Exception` which the author's code raised while a message was handled; that message gets
    no answer."""
    for batch in _batches(stdin):
        for line in batch:
            if isinstance(line, str):
                try:
                    answer = session.handle(line)
                except Exception:
                    raise  # OutsideRevision; the Session answers every Exception of the author's code itself
                except BaseException as e:  # noqa: BLE001
                    return e
            else:
                answer = session._error("the message is not UTF-8: %s" % line) + END
            held.add(answer)
        held.write()
    return None


def _uncaught(error: BaseException, interrupts: _Interrupts) -> int:
    """The exit status for a BaseException that is not an `Exception` from the author's code,
    with its traceback and a last line on stderr that names it (the kit quotes stderr's last
    lines when the adapter's output closes).

    Nothing of the library raises one on purpose (`main` exits only after `run` returned), so it
    is the connector's: a KeyboardInterrupt of its own, a `sys.exit()` in a hook, a GeneratorExit
    that escaped. Status 1 and no name would make it read as an ordinary crash, or, for
    `sys.exit(0)`, as a clean end. A SIGINT is the exception: the user stopped the adapter, and
    it ends it with status 1 wherever it comes, as Python's own handler would.
    """
    if isinstance(error, KeyboardInterrupt) and interrupts.received:
        return 1
    traceback.print_exception(type(error), error, error.__traceback__, file=sys.stderr)
    print("proofgate_adapter: the connector raised %s, which the library may not catch; exiting with status %d"
          % (describe(error), UNCAUGHT), file=sys.stderr)
    sys.stderr.flush()
    return UNCAUGHT


class _Interrupts:
    """Whether a SIGINT came while `run` ran, so that its KeyboardInterrupt is not taken for one
    the connector raised. Python's handler is wrapped only where it is the one in place, and
    only in the main thread (the only one a signal's KeyboardInterrupt is raised in)."""

    def __init__(self) -> None:
        self.received = False
        self.installed = False
        try:
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                signal.signal(signal.SIGINT, self._interrupted)
                self.installed = True
        except ValueError:  # not the main thread: a KeyboardInterrupt raised in this one is never a signal's
            pass

    def _interrupted(self, signum: int, frame: Optional[FrameType]) -> None:
        self.received = True
        signal.default_int_handler(signum, frame)

    def restore(self) -> None:
        # only if still ours: a connector that installed its own handler keeps it
        if self.installed and signal.getsignal(signal.SIGINT) == self._interrupted:
            signal.signal(signal.SIGINT, signal.default_int_handler)


def _refuse(error: Exception) -> None:
    """Why the adapter does not run, on stderr, each line marked as the library's."""
    for line in str(error).splitlines():
        print("proofgate_adapter: %s" % line, file=sys.stderr)


#: The longest an answer waits for the answers after it, in seconds (about: a thread looks this often).
HOLD = 0.02


class _Held:
    """Answers not yet written, and a thread that writes them once the oldest has waited `HOLD`."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.answers: list[str] = []
        self.since = 0.0
        self.lock = threading.Lock()
        # the watcher's failed write, raised in the loop's thread at its next answer
        self.failed: Optional[Union[OSError, ValueError]] = None
        self.closed = threading.Event()
        threading.Thread(target=self._watch, name="proofgate-adapter-answers", daemon=True).start()

    def add(self, answer: str) -> None:
        with self.lock:
            if self.failed is not None:
                raise self.failed
            if not self.answers:
                self.since = time.monotonic()
            self.answers.append(answer)

    def write(self) -> None:
        with self.lock:
            if self.failed is not None:
                raise self.failed
            self._write()

    def _write(self) -> None:
        if self.answers:
            # one write whatever the stream's buffering (PYTHONUNBUFFERED makes every write a system call)
            text = "".join(self.answers)
            self.answers.clear()
            self.out.write(text)
            self.out.flush()

    def _watch(self) -> None:
        while not self.closed.wait(HOLD):
            with self.lock:
                if self.answers and time.monotonic() - self.since >= HOLD:
                    try:
                        self._write()
                    except (OSError, ValueError) as e:  # the loop's thread raises it, as its own write would
                        self.failed = e
                        return

    def close(self) -> None:
        self.closed.set()
        with self.lock:
            try:
                self._write()
            except (OSError, ValueError):
                pass


def _batches(stdin: TextIO) -> Iterator[Sequence[Union[str, UnicodeDecodeError]]]:
    """The input's lines, in lists of those that arrived together.

    A stream with a descriptor (the standard input) is read from it, each read as much as is
    waiting; any other (a test's) a line at a time.
    """
    try:
        fd = stdin.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        for line in stdin:
            yield (line,)
        return
    rest = b""
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            if rest:
                yield (_text(rest),)
            return
        lines = (rest + chunk).split(b"\n")
        rest = lines.pop()
        if lines:
            yield [_text(line) for line in lines]


def _text(line: bytes) -> Union[str, UnicodeDecodeError]:
    """The line's text; a line that is not UTF-8 is answered as such (its error), never read with a character replaced."""
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as e:
        return e


def main(adapter: Adapter) -> NoReturn:
    """`run` as a script's entry point: exits with its status."""
    sys.exit(run(adapter))

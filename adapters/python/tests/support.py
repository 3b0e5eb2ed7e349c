"""Helpers of the library's tests: run messages through a Session, read the answers."""

import contextlib
import io
import json
import os
import sys
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any, TextIO, Union

HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARY = os.path.dirname(HERE)
REPOSITORY = os.path.dirname(os.path.dirname(LIBRARY))
if LIBRARY not in sys.path:
    sys.path.insert(0, LIBRARY)

from proofgate_adapter import Adapter, Session, run  # noqa: E402

#: A message to the adapter: a dict, sent as its JSON, or a line sent as it is.
Message = Union[dict[str, Any], str]

HELLO = {"kind": "hello", "protocol": "proofgate-adapter/v1"}
TOPOLOGY = {"kind": "topology", "schema": "proofgate-events/v1",
            "groups": [{"policy": "full", "block_tokens": 2304}, {"policy": "recurrent_align", "block_tokens": 2304}]}


def answers(adapter: Adapter, *messages: Message) -> list[list[dict[str, Any]]]:
    """The answers to `messages` (dicts or lines), one list of decoded lines per message, end
    markers checked and left out."""
    session = Session(adapter, err=io.StringIO())
    out = []
    for message in messages:
        text = session.handle(message if isinstance(message, str) else json.dumps(message))
        lines = [json.loads(line) for line in text.splitlines()]
        assert lines and lines[-1] == {"kind": "end"}, "no end marker: %r" % text
        assert {"kind": "end"} not in lines[:-1], "two end markers: %r" % text
        out.append(lines[:-1])
    return out


@contextlib.contextmanager
def piped(data: bytes) -> Iterator[TextIO]:
    """A stream with a descriptor, as the standard input is, holding `data` and then its end."""
    read, write = os.pipe()
    os.write(write, data)  # a pipe holds 64 KiB: all of it is waiting before the first read
    os.close(write)
    with open(read, "r") as stream:
        yield stream


def ran(adapter: Adapter, *messages: Message) -> tuple[int, str, str]:
    """`run` on these messages (dicts or lines) through a pipe: (status, stdout, stderr).
    Whatever leaves `run` fails the test: a KeyboardInterrupt would otherwise stop the whole test run."""
    stdout, stderr = io.StringIO(), io.StringIO()
    data = "".join((m if isinstance(m, str) else json.dumps(m)) + "\n" for m in messages)
    with piped(data.encode("utf-8")) as stdin, contextlib.redirect_stderr(stderr):
        try:
            status = run(adapter, stdin, stdout)
        except BaseException as e:  # noqa: BLE001
            raise AssertionError("run() let %r out; stderr: %s" % (e, stderr.getvalue())) from None
    return status, stdout.getvalue(), stderr.getvalue()


#: stderr's last line when the connector raised what the library may not catch: % (what, file, function)
UNCAUGHT_LINE = (r"proofgate_adapter: the connector raised %s \(%s:\d+ in %s\), which the library may not catch;"
                 r" exiting with status 3")


def seed_log(name: str) -> list[dict[str, Any]]:
    """The messages of a hand-written scenario of the validator's, without its expected output."""
    path = os.path.join(REPOSITORY, "validator", "src", "test", "resources", "scenarios", "seed", name + ".jsonl")
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def expected(name: str) -> list[dict[str, Any]]:
    path = os.path.join(REPOSITORY, "validator", "src", "test", "resources", "scenarios", "seed", name + ".expected")
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load_example(relative: str, name: str, argv: Sequence[str] = ()) -> ModuleType:
    """Imports an example adapter script by path, with `argv` as its command-line arguments."""
    import importlib.util
    saved = sys.argv
    sys.argv = [relative] + list(argv)
    try:
        spec = importlib.util.spec_from_file_location(name, os.path.join(REPOSITORY, relative))
        assert spec is not None and spec.loader is not None, relative  # a .py path always has both
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.argv = saved

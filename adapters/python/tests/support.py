"""Helpers of the library's tests: run messages through a Session, read the answers."""

import io
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARY = os.path.dirname(HERE)
REPOSITORY = os.path.dirname(os.path.dirname(LIBRARY))
if LIBRARY not in sys.path:
    sys.path.insert(0, LIBRARY)

from proofgate_adapter import Session  # noqa: E402

HELLO = {"kind": "hello", "protocol": "proofgate-adapter/v1"}
TOPOLOGY = {"kind": "topology", "schema": "proofgate-events/v1", "groups": [{"policy": "full", "block_tokens": 2304},
                                                                          {"policy": "recurrent_align", "block_tokens": 2304}]}


def answers(adapter, *messages):
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


def seed_log(name):
    """The messages of a hand-written scenario of the validator's, without its expected output."""
    path = os.path.join(REPOSITORY, "validator", "src", "test", "resources", "scenarios", "seed", name + ".jsonl")
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def expected(name):
    path = os.path.join(REPOSITORY, "validator", "src", "test", "resources", "scenarios", "seed", name + ".expected")
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load_example(relative, name, argv=()):
    """Imports an example adapter script by path, with `argv` as its command-line arguments."""
    import importlib.util
    saved = sys.argv
    sys.argv = [relative] + list(argv)
    try:
        spec = importlib.util.spec_from_file_location(name, os.path.join(REPOSITORY, relative))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.argv = saved

#!/usr/bin/env python3
"""Adapters that break proofgate-adapter/v1 one way each, for ConformBadAdapterTest.

Usage: bad_adapter.py MODE. Until its mode's moment it answers as an adapter that declares no
capabilities and gives no verdicts.
"""

import json
import sys
import time

MODE = sys.argv[1]


def say(*objects):
    sys.stdout.write("".join(json.dumps(o) + "\n" for o in objects))
    sys.stdout.flush()


END = {"kind": "end"}

if MODE == "spawn":
    # a child that stays in the adapter's process group, and a daemon that double-forks and
    # calls setsid, so that it is in a session of its own and no longer the adapter's descendant
    import os
    import subprocess

    folder = sys.argv[2]

    def record(name, pid):
        with open(os.path.join(folder, name + ".tmp"), "w") as f:
            f.write(str(pid))
        os.rename(os.path.join(folder, name + ".tmp"), os.path.join(folder, name))

    record("child.pid", subprocess.Popen(["sleep", "600"]).pid)
    first = os.fork()
    if first == 0:
        os.setsid()
        if os.fork() == 0:
            record("daemon.pid", os.getpid())
            os.execvp("sleep", ["sleep", "600"])
        os._exit(0)
    os.waitpid(first, 0)

if MODE == "slow-start":
    time.sleep(6)  # an adapter importing a large framework before it can say hello (longer than SLOW_START's patience)

if MODE == "exit-at-start":
    sys.stderr.write("toy: cannot load the connector\n")
    sys.exit(4)

for line in sys.stdin:
    message = json.loads(line)
    kind = message["kind"]
    if kind == "hello":
        if MODE == "wrong-protocol":
            say({"kind": "hello", "protocol": "proofgate-adapter/v0", "capabilities": []}, END)
        elif MODE == "unknown-capability":
            say({"kind": "hello", "protocol": "proofgate-adapter/v1", "capabilities": ["reason_fact"]}, END)
        elif MODE == "own-counts-a-plan-it-hides":
            say({"kind": "hello", "protocol": "proofgate-adapter/v1", "capabilities": [],
                 "connector_policy": "own"}, END)
        else:
            say({"kind": "hello", "protocol": "proofgate-adapter/v1", "capabilities": []}, END)
    elif kind == "topology":
        if MODE == "flood":
            # verdicts without end: an answer that never ends, faster than the kit reads
            line = json.dumps({"kind": "retired", "step": 1, "id": "r1", "cause": "finished"}) + "\n"
            while True:
                sys.stdout.write(line * 1000)
        elif MODE == "hang":
            while True:  # for ever: the kit's timeout, however short or long, always meets it
                time.sleep(3600)
        elif MODE == "not-json":
            sys.stdout.write("connector ready\n")
            sys.stdout.flush()
        elif MODE == "not-applicable":
            say({"kind": "not_applicable", "reason": "a connector of attention layers only"}, END)
        else:
            say(END)
    elif kind == "summary" and MODE == "no-end-at-all":
        say({"kind": "summary", "plans": 0, "rejected": 0, "store_skipped_quorum": 0, "retired_finished": 1,
             "pending": [], "latched": {}})
    elif kind == "summary" and MODE in ("exit-at-end", "lingers", "says-on-stop"):
        say({"kind": "summary", "plans": 0, "rejected": 0, "store_skipped_quorum": 0, "retired_finished": 1,
             "pending": [], "latched": {}}, END)
    elif kind == "summary" and MODE == "own-counts-a-plan-it-hides":
        # a policy of its own, whose plan (counted) never reaches the kit to be judged
        say({"kind": "summary", "plans": 1, "rejected": 0, "store_skipped_quorum": 0, "retired_finished": 0,
             "pending": [], "latched": {}}, END)
    elif kind == "summary" and MODE == "late-line":
        say({"kind": "summary", "plans": 0, "rejected": 0, "store_skipped_quorum": 0, "retired_finished": 1,
             "pending": [], "latched": {}}, END, {"kind": "retired", "step": 1, "id": "r1", "cause": "finished"})
    elif kind == "summary":
        say({"kind": "summary", "plans": 0, "rejected": 0, "store_skipped_quorum": 0, "retired_finished": 0,
             "pending": [], "latched": {}}, END)
    else:
        if MODE == "exit-mid-run":
            sys.stderr.write("Traceback (most recent call last):\nKeyError: 'new'\n")
            sys.exit(4)
        elif MODE == "unknown-request":
            say({"kind": "retired", "step": 1, "id": "nobody", "cause": "finished"}, END)
        elif MODE == "no-end":
            say({"kind": "retired", "step": 1, "id": "r1", "cause": "finished"})
        elif MODE in ("no-end-at-all", "late-line", "exit-at-end", "lingers", "says-on-stop") and kind == "finished":
            say({"kind": "retired", "step": 1, "id": "r1", "cause": "finished"}, END)
        elif MODE == "bad-field":
            say({"kind": "retired", "step": "1", "id": "r1", "cause": "finished"}, END)
        else:
            say(END)

if MODE == "exit-at-end":
    sys.stderr.write("Segmentation fault in the connector's teardown\n")
    sys.exit(7)
if MODE in ("lingers", "says-on-stop"):
    # its input closed, it does not exit: the kit stops it; one that prints when stopped prints
    # after its last answer
    import os
    import signal

    if MODE == "says-on-stop":
        def stopped(signum, frame):
            say({"kind": "retired", "step": 1, "id": "r1", "cause": "finished"})
            os._exit(0)

        signal.signal(signal.SIGTERM, stopped)
    while True:
        time.sleep(3600)

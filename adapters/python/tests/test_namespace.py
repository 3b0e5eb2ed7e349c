"""Namespace probes: the capability, the answer's names and hex, and the toy's answers."""

import unittest
from typing import Any

from support import HELLO, answers, load_example
from test_protocol import Recorder

from proofgate_adapter import Probe, Session
from proofgate_adapter.namespace import NamespaceError, Values, answer


def probe(**changes: Any) -> dict[str, Any]:
    """A probe of the set's `selection` family (a full, a sliding and a recurrent group)."""
    message = {"kind": "namespace", "set": "proofgate-namespace/v1", "probe": "selection/w4608/p6992/s1",
               "topology": {"kind": "topology", "schema": "proofgate-events/v1", "tp_degree": 1, "hash_block_size": 256,
                            "min_span_tokens": 0, "max_span_tokens": 1000000,
                            "groups": [{"policy": "full", "block_tokens": 2304, "window_tokens": 0},
                                       {"policy": "sliding", "block_tokens": 2304, "window_tokens": 4608},
                                       {"policy": "recurrent_align", "block_tokens": 2304, "window_tokens": 0}]},
               "identity": {"model": "m", "dtype": "bfloat16", "cache_salt": "", "lora": ""},
               "prompt_tokens": 6992, "token_ids": [1 + (1 * 1000003 + i * 7919) % 32000 for i in range(6992)],
               "span": 6912, "block_ids": [[11, 12, 13, 14], [21, 22, 23, 24], [31, 32, 33, 34]],
               "recurrent": [[2, 42]]}
    message.update(changes)
    return message


class NamespaceTest(unittest.TestCase):

    def test_names_are_checked_and_values_written_as_lowercase_hex(self) -> None:
        self.assertEqual({"kind": "namespace", "values": {"a.b-c_1": "00ff", "span": "36393132"}},
                         answer({"span": "6912", "a.b-c_1": b"\x00\xff"}))
        for bad in ({"Span": b""}, {"1span": b""}, {"x" * 65: b""}, {"span": 6912}, {"n%d" % i: b"" for i in range(33)},
                    {"big": b"x" * 4097}):
            with self.assertRaises(NamespaceError):
                answer(bad)

    def test_the_capability_and_the_method_go_together(self) -> None:
        class Declared(Recorder):
            capabilities = ("namespace",)
        with self.assertRaisesRegex(ValueError, "no namespace"):
            Session(Declared())

        class Undeclared(Recorder):
            def namespace(self, probe: Probe) -> Values:
                return {}
        with self.assertRaisesRegex(ValueError, "does not declare"):
            Session(Undeclared())
        self.assertEqual("namespace probes need the namespace capability",
                         answers(Recorder(), probe())[0][0]["message"])

    def test_the_toy_answers_prefix_digest_span_and_plan_selection_deterministically(self) -> None:
        toy = load_example("examples/conform/toy_connector.py", "toy_fixed", ["--fixed"]).ToyAdapter()
        hello, first, again = answers(toy, HELLO, probe(), probe())
        self.assertIn("namespace", hello[0]["capabilities"])
        values = first[0]["values"]
        self.assertEqual(["plan_selection", "prefix_digest", "span"], sorted(values))
        self.assertEqual(first, again)
        self.assertEqual(b"6912", bytes.fromhex(values["span"]))
        self.assertEqual(b"[[[11,12,13],[22,23],[42]],[[2,42]]]", bytes.fromhex(values["plan_selection"]))
        # the digest covers the identity and the tokens up to the span, not beyond
        salted = answers(toy, probe(identity={"model": "m", "dtype": "bfloat16", "cache_salt": "s", "lora": ""}))
        self.assertNotEqual(values["prefix_digest"], salted[0][0]["values"]["prefix_digest"])
        tail = probe()
        tail["token_ids"] = tail["token_ids"][:6912] + [7] * 80
        self.assertEqual(values["prefix_digest"], answers(toy, tail)[0][0]["values"]["prefix_digest"])

    def test_the_toys_planted_bug_shows_in_plan_selection(self) -> None:
        toy = load_example("examples/conform/toy_connector.py", "toy_bug").ToyAdapter()
        values = answers(toy, probe())[0][0]["values"]
        self.assertEqual(b"[[[11,12,13],[22,23],[34]],[[2,34]]]", bytes.fromhex(values["plan_selection"]))

    def test_a_probe_the_adapter_cannot_answer_is_refused_and_the_adapter_goes_on(self) -> None:
        toy = load_example("examples/conform/toy_connector.py", "toy_fixed2", ["--fixed"]).ToyAdapter()
        refused, answered = answers(toy, probe(recurrent=[]), probe())
        self.assertEqual("error", refused[0]["kind"])
        self.assertIn("KeyError: 2", refused[0]["message"])
        self.assertEqual("namespace", answered[0]["kind"])


if __name__ == "__main__":
    unittest.main()

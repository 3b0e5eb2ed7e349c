"""Under an audit, a module loaded from the repository's working tree instead of the revision is refused."""

import contextlib
import io
import os
import tempfile
import types
import unittest
from collections.abc import Mapping
from unittest import mock

from support import HELLO, TOPOLOGY, Message

from proofgate_adapter import Adapter, Probe, Step, Topology, run
from proofgate_adapter.namespace import Values
from proofgate_adapter.protocol import Verdicts
from proofgate_adapter.revision import REPOSITORY, REVISION, OutsideRevision, RevisionCheck


def module(name: str, path: str) -> types.ModuleType:
    m = types.ModuleType(name)
    m.__file__ = path
    return m


class RevisionCheckTest(unittest.TestCase):

    def setUp(self) -> None:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.repo = os.path.join(folder.name, "repo")
        self.revision = os.path.join(folder.name, "audit", "head")
        for d in (self.repo, self.revision):
            os.makedirs(os.path.join(d, "connector"))
        self.environ = {REPOSITORY: self.repo, REVISION: self.revision}

    def test_a_module_from_the_working_tree_is_named(self) -> None:
        modules = {"json": module("json", "/usr/lib/python3/json/__init__.py"),
                   "my_connector": module("my_connector", os.path.join(self.repo, "connector", "my_connector.py"))}
        with self.assertRaises(OutsideRevision) as refused:
            RevisionCheck(self.environ, modules).check()
        self.assertEqual("module my_connector is the working tree's connector/my_connector.py, not the audited revision's:"
                         " both revisions would run the same code\nrun the adapter by a path relative to the repository,"
                         " and import the connector from beside it (not from an installed package or PYTHONPATH)",
                         str(refused.exception))

    def test_modules_from_the_revision_or_elsewhere_pass(self) -> None:
        link = self.revision + "-link"  # the revision reached through a link is the revision
        os.symlink(self.revision, link)
        modules = {"json": module("json", "/usr/lib/python3/json/__init__.py"), "sys": types.ModuleType("sys"),
                   "a": module("a", os.path.join(self.revision, "connector", "a.py")),
                   "b": module("b", os.path.join(link, "connector", "b.py")),
                   "c": module("c", self.repo + "-other/c.py")}  # a sibling folder whose name starts alike
        RevisionCheck(self.environ, modules).check()

    def test_packages_of_a_virtual_environment_inside_the_repository_are_the_environments(self) -> None:
        venv = os.path.join(self.repo, ".venv")
        torch = module("torch", os.path.join(venv, "lib", "python3.11", "site-packages", "torch", "__init__.py"))
        RevisionCheck(self.environ, {"torch": torch}, prefixes=(venv,)).check()
        with self.assertRaises(OutsideRevision):  # the same module is the working tree's when the interpreter is elsewhere
            RevisionCheck(self.environ, {"torch": torch}, prefixes=("/usr",)).check()
        mine = module("my_connector", os.path.join(self.repo, "connector", "my_connector.py"))
        with self.assertRaises(OutsideRevision):  # the connector's own code is still refused
            RevisionCheck(self.environ, {"torch": torch, "my_connector": mine}, prefixes=(venv,)).check()

    def test_outside_an_audit_nothing_is_checked(self) -> None:
        modules = {"my_connector": module("my_connector", os.path.join(self.repo, "connector", "my_connector.py"))}
        RevisionCheck({}, modules).check()
        RevisionCheck({REPOSITORY: self.repo}, modules).check()

    def test_a_module_loaded_later_is_found_at_the_next_check(self) -> None:
        modules: dict[str, types.ModuleType] = {}
        check = RevisionCheck(self.environ, modules)
        check.check()
        modules["late"] = module("late", os.path.join(self.repo, "late.py"))
        with self.assertRaises(OutsideRevision):
            check.check()

    def test_a_module_loaded_as_another_is_dropped_is_found(self) -> None:
        modules = {"json": module("json", "/usr/lib/python3/json/__init__.py"),
                   "old": module("old", os.path.join(self.revision, "old.py"))}
        check = RevisionCheck(self.environ, modules)
        check.check()
        del modules["old"]  # as many modules as before: the count alone would not tell
        modules["late"] = module("late", os.path.join(self.repo, "late.py"))
        with self.assertRaises(OutsideRevision):
            check.check()

    def test_only_modules_not_seen_before_are_looked_at_again(self) -> None:
        modules = {"a": module("a", os.path.join(self.revision, "a.py"))}
        check = RevisionCheck(self.environ, modules)
        check.check()
        with mock.patch("os.path.realpath", side_effect=lambda p: p) as realpath:
            modules["b"] = module("b", os.path.join(self.revision, "b.py"))
            check.check()
            check.check()  # nothing loaded since: nothing looked at
        self.assertEqual([mock.call(os.path.join(self.revision, "b.py"))], realpath.call_args_list)


class Lazy(Adapter):
    """Imports its connector's module when the topology makes the connector (here: puts it in sys.modules)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def topology(self, topology: Topology) -> None:
        import sys
        sys.modules["lazy_connector_for_test"] = module("lazy_connector_for_test", self.path)


class LateImports(Adapter):
    """Imports a module of its connector only when a step or a namespace probe first needs it."""

    capabilities = ("namespace",)

    def __init__(self, path: str, at: str) -> None:
        self.path, self.at = path, at

    def _load(self, where: str) -> None:
        if where == self.at:
            import sys
            sys.modules["lazy_connector_for_test"] = module("lazy_connector_for_test", self.path)

    def topology(self, topology: Topology) -> None:
        pass

    def step(self, step: Step) -> Verdicts:
        self._load("step")
        return []

    def namespace(self, probe: Probe) -> Values:
        self._load("namespace")
        return {"span": b"6912"}


class RunTest(unittest.TestCase):

    def _run(self, environ: Mapping[str, str], adapter: Adapter, messages: list[Message]) -> tuple[int, str, str]:
        import json
        out, err = io.StringIO(), io.StringIO()
        with mock.patch.dict(os.environ, environ), contextlib.redirect_stderr(err):
            status = run(adapter, stdin=io.StringIO("".join(json.dumps(m) + "\n" for m in messages)), stdout=out)
        return status, out.getvalue(), err.getvalue()

    def tearDown(self) -> None:
        import sys
        sys.modules.pop("lazy_connector_for_test", None)

    def test_an_adapter_whose_connector_comes_from_the_working_tree_exits_2_at_that_topology(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            repo, revision = os.path.join(folder, "repo"), os.path.join(folder, "head")
            status, out, err = self._run({REPOSITORY: repo, REVISION: revision},
                                         Lazy(os.path.join(repo, "lazy_connector_for_test.py")), [HELLO, TOPOLOGY])
        self.assertEqual(2, status)
        self.assertEqual("proofgate_adapter: module lazy_connector_for_test is the working tree's lazy_connector_for_test.py,"
                         " not the audited revision's: both revisions would run the same code\nproofgate_adapter: run the"
                         " adapter by a path relative to the repository, and import the connector from beside it (not"
                         " from an installed package or PYTHONPATH)\n", err)
        self.assertEqual(1, out.count('{"kind":"end"}'), "the hello is answered, the topology is not: %r" % out)

    def test_a_module_loaded_by_a_namespace_probe_or_a_step_exits_2_before_that_answer(self) -> None:
        from test_namespace import probe
        step = {"kind": "step", "step": 1}
        cases: tuple[tuple[str, list[Message], int], ...] = (("namespace", [HELLO, probe()], 1),
                                                             ("step", [HELLO, TOPOLOGY, step], 2))
        for at, messages, answered in cases:
            with self.subTest(at=at), tempfile.TemporaryDirectory() as folder:
                import sys
                sys.modules.pop("lazy_connector_for_test", None)
                repo, revision = os.path.join(folder, "repo"), os.path.join(folder, "head")
                status, out, err = self._run({REPOSITORY: repo, REVISION: revision},
                                             LateImports(os.path.join(repo, "lazy_connector_for_test.py"), at), messages)
                self.assertEqual(2, status, out)
                self.assertIn("module lazy_connector_for_test is the working tree's lazy_connector_for_test.py", err)
                self.assertEqual(answered, out.count('{"kind":"end"}'), "the %s is not answered: %r" % (at, out))
                self.assertNotIn('"kind":"namespace"', out)
                sys.modules.pop("lazy_connector_for_test", None)
                status, out, err = self._run({REPOSITORY: repo, REVISION: revision},
                                             LateImports(os.path.join(revision, "lazy_connector_for_test.py"), at), messages)
                self.assertEqual(0, status, err)
                self.assertEqual(len(messages), out.count('{"kind":"end"}'))

    def test_the_same_adapter_run_from_the_revision_goes_on(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            repo, revision = os.path.join(folder, "repo"), os.path.join(folder, "head")
            status, out, err = self._run({REPOSITORY: repo, REVISION: revision},
                                         Lazy(os.path.join(revision, "lazy_connector_for_test.py")), [HELLO, TOPOLOGY])
        self.assertEqual(0, status, err)
        self.assertEqual(2, out.count('{"kind":"end"}'))


if __name__ == "__main__":
    unittest.main()

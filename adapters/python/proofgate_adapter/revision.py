"""Under `proofgate audit-connector --exec`, each revision's adapter must run that revision's code.

The audit writes each revision into a folder of its own and starts the adapter there, telling it
`PROOFGATE_REVISION` (that folder) and `PROOFGATE_REPOSITORY` (the repository's working tree).
A module loaded from the working tree instead (the connector installed with `pip install -e`,
or the repository on `PYTHONPATH`) is the same code at both revisions: the audit would compare
it with itself and find no difference, whatever the change. The library refuses to run such an
adapter: it names the module on stderr and exits with status 2, so the audit is not judged.
Outside an audit (no such variables) nothing is checked, and the interpreter's own environment
(a virtual environment inside the repository) is never taken for the working tree.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Optional

REVISION = "PROOFGATE_REVISION"
REPOSITORY = "PROOFGATE_REPOSITORY"


class OutsideRevision(Exception):
    """A module of the repository was loaded from its working tree, not from the revision."""


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


class RevisionCheck:
    """Looks at the modules loaded so far, and again only at those loaded or replaced since."""

    def __init__(self, environ: Optional[Mapping[str, str]] = None,
                 modules: Optional[dict[str, ModuleType]] = None,
                 prefixes: Optional[Iterable[str]] = None) -> None:
        environ = os.environ if environ is None else environ
        self.modules = sys.modules if modules is None else modules
        repository, revision = environ.get(REPOSITORY), environ.get(REVISION)
        self.active = bool(repository and revision)
        if repository and revision:  # self.active
            self.repository = os.path.realpath(repository)
            self.revision = os.path.realpath(revision)
            # The interpreter's own environment (a virtual environment made inside the repository,
            # `.venv`, usually ignored by git) holds installed packages, not the connector's working
            # tree: code installed there is the environment's, as it is in one outside.
            prefixes = (sys.prefix, sys.exec_prefix, sys.base_prefix) if prefixes is None else prefixes
            self.environment = sorted({os.path.realpath(p) for p in prefixes if p})
        self.seen: dict[str, ModuleType] = {}  # name -> the module object checked under it
        self.signature: Optional[tuple[int, Optional[str], Optional[int]]] = None

    def _signature(self) -> tuple[int, Optional[str], Optional[int]]:
        # O(1) per message: a module loaded goes to the end of sys.modules (insertion order), so a
        # message that loads one changes the last name or the count even when it also drops one
        if not self.modules:
            return 0, None, None
        last = next(reversed(self.modules))
        return len(self.modules), last, id(self.modules.get(last))

    def check(self) -> None:
        """Raises `OutsideRevision` for the first module whose file is in the working tree, not in the revision."""
        if not self.active:
            return
        signature = self._signature()
        if signature == self.signature:
            return
        self.signature = signature
        found = []
        for name, module in list(self.modules.items()):
            if self.seen.get(name) is module:
                continue
            self.seen[name] = module
            path = getattr(module, "__file__", None)
            if not isinstance(path, str):
                continue  # built in, or a namespace package: no file of its own
            real = os.path.realpath(path)
            if (_under(real, self.repository) and not _under(real, self.revision)
                    and not any(_under(real, prefix) for prefix in self.environment)):
                found.append((name, real))
        if found:
            name, real = min(found)
            raise OutsideRevision(
                "module %s is the working tree's %s, not the audited revision's: both revisions would run"
                " the same code\nrun the adapter by a path relative to the repository, and import the connector"
                " from beside it (not from an installed package or PYTHONPATH)"
                % (name, os.path.relpath(real, self.repository)))

"""An adapter on the Python library whose connector raises KeyboardInterrupt in its first step."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), *[os.pardir] * 5, "adapters", "python"))

from proofgate_adapter import Adapter, main  # noqa: E402


class Interrupted(Adapter):
    name = "interrupted"
    capabilities = ()

    def topology(self, topology):
        pass

    def finished(self, event):
        return []

    def held(self, event):
        return []

    def step(self, step):
        raise KeyboardInterrupt("stopped inside the connector")

    def state(self):
        raise NotImplementedError


if __name__ == "__main__":
    main(Interrupted())

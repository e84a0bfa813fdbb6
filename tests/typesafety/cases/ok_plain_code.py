# Code that does not use numbaxfer gets no reports from the plugin.

from typing import Any


def wait(x: Any) -> Any:
    return x


class Job:
    def wait(self) -> int:
        return 1


j = Job()
j.wait()
j.wait()
items = [1, 2, 3]
items.append(4)
print(sorted(items), wait(j))

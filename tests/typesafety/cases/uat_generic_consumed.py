# Consumed[T] on a generic parameter.
import numpy as np

import numbaxfer as nx

from typing import TypeVar

T = TypeVar("T")
sink: list[object] = []


def take(x: nx.Consumed[T]) -> None:
    sink.append(x)


host = nx.pinned_array(8, np.float32)
take(host)
print(host.shape)  # E: use-after-transfer "take()"

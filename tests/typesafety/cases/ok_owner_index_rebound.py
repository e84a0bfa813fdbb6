# RUN: ok
# Inside `with tables[key].lend()`, the body rebinds key and frees another entry: not the lent owner. (Found by an adversarial review.)
"""Inside a lend of tables[key], free another (evicted) entry popped by another key."""
from __future__ import annotations

import numpy as np

import numbaxfer as nx


def main() -> None:
    tables = {k: nx.device_array(8, np.float32) for k in ("a", "b", "c")}
    key = "a"
    with tables[key].lend() as v:
        print(v.shape)
        key = "b"  # the entry to evict
        tables.pop(key).free()
    for d in tables.values():
        d.free()


if __name__ == "__main__":
    main()

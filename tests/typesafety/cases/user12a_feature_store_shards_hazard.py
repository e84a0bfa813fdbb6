# Runtime: warns ResourceWarning anywhere
# XFAIL: miss (line 66): hot_update() overwrites slot.pending of a slot fetched from self.slots while ingest() may have left an upload pending there; a transfer attribute of an object from a registry overwritten in another method is not checked against the methods that fill it
# Planted bug: hot_update() overwrites the slot's pending upload without settling it first, so the earlier transfer is dropped unwaited.
"""Feature-store shards: a dict of device slots refreshed from columnar batches.

Each named shard (user embeddings, item embeddings, ...) has a device slot; ingesting a
batch stages it into fresh pinned memory and uploads it. A slot holds at most one
pending upload, and its state is tracked with an Enum. ``commit()`` completes every
pending upload and returns the staging memory.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class ShardState(enum.Enum):
    EMPTY = enum.auto()
    LOADING = enum.auto()
    READY = enum.auto()


@dataclass
class Slot:
    dev: nx.DeviceArray[nx.Owned, np.float32]
    pending: nx.Transfer[Host] | None = None
    state: ShardState = ShardState.EMPTY
    version: int = 0

    def settle(self) -> None:
        if self.pending is not None:
            self.pending.wait().free()
            self.pending = None
            self.state = ShardState.READY


@dataclass
class FeatureStore:
    width: int
    stream: nx.Stream[nx.Owned] = field(default_factory=nx.stream)
    slots: dict[str, Slot] = field(default_factory=dict)

    def slot(self, name: str) -> Slot:
        if name not in self.slots:
            self.slots[name] = Slot(nx.device_array(self.width, np.float32))
        return self.slots[name]

    def ingest(self, name: str, column: NDArray[np.float32]) -> None:
        slot = self.slot(name)
        slot.settle()
        slot.pending = self.stream.upload(nx.pinned_copy(column), to=slot.dev)
        slot.state = ShardState.LOADING
        slot.version += 1

    def hot_update(self, name: str, column: NDArray[np.float32]) -> None:
        """A newer batch for a shard that may still be loading."""
        slot = self.slot(name)
        slot.pending = self.stream.upload(nx.pinned_copy(column), to=slot.dev)  # E: unfinished-transfer
        slot.version += 1

    def commit(self) -> dict[str, int]:
        for slot in self.slots.values():
            slot.settle()
        return {name: s.version for name, s in self.slots.items()}

    def fetch(self, name: str) -> NDArray[np.float32]:
        slot = self.slots[name]
        assert slot.state is ShardState.READY, f"{name} not committed"
        out = self.stream.download(slot.dev, into=nx.pinned_array(self.width, np.float32)).wait()
        values: NDArray[np.float32] = out.read().copy()
        out.free()
        return values

    def close(self) -> None:
        self.commit()
        for slot in self.slots.values():
            slot.dev.free()
        self.stream.close()


def batches(width: int) -> dict[str, list[NDArray[np.float32]]]:
    rng = np.random.default_rng(7)
    return {
        name: [rng.standard_normal(width).astype(np.float32) for _ in range(3)]
        for name in ("user_emb", "item_emb", "ctx_emb")
    }


def main() -> None:
    width = 512
    store = FeatureStore(width)
    data = batches(width)
    for name, cols in data.items():
        store.ingest(name, cols[0])
    for name, cols in data.items():
        for col in cols[1:]:
            store.hot_update(name, col)
    versions = store.commit()
    for name, cols in data.items():
        assert np.array_equal(store.fetch(name), cols[-1]), f"{name}: stale shard"
    store.close()
    print(f"feature_store_shards: versions {versions}")


if __name__ == "__main__":
    main()

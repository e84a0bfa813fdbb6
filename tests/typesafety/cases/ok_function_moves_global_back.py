# Functions that move a variable of the enclosing scope take it back before they
# return (through `global` / `nonlocal`); one that only reads it checks clean.
# Correct.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)


def refresh() -> None:
    global host
    up = s.upload(host, to=dev)
    host = up.wait()


def peek() -> float:
    return float(host.read()[0])


def main() -> float:
    buf = nx.pinned_array(8, np.float32)

    def cycle() -> None:
        nonlocal buf
        buf = s.upload(buf, to=dev).wait()

    def look() -> float:
        return float(buf.read()[0])

    cycle()
    cycle()
    return look() + float(buf.read()[0])


refresh()
peek()
refresh()
total = float(host.read()[0]) + main()
s.close()

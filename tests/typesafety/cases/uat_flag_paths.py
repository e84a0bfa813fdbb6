# Near misses of flag paths (ok_flag_paths.py): the flag tested the wrong way, a flag
# that a nested function rebinds (not a flag: its tests select nothing), an enum phase
# that reads the buffer in the step before its take-back, and more flags than the
# paths kept apart (they are joined: still reported).
from __future__ import annotations

from enum import Enum

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def wrong_polarity(s: nx.Stream[nx.Lent], buf: Host, dev: Dev) -> Host:
    sent = False
    try:
        up = s.upload(buf, to=dev)  # E: unfinished-transfer "may be left unfinished"
        sent = True
    except nx.StreamClosedError:
        pass
    if not sent:
        buf = up.wait()  # (where the upload raised: "up" unbound, NameError)
    buf.read()  # E: use-after-transfer "may be used" "\"buf\""
    return buf  # E: use-after-transfer "may be used"


def cancelled_in_closure(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    sent = True

    def cancel() -> None:
        nonlocal sent
        sent = False

    up = s.upload(host, to=dev)  # E: unfinished-transfer "may be left unfinished"
    cancel()
    if sent:
        host = up.wait()
    host.read()  # E: use-after-transfer "may be used"
    return host  # E: use-after-transfer "may be used"


class Step(Enum):
    FILL = 1
    SEND = 2
    DONE = 3


def early_read(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    step = Step.FILL
    while step is not Step.DONE:
        match step:
            case Step.FILL:
                up = s.upload(host, to=dev)
                step = Step.SEND
            case Step.SEND:
                host.read()  # E: use-after-transfer "is used"
                host = up.wait()
                step = Step.DONE
    return host


def many_flags(s: nx.Stream[nx.Lent], host: Host, dev: Dev, a: bool, b: bool, c: bool, d: bool) -> Host:
    # 16 paths: more than are kept apart (state.MAX_PARTS), so they are joined, and the
    # correlation of d with the take-backs is lost (hence the report at the upload).
    up = s.upload(host, to=dev)  # E: unfinished-transfer "may be left unfinished"
    if a:
        print("a")
    if b:
        print("b")
    if c:
        print("c")
    if d:
        host = up.wait()
    host.read()  # E: use-after-transfer "may be used"
    if a and b and c:
        print("all")
    if not d:
        host = up.wait()  # E: transfer-completed-twice "may be completed twice"
    return host  # E: use-after-transfer "may be used"


def one_flag_left(s: nx.Stream[nx.Lent], host: Host, dev: Dev, a: bool, b: bool, d: bool) -> Host:
    # The tests of a and b are behind once "if b" ends: only d keeps paths apart.
    up = s.upload(host, to=dev)
    if a:
        print("a")
    if b:
        print("b")
    if d:
        host = up.wait()
    host.read()  # E: use-after-transfer "may be used"
    if not d:
        host = up.wait()
    return host


def rebound_by_walrus(s: nx.Stream[nx.Lent], host: Host, dev: Dev, tries: list[int]) -> Host:
    # ``:=`` rebinds the flag inside an expression: from there no test of it selects.
    sent = True
    up = s.upload(host, to=dev)  # E: unfinished-transfer "may be left unfinished"
    print(sent := bool(tries))
    if sent:
        host = up.wait()
    host.read()  # E: use-after-transfer "may be used"
    return host  # E: use-after-transfer "may be used"

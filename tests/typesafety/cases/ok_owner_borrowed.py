# Correct rule-3 shapes: the owner is read and lent again inside a lend, moved after the
# block ends, rebound inside the block (then it is another buffer), and written through
# the view; another handle is moved inside the block.
# RUN: ok
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def read_then_send(s: nx.Stream[nx.Owned], host: Host, other: Host, dev: Dev) -> Host:
    with host.lend() as view:
        total = float(view.read().sum()) + float(host.read()[0])
        with host.lend() as again:
            total += float(again.read()[0])
        up = s.upload(other, to=dev)  # another buffer: fine
        other = up.wait()
    other.free()
    print(total, host.shape)
    return s.upload(host, to=dev).wait()


def fill_then_send(s: nx.Stream[nx.Owned], host: Host, dev: Dev) -> Host:
    with host.write() as a:
        a[:] = 1.0
        print(a[0], host.shape)
    return s.upload(host, to=dev).wait()


def rebound_inside(s: nx.Stream[nx.Owned], host: Host, dev: Dev) -> Host:
    with host.lend() as view:
        print(view.shape)
        host = nx.pinned_array(8, np.float32)  # another buffer from here on
        host = s.upload(host, to=dev).wait()
    return host


s = nx.stream()
h = nx.pinned_array(8, np.float32)
o = nx.pinned_array(8, np.float32)
d = nx.device_array(8, np.float32)
h = read_then_send(s, h, o, d)
h = fill_then_send(s, h, d)
h = rebound_inside(s, h, d)
h.free()

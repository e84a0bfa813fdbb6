# The device view taken into a name before wait() is the same view: it ends too; and
# a view kept across loop iterations while the mapping is renewed.
# RUN: raises UseAfterTransferError via-call
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def copy_out(s: nx.Stream[nx.Owned], m: nx.MappedArray[nx.Owned, np.float32], out: Host) -> Host:
    mp = s.map(m)
    d = mp.device
    m = mp.wait()
    down = s.download(d, into=out)  # E: use-after-transfer "\"d\"" "is used after its mapping ended" "ended at line 14"
    return down.wait()


def ring(s: nx.Stream[nx.Owned], m: nx.MappedArray[nx.Owned, np.float32], out: Host, n: int) -> Host:
    mp = s.map(m)
    d = mp.device
    for _ in range(n):
        down = s.download(d, into=out)  # E: use-after-transfer "\"d\"" "may be used after its mapping ended on some path" "ended at line 25"
        out = down.wait()
        m = mp.wait()
        mp = s.map(m)  # d still views the ended mapping
    m = mp.wait()
    return out


s = nx.stream()
h = nx.pinned_array(8, np.float32)
h = ring(s, nx.mapped_array(8, np.float32), h, 2)

# RUN: raises BorrowError
# A stream closed inside its own lend block: the lent stream is still in use there, and
# close() refuses (BorrowError).
import numpy as np

import numbaxfer as nx


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    with s.lend() as ls:
        ls.upload_staged(np.ones(8, dtype=np.float32), to=dev)
        s.close()  # E: owner-borrowed "\"s.close()\" is called while it is lent: its \"with s.lend()\" block (line 12) is still open"
    s.close()


if __name__ == "__main__":
    main()

# Stream[Lent] cannot close.
# RUN: raises BorrowError
import numpy as np

import numbaxfer as nx

s = nx.stream()
with s.lend() as ls:
    ls.close()  # E: misc "Invalid self argument"

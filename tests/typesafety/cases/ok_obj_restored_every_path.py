# Every path of roundtrip() that moves self.buf takes it back before returning: other
# methods and callers see it usable.
# RUN: ok
import numpy as np

import numbaxfer as nx


class Stager:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.buf = nx.pinned_array(8, np.float32)
        self.dev = nx.device_array(8, np.float32)

    def roundtrip(self, twice: bool) -> None:
        up = self.s.upload(self.buf, to=self.dev)
        self.buf = up.wait()
        if twice:
            up = self.s.upload(self.buf, to=self.dev)
            self.buf = up.wait()

    def peek(self) -> float:
        return float(self.buf.read()[0])


st = Stager()
st.roundtrip(True)
st.peek()
st.roundtrip(False)
print(st.buf.read()[0] + st.peek())

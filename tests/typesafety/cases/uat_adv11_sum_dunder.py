# RUN: raises UseAfterTransferError
# Planted bug: sum(charges) runs Charge.__add__, which raise CurrencyError for
# mixed currencies while `host` is moved into the upload; the handler reads `host`.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


class CurrencyError(Exception):
    pass


class Charge:
    def __init__(self, amount: float, currency: str) -> None:
        self.amount = amount
        self.currency = currency

    def __add__(self, other: Charge) -> Charge:
        if other.currency != self.currency:
            raise CurrencyError(f"{self.currency} + {other.currency}")
        return Charge(self.amount + other.amount, self.currency)


def main() -> None:
    s = nx.stream()
    charges = [Charge(1.0, "EUR"), Charge(2.0, "USD")]
    zero = Charge(0.0, "EUR")
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    try:
        up = s.upload(host, to=dev)
        bill = sum(charges, zero)
        host = up.wait()
        print(bill.amount)
    except CurrencyError:
        print("mixed currencies;", float(host.read().sum()))  # E: use-after-transfer
    s.close()


if __name__ == "__main__":
    main()

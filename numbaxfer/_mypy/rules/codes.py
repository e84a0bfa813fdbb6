"""What every rule's error code shares."""

from typing import Final

#: mypy's error-code category for numbaxfer's codes (``--disable-error-code`` takes the
#: codes themselves: ``use-after-transfer``, ...).
CATEGORY: Final = "numbaxfer"

"""Electronic dice over Bluetooth LE (Pixels, GoDice) as input sources: the protocol
codecs (``pixels``, ``godice``: pure, no bleak) and, on bleak, ``BleDiceSource``."""

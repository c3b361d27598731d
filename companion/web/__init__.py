"""Players' own phones as private views and secret-action pads, over the local network.

:class:`~companion.web.server.PhoneServer` serves one Table's seats (aiohttp, on a thread
of its own); :class:`~companion.web.tokens.TokenBook` holds each seat's token;
:func:`~companion.web.seatview.seat_payload` is what a seat's page is sent. aiohttp and
segno are the optional extra ``phones``; import ``companion.web.server`` only when it is on.
"""
from .seatview import seat_payload
from .tokens import Grant, TokenBook

__all__ = ["Grant", "TokenBook", "seat_payload"]

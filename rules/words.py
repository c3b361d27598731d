"""Small words every game may use when it names its pieces for players.

>>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)]
['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']
"""
from __future__ import annotations


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th… 11th, 12th, 13th, 21st."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"

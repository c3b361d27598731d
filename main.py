"""Android entry point: python-for-android starts ``main.py`` in the app folder
(``buildozer.spec``: ``source.dir = .``). Everywhere else start the app with
``python -m companion`` or the ``tabletop-companion`` script; see docs/android.md."""
from __future__ import annotations

import sys

if __name__ == "__main__":
    from companion.__main__ import main

    sys.exit(main())

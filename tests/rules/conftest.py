"""Engine tests: plain Python, no Django (run with ``-p no:django``).

The engine is a pure package, so nothing here may touch settings or a
database. Shared builders live in ``kit.py``.
"""

import os
import sys

# ``python -m pytest`` puts the repository root on sys.path; plain ``pytest``
# may not, and ``rules`` must import either way.
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

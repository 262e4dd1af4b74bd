"""Where the simulations get their queue: the capstone's own tinyq.py, not a copy.

In the repository it is code/capstone/tinyq.py; in the page, the build packs tinyq.py
next to this package, where a plain `import tinyq` finds it.
"""
import importlib.util
import pathlib
import sys

CAPSTONE_TINYQ = pathlib.Path(__file__).resolve().parent.parent / "code" / "capstone" / "tinyq.py"


def load_tinyq():
    """Return the tinyq module, loading code/capstone/tinyq.py once if it is there."""
    if "tinyq" in sys.modules:
        return sys.modules["tinyq"]
    if not CAPSTONE_TINYQ.exists():
        import tinyq  # the page: tinyq.py sits beside the package
        return tinyq
    spec = importlib.util.spec_from_file_location("tinyq", CAPSTONE_TINYQ)
    module = importlib.util.module_from_spec(spec)
    sys.modules["tinyq"] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules["tinyq"]
        raise
    return module


tinyq = load_tinyq()

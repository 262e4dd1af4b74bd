"""Where the simulations get their queue: the capstone's own tinyq.py, not a copy.

In the repository it is code/capstone/tinyq.py (with its SQL in tinyq_sql.py); in the
page, the build packs both next to this package, where a plain `import tinyq` finds them.
"""
import importlib.util
import pathlib
import sys

CAPSTONE_TINYQ = pathlib.Path(__file__).resolve().parent.parent / "code" / "capstone" / "tinyq.py"


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def load_tinyq():
    """Return the tinyq module, loading code/capstone/tinyq.py (and tinyq_sql.py) once."""
    if "tinyq" in sys.modules:
        return sys.modules["tinyq"]
    if not CAPSTONE_TINYQ.exists():
        import tinyq  # the page: tinyq.py sits beside the package
        return tinyq
    if "tinyq_sql" not in sys.modules:
        _load("tinyq_sql", CAPSTONE_TINYQ.with_name("tinyq_sql.py"))
    return _load("tinyq", CAPSTONE_TINYQ)


tinyq = load_tinyq()

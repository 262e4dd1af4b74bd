"""Where the simulations get their queue: the capstone's own tinyq.py, not a copy.

In the repository it is code/capstone/tinyq.py (with its SQL in tinyq_sql.py); in the
page, the build packs both beside the simulations package, where a plain `import tinyq` finds
them. The repository cannot use that plain import: code/capstone/ is not on sys.path, and putting
it there would make every capstone module (shop, world, chaos, check...) importable by a bare name
in every test. So load_tinyq() loads the one file by its path, and every simulation module imports
the result plainly: `from ..engine.capstone import tinyq`.
"""
import os.path
import sys

# os.path, not pathlib: the page's Python compiles each module it imports from source, and this
# check is all the page does here (bench/bench_widgets.py, `ready`)
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
_TINYQ_PATH = os.path.join(_ROOT, "code", "capstone", "tinyq.py")


def __getattr__(name):
    """CAPSTONE_TINYQ: code/capstone/tinyq.py as a pathlib.Path (for the tests)."""
    if name == "CAPSTONE_TINYQ":
        import pathlib

        return pathlib.Path(_TINYQ_PATH)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _load(name, path):
    import importlib.util   # the repository only

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
    if not os.path.exists(_TINYQ_PATH):
        import tinyq  # the page: tinyq.py sits beside the package
        return tinyq
    if "tinyq_sql" not in sys.modules:
        _load("tinyq_sql", os.path.join(os.path.dirname(_TINYQ_PATH), "tinyq_sql.py"))
    return _load("tinyq", _TINYQ_PATH)


tinyq = load_tinyq()

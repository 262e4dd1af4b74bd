"""The attack both judge suites start from (tests/core/test_judge_attacks.py in Python,
tests/widgets/test_judge_contained.py in Pyodide): the reader's code walks a generator's frames
up to the real builtins of its interpreter, which the static check cannot see. What it then
reaches is what each test checks."""

# Leaves `real` (those builtins) and `real_import` (their __import__) defined.
REAL_BUILTINS = '''\
def _probe():
    frame = _gen.gi_frame.f_back
    while frame.f_back is not None:
        frame = frame.f_back
    yield frame.f_builtins
_gen = _probe()
real = next(_gen)
real_import = real["_" + "_import_" + "_"]
'''

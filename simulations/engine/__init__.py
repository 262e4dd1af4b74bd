"""What every simulation stands on: the agenda and Simulation base (simulation.py), parameters
(params.py), the view's building blocks (view.py), time travel (timeline.py, timeline_diff.py,
timeline_view.py, checkpoint.py) and the queue itself (capstone.py, the capstone's tinyq).

Nothing is imported here: the page's Python compiles each module it imports from source, so each
user imports the module it needs (`from simulations.engine.params import ParamError`).
"""

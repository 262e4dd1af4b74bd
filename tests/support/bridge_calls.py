"""Talking to the page's bridge (simulations/bridge.py) as the page does: a JSON message in, a
JSON reply out, with the bridge's live simulations cleared around each test that imports
`fresh_bridge`."""
import json

import pytest

from simulations import bridge


def call(**message):
    """bridge.handle() on `message` as JSON -> the reply as a dict."""
    return json.loads(bridge.handle(json.dumps(message)))


@pytest.fixture(autouse=True)
def fresh_bridge():
    """No simulation left over from another test, before or after this one."""
    bridge.live.clear()
    bridge.kept_runs.KEPT.clear()
    yield
    bridge.live.clear()
    bridge.kept_runs.KEPT.clear()

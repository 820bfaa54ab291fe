"""Shared by the real-agent fixture generators' expect.json step
(scripts/gen-real-fixtures*.sh): the mock model's view of each scenario
run. fixturegen.sh puts this folder on PYTHONPATH; lib/fixturegen-check.sh
checks it on a stand-in log in scripts/test.sh."""
import json
from datetime import datetime

BASIC_KEYS = ("session_id", "prompt", "command", "output_contains", "started_utc", "ended_utc")


def ts(s):
    """RFC 3339 "Z" with up to 9 fractional digits -> datetime (microseconds)."""
    s = s.rstrip("Z")
    if "." in s:
        a, b = s.split(".")
        s = a + "." + (b + "000000")[:6]
    return datetime.fromisoformat(s)


def read_events(mock_path):
    """The event records of the mock model's request log."""
    return [e for e in (json.loads(l) for l in open(mock_path)) if e.get("kind") == "event"]


def mock_view(events, api, s, subagent=True, stalled=True):
    """What the mock saw of one scenario run s: the events of the agent's
    API inside the run's window, as tool calls, tool results, HTTP errors
    and (stalled=True) whether a stall was served. subagent=True keeps a
    tool call's subagent_prompt."""
    t0, t1 = ts(s["started_utc"]), ts(s["ended_utc"])
    ev = [e for e in events if e["api"] == api and t0 <= ts(e["time"]) <= t1]
    keys = ("tool", "id", "command", "path", "content") + (("subagent_prompt",) if subagent else ())
    view = {
        "tool_calls": [{k: e[k] for k in keys if k in e} for e in ev if e["action"] == "tool_call"],
        "tool_results": [{k: e[k] for k in ("tool_result", "is_error") if k in e} for e in ev if e["action"] == "final_text"],
        "http_errors": sum(1 for e in ev if e["action"] == "http_error"),
    }
    if stalled:
        view["stalled"] = any(e["action"] == "stall" for e in ev)
    return view


def take_basic(ag, s):
    """An agent's basic scenario names its session at the agent's top level
    too; every scenario is listed."""
    if s["scenario"] == "basic":
        for k in BASIC_KEYS:
            ag[k] = s[k]
    ag["scenarios"].append(s)

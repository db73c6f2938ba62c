-- wrk script for results/bench_serve.sh: every request asks the UWAPI position route for a
-- random Toads and Frogs position of the served length (every board of that length, either
-- player to move, is in the database), and done() prints the figures as one JSON line.
-- Environment: SERVE_ROUTE (the route up to "?p="), SERVE_LENGTH (cells).
local route = os.getenv("SERVE_ROUTE") or "/uwapi/toads-frogs/tf16/positions/?p="
local length = tonumber(os.getenv("SERVE_LENGTH") or "16")
local cells = { "T", "F", "-" }
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end

function init(args)
  math.randomseed(id * 7919 + os.time())
end

function request()
  local board = {}
  for i = 1, length do
    board[i] = cells[math.random(3)]
  end
  return wrk.format("GET", route .. math.random(2) .. "_" .. table.concat(board))
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRKJSON {"requests":%d,"seconds":%.3f,"requests_per_second":%.1f,"p50_ms":%.3f,"p90_ms":%.3f,' ..
    '"p99_ms":%.3f,"max_ms":%.3f,"errors_connect":%d,"errors_read":%d,"errors_write":%d,' ..
    '"errors_status":%d,"errors_timeout":%d}\n',
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, e.connect, e.read, e.write, e.status, e.timeout))
end

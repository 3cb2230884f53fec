-- Sumrak's load script for wrk (bench/README.md). Usage: wrk -t N -s load.lua URL -- DATAFILE N
--
-- DATAFILE, one item a line, fields separated by TAB:
--   R  METHOD  PATH  HEADERS  BODY   a request sent at random (HEADERS: "Name: value" joined by \31)
--   P  PATH  HEADERS  ETAG           a poll sent at random, as R, with If-None-Match: the ETag of the
--                                    last 200 this thread had for PATH (a fragment's root names its
--                                    URL in hx-get), at first ETAG: a phone that keeps its last answer
--   H  HEADERS                       headers of every step POST (session, CSRF, origin)
--   S  FIGHT   VERSION  BODIES  PATH a fight's next steps (BODIES: urlencoded form bodies joined by \30),
--                                    posted to PATH .. "act/" (PATH: the referee's page, /fights/ID/ if none)
--   M  RATIO                         the share of requests that are steps (0: none, 1: steps only)
--   L  MS                            a step unanswered this long is lost (default 12000: wrk's --timeout is 10 s)
--
-- A step is sent only for a fight with no step in flight, with the version the
-- fight is at and a fresh nonce; the step's answer (its out-of-band regions, or
-- the referee's tablet) brings the fight's version up to date, and the next
-- step is sent once the version moved by one. When a step is due and no fight
-- can take one, a request of the R lines goes instead: "filler" counts those
-- while every fight has a step in flight, "ran_out" those when this thread's
-- fights have no prepared step left (the load then measures something else).
-- A step whose answer never came (wrk dropped or re-sent its connection) is
-- "lost" after L ms: its fight takes steps again, from the version the next
-- answer shows (a 409 with the tablet if the lost one was applied after all).
--
-- Steps are timed on their own (step_p50_ms ... step_max_ms, from the request
-- written to its answer): wrk's own latencies mix in everything else sent.

local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } sumrak_timespec;
int clock_gettime(int clock, sumrak_timespec *ts);
]]
local timespec = ffi.new("sumrak_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, timespec)  -- CLOCK_MONOTONIC
  return tonumber(timespec.tv_sec) * 1000 + tonumber(timespec.tv_nsec) / 1e6
end

local requests, fights, post_headers, ratio, lost_ms = {}, {}, {}, 0, 12000
local polls = {}  -- P lines by path: {headers, etag, req}; their requests are in ``requests`` too
local threads, counter = {}, 0

local function split(s, sep)
  local out = {}
  for piece in (s .. sep):gmatch("(.-)" .. sep) do out[#out + 1] = piece end
  return out
end

local function headers_of(text)
  local h = {}
  if text == nil or text == "" then return h end
  for _, pair in ipairs(split(text, "\31")) do
    local name, value = pair:match("^([^:]+):%s*(.*)$")
    if name then h[name] = value end
  end
  return h
end

function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
  threads[#threads + 1] = thread
end

function init(args)
  nthreads = tonumber(args[2]) or 1
  math.randomseed(os.time() + (tid or 0) * 7919)
  local all = {}
  for line in io.lines(args[1]) do
    local f = split(line, "\t")
    if f[1] == "R" then
      requests[#requests + 1] = wrk.format(f[2], f[3], headers_of(f[4]), f[5] ~= "" and f[5] or nil)
    elseif f[1] == "P" then
      local poll = {headers = headers_of(f[3]), etag = f[4]}
      poll.headers["If-None-Match"] = poll.etag
      poll.req = wrk.format("GET", f[2], poll.headers)
      polls[f[2]] = poll
      requests[#requests + 1] = poll
    elseif f[1] == "H" then
      post_headers = headers_of(f[2])
    elseif f[1] == "S" then
      local path = (f[5] and f[5] ~= "") and f[5] or ("/fights/" .. f[2] .. "/")
      all[#all + 1] = {id = f[2], version = tonumber(f[3]), steps = split(f[4], "\30"), next = 1, busy = false,
                       path = path}
    elseif f[1] == "M" then
      ratio = tonumber(f[2])
    elseif f[1] == "L" then
      lost_ms = tonumber(f[2])
    end
  end
  -- Each thread owns its share of the fights: no two threads step the same fight.
  for i, fight in ipairs(all) do
    if (i - 1) % nthreads == tid then
      fights[#fights + 1] = fight
      fights[fight.id] = fight
    end
  end
  c200, c304, c409, c422, c4xx, c5xx, cother, steps_sent, steps_done = 0, 0, 0, 0, 0, 0, 0, 0, 0
  steps_answered, refused, filler, ran_out, lost = 0, 0, 0, 0, 0
  step_ms = {}  -- each answered step's latency
  cursor = 1
end

local function nonce()
  local t = {}
  for i = 1, 32 do t[i] = string.format("%x", math.random(0, 15)) end
  return table.concat(t)
end

local function next_step()
  local left = false
  for _ = 1, #fights do
    local fight = fights[cursor]
    cursor = cursor % #fights + 1
    if fight and fight.steps[fight.next] and fight.steps[fight.next] ~= "" then
      left = true
      if fight.busy and now_ms() - fight.t0 > lost_ms then
        lost = lost + 1
        fight.busy = false
      end
      if not fight.busy then
        fight.busy = true
        fight.sent = fight.version
        fight.t0 = now_ms()
        steps_sent = steps_sent + 1
        local body = fight.steps[fight.next] .. "&version=" .. fight.version .. "&nonce=" .. nonce()
        return wrk.format("POST", fight.path .. "act/", post_headers, body)
      end
    end
  end
  if left then filler = filler + 1 else ran_out = ran_out + 1 end
  return nil
end

function request()
  if ratio > 0 and #fights > 0 and (ratio >= 1 or math.random() < ratio) then
    local step = next_step()
    if step then return step end
  end
  local chosen = requests[math.random(#requests)]
  if type(chosen) == "table" then return chosen.req end
  return chosen
end

-- A poll's 200 brings its URL's new ETag: the next poll of that URL sends it.
local function remember(headers, body)
  local path = body and body:match('hx%-get="([^"]+)"')
  local poll = path and polls[path]
  local etag = poll and (headers["ETag"] or headers["etag"])
  if etag and etag ~= poll.etag then
    poll.etag = etag
    poll.headers["If-None-Match"] = etag
    poll.req = wrk.format("GET", path, poll.headers)
  end
end

-- The fight a step's answer is for, or nil if the response is no step's. A step's out-of-band answer
-- (issue 24: only the regions it changed) carries the version it was sent with in a header, and
-- its controls' forms post to /KIND/ID/act/; a refused step (400, 409, 422) answers with the
-- referee's tablet, whose forms do too. No other response of a step load has such forms or header
-- (the polls among the steps are the spectators' and players').
local function step_of(headers, body)
  local id = body and body:match("/%a+/(%d+)/act/")
  if id and fights[id] and fights[id].busy then return fights[id] end
  local base = tonumber(headers["X-Sumrak-Base-Version"] or headers["x-sumrak-base-version"] or "")
  if base == nil then return nil end
  local oldest = nil
  for _, fight in ipairs(fights) do  -- no form in the answer: the busy fight sent at that version
    if fight.busy and fight.sent == base and (oldest == nil or fight.t0 < oldest.t0) then oldest = fight end
  end
  return oldest
end

function answered(status, headers, body)
  local fight = step_of(headers, body)
  if fight == nil then return end
  step_ms[#step_ms + 1] = now_ms() - fight.t0
  steps_answered = steps_answered + 1
  local version = body and tonumber(body:match('data%-version="(%d+)"'))
  if status == 200 and version == fight.sent + 1 then
    fight.next = fight.next + 1
    steps_done = steps_done + 1
  else
    refused = refused + 1
  end
  if version then fight.version = version end
  fight.busy = false
end

function response(status, headers, body)
  if status == 200 then c200 = c200 + 1
  elseif status == 304 then c304 = c304 + 1
  elseif status == 409 then c409 = c409 + 1
  elseif status == 422 then c422 = c422 + 1
  elseif status >= 500 then c5xx = c5xx + 1
  elseif status >= 400 then c4xx = c4xx + 1
  else cother = cother + 1 end
  if status == 200 and next(polls) ~= nil then remember(headers, body) end
  if ratio > 0 then answered(status, headers, body) end
end

local function percentile(sorted, p)
  if #sorted == 0 then return 0 end
  return sorted[math.max(1, math.ceil(#sorted * p / 100))]
end

function done(summary, latency, requests_)
  local names = {"c200", "c304", "c409", "c422", "c4xx", "c5xx", "cother", "steps_sent", "steps_done",
                 "steps_answered", "refused", "filler", "ran_out", "lost"}
  local codes, all = {}, {}
  for _, name in ipairs(names) do codes[name] = 0 end
  for _, thread in ipairs(threads) do
    for _, name in ipairs(names) do codes[name] = codes[name] + (thread:get(name) or 0) end
    for _, ms in ipairs(thread:get("step_ms") or {}) do all[#all + 1] = ms end
  end
  table.sort(all)
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests": %d, "duration_us": %d, "p50_ms": %.3f, "p90_ms": %.3f, "p95_ms": %.3f, "p99_ms": %.3f, ' ..
    '"max_ms": %.3f, "errors": {"connect": %d, "read": %d, "write": %d, "timeout": %d, "status": %d}, ' ..
    '"codes": {"200": %d, "304": %d, "409": %d, "422": %d, "4xx": %d, "5xx": %d, "other": %d}, ' ..
    '"steps_sent": %d, "steps_done": %d, "steps_answered": %d, "refused": %d, "filler": %d, "ran_out": %d, ' ..
    '"lost": %d, ' ..
    '"step_p50_ms": %.3f, "step_p90_ms": %.3f, "step_p95_ms": %.3f, "step_p99_ms": %.3f, "step_max_ms": %.3f}\n',
    summary.requests, summary.duration, latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(95) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    e.connect, e.read, e.write, e.timeout, e.status,
    codes.c200, codes.c304, codes.c409, codes.c422, codes.c4xx, codes.c5xx, codes.cother,
    codes.steps_sent, codes.steps_done, codes.steps_answered, codes.refused, codes.filler, codes.ran_out, codes.lost,
    percentile(all, 50), percentile(all, 90), percentile(all, 95), percentile(all, 99), all[#all] or 0))
end

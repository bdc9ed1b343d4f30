-- Append a command to a game's inbox unless its id is known; mark the game ready and make
-- sure a drain runner will come. One script, so two submits never both miss a runner nor
-- both start one past the limit, and a runner giving up its slot (runner_end) either sees
-- this game ready or leaves a free slot that this submit claims. The game is also marked in
-- the sweeper's pending index, in the same step: the sweeper never sees a command unmarked.
-- Command ids are per seat: the commands hash is keyed by `<seat>:<id>` (command_keys.py).
-- KEYS: meta, commands, inbox, rate (this seat's counter), ready, runners, pending
--   On a Redis Cluster, for a game in no drain shard (drain_shards.py), only the first four
--   (the game's slot): the caller then marks the game pending and ready (wake.lua); the
--   sweeper's scan for stranded inboxes closes the gap.
-- ARGV: command key, seat, request_id, body, runner_job_id, rate_limit, rate_window_ms,
--       game_id, max_runners, runner_ttl_ms, command_id, check_bare (1/0),
--       expected_version ('' when the command names none: the entry then has no 'x')
-- Returns {'nogame'} | {'duplicate', stored} | {'bare', stored} | {'finished'}
-- | {'throttled', retry_ms}
-- | {'accepted', id, 0|1|2} (1: the caller must enqueue the runner job `runner_job_id`, whose
-- slot is now taken; 2: on a cluster, the caller must wake the game). 'bare': a record under
-- the bare id, written before ids were per seat; the caller tells whose it is and submits
-- again with check_bare = 0 when it is not its own.
if redis.call('EXISTS', KEYS[1]) == 0 then
    return {'nogame'}
end
local known = redis.call('HGET', KEYS[2], ARGV[1])
if known then
    return {'duplicate', known}
end
if ARGV[12] == '1' then
    local bare = redis.call('HGET', KEYS[2], ARGV[11])
    if bare then
        return {'bare', bare}
    end
end
-- A player's command to a game over is refused here, not queued to be refused later: the
-- same answer as once the game is archived (the service's own commands, seat -1, are queued).
if ARGV[2] ~= '-1' and redis.call('HGET', KEYS[1], 'st') == 'finished' then
    return {'finished'}
end
local limit = tonumber(ARGV[6])
if limit > 0 then
    local used = redis.call('INCR', KEYS[4])
    if used == 1 then
        redis.call('PEXPIRE', KEYS[4], ARGV[7])
    end
    if used > limit then
        return {'throttled', tostring(redis.call('PTTL', KEYS[4]))}
    end
end
local id
if ARGV[13] ~= nil and ARGV[13] ~= '' then
    id = redis.call('XADD', KEYS[3], '*', 's', ARGV[2], 'c', ARGV[11], 'r', ARGV[3], 'b', ARGV[4],
        'x', ARGV[13])
else
    id = redis.call('XADD', KEYS[3], '*', 's', ARGV[2], 'c', ARGV[11], 'r', ARGV[3], 'b', ARGV[4])
end
-- While queued, a command's record is its inbox id; the worker replaces it with the outcome.
redis.call('HSET', KEYS[2], ARGV[1], id)
if #KEYS == 4 then
    return {'accepted', id, 2}
end
local now = redis.call('TIME')
local now_ms = now[1] * 1000 + math.floor(now[2] / 1000)
redis.call('ZADD', KEYS[7], now_ms, ARGV[8])
-- The same steps as wake.lua (scripts cannot share code).
-- Ready games are scored in microseconds: submits within one millisecond keep their order.
redis.call('ZADD', KEYS[5], 'NX', now[1] * 1000000 + now[2], ARGV[8])
redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', now_ms)  -- slots their runner stopped renewing
if redis.call('ZCARD', KEYS[6]) < tonumber(ARGV[9]) then
    redis.call('ZADD', KEYS[6], now_ms + tonumber(ARGV[10]), ARGV[5])
    return {'accepted', id, 1}
end
return {'accepted', id, 0}

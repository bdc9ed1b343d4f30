-- Put a game in the ready set (keeping its place if it is there) and claim a runner slot
-- if fewer than max_runners runners are alive (the sweeper, for games a runner lost).
-- KEYS: ready, runners[, pending]    ARGV: game_id, runner_job_id, max_runners, runner_ttl_ms
-- Returns 1 when the caller must enqueue the runner job `runner_job_id`.
-- With pending (a submit on a Redis Cluster, after its script queued the command), the game is
-- marked in the sweeper's pending index too, as submit.lua does on one Redis.
local now = redis.call('TIME')
local now_ms = now[1] * 1000 + math.floor(now[2] / 1000)
if KEYS[3] then
    redis.call('ZADD', KEYS[3], now_ms, ARGV[1])
end
redis.call('ZADD', KEYS[1], 'NX', now[1] * 1000000 + now[2], ARGV[1])  -- microseconds
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now_ms)  -- slots their runner stopped renewing
if redis.call('ZCARD', KEYS[2]) < tonumber(ARGV[3]) then
    redis.call('ZADD', KEYS[2], now_ms + tonumber(ARGV[4]), ARGV[2])
    return 1
end
return 0

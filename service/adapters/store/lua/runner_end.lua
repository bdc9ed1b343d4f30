-- A runner gives up its slot; if games are ready, or the runner asks to keep its slot going
-- (it stopped on its time budget, not for want of games), it hands the slot to its successor.
-- Atomic with submit's check of the slots: no game is left ready with no runner coming.
-- KEYS: ready, runners    ARGV: runner_job_id, next_job_id, runner_ttl_ms, keep (1/0)
-- Returns 1 when the caller must enqueue `next_job_id`.
redis.call('ZREM', KEYS[2], ARGV[1])
if ARGV[4] ~= '1' and redis.call('ZCARD', KEYS[1]) == 0 then
    return 0
end
local now = redis.call('TIME')
redis.call('ZADD', KEYS[2], now[1] * 1000 + math.floor(now[2] / 1000) + tonumber(ARGV[3]), ARGV[2])
return 1

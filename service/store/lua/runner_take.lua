-- A runner takes the game waiting longest and renews its slot (proof it is alive), if it
-- still has one: a slot that expired may have gone to another runner already.
-- KEYS: ready, runners    ARGV: runner_job_id, runner_ttl_ms    Returns the game id or false.
local now = redis.call('TIME')
local now_ms = now[1] * 1000 + math.floor(now[2] / 1000)
redis.call('ZADD', KEYS[2], 'XX', now_ms + tonumber(ARGV[2]), ARGV[1])
local taken = redis.call('ZPOPMIN', KEYS[1])
if #taken == 0 then
    return false
end
return taken[1]

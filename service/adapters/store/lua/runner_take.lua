-- A runner takes up to `count` games, those waiting longest, and renews its slot (proof it
-- is alive), if it still has one: a slot that expired may have gone to another runner already.
-- KEYS: ready, runners    ARGV: runner_job_id, runner_ttl_ms, count (0: only renew)
-- Returns the game ids taken, oldest first (none when nothing is ready).
local now = redis.call('TIME')
local now_ms = now[1] * 1000 + math.floor(now[2] / 1000)
redis.call('ZADD', KEYS[2], 'XX', now_ms + tonumber(ARGV[2]), ARGV[1])
local games = {}
if tonumber(ARGV[3]) < 1 then
    return games
end
local taken = redis.call('ZPOPMIN', KEYS[1], ARGV[3])
for i = 1, #taken, 2 do
    games[#games + 1] = taken[i]
end
return games

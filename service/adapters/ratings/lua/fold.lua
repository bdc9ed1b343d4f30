-- Store the ratings folded from log entries up to a new place, if nobody folded meanwhile.
-- KEYS: folded (the last log place folded), then per rated seat: the player's ratings hash,
--       the leaderboard, the player's history
-- ARGV: the place expected in folded, the new place, then per rated seat: rating key,
--       encoded standing, leaderboard score, player id, log place, encoded history entry
-- Returns 1 when stored, 0 when folded had moved (the caller reads again and retries).
local current = redis.call('GET', KEYS[1]) or '0@0'
if current ~= ARGV[1] then
    return 0
end
local seats = (#KEYS - 1) / 3
for i = 0, seats - 1 do
    local k = 2 + i * 3
    local a = 3 + i * 6
    redis.call('HSET', KEYS[k], ARGV[a], ARGV[a + 1])
    redis.call('ZADD', KEYS[k + 1], ARGV[a + 2], ARGV[a + 3])
    redis.call('ZADD', KEYS[k + 2], ARGV[a + 4], ARGV[a + 5])
end
redis.call('SET', KEYS[1], ARGV[2])
return 1

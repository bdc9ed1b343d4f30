-- Quarantine a game, or release it: set its meta, views and commands aside (or put them
-- back) and record why, in one step. Set aside, every read and command of the game misses,
-- and the miss then finds the reason (see RedisEventStore.absent). On release the game is
-- marked ready and pending, so commands that waited meanwhile get a worker.
-- KEYS: quarantine, ready, pending, then (key, set-aside key) pairs
--   On a Redis Cluster the quarantine key stands in for ready and pending (the game's slot
--   only), and the caller marks the released game itself.
-- ARGV: 'set', reason | 'release', game_id
-- Returns 1 when done, 0 when already quarantined ('set') or not quarantined ('release').
local quarantined = redis.call('EXISTS', KEYS[1]) == 1
if ARGV[1] == 'set' then
    if quarantined then
        return 0
    end
    for i = 4, #KEYS, 2 do
        if redis.call('EXISTS', KEYS[i]) == 1 then
            redis.call('RENAME', KEYS[i], KEYS[i + 1])
        end
    end
    redis.call('SET', KEYS[1], ARGV[2])
    return 1
end
if not quarantined then
    return 0
end
for i = 4, #KEYS, 2 do
    if redis.call('EXISTS', KEYS[i + 1]) == 1 then
        redis.call('RENAME', KEYS[i + 1], KEYS[i])
    end
end
redis.call('DEL', KEYS[1])
if KEYS[2] == KEYS[1] then
    return 1
end
local now = redis.call('TIME')
redis.call('ZADD', KEYS[2], 'NX', now[1] * 1000000 + now[2], ARGV[2])  -- microseconds
redis.call('ZADD', KEYS[3], now[1] * 1000 + math.floor(now[2] / 1000), ARGV[2])
return 1

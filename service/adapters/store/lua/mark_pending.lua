-- Mark a game in the sweeper's pending index on the Redis clock (ms). On a Redis Cluster the
-- submit script cannot reach the index, so the command side marks the game here first.
-- KEYS: pending    ARGV: game_id
local now = redis.call('TIME')
redis.call('ZADD', KEYS[1], now[1] * 1000 + math.floor(now[2] / 1000), ARGV[1])
return 1

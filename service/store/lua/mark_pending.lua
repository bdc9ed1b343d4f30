-- Note that a game has commands waiting, stamped with the Redis clock (ms).
-- KEYS: pending    ARGV: game_id
local now = redis.call('TIME')
redis.call('ZADD', KEYS[1], now[1] * 1000 + math.floor(now[2] / 1000), ARGV[1])
return 1

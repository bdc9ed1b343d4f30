-- Mark a game in the sweeper's pending index on the Redis clock (ms): on a Redis Cluster, the
-- games the sweeper's scan found with commands past their cursor and in no index.
-- KEYS: pending    ARGV: game_id
local now = redis.call('TIME')
redis.call('ZADD', KEYS[1], now[1] * 1000 + math.floor(now[2] / 1000), ARGV[1])
return 1

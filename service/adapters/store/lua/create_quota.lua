-- Count a game creation against a player's hourly limit, in one step: no two creations
-- can both see room for one.
-- KEYS: created (sorted set: member -> ms)    ARGV: member, now_ms, window_ms, limit
-- Returns {'ok', count} | {'limit', ms until the oldest leaves the window}
local now = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local limit = tonumber(ARGV[4])
local count = redis.call('ZCARD', KEYS[1])
if limit > 0 and count >= limit then
    local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    return {'limit', tonumber(oldest[2]) + window - now}
end
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], window)
return {'ok', count + 1}

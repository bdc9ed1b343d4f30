-- Give a lease back if the caller's token still holds it, then put the game back in the
-- ready set if commands still wait past its cursor. A runner that found the game leased
-- skipped it, so the holder re-checks here, after the lease is gone: a command submitted
-- earlier is seen now, one submitted later marks the game ready itself.
-- KEYS: lease, meta, inbox, ready    ARGV: token, game_id    Returns 1 when put back.
-- On a Redis Cluster without ready (the game's slot only): 1 means the caller must mark it.
if redis.call('GET', KEYS[1]) == ARGV[1] then
    redis.call('DEL', KEYS[1])
end
local cursor = redis.call('HGET', KEYS[2], 'cur') or '0-0'
if #redis.call('XRANGE', KEYS[3], '(' .. cursor, '+', 'COUNT', 1) == 0 then
    return 0
end
if #KEYS == 3 then
    return 1
end
local now = redis.call('TIME')
redis.call('ZADD', KEYS[4], 'NX', now[1] * 1000000 + now[2], ARGV[2])  -- microseconds
return 1

-- Start a drain turn in one round trip: take the game's lease with a new fencing token
-- (unless someone holds it), and read the head and the first commands past its cursor.
-- Read under the lease just taken, so no other worker moves the head or cursor meanwhile.
-- KEYS: lease, fence, meta, inbox    ARGV: ttl_ms, limit
-- Returns {'held'} | {'nogame'} | {'ok', token, version, head_hash, cursor, status, entries}
if redis.call('EXISTS', KEYS[1]) == 1 then
    return {'held'}
end
local head = redis.call('HMGET', KEYS[3], 'v', 'h', 'cur', 'st')
if not head[1] then
    return {'nogame'}
end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], token, 'PX', ARGV[1])
local cursor = head[3] or '0-0'
local entries = redis.call('XRANGE', KEYS[4], '(' .. cursor, '+', 'COUNT', ARGV[2])
return {'ok', token, head[1], head[2] or '', cursor, head[4] or '', entries}

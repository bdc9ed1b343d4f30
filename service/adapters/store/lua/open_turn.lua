-- Start a drain turn in one round trip: take the game's lease with a new fencing token
-- (unless someone holds it), and read the head and the first commands past its cursor.
-- Read under the lease just taken, so no other worker moves the head or cursor meanwhile.
-- A worker whose cached state is at `known` also gets the events after it (another worker
-- applied them); one with nothing cached (`known` = 0) also gets the game's fixed facts and
-- seed, so even its first turn on a game costs one round trip.
-- KEYS: lease, fence, meta, inbox, events, secret
-- ARGV: ttl_ms, limit, known (-1: no events wanted)
-- Returns {'held'} | {'nogame'}
--   | {'ok', token, version, head_hash, cursor, status, commands, events, facts}
--   where facts is {} or {game, rules_version, seats, created_at, seed} (known = 0)
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
local commands = redis.call('XRANGE', KEYS[4], '(' .. cursor, '+', 'COUNT', ARGV[2])
local known = tonumber(ARGV[3])
local events = {}
if known >= 0 and known < tonumber(head[1]) then
    events = redis.call('XRANGE', KEYS[5], (known + 1) .. '-0', '+')
end
local facts = {}
if known == 0 then
    facts = redis.call('HMGET', KEYS[3], 'game', 'rv', 'seats', 'created')
    facts[5] = redis.call('GET', KEYS[6])
end
return {'ok', token, head[1], head[2] or '', cursor, head[4] or '', commands, events, facts}

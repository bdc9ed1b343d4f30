-- Open a game's lease round in one round trip: take the game's lease with a new fencing token
-- (unless someone holds it), and read the head and the first commands past its cursor.
-- Nothing it does reaches the append-only file: it costs no disk sync (see below).
-- Read under the lease just taken, so no other worker moves the head or cursor meanwhile.
-- A worker whose cached state is at `known` also gets the events after it (another worker
-- applied them); one with nothing cached (`known` = 0) also gets the game's fixed facts and
-- seed, so even its first round on a game costs one round trip.
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
-- The lease and its fence are coordination, not data: they are written on this Redis alone,
-- never to its append-only file nor to replicas (REPL_NONE), so that taking a lease does not
-- make the worker wait for a disk sync (with `appendfsync always`, one per write reply).
-- Redis restarted or failed over, the lease is gone as if expired; the commit's version and
-- undecided-command checks are what keep a batch from being applied twice. A token is the
-- clock in microseconds (above the last one handed out), so tokens stay unique across a
-- restart that lost the fence. (fakeredis, with neither set_repl nor an append-only file,
-- skips the switch.)
local off_the_log = redis.set_repl ~= nil
if off_the_log then
    redis.set_repl(redis.REPL_NONE)
end
local now = redis.call('TIME')
local token = now[1] * 1000000 + now[2]
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
if token <= last then
    token = last + 1
end
token = string.format('%d', token)
redis.call('SET', KEYS[2], token)
redis.call('SET', KEYS[1], token, 'PX', ARGV[1])
if off_the_log then
    redis.set_repl(redis.REPL_ALL)
end
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

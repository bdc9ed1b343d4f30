-- Append one batch atomically: events (version-conditional, fenced by the lease), the outcome
-- of every command decided, the inbox cursor and the chain head. All or nothing.
-- With release = 1 it also gives the lease back and, as release_lease.lua does, puts the game
-- back in the ready set when commands wait past the new cursor (one round trip, not two).
-- With a channel, it publishes the new version there once something was decided, in the same
-- step: whoever it wakes reads the outcomes and views already written. When the channel has
-- listeners the message also carries each viewer's JSON view and, from the `live:` pairs among
-- the views (published, never stored), each viewer's records of the events (format:
-- service/adapters/notifications.py).
-- With a notification index (9 keys: KEYS[8]) it also marks the game there for the notification
-- projector (score: the Redis clock in microseconds, as NotifyMarks.mark) once a command was
-- decided, in the same atomic step: no round trip of its own, and no crash between the commit
-- and its mark. Only a game someone may be told of is marked: one with a seat a player holds
-- (its value 'p:<player id>') or a seat still open (a player may take it). Guests hold every
-- seat of the others for good (seats are never given back): the projector would only move
-- their cursor (the sweeper's catch-up still marks one it finds behind).
-- KEYS: meta, events, commands, lease, views, inbox, then by how many there are:
--   7: ready (one Redis);
--   9: ready, notify marks, seats (one Redis, the game marked for notifying here);
--   6: none (a Redis Cluster, the game's slot only): the channel is a sharded one (SPUBLISH),
--      and a game to put back is returned as such for the caller to mark ready;
--   8: its drain shard's ready and pending (a Redis Cluster, one slot): the game is put back
--      here as on one Redis, and the channel is a sharded one.
-- ARGV: lease_token, expected_version, cursor, head_hash, finished (1/0), lease_ttl_ms,
--       n_events, n_decided, release (1/0), game_id, channel ('' for none),
--       then per event: data, hash, command_id ('' for none),
--       then per decided command: command key, bare command id, record (the record goes
--       under the key, or under the bare id for a command queued before ids were per seat),
--       then the views as field, value pairs
-- Returns {'ok', version, put_back (1/0)} | {'lease'} | {'nogame'} | {'conflict', version}
--         | {'decided', id}
if redis.call('GET', KEYS[4]) ~= ARGV[1] then
    return {'lease'}
end
local current = redis.call('HGET', KEYS[1], 'v')
if not current then
    return {'nogame'}
end
local version = tonumber(current)
if version ~= tonumber(ARGV[2]) then
    return {'conflict', current}
end
local n_events = tonumber(ARGV[7])
local n_decided = tonumber(ARGV[8])
local first_decided = 12 + n_events * 3
local first_view = first_decided + n_decided * 3
-- Check every command is still queued (its record is an inbox id) before writing anything.
local fields = {}
for i = first_decided, first_view - 1, 3 do
    local field = ARGV[i]
    local stored = redis.call('HGET', KEYS[3], field)
    if not stored then
        field = ARGV[i + 1]
        stored = redis.call('HGET', KEYS[3], field)
    end
    if not stored or not string.find(stored, '^%d+%-%d+$') then
        return {'decided', ARGV[i]}
    end
    fields[#fields + 1] = field
end
for k = 0, n_events - 1 do
    local i = 12 + k * 3
    version = version + 1
    if ARGV[i + 2] == '' then
        redis.call('XADD', KEYS[2], version .. '-1', 'e', ARGV[i], 'h', ARGV[i + 1])
    else
        redis.call('XADD', KEYS[2], version .. '-1', 'e', ARGV[i], 'h', ARGV[i + 1], 'c', ARGV[i + 2])
    end
end
for n, field in ipairs(fields) do
    redis.call('HSET', KEYS[3], field, ARGV[first_decided + (n - 1) * 3 + 2])
end
if first_view <= #ARGV then
    local stored = {'v', version}
    for i = first_view, #ARGV - 1, 2 do
        if string.sub(ARGV[i], 1, 5) ~= 'live:' then  -- for the notification only
            stored[#stored + 1] = ARGV[i]
            stored[#stored + 1] = ARGV[i + 1]
        end
    end
    redis.call('HSET', KEYS[5], unpack(stored))
end
redis.call('HSET', KEYS[1], 'v', version, 'h', ARGV[4], 'cur', ARGV[3])
if ARGV[5] == '1' then
    redis.call('HSET', KEYS[1], 'st', 'finished')
end
if ARGV[11] ~= '' and (n_events > 0 or n_decided > 0) then
    local message = tostring(version)
    local sharded = #KEYS == 6 or #KEYS == 8
    local listeners
    if sharded then
        listeners = redis.call('PUBSUB', 'SHARDNUMSUB', ARGV[11])[2]
    else
        listeners = redis.call('PUBSUB', 'NUMSUB', ARGV[11])[2]
    end
    if listeners > 0 then
        local lines = {message}
        for i = first_view, #ARGV - 1, 2 do
            local kind = string.sub(ARGV[i], 1, 5)
            if kind == 'json:' or kind == 'live:' then
                lines[#lines + 1] = ARGV[i] .. '\t' .. ARGV[i + 1]
            end
        end
        message = table.concat(lines, '\n')
    end
    if sharded then
        redis.call('SPUBLISH', ARGV[11], message)
    else
        redis.call('PUBLISH', ARGV[11], message)
    end
end
if #KEYS == 9 and n_decided > 0 then
    local held = redis.call('HVALS', KEYS[9])
    local told = #held < tonumber(redis.call('HGET', KEYS[1], 'seats') or '0')
    for _, value in ipairs(held) do
        if told then
            break
        end
        told = string.sub(value, 1, 2) == 'p:'
    end
    if told then
        local now = redis.call('TIME')
        redis.call('ZADD', KEYS[8], string.format('%d', now[1] * 1000000 + now[2]), ARGV[10])
    end
end
if ARGV[9] ~= '1' then
    redis.call('PEXPIRE', KEYS[4], ARGV[6])
    return {'ok', tostring(version), 0}
end
redis.call('DEL', KEYS[4])
if #redis.call('XRANGE', KEYS[6], '(' .. ARGV[3], '+', 'COUNT', 1) == 0 then
    return {'ok', tostring(version), 0}
end
if #KEYS == 6 then
    return {'ok', tostring(version), 1}
end
local now = redis.call('TIME')
redis.call('ZADD', KEYS[7], 'NX', now[1] * 1000000 + now[2], ARGV[10])  -- microseconds
return {'ok', tostring(version), 1}

-- Delete a finished game's keys once its archive record is written and checked, only if the
-- game is still the one archived: finished, at the archived version, with the same last inbox
-- entry (a command submitted to a finished game after the archive was read keeps it here),
-- every command decided, and no worker holding its lease.
-- KEYS: meta, inbox, events, commands, secret, seats, views, lease, fence, notified (the
-- notification projector's cursor)
-- ARGV: version, last inbox id ("0-0" when none)
-- Returns 1 when the keys were deleted, 0 when the game changed (left as it is).
local head = redis.call('HMGET', KEYS[1], 'v', 'st', 'cur')
if head[1] ~= ARGV[1] or head[2] ~= 'finished' or head[3] ~= ARGV[2] then
    return 0
end
local last = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
local last_id = '0-0'
if #last > 0 then
    last_id = last[1][1]
end
if last_id ~= ARGV[2] or redis.call('EXISTS', KEYS[8]) == 1 then
    return 0
end
redis.call('DEL', unpack(KEYS))
return 1

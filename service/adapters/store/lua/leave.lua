-- A player gives back the seat they hold in a game still waiting for its players.
-- KEYS: meta, seats, creator, commands [, active, games]    ARGV: value (`p:<player>`), game id
-- Returns {'left', seat} | {'nogame'} | {'none'} | {'started'}
-- Only before the start: a game that is over, a guest's game (started at creation), or one
-- whose every seat is held (its start is then queued) keeps its seats.
local meta = redis.call('HMGET', KEYS[1], 'seats', 'st')
if not meta[1] then
    return {'nogame'}
end
local seat = nil
local stored = redis.call('HGETALL', KEYS[2])
for i = 1, #stored, 2 do
    if stored[i + 1] == ARGV[1] then
        seat = stored[i]
    end
end
if not seat then
    return {'none'}
end
if meta[2] == 'finished' or redis.call('EXISTS', KEYS[3]) == 0
        or #stored / 2 >= tonumber(meta[1])
        or redis.call('HEXISTS', KEYS[4], '-1:sys:start') == 1 then
    return {'started'}
end
redis.call('HDEL', KEYS[2], seat)
redis.call('HDEL', KEYS[1], 'n' .. seat)
if #KEYS > 4 then
    redis.call('SREM', KEYS[5], ARGV[2])
    redis.call('ZREM', KEYS[6], ARGV[2])
end
return {'left', tonumber(seat)}

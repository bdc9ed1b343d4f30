-- Take a seat: the one asked for, or the lowest free one (seat -1).
-- KEYS: meta, seats, hold [, active, games]
-- ARGV: seat, value (token hash, `p:<player>` or `bot`), name, kind ('guest', 'player' or
--       'bot'), limit, now_us, game id
-- Returns {'ok', seat, taken, seats} | {'held', seat, taken, seats} | {'nogame'}
--         | {'finished'} | {'range', seats} | {'taken'} | {'full'} | {'lost', seat}
--         | {'reserved', ms_left} | {'limit', active} | {'unindexed'}
-- A seat is taken when its token hash is stored; a player's name in the meta (`n<seat>`)
-- without that hash means the seat's record was lost: never hand such a seat to a stranger.
-- A player holds one seat per game: a player's join finds the seat they hold (`held`, the
-- same answer to a retry) before it takes one, in this one step; a guest's join run again
-- (the client library's retry after a lost reply) finds the seat its token hash took. With the player's keys
-- (one Redis) the limit of games not over (`active`, a set) is checked and kept here too;
-- on a cluster they live in another slot and the store keeps them in steps around this one.
-- The index holds the member '*' once it is complete (players made before it have it built).
-- A rematch's `hold` (until: ms on the Redis clock; p:<player> fields) keeps its seats for
-- the former players until then: anyone else is refused with the time left.
local meta = redis.call('HMGET', KEYS[1], 'seats', 'st')
if not meta[1] then
    return {'nogame'}
end
if meta[2] == 'finished' then
    return {'finished'}
end
local seats = tonumber(meta[1])
local kind = ARGV[4]
if kind ~= 'bot' then
    local stored = redis.call('HGETALL', KEYS[2])
    for i = 1, #stored, 2 do
        if stored[i + 1] == ARGV[2] then
            if kind == 'player' then
                return {'held', tonumber(stored[i]), #stored / 2, seats}
            end
            -- A guest's token hash is new for each join: this very call ran before (a retry
            -- after a lost reply), and took this seat.
            return {'ok', tonumber(stored[i]), #stored / 2, seats}
        end
    end
end
if kind ~= 'bot' then
    local hold = redis.call('HGET', KEYS[3], 'until')
    if hold and redis.call('HEXISTS', KEYS[3], ARGV[2]) == 0 then
        local now = redis.call('TIME')
        local left = tonumber(hold) - (tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000))
        if left > 0 then
            return {'reserved', left}
        end
    end
end
local seat = tonumber(ARGV[1])
local function lost(s)
    return redis.call('HEXISTS', KEYS[2], tostring(s)) == 0
        and redis.call('HEXISTS', KEYS[1], 'n' .. s) == 1
end
if seat < 0 then
    for s = 0, seats - 1 do
        if lost(s) then
            return {'lost', s}
        end
        if redis.call('HEXISTS', KEYS[2], tostring(s)) == 0 then
            seat = s
            break
        end
    end
    if seat < 0 then
        return {'full'}
    end
elseif seat >= seats then
    return {'range', seats}
elseif redis.call('HEXISTS', KEYS[2], tostring(seat)) == 1 then
    return {'taken'}
elseif lost(seat) then
    return {'lost', seat}
end
if #KEYS > 3 then
    local limit = tonumber(ARGV[5])
    if limit > 0 then
        if redis.call('SISMEMBER', KEYS[4], '*') == 0 then
            return {'unindexed'}
        end
        local active = redis.call('SCARD', KEYS[4]) - 1
        if active >= limit then
            return {'limit', active}
        end
    end
end
redis.call('HSET', KEYS[2], tostring(seat), ARGV[2])
redis.call('HSET', KEYS[1], 'n' .. seat, ARGV[3])
if #KEYS > 3 then
    redis.call('SADD', KEYS[4], ARGV[7])
    redis.call('ZADD', KEYS[5], 'NX', ARGV[6], ARGV[7])
end
return {'ok', seat, redis.call('HLEN', KEYS[2]), seats}

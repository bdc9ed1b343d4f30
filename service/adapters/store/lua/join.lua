-- Take a seat: the one asked for, or the lowest free one (seat -1).
-- KEYS: meta, seats    ARGV: seat, token_hash, name
-- Returns {'ok', seat, taken, seats} | {'nogame'} | {'finished'} | {'range', seats}
--         | {'taken'} | {'full'} | {'lost', seat}
-- A seat is taken when its token hash is stored; a player's name in the meta (`n<seat>`)
-- without that hash means the seat's record was lost: never hand such a seat to a stranger.
local meta = redis.call('HMGET', KEYS[1], 'seats', 'st')
if not meta[1] then
    return {'nogame'}
end
if meta[2] == 'finished' then
    return {'finished'}
end
local seats = tonumber(meta[1])
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
redis.call('HSET', KEYS[2], tostring(seat), ARGV[2])
redis.call('HSET', KEYS[1], 'n' .. seat, ARGV[3])
return {'ok', seat, redis.call('HLEN', KEYS[2]), seats}

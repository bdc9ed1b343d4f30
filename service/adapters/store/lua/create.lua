-- Create a game: its meta, its secret seed and its opening events, or nothing at all.
-- KEYS: meta, events, secret, views
-- ARGV: game, rules_version, seats, created_at, seed, head_hash, finished (1/0), n_events,
--       creation nonce, then per event: data, hash, then the views as field, value pairs
-- The nonce is the creating call's own (kept in the meta as `cn`): the same call run again
-- (a client retrying after its reply was lost) finds the game it made and answers as then,
-- where any other call finds the id taken.
if redis.call('EXISTS', KEYS[1]) == 1 then
    if redis.call('HGET', KEYS[1], 'cn') == ARGV[9] then
        return {'ok', ARGV[8]}
    end
    return {'exists'}
end
local n = tonumber(ARGV[8])
for k = 1, n do
    local i = 9 + (k - 1) * 2
    redis.call('XADD', KEYS[2], k .. '-1', 'e', ARGV[i + 1], 'h', ARGV[i + 2])
end
local status = 'open'
if ARGV[7] == '1' then status = 'finished' end
redis.call('HSET', KEYS[1], 'game', ARGV[1], 'rv', ARGV[2], 'seats', ARGV[3],
    'created', ARGV[4], 'v', n, 'h', ARGV[6], 'cur', '0-0', 'st', status, 'cn', ARGV[9])
redis.call('SET', KEYS[3], ARGV[5])
local first_view = 10 + n * 2
if first_view <= #ARGV then
    redis.call('HSET', KEYS[4], 'v', n, unpack(ARGV, first_view))
end
return {'ok', tostring(n)}

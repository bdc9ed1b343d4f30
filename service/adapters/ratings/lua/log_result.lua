-- Log one finished game's rated result, once: a game already logged changes nothing.
-- KEYS: log (stream), logged (hash: game id -> its place in the log, 0 for a game rating nobody)
-- ARGV: game id, the encoded result ('' for a game rating nobody)
-- Returns {1 if logged now else 0, the game's place in the log}
local found = redis.call('HGET', KEYS[2], ARGV[1])
if found then
    return {0, tonumber(found)}
end
if ARGV[2] == '' then
    redis.call('HSET', KEYS[2], ARGV[1], 0)
    return {1, 0}
end
local seq = redis.call('XLEN', KEYS[1]) + 1
redis.call('XADD', KEYS[1], seq .. '-1', 'g', ARGV[1], 'r', ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], seq)
return {1, seq}

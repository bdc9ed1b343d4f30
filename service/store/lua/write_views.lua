-- Store pre-encoded views unless newer ones are already there (a slow worker must not
-- overwrite a fresher projection).
-- KEYS: views    ARGV: version, then field, value pairs    Returns 1 when written.
local stored = tonumber(redis.call('HGET', KEYS[1], 'v') or '-1')
local version = tonumber(ARGV[1])
if stored >= version then
    return 0
end
local pairs_ = {'v', ARGV[1]}
for i = 2, #ARGV do
    pairs_[#pairs_ + 1] = ARGV[i]
end
redis.call('HSET', KEYS[1], unpack(pairs_))
return 1

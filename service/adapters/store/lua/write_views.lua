-- Store pre-encoded views unless newer ones are already there (a slow worker must not
-- overwrite a fresher projection). A worker never rewrites its own version; a repair does
-- (`same` = 1): rewriting a version over itself is what mends a damaged projection.
-- KEYS: views    ARGV: version, same (0|1), then field, value pairs    Returns 1 when written.
local stored = tonumber(redis.call('HGET', KEYS[1], 'v') or '-1')
local version = tonumber(ARGV[1])
if stored > version or (stored == version and ARGV[2] ~= '1') then
    return 0
end
local pairs_ = {'v', ARGV[1]}
for i = 3, #ARGV do
    pairs_[#pairs_ + 1] = ARGV[i]
end
redis.call('HSET', KEYS[1], unpack(pairs_))
return 1

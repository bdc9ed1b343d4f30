-- Take a game's lease with a new fencing token, unless someone holds it.
-- KEYS: lease, fence    ARGV: ttl_ms    Returns the token, or false when held.
if redis.call('EXISTS', KEYS[1]) == 1 then
    return false
end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], token, 'PX', ARGV[1])
return token

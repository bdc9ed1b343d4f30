-- Count a game among a player's games not over, within their limit (a Redis Cluster's
-- player's join: the player's keys are in another slot than the game's).
-- KEYS: active (holding '*' once complete)    ARGV: game id, limit
-- Returns {'added'} | {'member'} | {'limit', active} | {'unindexed'}
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then
    return {'member'}
end
local limit = tonumber(ARGV[2])
if limit > 0 then
    if redis.call('SISMEMBER', KEYS[1], '*') == 0 then
        return {'unindexed'}
    end
    local active = redis.call('SCARD', KEYS[1]) - 1
    if active >= limit then
        return {'limit', active}
    end
end
redis.call('SADD', KEYS[1], ARGV[1])
return {'added'}

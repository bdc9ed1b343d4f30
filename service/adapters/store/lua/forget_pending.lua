-- Drop a game from the pending index unless it was marked again since the sweeper looked.
-- KEYS: pending    ARGV: game_id, score seen
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
    return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0

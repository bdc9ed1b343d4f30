-- One stored projection with the views' version and the head's, read in one step: a views
-- record behind the head (restored from an older copy) must be told from a current one.
-- KEYS: views, meta    ARGV: field    Returns {views version, data, head version} (nil: absent)
local row = redis.call('HMGET', KEYS[1], 'v', ARGV[1])
return {row[1], row[2], redis.call('HGET', KEYS[2], 'v')}

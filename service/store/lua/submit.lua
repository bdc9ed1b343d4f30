-- Append a command to a game's inbox unless its id is known; raise the drain flag.
-- KEYS: meta, commands, inbox, drain, rate (this seat's counter)
-- ARGV: command_id, seat, request_id, body, drain_job_id, rate_limit, rate_window_ms
-- Returns {'nogame'} | {'duplicate', stored} | {'throttled', retry_ms} | {'accepted', id, 0|1}
if redis.call('EXISTS', KEYS[1]) == 0 then
    return {'nogame'}
end
local known = redis.call('HGET', KEYS[2], ARGV[1])
if known then
    return {'duplicate', known}
end
local limit = tonumber(ARGV[6])
if limit > 0 then
    local used = redis.call('INCR', KEYS[5])
    if used == 1 then
        redis.call('PEXPIRE', KEYS[5], ARGV[7])
    end
    if used > limit then
        return {'throttled', tostring(redis.call('PTTL', KEYS[5]))}
    end
end
local id = redis.call('XADD', KEYS[3], '*', 's', ARGV[2], 'c', ARGV[1], 'r', ARGV[3], 'b', ARGV[4])
-- While queued, a command's record is its inbox id; the worker replaces it with the outcome.
redis.call('HSET', KEYS[2], ARGV[1], id)
local raised = 0
if redis.call('SET', KEYS[4], ARGV[5], 'NX') then
    raised = 1
end
return {'accepted', id, raised}

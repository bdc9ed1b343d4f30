-- Lower the drain flag; if commands still wait past the cursor, raise it for the next job.
-- Atomic with `submit`, so a command appended while a drain ends is never left without a job.
-- KEYS: drain, meta, inbox    ARGV: next_job_id    Returns 1 when the caller must enqueue.
redis.call('DEL', KEYS[1])
local cursor = redis.call('HGET', KEYS[2], 'cur') or '0-0'
local waiting = redis.call('XRANGE', KEYS[3], '(' .. cursor, '+', 'COUNT', 1)
if #waiting > 0 then
    redis.call('SET', KEYS[1], ARGV[1])
    return 1
end
return 0

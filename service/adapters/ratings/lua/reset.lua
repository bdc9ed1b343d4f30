-- Drop the folded ratings (and, with ARGV[1] = 'log', the log too) so they are folded again.
-- folded becomes '0@<epoch + 1>': a fold that read it before this reset cannot store.
-- KEYS: folded, log, logged, then every ratings, leaderboard and history key to delete
local current = redis.call('GET', KEYS[1]) or '0@0'
local epoch = tonumber(string.match(current, '@(%d+)$') or '0')
redis.call('SET', KEYS[1], '0@' .. (epoch + 1))
local first = 4
if ARGV[1] == 'log' then
    first = 2
end
for i = first, #KEYS do
    redis.call('DEL', KEYS[i])
end
return epoch + 1

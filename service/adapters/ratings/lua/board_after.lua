-- A leaderboard page after a cursor (a score and a player id), read in one atomic step.
-- KEYS: the board; ARGV: limit, then (optional) the cursor's score and player id.
-- Returns the number of places before the page, then player id, score pairs, best first.
-- The board's order is score down, then player id down (ZREVRANGE's). The page starts right
-- after the cursor's place in that order: at the player's rank when it still has that score,
-- else where the pair would stand (the players above its score, then a binary search among
-- the players tied on it), so a player moving does not make the next page skip or repeat
-- the players who did not move.
local limit = tonumber(ARGV[1])
local start = 0
if ARGV[2] then
    local score, player = ARGV[2], ARGV[3]
    local now = redis.call('ZSCORE', KEYS[1], player)
    if now and tonumber(now) == tonumber(score) then
        start = redis.call('ZREVRANK', KEYS[1], player) + 1
    else
        local lo = 0
        local hi = redis.call('ZCOUNT', KEYS[1], score, score)
        while lo < hi do
            local mid = math.floor((lo + hi) / 2)
            local at = redis.call('ZREVRANGEBYSCORE', KEYS[1], score, score, 'LIMIT', mid, 1)[1]
            if at > player then lo = mid + 1 else hi = mid end
        end
        start = redis.call('ZCOUNT', KEYS[1], '(' .. score, '+inf') + lo
    end
end
local page = redis.call('ZREVRANGE', KEYS[1], start, start + limit - 1, 'WITHSCORES')
table.insert(page, 1, start)
return page

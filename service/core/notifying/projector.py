"""The notification projector: turns games' committed events into players' notifications.

After a drain round commits, its games are marked (`NotifyMarks`); a projector step (each
worker's notification thread) takes marked games, reads each game's events past its notified
cursor (`game:{id}:notified`), derives the notifications (service.core.notifying.derive),
appends each player's to their feed (idempotent by id), then moves the cursor, and only then
forgets the mark, unless the game was marked again meanwhile. A crash anywhere repeats work,
never loses it: the ids make the repeat a no-op. The sweeper marks any game it visits whose
cursor lags its head (a worker killed between a commit and its mark).

Never on the command path: on one Redis a commit marks its game in its own script (not a game
guests hold every seat of: nobody to tell), on a cluster the drain adds its round's games to
the marks, one command. A step reads every marked game's cursor, head and seats in one round
trip (`NotifySurvey`), and settles the games it is done with in one more.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass
from typing import Protocol

import structlog

from contracts.notifications import Notification, NotificationKind
from domain.table import Table
from service.core.codec import codec_for
from service.core.notifying.derive import (
    DeadlineEnd,
    FollowedGame,
    FollowedGames,
    derive,
    follow,
    notify,
)
from service.core.ports.command_keys import split_key
from service.core.ports.event_store import CommandStore
from service.core.ports.notifications import (
    GameFacts,
    MarkedGame,
    NotificationFeed,
    NotifiedCursors,
    NotifyMarks,
    NotifySurvey,
    Reminder,
    Reminders,
    encode_notification,
)
from service.core.ports.players import PLAYER_SEAT_PREFIX
from service.core.ports.webhooks import WebhookInbox

log = structlog.get_logger("skald.notify")

REMINDERS_EVERY_S = 1.0  # how often a surveyed step looks for due reminders


class SeatHolders(Protocol):
    """Who holds a game's seats (the seats side index, or the archive for archived games)."""

    async def token_hashes(self, game_id: str) -> dict[int, bytes]:
        """Each taken seat's stored value: a token hash, `p:<player>`, or `bot`."""
        ...


@dataclass
class ProjectReport:
    """What one projector step did."""

    games: int = 0
    notifications: int = 0
    reminders_sent: int = 0


class NotificationProjector:
    """Derives, stores and announces players' notifications from games' events."""

    def __init__(
        self,
        store: CommandStore,
        seats: SeatHolders,
        feed: NotificationFeed,
        cursors: NotifiedCursors,
        marks: NotifyMarks,
        reminders: Reminders,
        facts: GameFacts,
        cache: FollowedGames,
        webhooks: WebhookInbox | None = None,
        survey: NotifySurvey | None = None,
    ) -> None:
        self.webhooks = webhooks  # where notifications wait for the webhook dispatcher
        self.survey = survey  # the marked games' reads and settles in a round trip each
        self._reminders_checked = float("-inf")  # when a surveyed step last sent reminders
        self._endpoints_seen = float("-inf")  # when an endpoint was last found registered
        self.store = store
        self.seats = seats
        self.feed = feed
        self.cursors = cursors
        self.marks = marks
        self.reminders = reminders
        self.facts = facts
        self.cache = cache

    async def step(self, limit: int = 64) -> ProjectReport:
        """Project up to `limit` marked games, then send the reminders due."""
        if self.survey is not None:
            return await self._surveyed_step(self.survey, limit)
        report = ProjectReport()
        for game_id, mark in await self.marks.marked(limit):
            try:
                report.notifications += await self.project(game_id)
            except Exception:  # one damaged game must not hold the others up
                log.exception("notify_project_failed", game_id=game_id)
                continue
            await self.marks.settle(game_id, mark)
            report.games += 1
        report.reminders_sent = await self.send_reminders(limit)
        return report

    async def _surveyed_step(self, survey: NotifySurvey, limit: int) -> ProjectReport:
        """`step` with every marked game's cursor, head and seats read in one round trip,
        and the games' marks forgotten (guests' cursors moved) in one more."""
        report = ProjectReport()
        settled: list[tuple[MarkedGame, int | None]] = []
        for game in await survey.marked(limit):
            players = players_of(game.seats)
            if game.version is not None and not players:
                # A guest's game: nobody to tell, nothing to fold; its cursor goes to its head.
                settled.append((game, game.version if game.version > game.notified else None))
                report.games += 1
                continue
            try:
                known = None if game.version is None else (game, players)
                report.notifications += await self.project(game.game_id, known)
            except Exception:  # one damaged game must not hold the others up
                log.exception("notify_project_failed", game_id=game.game_id)
                continue
            settled.append((game, None))
            report.games += 1
        await survey.settle(settled)
        # Reminders come due an hour or five minutes before a deadline: looked for once a
        # second, not on every step (two round trips each; idle, a step runs every 50 ms).
        now = time.monotonic()
        if now - self._reminders_checked >= REMINDERS_EVERY_S:
            self._reminders_checked = now
            report.reminders_sent = await self.send_reminders(limit)
        return report

    async def project(
        self, game_id: str, known: tuple[MarkedGame, dict[int, str]] | None = None
    ) -> int:
        """Turn the game's events past its cursor into notifications; how many were new.
        `known`: the game's cursor, head and players as just read (else they are read)."""
        if known is None:
            notified = await self.cursors.get(game_id)
            head = await self.store.head(game_id)
            if head is None:
                return 0  # gone (archived, or never was): nothing left to tell
            version, finished = head.version, head.finished
            players = await self.players(game_id)
        else:
            game, players = known
            notified, finished = game.notified, game.finished
            version = game.version or 0
        added = 0
        if not players:  # a guest's game: nobody to tell, nothing to fold
            if version > notified:
                await self.cursors.set(game_id, version)
            return 0
        if version > notified:
            followed = self.cache.take(game_id)
            if followed is None or followed.version != notified:
                followed = await self.followed_at(game_id, notified)
            if followed is None:  # this code cannot fold it: nothing to tell
                await self.cursors.set(game_id, version)
                return 0
            events = await self.store.read(game_id, after=notified)
            derived = derive(followed, events, set(players))
            added += await self.deliver(players, derived.notifications)
            await self.reminders.add(derived.reminders)
            await self.cursors.set(game_id, followed.version)
            self.cache.put(followed)
        if finished:
            rematch = await self.facts.rematch_of(game_id)
            if rematch:
                name = await self.game_name(game_id)
                offers = [
                    notify(game_id, "rematch_offered", version, seat, game=name, rematch_id=rematch)
                    for seat in sorted(players)
                ]
                added += await self.deliver(players, offers)
        return added

    async def followed_at(self, game_id: str, version: int) -> FollowedGame | None:
        """The game folded up to `version`; None when this code cannot fold it."""
        meta = await self.store.meta(game_id)
        seed = await self.store.seed(game_id)
        head = await self.store.head(game_id)
        if meta is None or seed is None or head is None:
            return None
        codec = codec_for(meta.game)
        table = Table.new(codec.game, meta.seats, meta.rules_version, seed)
        if not table.rules_supported:
            return None
        followed = FollowedGame(game_id, meta.game, codec, table)
        if version > 0:
            for stored in await self.store.read(game_id, after=0, limit=version):
                follow(followed, stored)
        return followed

    async def game_name(self, game_id: str) -> str:
        """The game's registered name (`fjords`, ...); "" when its meta is gone."""
        meta = await self.store.meta(game_id)
        return "" if meta is None else meta.game

    async def players(self, game_id: str) -> dict[int, str]:
        """The game's seats held by players: seat -> player id."""
        return players_of(await self.seats.token_hashes(game_id))

    async def deliver(self, players: dict[int, str], notifications: list[Notification]) -> int:
        """Append each notification to its seat's player's feed; how many were new."""
        by_player = self._by_player(players, notifications)
        webhooks = self.webhooks
        if by_player and webhooks is not None:
            if self.feed.queues_with(webhooks):
                # One Redis: each feed's script queues what it adds, ahead of adding it, if
                # an endpoint is registered (which the script itself looks at).
                return await self.feed.append_queued(by_player, webhooks)
            if await self._webhooks_on(webhooks):
                # The inbox and the feeds on separate slots: queue those the feeds lack first.
                await webhooks.enqueue_many(await self._unfed(by_player))
        return await self.feed.append_many(by_player)

    async def _webhooks_on(self, webhooks: WebhookInbox) -> bool:
        """Whether any webhook endpoint is registered. A yes is kept for a second (queueing
        with none registered only queues what nobody is sent); a no is never kept, so the
        first endpoint counts from the first notification after its registration."""
        now = time.monotonic()
        if now - self._endpoints_seen <= 1.0:
            return True
        if not await webhooks.any_endpoint():
            return False
        self._endpoints_seen = now
        return True

    async def _unfed(
        self, by_player: dict[str, list[Notification]]
    ) -> list[tuple[str, str, bytes]]:
        """(player, kind, JSON) of those not in the feeds yet, to queue for delivery before
        they are added to them: a crash in between delivers them twice (same ids), never not
        at all."""
        lacking = await self.feed.missing_many(
            {player: [n.id for n in theirs] for player, theirs in by_player.items()}
        )
        return [
            (player, n.kind, encode_notification(n))
            for player, theirs in by_player.items()
            for n, missing in zip(theirs, lacking[player], strict=True)
            if missing
        ]

    async def send_reminders(self, limit: int, now_ms: int | None = None) -> int:
        """Send the deadline reminders due (at `now_ms`, by default the Redis clock's now)
        whose deadline is still pending."""
        now = await self.reminders.now_ms() if now_ms is None else now_ms
        sent = 0
        for reminder in await self.reminders.due(now, limit):
            if await self.facts.deadline_pending(reminder.game_id, reminder.seat, reminder.since):
                players = await self.players(reminder.game_id)
                reminded = notify(
                    reminder.game_id,
                    "deadline_1h" if reminder.kind == "deadline_1h" else "deadline_5m",
                    reminder.since,
                    reminder.seat,
                    game=await self.game_name(reminder.game_id),
                    deadline_ms=reminder.deadline_ms,
                )
                sent += await self.deliver(players, [reminded])
            await self.reminders.remove(reminder)
        return sent

    async def catch_up(self, game_id: str) -> bool:
        """Mark the game if its notified cursor lags its head (the sweeper's check); whether
        it did."""
        head = await self.store.head(game_id)
        if head is None or head.version <= await self.cursors.get(game_id):
            return False
        await self.marks.mark([game_id])
        return True

    async def rebuild(self, game_ids: list[str], now_ms: int | None = None) -> int:
        """Rebuild from their events the feeds of every player of these games (every game
        of theirs should be among them: each player's feed is cleared first). Each game is
        derived up to its notified cursor, no further: later events are the live projector's,
        which queues them for webhook delivery, while a rebuild queues nothing (its
        notifications were delivered when first made). The cursors are left as they are.
        Deadline reminders are rebuilt too, as due at `now_ms` (by default the Redis clock's
        now; `rebuilt_reminders`). How many notifications were written."""
        players: set[str] = set()
        for game_id in game_ids:
            players.update((await self.players(game_id)).values())
        for player_id in players:
            await self.feed.clear(player_id)
        if now_ms is None:
            now_ms = await self.reminders.now_ms()
        written = 0
        for game_id in game_ids:
            written += await self._rebuild_game(game_id, now_ms)
        return written

    async def _rebuild_game(self, game_id: str, now_ms: int) -> int:
        notified = await self.cursors.get(game_id)
        head = await self.store.head(game_id)
        players = await self.players(game_id)
        if head is not None and head.finished and not await self.facts.in_redis(game_id):
            notified = head.version  # archived (its cursor went with it): projected for good
        if head is None or not players or notified == 0:
            return 0
        followed = await self.followed_at(game_id, 0)
        if followed is None:
            return 0
        # Every event to the head: the reminders' deadlines may have ended past the cursor.
        derived = derive(followed, await self.store.read(game_id, after=0), set(players))
        made = [n for n in derived.notifications if n.version <= notified]
        reminders = [r for r in derived.reminders if r.since <= notified]
        made += await self.rebuilt_reminders(
            game_id, reminders, derived.ended, now_ms, followed.name
        )
        if head.finished and notified >= head.version:
            rematch = await self.facts.rematch_of(game_id)
            if rematch:
                made += [
                    notify(
                        game_id,
                        "rematch_offered",
                        head.version,
                        seat,
                        game=followed.name,
                        rematch_id=rematch,
                    )
                    for seat in sorted(players)
                ]
        return await self.feed.append_many(self._by_player(players, made))

    async def rebuilt_reminders(
        self,
        game_id: str,
        reminders: list[Reminder],
        ended: dict[tuple[int, int], DeadlineEnd],
        now_ms: int,
        game: str = "",
    ) -> list[Notification]:
        """The reminders the live projector sent, as the events tell: of those due by now
        and no longer scheduled (the live projector has decided on them), each whose
        deadline was still waited on when it fell due: never ended, or ended by a command
        at or after the reminder's due time (the drain's clock the ending TurnClocks
        records, else when the ending command was received; a timeout is received at its
        deadline, after every reminder of it). Where the events give no time (a command
        without a record), the reminder counts as not sent."""
        due = [r for r in reminders if r.due_ms <= now_ms]
        sent = []
        for reminder, scheduled in zip(due, await self.reminders.scheduled(due), strict=True):
            if scheduled:  # the live projector sends it (or not) when it falls due
                continue
            end = ended.get((reminder.seat, reminder.since))
            if end is not None and (await self._ended_ms(game_id, end)) < reminder.due_ms:
                continue
            kind: NotificationKind = (
                "deadline_1h" if reminder.kind == "deadline_1h" else "deadline_5m"
            )
            sent.append(
                notify(
                    game_id,
                    kind,
                    reminder.since,
                    reminder.seat,
                    game=game,
                    deadline_ms=reminder.deadline_ms,
                )
            )
        return sent

    async def _ended_ms(self, game_id: str, end: DeadlineEnd) -> int:
        """When a deadline ended (ms, the Redis clock); 0 when the events do not say."""
        if end.at_ms is not None:
            return end.at_ms
        split = split_key(end.command_key) if end.command_key else None
        if split is None:
            return 0
        record = await self.store.command(game_id, split[0], split[1])
        if record is None or not record.inbox_id:
            return 0
        return int(record.inbox_id.partition("-")[0] or 0)  # `<ms>-<seq>`: when received

    @staticmethod
    def _by_player(
        players: dict[int, str], notifications: list[Notification]
    ) -> dict[str, list[Notification]]:
        by_player: dict[str, list[Notification]] = defaultdict(list)
        for notification in notifications:
            player = players.get(notification.seat)
            if player is not None:
                by_player[player].append(notification)
        return by_player


def players_of(seats: dict[int, bytes]) -> dict[int, str]:
    """Of a game's taken seats (seat -> what holds it), those players hold: seat -> player id."""
    return {
        seat: value[len(PLAYER_SEAT_PREFIX) :].decode()
        for seat, value in seats.items()
        if value.startswith(PLAYER_SEAT_PREFIX)
    }

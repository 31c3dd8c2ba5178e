"""The Redis channel layer (``core.layers``), against a redis-server of the test's own:
``group_send`` in two round trips instead of four, a message naming its ``sender`` not delivered
back to it, a member in the same process served without Redis; one reader per process taking its
messages off Redis. What channels_redis promises must still hold: every other member
gets the message once, in whichever process, in the order sent; members whose membership expired
get nothing; a channel over its capacity drops the message; a restarted Redis (its scripts
forgotten) still works."""
from __future__ import annotations

import asyncio
import shutil

import pytest

from core.layers import OutageAwareRedisChannelLayer
from tests.support import backing

pytestmark = pytest.mark.skipif(shutil.which(backing.REDIS_SERVER) is None, reason="needs redis-server")


@pytest.fixture
def redis():
    server = backing.Redis()
    server.start()
    yield server
    server.kill()


def layer(redis, **config) -> OutageAwareRedisChannelLayer:
    return OutageAwareRedisChannelLayer(hosts=[redis.url], prefix="qc-layer-test", **config)


async def heard(layer, channel: str, wait: float = 0.3) -> list[dict]:
    messages = []
    while True:
        try:
            messages.append(await asyncio.wait_for(layer.receive(channel), wait))
        except TimeoutError:
            return messages


async def closed(*layers) -> None:
    for each in layers:
        for task in [*each._watchers.values(), *each._readers.values()]:
            task.cancel()
        await each.close_pools()


def test_a_group_message_reaches_every_member_once_but_its_sender_in_any_process(redis):
    async def scenario():
        one, two = layer(redis), layer(redis)  # two server processes
        a1, a2, b1 = await one.new_channel(), await one.new_channel(), await two.new_channel()
        for channel, where in ((a1, one), (a2, one), (b1, two)):
            await where.group_add("match.7", channel)
        await one.group_send("match.7", {"type": "match.changed", "seq": 3, "sender": a1})
        got = {"a1": await heard(one, a1), "a2": await heard(one, a2), "b1": await heard(two, b1)}
        await two.group_send("match.7", {"type": "match.changed", "seq": 4})  # no sender: everyone
        again = {"a1": await heard(one, a1), "a2": await heard(one, a2), "b1": await heard(two, b1)}
        await two.group_discard("match.7", b1)
        await one.group_send("match.7", {"type": "match.changed", "seq": 5})
        left = await heard(two, b1)
        await closed(one, two)
        return got, again, left

    got, again, left = asyncio.run(scenario())
    assert got["a1"] == [] and [m["seq"] for m in got["a2"]] == [3] and [m["seq"] for m in got["b1"]] == [3]
    assert {k: [m["seq"] for m in v] for k, v in again.items()} == {"a1": [4], "a2": [4], "b1": [4]}
    assert left == []


def test_an_expired_membership_gets_nothing_and_a_full_channel_drops_the_message(redis):
    async def scenario():
        brief = layer(redis, group_expiry=1)
        gone = await brief.new_channel()
        await brief.group_add("match.8", gone)
        await asyncio.sleep(2.1)
        await brief.group_send("match.8", {"type": "match.changed", "seq": 1})
        expired = await heard(brief, gone)
        small = layer(redis, capacity=1)
        full = "match.inbox"  # a plain channel: its messages wait in Redis until received
        await small.group_add("match.9", full)
        await small.group_send("match.9", {"type": "match.changed", "seq": 1})
        await small.group_send("match.9", {"type": "match.changed", "seq": 2})  # over capacity: dropped
        kept = await heard(small, full)
        await closed(brief, small)
        return expired, kept

    expired, kept = asyncio.run(scenario())
    assert expired == []
    assert [m["seq"] for m in kept] == [1]


def test_a_restarted_redis_still_takes_group_messages(redis):
    async def scenario():
        first = layer(redis)
        channel = await first.new_channel()
        await first.group_add("match.10", channel)
        await first.group_send("match.10", {"type": "match.changed", "seq": 1})
        before = await heard(first, channel)
        await closed(first)
        redis.kill()
        redis.start()  # empty: groups and loaded scripts forgotten
        second, receiver = layer(redis), layer(redis)  # (two processes: through Redis, by the script)
        second._send_script = first._send_script  # the script known by hash only
        channel = await receiver.new_channel()
        await second.group_add("match.10", channel)
        await second.group_send("match.10", {"type": "match.changed", "seq": 2})
        after = await heard(receiver, channel)
        await closed(second, receiver)
        return before, after

    before, after = asyncio.run(scenario())
    assert [m["seq"] for m in before] == [1] and [m["seq"] for m in after] == [2]


def commands(redis, *names: str) -> int:
    import redis as redis_client

    stats = redis_client.Redis.from_url(redis.url).info("commandstats")
    return sum(stats.get(f"cmdstat_{name}", {}).get("calls", 0) for name in names)


def test_a_member_in_the_same_process_gets_the_message_without_redis_storing_it(redis):
    async def scenario():
        one, two = layer(redis), layer(redis)
        here, there = await one.new_channel(), await two.new_channel()
        for channel, where in ((here, one), (there, two)):
            await where.group_add("match.11", channel)
        await one.group_send("match.11", {"type": "match.changed", "seq": 1, "squares": [1, 2]})
        stored_for_two = commands(redis, "evalsha", "eval")
        await two.group_discard("match.11", there)
        await one.group_send("match.11", {"type": "match.changed", "seq": 2})  # only a member here
        stored_after = commands(redis, "evalsha", "eval")
        got = await heard(one, here), await heard(two, there)
        await closed(one, two)
        return got, stored_for_two, stored_after

    (here, there), stored_for_two, stored_after = asyncio.run(scenario())
    assert [m["seq"] for m in here] == [1, 2] and [m["seq"] for m in there] == [1]
    assert here[0]["squares"] == [1, 2]  # the copy Redis would have given (a list, as sent)
    assert stored_for_two >= 1 and stored_after == stored_for_two  # nothing stored for the member here


def test_one_reader_per_process_delivers_every_message_once_in_order(redis):
    """Many messages, to two sockets of one process, from another process (by
    group and to one channel); a socket whose wait is cancelled (it closed) loses nothing for the other."""
    async def scenario():
        sender, receiver = layer(redis, capacity=300), layer(redis, capacity=300)  # (a queue keeps 300)
        a, b = await receiver.new_channel(), await receiver.new_channel()
        await sender.group_add("match.12", a)
        await sender.group_add("match.12", b)
        first = asyncio.ensure_future(receiver.receive(a))  # the reader starts; a waits
        waiting = asyncio.ensure_future(receiver.receive(b))
        await asyncio.sleep(0.1)
        waiting.cancel()  # b stopped waiting (its consumer moved on): later messages still reach it
        for seq in range(130):
            await sender.group_send("match.12", {"type": "match.changed", "seq": seq})
        await sender.send(b, {"type": "match.signal", "seq": 130})
        got_a = [await first] + await heard(receiver, a)
        got_b = await heard(receiver, b)
        await closed(sender, receiver)
        return got_a, got_b

    got_a, got_b = asyncio.run(scenario())
    assert [m["seq"] for m in got_a] == list(range(130))
    assert [m["seq"] for m in got_b] == list(range(131))

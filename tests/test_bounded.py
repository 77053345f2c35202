"""BoundedDict: the one bound of the library's memos (oldest out first, or least recently used)."""
from __future__ import annotations

import pickle
import threading

import pytest

from authorag.bounded import BoundedDict
from authorag.errors import ConfigError


def test_put_past_the_limit_forgets_the_oldest() -> None:
    memo: BoundedDict[str, int] = BoundedDict(3)
    for i, key in enumerate("abcde"):
        memo.put(key, i)
    assert list(memo.items()) == [("c", 2), ("d", 3), ("e", 4)]


def test_a_known_key_keeps_its_place_and_evicts_nothing() -> None:
    memo: BoundedDict[str, int] = BoundedDict(2)
    memo.put("a", 1)
    memo.put("b", 2)
    memo.put("a", 10)
    assert list(memo.items()) == [("a", 10), ("b", 2)]
    memo.put("c", 3)
    assert list(memo.items()) == [("b", 2), ("c", 3)]


def test_move_to_end_on_a_hit_makes_it_least_recently_used() -> None:
    memo: BoundedDict[str, int] = BoundedDict(2)
    memo.put("a", 1)
    memo.put("b", 2)
    memo.move_to_end("a")  # "a" was read: "b" is now the least recently used
    memo.put("c", 3)
    assert list(memo) == ["a", "c"]


@pytest.mark.parametrize(("limit", "kept"), [(0, []), (None, list("abcde")), (1, ["e"])])
def test_zero_keeps_nothing_and_none_keeps_everything(limit: int | None, kept: list[str]) -> None:
    memo: BoundedDict[str, int] = BoundedDict(limit)
    for i, key in enumerate("abcde"):
        memo.put(key, i)
    assert list(memo) == kept


@pytest.mark.parametrize("limit", [-1, 2.5, "10", True])
def test_a_bad_limit_is_refused(limit: object) -> None:
    with pytest.raises(ConfigError, match=r"limit must be an integer >= 0 \(0 keeps nothing\) or None .*got "):
        BoundedDict(limit)  # type: ignore[arg-type]


def test_pickle_keeps_the_limit_and_the_order() -> None:
    memo: BoundedDict[str, int] = BoundedDict(2)
    memo.put("a", 1)
    memo.put("b", 2)
    copy = pickle.loads(pickle.dumps(memo))
    copy.put("c", 3)
    assert (copy.limit, list(copy.items()), list(memo)) == (2, [("b", 2), ("c", 3)], ["a", "b"])


def test_threads_putting_at_once_stay_within_the_limit() -> None:
    memo: BoundedDict[int, int] = BoundedDict(50)

    def fill(start: int) -> None:
        for i in range(start, start + 2000):
            memo.put(i, i)

    threads = [threading.Thread(target=fill, args=(n * 10_000,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(memo) == 50

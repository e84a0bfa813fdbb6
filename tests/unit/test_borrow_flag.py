"""The borrow flag on its own: transitions, atomicity, messages. No CUDA."""

from __future__ import annotations

import threading

import pytest

import numbaxfer as nx
from numbaxfer._ownership import BorrowFlag, MoveRecord

SITE = ("user.py", 12)


def race_two_movers(flag: BorrowFlag) -> list[str]:
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def mover(name: str) -> None:
        barrier.wait()
        try:
            flag.move(MoveRecord("upload", name, SITE))
            outcomes.append("moved")
        except nx.UseAfterTransferError:
            outcomes.append("refused")

    threads = [threading.Thread(target=mover, args=(f"Stream#{i}",)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(outcomes)


def test_two_threads_moving_one_flag_exactly_one_wins() -> None:
    for _ in range(300):
        assert race_two_movers(BorrowFlag("Buf#1")) == ["moved", "refused"]


def test_move_refused_while_lent_changes_nothing() -> None:
    flag = BorrowFlag("Buf#1")
    flag.begin_lend(SITE)
    with pytest.raises(nx.BorrowError, match=r"user.py:12"):
        flag.move(MoveRecord("upload", "Stream#1", ("user.py", 20)))
    assert flag.state() == "lent" and not flag.is_moved
    flag.end_lend(SITE)
    flag.move(MoveRecord("upload", "Stream#1", ("user.py", 20)))
    assert flag.is_moved


def test_unmove_restores_ownership() -> None:
    flag = BorrowFlag("Buf#1")
    flag.move(MoveRecord("upload", "Stream#1", SITE))
    flag.unmove()
    flag.check_read("read()")


def test_messages_name_object_site_stream_and_fix() -> None:
    flag = BorrowFlag("PinnedArray#7[float32, 10]")
    flag.move(MoveRecord("download", "Stream#3", ("app.py", 42), transfer="download#9"))
    with pytest.raises(nx.UseAfterTransferError) as err:
        flag.check_read("read()")
    text = str(err.value)
    for part in ("PinnedArray#7", "download", "Stream#3", "app.py:42", "download#9", "wait()"):
        assert part in text


def test_errors_share_a_base() -> None:
    assert issubclass(nx.UseAfterTransferError, nx.OwnershipError)
    assert issubclass(nx.BorrowError, nx.OwnershipError)
    assert issubclass(nx.StreamClosedError, nx.OwnershipError)
    assert issubclass(nx.PageableMemoryError, TypeError)

#!/usr/bin/env python3
"""The grader's machine slots (tools/grading/engine.py, FairSlots) are shared fairly
among the submissions graded at once:

    python3 tests/tools/test_fair_slots.py

Two slots; a large submission asks for eight of them at once, then a small one asks for
one. With FairSlots the small one has the first slot freed; a plain semaphore serves
it after all the large one's waiting requests, which the test also shows, so that it
cannot pass vacuously.
"""
import os
import sys
import threading
import time
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from grading import engine  # noqa: E402

HOLD_SECONDS = 0.02


class SemaphoreSlots:
    """What FairSlots replaced: a semaphore serves its waiters in turn, whoever they
    work for."""

    def __init__(self, count):
        self.semaphore = threading.BoundedSemaphore(count)

    def slot(self, owner):
        return self.semaphore


def order_of_service(slots, large_requests=8):
    """The owners in the order their work got a slot: the large submission asks for
    `large_requests` slots, then, once those wait, the small one asks for one."""
    order, order_lock = [], threading.Lock()

    def work(owner):
        with slots.slot(owner):
            with order_lock:
                order.append(owner)
            time.sleep(HOLD_SECONDS)

    threads = [threading.Thread(target=work, args=("large",)) for _ in range(large_requests)]
    for thread in threads:
        thread.start()
    time.sleep(HOLD_SECONDS / 4)  # two hold the slots, the others wait
    small = threading.Thread(target=work, args=("small",))
    small.start()
    for thread in threads + [small]:
        thread.join()
    return order


class FairSlotsTest(unittest.TestCase):
    def test_small_submission_is_served_at_the_first_freed_slot(self):
        for _ in range(5):
            order = order_of_service(engine.FairSlots(2))
            self.assertIn(order.index("small"), (2, 3), order)

    def test_a_plain_semaphore_queues_it_behind_the_large_one(self):
        order = order_of_service(SemaphoreSlots(2))
        self.assertGreater(order.index("small"), 3, order)

    def test_slots_are_never_exceeded(self):
        slots = engine.FairSlots(3)
        running, most, lock = [0], [0], threading.Lock()

        def work(owner):
            with slots.slot(owner):
                with lock:
                    running[0] += 1
                    most[0] = max(most[0], running[0])
                time.sleep(0.005)
                with lock:
                    running[0] -= 1

        threads = [threading.Thread(target=work, args=(i % 4,)) for i in range(40)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(most[0], 3)
        self.assertEqual(slots.free, 3)


if __name__ == "__main__":
    unittest.main()

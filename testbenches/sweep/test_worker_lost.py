"""A worker lost mid-run: on a LocalCluster of 2 worker processes, one worker is killed
(SIGKILL) while its ssdvp run is under way; the scheduler re-runs that task on a worker that is
alive, every run of the sweep ends ok with its figures, and the killed worker's ssdvp process
does not outlive it."""
import argparse
import os
import signal
import tempfile
import threading
import time
import unittest

import psutil
from sweep_test_support import BINARY, SMALL_SETTINGS, writes

from ssdvp_sweep.clusters import open_client
from ssdvp_sweep.engine import run_sweep
from ssdvp_sweep.progress import Progress
from ssdvp_sweep.runspec import RunSpec, plan
from ssdvp_sweep.schema import ConfigSchema
from ssdvp_sweep.store import ResultsStore


def ssdvp_children(pid):
    try:
        return [c for c in psutil.Process(pid).children(recursive=True) if c.name() == "ssdvp"]
    except psutil.NoSuchProcess:
        return []


class WorkerLostTaskRetried(unittest.TestCase):
    def test_killed_worker_task_runs_elsewhere(self):
        schema = ConfigSchema.from_binary(BINARY)
        specs = [RunSpec("", writes(300000), SMALL_SETTINGS + [("ftl.op", op, "test")], ("ftl.op",))
                 for op in ("0.1", "0.2", "0.3", "0.4")]
        planned = [plan(s, schema, BINARY) for s in specs]
        killed = {}
        with tempfile.TemporaryDirectory() as tmp, \
                open_client(argparse.Namespace(workers=2, scheduler=None, slurm=False), tmp) as client:
            workers = client.run(os.getpid)

            def kill_one_mid_run():
                deadline = time.time() + 60
                while time.time() < deadline and not killed:
                    for addr, pid in workers.items():
                        runs = ssdvp_children(pid)
                        if runs:
                            time.sleep(0.5)        # well inside the run (about 2.5 s)
                            killed.update(worker=pid, ssdvp=runs[0].pid, ssdvp_proc=runs[0])
                            os.kill(pid, signal.SIGKILL)
                            return
                    time.sleep(0.05)

            killer = threading.Thread(target=kill_one_mid_run)
            killer.start()
            frame = run_sweep(planned, ResultsStore(tmp), client, schema, BINARY, progress=Progress(4, tty=False))
            killer.join()
        self.assertTrue(killed, "no worker was seen running ssdvp")
        self.assertEqual(len(frame), 4)
        self.assertTrue((frame["status"] == "ok").all(), frame[["label", "status", "error"]])
        self.assertTrue((frame["total.iops"] > 0).all())
        pids = {int(w.rsplit(":", 1)[1]) for w in frame["worker"]}
        self.assertNotIn(killed["worker"], pids, "no result may come from the killed worker")
        proc = killed["ssdvp_proc"]
        self.assertFalse(proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE,
                         "the killed worker's ssdvp should have died with it")


if __name__ == "__main__":
    unittest.main()

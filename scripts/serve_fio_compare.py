#!/usr/bin/env python3
"""fio through `ssdvp serve` beside `ssdvp run` on the same workload (docs/serve.md).

For one fio job (4 KiB random read or write at a queue depth, a number of I/Os), runs
  * `ssdvp run` with the same job as its built-in generator (the drive's own figures),
  * `ssdvp serve --pace virtual` with Debian's fio (ioengine=nbd) as the client,
  * `ssdvp serve --pace realtime` with the same fio, optionally rate-limited (--rate-iops),
and prints one table: the drive's IOPS and mean latency from each run.json, fio's own IOPS and
mean completion latency, and in real time the lag figures.  In virtual pacing fio's figures are
wall-clock ones (how fast the simulation goes); in real time they are the drive's if the
simulation keeps up (the lag says whether it did).

  scripts/serve_fio_compare.py [--binary build/platforms/ssdvp] [--rw randread] [--iodepth 16]
                               [--ios 20000] [--rate-iops N] [--set key=value ...]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def fio_job(rw, iodepth, ios, uri=None, rate=None):
    args = ["fio", "--name=cmp", f"--rw={rw}", "--bs=4k", f"--iodepth={iodepth}", f"--number_ios={ios}",
            "--output-format=json", "--randrepeat=1", "--norandommap"]
    if uri:
        args += ["--ioengine=nbd", f"--uri={uri}"]
    if rate:
        args += [f"--rate_iops={rate}"]
    return args


def serve_fio(binary, sets, pace, rw, iodepth, ios, rate, tmp):
    out = os.path.join(tmp, pace)
    p = subprocess.Popen([binary, "serve", "-o", out, "--pace", pace, "--no-save"] +
                         [x for s in sets for x in ("-s", s)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    if "listening on" not in line:
        p.kill()
        sys.exit(f"ssdvp serve did not listen: {line!r} {p.communicate()}")
    uri = line.split("listening on ", 1)[1].strip()
    f = subprocess.run(fio_job(rw, iodepth, ios, uri, rate), capture_output=True, text=True, cwd=tmp)
    p.communicate(timeout=600)
    if f.returncode != 0:
        sys.exit(f"fio failed: {f.stderr[-500:]}")
    job = json.loads(f.stdout[f.stdout.find("{"):])["jobs"][0]
    side = job["read"] if "read" in rw else job["write"]
    r = json.load(open(os.path.join(out, "run.json")))
    return r, side["iops"], side["clat_ns"]["mean"] / 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(os.path.dirname(__file__), "..", "build", "platforms", "ssdvp"))
    ap.add_argument("--rw", default="randread", choices=["randread", "randwrite"])
    ap.add_argument("--iodepth", type=int, default=16)
    ap.add_argument("--ios", type=int, default=20000)
    ap.add_argument("--rate-iops", type=int, default=0)
    ap.add_argument("--set", action="append", default=[])
    a = ap.parse_args()
    op = "read" if "read" in a.rw else "write"
    with tempfile.TemporaryDirectory(prefix="ssdvp-serve-cmp-") as tmp:
        run_dir = os.path.join(tmp, "run")
        spec = f"fio:rw={a.rw},bs=4k,iodepth={a.iodepth},io={a.ios}"
        subprocess.run([a.binary, "run", "-q", "-o", run_dir, "-w", spec] + [x for s in a.set for x in ("-s", s)],
                       check=True)
        r = json.load(open(os.path.join(run_dir, "run.json")))
        rows = [("ssdvp run (its generator)", r["ops"][op]["iops"], r["ops"][op]["latency_us"]["mean"], None, None, "")]
        for pace in ("virtual", "realtime"):
            rs, fio_iops, fio_lat = serve_fio(a.binary, a.set, pace, a.rw, a.iodepth, a.ios,
                                              a.rate_iops if pace == "realtime" else 0, tmp)
            lag = rs["serve"].get("lag")
            note = (f"lag: {lag['requests_late']} late, mean {lag['mean_us']:.0f} us, max {lag['max_us']:.0f} us"
                    if lag else f"idle waits {rs['serve']['idle']['waits']}")
            rows.append((f"serve --pace {pace} + fio", rs["ops"][op]["iops"], rs["ops"][op]["latency_us"]["mean"],
                         fio_iops, fio_lat, note))
    print(f"{a.rw} 4 KiB QD{a.iodepth}, {a.ios} I/Os" + (f", fio rate {a.rate_iops} IOPS in real time" if a.rate_iops else ""))
    print(f"| run | drive IOPS | drive mean us | fio IOPS | fio mean us | |")
    print("|---|---|---|---|---|---|")
    for name, iops, lat, fiops, flat, note in rows:
        f1 = f"{fiops:,.0f}" if fiops is not None else "-"
        f2 = f"{flat:,.1f}" if flat is not None else "-"
        print(f"| {name} | {iops:,.0f} | {lat:,.1f} | {f1} | {f2} | {note} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

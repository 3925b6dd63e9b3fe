"""A cocotb testbench of the channel controller (rtl/nand_channel_ctrl.sv), as a verification
engineer would write one in Python: a clock, a reset, a die model answering R/B# per plane, a
descriptor driver, a completion monitor and a scoreboard, on the Verilated RTL with its bound
assertions (a failed one stops the simulation and fails the test).

Tests: the register block's reset values and a register round trip; one read's latency equal to
CMD_ADDR + tR + DATA_SETUP + data cycles (the cycle contract); a seeded random stream over four
ways with independent plane reads and completion back-pressure, every descriptor completing once,
on its way, after its array time.

Leaves out what the C++ testbenches cover (testbenches/rtl/: the timing of every register, the
protocol monitor, the bug list, coverage): this is the same design seen from cocotb.
"""
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

WAYS, PLANES, DIE_PLANES = 4, 8, 4
ALL_READY = (1 << (WAYS * PLANES)) - 1


class Env:
    """Clock, reset, dies and the bookkeeping of one test; `cycle` counts bus cycles (`now`)."""

    def __init__(self, dut, t_array=(0, 60, 400, 900), cpl_hold=0.0, seed=1):
        self.dut = dut
        self.t_array = t_array
        self.cpl_hold = cpl_hold
        self.rng = random.Random(seed)
        self.cycle = 0
        self.busy = [[0] * PLANES for _ in range(WAYS)]   # cycles each plane stays busy
        self.indep = False
        self.queued = [[] for _ in range(WAYS)]          # accepted, not started
        self.slot = [[None] * 4 for _ in range(WAYS)]    # started, by slot
        self.done = []                                    # (tag, way, cycle)
        self.array_start = {}                             # tag -> first busy cycle
        self.ops = {}                                     # tag -> descriptor

    async def start(self):
        d = self.dut
        cocotb.start_soon(Clock(d.clk, 10, units="ns").start())
        d.rst_n.value = 0
        d.now.value = 0
        d.plane_ready.value = ALL_READY
        d.cpl_ready.value = 1
        d.desc_valid.value = 0
        d.reg_we.value = 0
        d.reg_addr.value = 0
        await RisingEdge(d.clk)
        d.rst_n.value = 1
        cocotb.start_soon(self._cycles())
        await FallingEdge(d.clk)

    def occupied(self, op):
        return op["mask"] if self.indep and op["op"] == 1 else (1 << PLANES) - 1

    async def _cycles(self):
        """Each cycle: inputs at the falling edge, outputs sampled before the rising edge."""
        d = self.dut
        while True:
            await FallingEdge(d.clk)
            self.cycle += 1
            d.now.value = self.cycle
            ready = ALL_READY
            for w in range(WAYS):
                for p in range(PLANES):
                    if self.busy[w][p]:
                        ready &= ~(1 << (w * PLANES + p))
            d.plane_ready.value = ready
            d.cpl_ready.value = 0 if self.rng.random() < self.cpl_hold else 1
            await ReadOnly()
            if d.bus_grant.value and int(d.bus_phase.value) == 0:
                w, s = int(d.bus_way.value), int(d.bus_slot.value)
                assert self.queued[w], f"cycle {self.cycle}: a command granted to way {w} with nothing queued"
                self.slot[w][s] = self.queued[w].pop(0)
            if d.cpl_valid.value and d.cpl_ready.value:
                self.done.append((int(d.cpl_tag.value), int(d.cpl_way.value), self.cycle))
            go = int(d.array_go.value)
            owner_slot = int(d.bus_slot.value)
            await RisingEdge(d.clk)
            for w in range(WAYS):
                for p in range(PLANES):
                    if self.busy[w][p]:
                        self.busy[w][p] -= 1
                if go >> w & 1:
                    op = self.slot[w][owner_slot]
                    self.array_start[op["tag"]] = self.cycle + 1
                    for p in range(PLANES):
                        if self.occupied(op) >> p & 1:
                            self.busy[w][p] = self.t_array[op["op"]]

    async def write_reg(self, addr, value):
        d = self.dut
        d.reg_we.value = 1
        d.reg_addr.value = addr
        d.reg_wdata.value = value
        await FallingEdge(d.clk)
        d.reg_we.value = 0

    async def read_reg(self, addr):
        self.dut.reg_addr.value = addr
        await ReadOnly()
        v = int(self.dut.reg_rdata.value)
        await FallingEdge(self.dut.clk)
        return v

    async def submit(self, op):
        """Offers the descriptor from this falling edge until it is taken; the cycle it was taken in."""
        d = self.dut
        d.desc_valid.value = 1
        d.desc_op.value = op["op"]
        d.desc_way.value = op["way"]
        d.desc_mask.value = op["mask"]
        d.desc_xfer.value = op["xfer"]
        d.desc_tag.value = op["tag"]
        d.desc_start.value = self.cycle
        while True:
            await ReadOnly()
            taken = bool(d.desc_ready.value)
            accepted = self.cycle
            await FallingEdge(d.clk)
            if taken:
                break
        d.desc_valid.value = 0
        self.queued[op["way"]].append(op)
        self.ops[op["tag"]] = op
        return accepted

    async def wait_done(self, n, limit=2_000_000):
        for _ in range(limit):
            if len(self.done) >= n:
                return
            await FallingEdge(self.dut.clk)
        raise AssertionError(f"{len(self.done)} of {n} operations completed within {limit} cycles")


@cocotb.test()
async def register_block(dut):
    env = Env(dut)
    await env.start()
    for addr, want in ((0, 40), (1, 40), (2, 20)):
        got = await env.read_reg(addr)
        assert got == want, f"register {addr} after reset: {got}, not {want}"
    ident = await env.read_reg(3)
    assert ident >> 16 == 0x4E43 and ident & 0xFF == WAYS, f"ID {ident:#x}"
    features = await env.read_reg(8)
    assert (features >> 16) & 0xFF == PLANES and features & 1 == 0, f"FEATURES {features:#x}"
    await env.write_reg(1, 17)
    assert await env.read_reg(1) == 17
    await env.write_reg(3, 0)                                   # ID is read-only
    assert (await env.read_reg(3)) >> 16 == 0x4E43


@cocotb.test()
async def read_latency_follows_the_contract(dut):
    env = Env(dut)
    await env.start()
    cmd_addr, data_setup, status = 10, 8, 4
    await env.write_reg(0, cmd_addr)
    await env.write_reg(1, data_setup)
    await env.write_reg(2, status)
    xfer, t_read = 100, env.t_array[1]
    # From the first cycle the descriptor is in the queue (the one after the edge that took it).
    entered = 1 + await env.submit({"op": 1, "way": 2, "mask": 1, "xfer": xfer, "tag": 5})
    await env.wait_done(1)
    tag, way, cycle = env.done[0]
    assert (tag, way) == (5, 2)
    want = cmd_addr + t_read + data_setup + xfer
    assert cycle - entered == want, f"read took {cycle - entered} cycles, the contract says {want}"


@cocotb.test()
async def random_stream_scoreboard(dut):
    env = Env(dut, cpl_hold=0.3, seed=2026)
    await env.start()
    await env.write_reg(0, 6)
    await env.write_reg(1, 5)
    await env.write_reg(2, 3)
    await env.write_reg(8, 1)                                   # independent plane reads
    env.indep = True
    rng = random.Random(7)
    n = 300
    for tag in range(n):
        r = rng.random()
        op = 1 if r < 0.7 else 2 if r < 0.9 else 3
        mask = rng.randrange(1, 1 << DIE_PLANES) if op == 1 else (1 << DIE_PLANES) - 1
        await env.submit({"op": op, "way": rng.randrange(WAYS), "mask": mask,
                          "xfer": 16 * rng.randrange(1, 9) if op != 3 else 0, "tag": tag})
    await env.wait_done(n)
    tags = [t for t, _, _ in env.done]
    assert sorted(tags) == list(range(n)), "a descriptor completed twice, or never"
    for tag, way, cycle in env.done:
        op = env.ops[tag]
        assert way == op["way"], f"tag {tag} completed on way {way}, sent to {op['way']}"
        assert cycle >= env.array_start[tag] + env.t_array[op["op"]], f"tag {tag} completed before its array ended"
    dut._log.info("%d operations, %d cycles", n, env.cycle)

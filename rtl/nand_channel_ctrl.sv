// NAND channel controller: one channel's bus shared by WAYS dies.
//
// Models: a descriptor queue per way (ready/valid in, per-way back-pressure; each descriptor
// carries the cycle from which it may start), SLOTS operation slots per way, each a state
// machine that runs one operation's phases in order (command/address, data in, array busy,
// data out, status read); a way starts its operations in queue order, one at a time, or with
// independent plane reads (FEATURES bit 0) reads of disjoint planes side by side (a read waits
// behind an earlier one to its plane, a program or erase for every slot of its way to be free,
// and later operations behind it); a bus arbiter that grants the bus to the phase that became
// ready first (ties: lower way, then its slots in order, then its next command) — the policy
// of the TLM channel model — an ONFI-like bus sequencer (CLE/ALE/WE#/RE#/CE# per phase cycle)
// with programmable cycle counts (command, address and status bytes on DQ, a segment per plane
// in the multi-plane forms), ready/busy per plane of each die, a completion queue out
// (ready/valid), and a register block (timing registers, features, identification, status
// and counters).  Data moves beside
// the pins: a phase's data cycles are counted, the bytes travel through the DRAM model in the
// SystemC wrapper.
// Leaves out: DQ data and ECC, cache and multi-LUN commands, read retry, suspend, reordering a
// way's reads by plane.
//
// Timing (the contract the TLM channel follows, cycle for cycle):
//   * a phase granted in cycle c occupies the bus in cycles c .. c+L-1 (the grant is decided
//     and the first strobe driven in the same cycle), the next phase may be granted in c+L;
//   * a command phase is eligible from the cycle its descriptor's start cycle is reached, a
//     slot is free and nothing in flight on the way conflicts, ready since the later of that
//     start cycle and the cycle its planes' R/B# last rose; a data out or status phase in the
//     first cycle its planes' R/B# are high again after the array (ready since then);
//   * array_go is raised in the last cycle of the command phase: the die starts at c+L;
//   * an operation's completion enters the completion queue in the last cycle of its last
//     phase and is visible (cpl_valid) from c+L, the cycle its TLM twin completes; its slot is
//     free from c+L.
// The planes an operation occupies: a read's own (its mask) with independent plane reads,
// else every plane of the die (the R/B# of all of them).
//
// Registers (reg_addr; cycle counts of the bus clock):
//   0 CMD_ADDR    rw  command + address cycles of one plane's command phase
//   1 DATA_SETUP  rw  cycles around each data transfer (tADL / tWHR / tRR)
//   2 STATUS      rw  cycles of the status read that ends a program or erase
//   3 ID          ro  0x4E43 'NC', version 3 in bits 15:8, WAYS in bits 7:0
//   4 WAYS_BUSY   ro  bit per way with an operation in flight
//   5 QUEUED      ro  descriptors in the way queues, not yet started
//   6 COMPLETED   ro  operations completed since reset (wraps)
//   7 BUS_CYCLES  ro  bus cycles granted to phases since reset (wraps)
//   8 FEATURES    bit 0 rw: independent plane reads; bits 15:8 ro SLOTS, bits 23:16 ro PLANES
//   9 IN_FLIGHT   ro  operations started and not yet completed, all ways
// Parameters: WAYS (dies on the channel), BUS_BYTES (bus width), QDEPTH (descriptors per way),
// CPL_DEPTH, TAG_BITS, PLANES (plane mask width), SLOTS (operations in flight per way).
module nand_channel_ctrl #(
    parameter int WAYS = 4,
    parameter int BUS_BYTES = 1,       // bus width: bytes per data cycle (1: x8, 2: x16)
    parameter int WAY_BITS = 2,
    parameter int TAG_BITS = 16,
    parameter int QDEPTH = 4,
    parameter int CPL_DEPTH = 8,
    parameter int PLANES = 8,          // planes per die at most (the plane mask's width)
    parameter int SLOTS = 4,           // operations in flight per way at most
    parameter int SLOT_BITS = 2
) (
    input  logic                clk,
    input  logic                rst_n,
    input  logic [63:0]         now,            // the bus cycle number (kept by the environment,
                                                // which may skip cycles in which nothing changes)
    // register block
    input  logic                reg_we,
    input  logic [3:0]          reg_addr,
    input  logic [15:0]         reg_wdata,      // the writable registers are 16 bits
    output logic [31:0]         reg_rdata,
    // descriptors in
    input  logic                desc_valid,
    output logic                desc_ready,
    input  logic [1:0]          desc_op,        // 1 read, 2 program, 3 erase
    input  logic [WAY_BITS-1:0] desc_way,
    input  logic [PLANES-1:0]   desc_mask,      // planes of the operation (same block and page)
    input  logic [19:0]         desc_xfer,      // data bytes per plane
    input  logic [TAG_BITS-1:0] desc_tag,
    input  logic [63:0]         desc_start,     // first cycle the operation may use the bus
    // completions out
    output logic                cpl_valid,
    input  logic                cpl_ready,
    output logic [TAG_BITS-1:0] cpl_tag,
    output logic [WAY_BITS-1:0] cpl_way,
    // dies
    input  logic [WAYS*PLANES-1:0] plane_ready, // R/B# of plane p of way w at bit w*PLANES+p: 1 = ready
    output logic [WAYS-1:0]     array_go,       // the die starts its array operation after this cycle
    output logic [1:0]          array_op,       // operation of the way in array_go
    // ONFI-like bus (one channel, CE# per way)
    output logic [WAYS-1:0]     onfi_ce_n,
    output logic                onfi_cle,
    output logic                onfi_ale,
    output logic                onfi_we_n,
    output logic                onfi_re_n,
    output logic [7:0]          onfi_dq,        // what the controller drives: command and address
                                                // bytes (data bytes move beside the pins: 00h)
    // observation (this cycle)
    output logic                bus_grant,      // a phase starts in this cycle
    output logic                bus_busy,
    output logic [WAY_BITS-1:0] bus_way,
    output logic [SLOT_BITS-1:0] bus_slot,      // the slot of the operation on the bus
    output logic [1:0]          bus_phase,      // 0 command (and data in), 1 data out, 2 status
    output logic [23:0]         bus_remaining,  // cycles of the phase from this one on (0: free)
    output logic                quiet           // nothing changes if this cycle is clocked
                                                // (the environment may skip it): no grant,
                                                // no phase end, no state to update
);
  localparam logic [1:0] OP_READ = 2'd1, OP_PROG = 2'd2;   // 3: erase
  typedef enum logic [2:0] {L_FREE, L_BUS, L_ARRAY, L_WAIT_BUS, L_DONE} slot_state_t;
  typedef enum logic [1:0] {P_CMD, P_DATA_OUT, P_STATUS} phase_t;

  logic [15:0] reg_cmd_addr, reg_data_setup, reg_status;
  logic        indep;                    // FEATURES bit 0: independent plane reads
  logic [31:0] n_completed, n_bus_cycles;

  // ---------------------------------------------------------------- per-way descriptor FIFOs
  localparam int QBITS = $clog2(QDEPTH);
  logic [1:0]          q_op    [WAYS][QDEPTH];
  logic [PLANES-1:0]   q_mask  [WAYS][QDEPTH];
  logic [19:0]         q_xfer  [WAYS][QDEPTH];
  logic [TAG_BITS-1:0] q_tag   [WAYS][QDEPTH];
  logic [63:0]         q_start [WAYS][QDEPTH];
  logic [QBITS:0]      q_count [WAYS];
  logic [QBITS-1:0]    q_head  [WAYS];

  // ---------------------------------------------------------------- operation slots
  slot_state_t         sl_st      [WAYS][SLOTS];
  phase_t              sl_phase   [WAYS][SLOTS];   // L_WAIT_BUS / L_BUS: the phase
  logic [1:0]          sl_op      [WAYS][SLOTS];
  logic [PLANES-1:0]   sl_mask    [WAYS][SLOTS];
  logic [PLANES-1:0]   sl_occ     [WAYS][SLOTS];   // the planes it occupies
  logic [19:0]         sl_xfer    [WAYS][SLOTS];
  logic [TAG_BITS-1:0] sl_tag     [WAYS][SLOTS];
  logic [63:0]         sl_since   [WAYS][SLOTS];   // L_WAIT_BUS: cycle its phase became ready
  logic                sl_saw_busy[WAYS][SLOTS];   // L_ARRAY: R/B# of its planes was seen low
  logic [63:0]         ready_at   [WAYS][PLANES];  // cycle the plane last became ready
  logic [WAYS*PLANES-1:0] plane_ready_q;

  // ---------------------------------------------------------------- bus (registered phase)
  // A phase granted in cycle c runs in cycles c .. phase_end - 1; `busy` holds it from c + 1.
  logic                 busy;
  logic [WAY_BITS-1:0]  owner;
  logic [SLOT_BITS-1:0] owner_slot;
  logic [63:0]          phase_start, phase_end;

  // ---------------------------------------------------------------- completion FIFO
  localparam int CBITS = $clog2(CPL_DEPTH);
  logic [TAG_BITS-1:0] c_tag[CPL_DEPTH];
  logic [WAY_BITS-1:0] c_way[CPL_DEPTH];
  logic [CBITS:0]      c_count;
  logic [CBITS-1:0]    c_head, c_tail;

  assign desc_ready = q_count[desc_way] != (QBITS + 1)'(QDEPTH);
  assign cpl_valid  = c_count != 0;
  assign cpl_tag    = c_tag[c_head];
  assign cpl_way    = c_way[c_head];

  // Length of one plane segment of a phase (data: bytes over the bus width, rounded up).
  function automatic logic [23:0] segment(input logic [1:0] op, input phase_t ph, input logic [19:0] xfer);
    logic [23:0] data;
    data = ({4'd0, xfer} + 24'(BUS_BYTES - 1)) / 24'(BUS_BYTES);
    if (ph == P_STATUS) return {8'd0, reg_status};
    if (ph == P_DATA_OUT) return {8'd0, reg_data_setup} + data;
    if (op == OP_PROG) return {8'd0, reg_cmd_addr} + {8'd0, reg_data_setup} + data;
    return {8'd0, reg_cmd_addr};
  endfunction

  // The planes an operation occupies.
  function automatic logic [PLANES-1:0] occupied(input logic [1:0] op, input logic [PLANES-1:0] mask);
    return indep && op == OP_READ ? mask : '1;
  endfunction

  // Eligibility: the slots whose data-out or status phase could take the bus in this cycle,
  // and each way's next command; their phase and since when.
  logic            sl_elig      [WAYS][SLOTS];
  logic [63:0]     sl_elig_since[WAYS][SLOTS];
  phase_t          sl_elig_phase[WAYS][SLOTS];
  logic            cmd_elig     [WAYS];
  logic [63:0]     cmd_since    [WAYS];
  logic [SLOT_BITS-1:0] cmd_slot[WAYS];          // the free slot the command goes to
  always_comb begin
    for (int w = 0; w < WAYS; w++) begin
      logic [PLANES-1:0] rdy_w, hmask, hocc;
      logic [1:0]        hop;
      logic [63:0]       arr, rdy;
      logic              conflict, has_free;
      rdy_w = plane_ready[w*PLANES +: PLANES];
      for (int s = 0; s < SLOTS; s++) begin
        logic [PLANES-1:0] occ;
        occ = sl_occ[w][s];
        sl_elig[w][s]       = 1'b0;
        sl_elig_since[w][s] = sl_since[w][s];
        sl_elig_phase[w][s] = sl_phase[w][s];
        unique case (sl_st[w][s])
          L_WAIT_BUS: sl_elig[w][s] = 1'b1;
          L_ARRAY:
            if ((rdy_w & occ) == occ && sl_saw_busy[w][s]) begin
              sl_elig[w][s]       = 1'b1;
              sl_elig_since[w][s] = now;
              sl_elig_phase[w][s] = sl_op[w][s] == OP_READ ? P_DATA_OUT : P_STATUS;
            end
          default: ;
        endcase
      end
      // The next command: a free slot, nothing in flight it conflicts with (only reads of
      // other planes run beside one another), its planes ready, its start cycle reached.
      hop      = q_op[w][q_head[w]];
      hmask    = q_mask[w][q_head[w]];
      hocc     = occupied(hop, hmask);
      arr      = q_start[w][q_head[w]];
      conflict = 1'b0;
      has_free = 1'b0;
      cmd_slot[w] = '0;
      for (int s = SLOTS - 1; s >= 0; s--) begin
        if (sl_st[w][s] == L_FREE) begin
          has_free    = 1'b1;
          cmd_slot[w] = SLOT_BITS'(s);
        end else if (!indep || hop != OP_READ || sl_op[w][s] != OP_READ || (sl_mask[w][s] & hmask) != '0) begin
          conflict = 1'b1;
        end
      end
      rdy = '0;
      for (int p = 0; p < PLANES; p++)
        if (hocc[p]) begin
          logic [63:0] r;
          r = rdy_w[p] && !plane_ready_q[w*PLANES + p] ? now : ready_at[w][p];
          if (r > rdy) rdy = r;
        end
      cmd_elig[w]  = q_count[w] != 0 && has_free && !conflict && (rdy_w & hocc) == hocc && arr <= now;
      cmd_since[w] = arr > rdy ? arr : rdy;
    end
  end

  // Arbitration: the eligible phase that became ready first; ties to the lower way, in a way
  // to its slots in order, then its next command.
  logic                 grant_valid, grant_cmd;
  logic [WAY_BITS-1:0]  grant_way;
  logic [SLOT_BITS-1:0] grant_slot;
  logic [63:0]          grant_since, grant_len;
  phase_t               grant_phase;
  logic [1:0]           grant_op;
  logic [PLANES-1:0]    grant_mask;
  logic [19:0]          grant_xfer;
  always_comb begin
    grant_valid = 1'b0;
    grant_cmd   = 1'b0;
    grant_way   = '0;
    grant_slot  = '0;
    grant_since = '0;
    for (int w = 0; w < WAYS; w++) begin
      for (int s = 0; s < SLOTS; s++)
        if (sl_elig[w][s] && (!grant_valid || sl_elig_since[w][s] < grant_since)) begin
          grant_valid = 1'b1;
          grant_cmd   = 1'b0;
          grant_way   = WAY_BITS'(w);
          grant_slot  = SLOT_BITS'(s);
          grant_since = sl_elig_since[w][s];
        end
      if (cmd_elig[w] && (!grant_valid || cmd_since[w] < grant_since)) begin
        grant_valid = 1'b1;
        grant_cmd   = 1'b1;
        grant_way   = WAY_BITS'(w);
        grant_slot  = cmd_slot[w];
        grant_since = cmd_since[w];
      end
    end
    if (busy) grant_valid = 1'b0;
    if (grant_cmd) begin
      grant_phase = P_CMD;
      grant_op    = q_op[grant_way][q_head[grant_way]];
      grant_mask  = q_mask[grant_way][q_head[grant_way]];
      grant_xfer  = q_xfer[grant_way][q_head[grant_way]];
    end else begin
      grant_phase = sl_elig_phase[grant_way][grant_slot];
      grant_op    = sl_op[grant_way][grant_slot];
      grant_mask  = sl_mask[grant_way][grant_slot];
      grant_xfer  = sl_xfer[grant_way][grant_slot];
    end
    grant_len = 64'(segment(grant_op, grant_phase, grant_xfer)) *
                (grant_phase == P_STATUS ? 64'd1 : 64'($countones(grant_mask)));
  end

  // The phase on the bus in this cycle (registered, or granted now).
  logic                 cur_busy, cur_last;
  logic [WAY_BITS-1:0]  cur_owner;
  logic [SLOT_BITS-1:0] cur_slot;
  phase_t               cur_phase;
  logic [1:0]           cur_op;
  logic [63:0]          cur_end, pos;
  always_comb begin
    cur_busy  = busy || grant_valid;
    cur_owner = busy ? owner : grant_way;
    cur_slot  = busy ? owner_slot : grant_slot;
    cur_phase = busy ? sl_phase[owner][owner_slot] : grant_phase;
    cur_op    = busy ? sl_op[owner][owner_slot] : grant_op;
    cur_end   = busy ? phase_end : now + grant_len;
    pos       = busy ? now - phase_start : 64'd0;
    cur_last  = cur_busy && now + 1 >= cur_end;
  end
  assign bus_grant     = grant_valid;
  assign bus_busy      = cur_busy;
  assign bus_way       = cur_owner;
  assign bus_slot      = cur_slot;
  assign bus_phase     = cur_phase;
  assign bus_remaining = cur_busy ? 24'(cur_end - now) : 24'd0;

  // ONFI-like bus cycles of the phase, one plane segment after another (a byte per cycle: CLE
  // or ALE with WE# low latches a command or address byte, WE# alone a data byte in, RE# a data
  // byte out).  In segment k of a phase, for the k-th plane of its mask, at cycle q of S:
  //   read      00h, CMD_ADDR-2 address cycles, 32h (30h in the last segment)
  //   program   80h, CMD_ADDR-2 address cycles, DATA_SETUP cycles (tADL), the data in, 11h (10h last)
  //   erase     60h, CMD_ADDR-2 address cycles, D1h (D0h last)
  //   data out  06h, an address cycle, E0h, the rest of DATA_SETUP (tWHR), the data out
  //   status    70h, then RE# (the status byte) for the rest of STATUS
  // The first address byte is the plane, the others 00h.  Fewer cycles than a form needs (a
  // CMD_ADDR below 3, a DATA_SETUP below 3) leave its later bytes out (the monitor says so).
  logic [23:0] seg_len, seg_pos, seg_idx;
  logic [PLANES-1:0] cur_mask;
  logic [19:0] cur_xfer;
  logic [7:0] seg_plane;
  logic seg_last;
  always_comb begin
    cur_mask = busy ? sl_mask[owner][owner_slot] : grant_mask;
    cur_xfer = busy ? sl_xfer[owner][owner_slot] : grant_xfer;
    seg_len  = segment(cur_op, cur_phase, cur_xfer);   // status: one segment, STATUS long
    if (seg_len == 24'd0) seg_len = 24'd1;
    seg_idx  = cur_phase == P_STATUS ? 24'd0 : 24'(pos) / seg_len;
    seg_pos  = cur_phase == P_STATUS ? 24'(pos) : 24'(pos) - seg_idx * seg_len;
    seg_last = 32'(seg_idx) + 32'd1 >= 32'($countones(cur_mask));
    seg_plane = '0;
    begin
      logic [23:0] k;
      k = '0;
      for (int p = 0; p < PLANES; p++)
        if (cur_mask[p]) begin
          if (k == seg_idx) seg_plane = 8'(p);
          k = k + 24'd1;
        end
    end
  end
  always_comb begin
    onfi_ce_n = '1;
    onfi_cle  = 1'b0;
    onfi_ale  = 1'b0;
    onfi_we_n = 1'b1;
    onfi_re_n = 1'b1;
    onfi_dq   = '0;
    if (cur_busy) begin
      logic [23:0] ca, ds;
      ca = {8'd0, reg_cmd_addr};
      ds = {8'd0, reg_data_setup};
      onfi_ce_n[cur_owner] = 1'b0;
      unique case (cur_phase)
        P_CMD: begin
          if (seg_pos == 0) begin
            onfi_cle = 1'b1;
            onfi_dq  = cur_op == OP_READ ? 8'h00 : cur_op == OP_PROG ? 8'h80 : 8'h60;
          end else if (seg_pos + 24'd1 < ca) begin
            onfi_ale = 1'b1;
            onfi_dq  = seg_pos == 24'd1 ? seg_plane : 8'h00;
          end else if (cur_op == OP_PROG && seg_pos + 24'd1 == seg_len) begin
            onfi_cle = 1'b1;
            onfi_dq  = seg_last ? 8'h10 : 8'h11;
          end else if (cur_op != OP_PROG && seg_pos + 24'd1 == ca) begin
            onfi_cle = 1'b1;
            onfi_dq  = cur_op == OP_READ ? (seg_last ? 8'h30 : 8'h32) : (seg_last ? 8'hD0 : 8'hD1);
          end
          // program: tADL (no strobe), then a data byte in per cycle
          onfi_we_n = !(onfi_cle || onfi_ale || (cur_op == OP_PROG && seg_pos + 24'd1 >= ca + ds && seg_pos + 24'd1 < seg_len));
        end
        P_DATA_OUT: begin
          if (seg_pos == 0 && ds >= 24'd3) begin onfi_cle = 1'b1; onfi_dq = 8'h06; onfi_we_n = 1'b0; end
          else if (seg_pos == 24'd1 && ds >= 24'd3) begin onfi_ale = 1'b1; onfi_dq = seg_plane; onfi_we_n = 1'b0; end
          else if (seg_pos == 24'd2 && ds >= 24'd3) begin onfi_cle = 1'b1; onfi_dq = 8'hE0; onfi_we_n = 1'b0; end
          else onfi_re_n = seg_pos < ds;
        end
        default: begin                                     // status: 70h, then the status byte
          onfi_cle  = pos == 0;
          onfi_dq   = pos == 0 ? 8'h70 : 8'h00;
          onfi_we_n = pos != 0;
          onfi_re_n = pos == 0;
        end
      endcase
    end
  end

  always_comb begin
    array_go = '0;
    array_op = cur_op;
    if (cur_last && cur_phase == P_CMD) array_go[cur_owner] = 1'b1;
  end

  // An operation finishes in the last cycle of its last bus phase (data out, status): its
  // completion goes into the queue then, and its slot is free from the next cycle.  When the
  // queue is full it waits in L_DONE; one completion enters a cycle, waiting slots (lowest way
  // and slot first) before the bus owner.
  logic                 bus_finish;
  logic                 done_push;
  logic [WAY_BITS-1:0]  push_way;
  logic [SLOT_BITS-1:0] push_slot;
  logic                 push_from_bus;
  always_comb begin
    bus_finish    = cur_last && cur_phase != P_CMD;
    done_push     = 1'b0;
    push_way      = '0;
    push_slot     = '0;
    push_from_bus = 1'b0;
    for (int w = WAYS - 1; w >= 0; w--)
      for (int s = SLOTS - 1; s >= 0; s--)
        if (sl_st[w][s] == L_DONE) begin
          done_push = 1'b1;
          push_way  = WAY_BITS'(w);
          push_slot = SLOT_BITS'(s);
        end
    if (!done_push && bus_finish) begin
      done_push     = 1'b1;
      push_way      = cur_owner;
      push_slot     = cur_slot;
      push_from_bus = 1'b1;
    end
    if (c_count - {{CBITS{1'b0}}, cpl_valid && cpl_ready} == (CBITS + 1)'(CPL_DEPTH)) begin
      done_push     = 1'b0;
      push_from_bus = 1'b0;
    end
  end

  // Nothing to do in this cycle: no grant, no phase end, no slot changing state, no R/B# edge.
  always_comb begin
    quiet = !cpl_valid && !grant_valid && !cur_last && plane_ready == plane_ready_q;
    for (int w = 0; w < WAYS; w++)
      for (int s = 0; s < SLOTS; s++) begin
        logic [PLANES-1:0] occ;
        occ = sl_occ[w][s];
        if (sl_st[w][s] == L_DONE) quiet = 1'b0;
        if (sl_elig[w][s] && sl_st[w][s] != L_WAIT_BUS) quiet = 1'b0;
        if (sl_st[w][s] == L_ARRAY && !sl_saw_busy[w][s] && (plane_ready[w*PLANES +: PLANES] & occ) != occ)
          quiet = 1'b0;
      end
  end

  // Register reads.
  always_comb begin
    reg_rdata = '0;
    unique case (reg_addr)
      4'd0: reg_rdata = {16'd0, reg_cmd_addr};
      4'd1: reg_rdata = {16'd0, reg_data_setup};
      4'd2: reg_rdata = {16'd0, reg_status};
      4'd3: reg_rdata = {16'h4E43, 8'd3, 8'(WAYS)};
      4'd4: for (int w = 0; w < WAYS; w++)
              for (int s = 0; s < SLOTS; s++) if (sl_st[w][s] != L_FREE) reg_rdata[w] = 1'b1;
      4'd5: for (int w = 0; w < WAYS; w++) reg_rdata = reg_rdata + 32'(q_count[w]);
      4'd6: reg_rdata = n_completed;
      4'd7: reg_rdata = n_bus_cycles;
      4'd8: reg_rdata = {8'd0, 8'(PLANES), 8'(SLOTS), 7'd0, indep};
      4'd9: for (int w = 0; w < WAYS; w++)
              for (int s = 0; s < SLOTS; s++) if (sl_st[w][s] != L_FREE) reg_rdata = reg_rdata + 32'd1;
      default: ;
    endcase
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      reg_cmd_addr   <= 16'd40;
      reg_data_setup <= 16'd40;
      reg_status     <= 16'd20;
      indep          <= 1'b0;
      n_completed    <= '0;
      n_bus_cycles   <= '0;
      plane_ready_q  <= '1;
      busy           <= 1'b0;
      owner          <= '0;
      owner_slot     <= '0;
      phase_start    <= '0;
      phase_end      <= '0;
      c_count        <= '0;
      c_head         <= '0;
      c_tail         <= '0;
      for (int w = 0; w < WAYS; w++) begin
        q_count[w] <= '0;
        q_head[w]  <= '0;
        for (int p = 0; p < PLANES; p++) ready_at[w][p] <= '0;
        for (int s = 0; s < SLOTS; s++) begin
          sl_st[w][s]       <= L_FREE;
          sl_phase[w][s]    <= P_CMD;
          sl_op[w][s]       <= '0;
          sl_mask[w][s]     <= '0;
          sl_occ[w][s]      <= '0;
          sl_xfer[w][s]     <= '0;
          sl_tag[w][s]      <= '0;
          sl_since[w][s]    <= '0;
          sl_saw_busy[w][s] <= 1'b0;
        end
      end
    end else begin
      plane_ready_q <= plane_ready;
      for (int w = 0; w < WAYS; w++)
        for (int p = 0; p < PLANES; p++)
          if (plane_ready[w*PLANES + p] && !plane_ready_q[w*PLANES + p]) ready_at[w][p] <= now;
      if (reg_we) begin
        unique case (reg_addr)
          4'd0: reg_cmd_addr <= reg_wdata;
          4'd1: reg_data_setup <= reg_wdata;
          4'd2: reg_status <= reg_wdata;
          4'd8: indep <= reg_wdata[0];
          default: ;                                       // read-only
        endcase
      end

      // Completions leave.
      if (cpl_valid && cpl_ready) c_head <= c_head + 1'b1;

      // Descriptors arrive.
      if (desc_valid && desc_ready) begin
        q_op   [desc_way][q_head[desc_way] + QBITS'(q_count[desc_way])] <= desc_op;
        q_mask [desc_way][q_head[desc_way] + QBITS'(q_count[desc_way])] <= desc_mask;
        q_xfer [desc_way][q_head[desc_way] + QBITS'(q_count[desc_way])] <= desc_xfer;
        q_tag  [desc_way][q_head[desc_way] + QBITS'(q_count[desc_way])] <= desc_tag;
        q_start[desc_way][q_head[desc_way] + QBITS'(q_count[desc_way])] <= desc_start;
      end

      // Queues: a command granted takes the head.  Slots: eligible ones not granted wait for
      // the bus; arrays; completions.
      for (int w = 0; w < WAYS; w++) begin
        logic pop;
        pop = grant_valid && grant_cmd && grant_way == WAY_BITS'(w);
        if (pop) q_head[w] <= q_head[w] + 1'b1;
        q_count[w] <= q_count[w] + {{QBITS{1'b0}}, desc_valid && desc_ready && desc_way == WAY_BITS'(w)} -
                      {{QBITS{1'b0}}, pop};
        for (int s = 0; s < SLOTS; s++) begin
          logic [PLANES-1:0] occ;
          occ = sl_occ[w][s];
          if (sl_elig[w][s] && sl_st[w][s] != L_WAIT_BUS) begin
            sl_st[w][s]    <= L_WAIT_BUS;
            sl_since[w][s] <= sl_elig_since[w][s];
            sl_phase[w][s] <= sl_elig_phase[w][s];
          end
          if (sl_st[w][s] == L_ARRAY && (plane_ready[w*PLANES +: PLANES] & occ) != occ) sl_saw_busy[w][s] <= 1'b1;
          if (sl_st[w][s] == L_DONE && done_push && push_way == WAY_BITS'(w) && push_slot == SLOT_BITS'(s))
            sl_st[w][s] <= L_FREE;
        end
      end
      if (done_push) begin
        c_tag[c_tail] <= sl_tag[push_way][push_slot];
        c_way[c_tail] <= push_way;
        c_tail        <= c_tail + 1'b1;
        n_completed   <= n_completed + 1'b1;
      end
      c_count <= c_count + {{CBITS{1'b0}}, done_push} - {{CBITS{1'b0}}, cpl_valid && cpl_ready};

      // Bus: grant (a command fills its slot from the queue's head), then the end of the phase
      // in its last cycle (both in one cycle when the phase is one cycle long).
      if (grant_valid) begin
        busy         <= 1'b1;
        owner        <= grant_way;
        owner_slot   <= grant_slot;
        phase_start  <= now;
        phase_end    <= now + grant_len;
        n_bus_cycles <= n_bus_cycles + 32'(grant_len);
        sl_st   [grant_way][grant_slot] <= L_BUS;
        sl_phase[grant_way][grant_slot] <= grant_phase;
        if (grant_cmd) begin
          sl_op  [grant_way][grant_slot] <= grant_op;
          sl_mask[grant_way][grant_slot] <= grant_mask;
          sl_occ [grant_way][grant_slot] <= occupied(grant_op, grant_mask);
          sl_xfer[grant_way][grant_slot] <= grant_xfer;
          sl_tag [grant_way][grant_slot] <= q_tag[grant_way][q_head[grant_way]];
        end
      end
      if (cur_last) begin
        busy <= 1'b0;
        if (cur_phase == P_CMD) begin
          sl_st      [cur_owner][cur_slot] <= L_ARRAY;
          sl_saw_busy[cur_owner][cur_slot] <= 1'b0;
        end else sl_st[cur_owner][cur_slot] <= push_from_bus ? L_FREE : L_DONE;
      end
    end
  end
endmodule

// NAND channel controller: one channel's bus shared by WAYS dies.
//
// Models: a descriptor queue per way (ready/valid in, per-way back-pressure; each descriptor
// carries the cycle from which it may start), per-way state machines that run each operation's
// phases in order (command/address, data in, array busy, data out, status read), a bus arbiter
// that grants the bus to the way whose phase became ready first (ties: lower way) — the policy
// of the TLM channel model — an ONFI-like bus sequencer (CLE/ALE/WE#/RE#/CE# per phase cycle)
// with programmable cycle counts, ready/busy per die, a completion queue out (ready/valid), and
// a register block (timing registers, identification, status and counters).  Data moves beside
// the pins: a phase's data cycles are counted, the bytes travel through the DRAM model in the
// SystemC wrapper.
// Leaves out: DQ data and ECC, cache and multi-LUN commands, read retry, suspend.
//
// Timing (the contract the TLM channel follows, cycle for cycle):
//   * a phase granted in cycle c occupies the bus in cycles c .. c+L-1 (the grant is decided
//     and the first strobe driven in the same cycle), the next phase may be granted in c+L;
//   * a way is eligible in the cycle its descriptor's start cycle is reached (command phase)
//     or in the first cycle its die's R/B# is high again after the array (data out / status);
//   * array_go is raised in the last cycle of the command phase: the die starts at c+L;
//   * an operation's completion enters the completion queue in the last cycle of its last
//     phase and is visible (cpl_valid) from c+L, the cycle its TLM twin completes.
//
// Registers (reg_addr; cycle counts of the bus clock):
//   0 CMD_ADDR    rw  command + address cycles of one plane's command phase
//   1 DATA_SETUP  rw  cycles around each data transfer (tADL / tWHR / tRR)
//   2 STATUS      rw  cycles of the status read that ends a program or erase
//   3 ID          ro  0x4E43 'NC', version 2 in bits 15:8, WAYS in bits 7:0
// Parameters: WAYS (dies on the channel), BUS_BYTES (bus width), QDEPTH (descriptors per way),
// CPL_DEPTH, TAG_BITS.
//   4 WAYS_BUSY   ro  bit per way with an operation in progress
//   5 QUEUED      ro  descriptors held in the way queues
//   6 COMPLETED   ro  operations completed since reset (wraps)
//   7 BUS_CYCLES  ro  bus cycles granted to phases since reset (wraps)
module nand_channel_ctrl #(
    parameter int WAYS = 4,
    parameter int BUS_BYTES = 1,       // bus width: bytes per data cycle (1: x8, 2: x16)
    parameter int WAY_BITS = 2,
    parameter int TAG_BITS = 16,
    parameter int QDEPTH = 4,
    parameter int CPL_DEPTH = 8
) (
    input  logic                clk,
    input  logic                rst_n,
    input  logic [63:0]         now,            // the bus cycle number (kept by the environment,
                                                // which may skip cycles in which nothing changes)
    // register block
    input  logic                reg_we,
    input  logic [2:0]          reg_addr,
    input  logic [15:0]         reg_wdata,      // the writable registers are 16 bits
    output logic [31:0]         reg_rdata,
    // descriptors in
    input  logic                desc_valid,
    output logic                desc_ready,
    input  logic [1:0]          desc_op,        // 1 read, 2 program, 3 erase
    input  logic [WAY_BITS-1:0] desc_way,
    input  logic [3:0]          desc_planes,    // planes in the operation, 1..8
    input  logic [19:0]         desc_xfer,      // data bytes per plane
    input  logic [TAG_BITS-1:0] desc_tag,
    input  logic [63:0]         desc_start,     // first cycle the operation may use the bus
    // completions out
    output logic                cpl_valid,
    input  logic                cpl_ready,
    output logic [TAG_BITS-1:0] cpl_tag,
    output logic [WAY_BITS-1:0] cpl_way,
    // dies
    input  logic [WAYS-1:0]     die_ready,      // R/B#: 1 = ready
    output logic [WAYS-1:0]     array_go,       // the die starts its array operation after this cycle
    output logic [1:0]          array_op,       // operation of the way in array_go
    // ONFI-like bus (one channel, CE# per way)
    output logic [WAYS-1:0]     onfi_ce_n,
    output logic                onfi_cle,
    output logic                onfi_ale,
    output logic                onfi_we_n,
    output logic                onfi_re_n,
    // observation (this cycle)
    output logic                bus_grant,      // a phase starts in this cycle
    output logic                bus_busy,
    output logic [WAY_BITS-1:0] bus_way,
    output logic [1:0]          bus_phase,      // 0 command (and data in), 1 data out, 2 status
    output logic [23:0]         bus_remaining,  // cycles of the phase from this one on (0: free)
    output logic                quiet           // nothing changes if this cycle is clocked
                                                // (the environment may skip it): no grant,
                                                // no phase end, no state to update
);
  localparam logic [1:0] OP_READ = 2'd1, OP_PROG = 2'd2;   // 3: erase
  typedef enum logic [2:0] {S_IDLE, S_WAIT_BUS, S_BUS, S_ARRAY, S_DONE} state_t;
  typedef enum logic [1:0] {P_CMD, P_DATA_OUT, P_STATUS} phase_t;

  logic [15:0] reg_cmd_addr, reg_data_setup, reg_status;
  logic [31:0] n_completed, n_bus_cycles;

  // ---------------------------------------------------------------- per-way descriptor FIFOs
  localparam int QBITS = $clog2(QDEPTH);
  logic [1:0]          q_op    [WAYS][QDEPTH];
  logic [3:0]          q_planes[WAYS][QDEPTH];
  logic [19:0]         q_xfer  [WAYS][QDEPTH];
  logic [TAG_BITS-1:0] q_tag   [WAYS][QDEPTH];
  logic [63:0]         q_start [WAYS][QDEPTH];
  logic [QBITS:0]      q_count [WAYS];
  logic [QBITS-1:0]    q_head  [WAYS];

  // ---------------------------------------------------------------- way state
  state_t              st      [WAYS];
  phase_t              phase   [WAYS];   // S_WAIT_BUS / S_BUS: the phase
  logic [63:0]         since   [WAYS];   // S_WAIT_BUS: cycle its phase became ready
  logic                saw_busy[WAYS];   // S_ARRAY: R/B# was seen low
  logic [63:0]         ready_at[WAYS];   // cycle the die last became ready
  logic [WAYS-1:0]     die_ready_q;

  // ---------------------------------------------------------------- bus (registered phase)
  // A phase granted in cycle c runs in cycles c .. phase_end - 1; `busy` holds it from c + 1.
  logic                busy;
  logic [WAY_BITS-1:0] owner;
  logic [63:0]         phase_start, phase_end;

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

  // Eligibility: which ways could take the bus in this cycle, their phase and since when.
  logic [WAYS-1:0] elig;
  logic [63:0]     elig_since[WAYS];
  phase_t          elig_phase[WAYS];
  always_comb begin
    for (int w = 0; w < WAYS; w++) begin
      logic [63:0] arr, rdy;
      arr = q_start[w][q_head[w]];
      rdy = die_ready[w] && !die_ready_q[w] ? now : ready_at[w];
      elig[w]       = 1'b0;
      elig_since[w] = since[w];
      elig_phase[w] = phase[w];
      unique case (st[w])
        S_IDLE:
          if (q_count[w] != 0 && die_ready[w] && arr <= now) begin
            elig[w]       = 1'b1;
            elig_since[w] = arr > rdy ? arr : rdy;
            elig_phase[w] = P_CMD;
          end
        S_WAIT_BUS: elig[w] = 1'b1;
        S_ARRAY:
          if (die_ready[w] && saw_busy[w]) begin
            elig[w]       = 1'b1;
            elig_since[w] = now;
            elig_phase[w] = q_op[w][q_head[w]] == OP_READ ? P_DATA_OUT : P_STATUS;
          end
        default: ;
      endcase
    end
  end

  // Arbitration: the eligible way whose phase became ready first, ties to the lower way.
  logic                grant_valid;
  logic [WAY_BITS-1:0] grant_way;
  logic [63:0]         grant_len;
  always_comb begin
    grant_valid = 1'b0;
    grant_way   = '0;
    for (int w = 0; w < WAYS; w++)
      if (elig[w] && (!grant_valid || elig_since[w] < elig_since[grant_way])) begin
        grant_valid = 1'b1;
        grant_way   = WAY_BITS'(w);
      end
    if (busy) grant_valid = 1'b0;
    grant_len = 64'(segment(q_op[grant_way][q_head[grant_way]], elig_phase[grant_way],
                            q_xfer[grant_way][q_head[grant_way]])) *
                (elig_phase[grant_way] == P_STATUS ? 64'd1 : 64'(q_planes[grant_way][q_head[grant_way]]));
  end

  // The phase on the bus in this cycle (registered, or granted now).
  logic                cur_busy, cur_last;
  logic [WAY_BITS-1:0] cur_owner;
  phase_t              cur_phase;
  logic [63:0]         cur_end, pos;
  always_comb begin
    cur_busy  = busy || grant_valid;
    cur_owner = busy ? owner : grant_way;
    cur_phase = busy ? phase[owner] : elig_phase[grant_way];
    cur_end   = busy ? phase_end : now + grant_len;
    pos       = busy ? now - phase_start : 64'd0;
    cur_last  = cur_busy && now + 1 >= cur_end;
  end
  assign bus_grant     = grant_valid;
  assign bus_busy      = cur_busy;
  assign bus_way       = cur_owner;
  assign bus_phase     = cur_phase;
  assign bus_remaining = cur_busy ? 24'(cur_end - now) : 24'd0;

  // ONFI-like strobes of the phase (first plane's command latch and address cycles, then data
  // strobes; status as a command cycle then reads).
  always_comb begin
    onfi_ce_n = '1;
    onfi_cle  = 1'b0;
    onfi_ale  = 1'b0;
    onfi_we_n = 1'b1;
    onfi_re_n = 1'b1;
    if (cur_busy) begin
      onfi_ce_n[cur_owner] = 1'b0;
      unique case (cur_phase)
        P_CMD: begin
          if (pos == 0) begin onfi_cle = 1'b1; onfi_we_n = 1'b0; end
          else if (pos < 64'(reg_cmd_addr)) begin onfi_ale = 1'b1; onfi_we_n = pos[0]; end
          else onfi_we_n = pos[0];                         // program data in
        end
        P_DATA_OUT: onfi_re_n = pos < 64'(reg_data_setup) ? 1'b1 : pos[0];
        default: begin                                     // status: 70h, then read
          onfi_cle  = pos == 0;
          onfi_we_n = pos != 0;
          onfi_re_n = pos == 0;
        end
      endcase
    end
  end

  always_comb begin
    array_go = '0;
    array_op = q_op[cur_owner][q_head[cur_owner]];
    if (cur_last && cur_phase == P_CMD) array_go[cur_owner] = 1'b1;
  end

  // An operation finishes in the last cycle of its last bus phase (data out, status): its
  // completion goes into the queue then, and the way may start its next operation in the next
  // cycle.  When the queue is full it waits in S_DONE; one completion enters a cycle, waiting
  // ways (lowest first) before the bus owner.
  logic                bus_finish;
  logic                done_push;
  logic [WAY_BITS-1:0] push_way;
  logic                push_from_bus;
  always_comb begin
    bus_finish    = cur_last && cur_phase != P_CMD;
    done_push     = 1'b0;
    push_way      = '0;
    push_from_bus = 1'b0;
    for (int w = WAYS - 1; w >= 0; w--)
      if (st[w] == S_DONE) begin
        done_push = 1'b1;
        push_way  = WAY_BITS'(w);
      end
    if (!done_push && bus_finish) begin
      done_push     = 1'b1;
      push_way      = cur_owner;
      push_from_bus = 1'b1;
    end
    if (c_count - {{CBITS{1'b0}}, cpl_valid && cpl_ready} == (CBITS + 1)'(CPL_DEPTH)) begin
      done_push     = 1'b0;
      push_from_bus = 1'b0;
    end
  end

  // Nothing to do in this cycle: no grant, no phase end, no way changing state.
  always_comb begin
    quiet = !cpl_valid && !grant_valid && !cur_last;
    for (int w = 0; w < WAYS; w++) begin
      if (st[w] == S_DONE) quiet = 1'b0;
      if (elig[w] && st[w] != S_WAIT_BUS) quiet = 1'b0;
      if (st[w] == S_ARRAY && !saw_busy[w] && !die_ready[w]) quiet = 1'b0;
      if (die_ready[w] != die_ready_q[w]) quiet = 1'b0;
    end
  end

  // Register reads.
  always_comb begin
    reg_rdata = '0;
    unique case (reg_addr)
      3'd0: reg_rdata = {16'd0, reg_cmd_addr};
      3'd1: reg_rdata = {16'd0, reg_data_setup};
      3'd2: reg_rdata = {16'd0, reg_status};
      3'd3: reg_rdata = {16'h4E43, 8'd2, 8'(WAYS)};
      3'd4: for (int w = 0; w < WAYS; w++) reg_rdata[w] = st[w] != S_IDLE;
      3'd5: for (int w = 0; w < WAYS; w++) reg_rdata = reg_rdata + 32'(q_count[w]);
      3'd6: reg_rdata = n_completed;
      default: reg_rdata = n_bus_cycles;
    endcase
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      reg_cmd_addr   <= 16'd40;
      reg_data_setup <= 16'd40;
      reg_status     <= 16'd20;
      n_completed    <= '0;
      n_bus_cycles   <= '0;
      die_ready_q    <= '1;
      busy           <= 1'b0;
      owner          <= '0;
      phase_start    <= '0;
      phase_end      <= '0;
      c_count        <= '0;
      c_head         <= '0;
      c_tail         <= '0;
      for (int w = 0; w < WAYS; w++) begin
        q_count[w]  <= '0;
        q_head[w]   <= '0;
        st[w]       <= S_IDLE;
        phase[w]    <= P_CMD;
        since[w]    <= '0;
        saw_busy[w] <= 1'b0;
        ready_at[w] <= '0;
      end
    end else begin
      die_ready_q <= die_ready;
      for (int w = 0; w < WAYS; w++)
        if (die_ready[w] && !die_ready_q[w]) ready_at[w] <= now;
      if (reg_we) begin
        unique case (reg_addr)
          3'd0: reg_cmd_addr <= reg_wdata;
          3'd1: reg_data_setup <= reg_wdata;
          3'd2: reg_status <= reg_wdata;
          default: ;                                       // read-only
        endcase
      end

      // Completions leave.
      if (cpl_valid && cpl_ready) c_head <= c_head + 1'b1;

      // Descriptors arrive.
      if (desc_valid && desc_ready) begin
        q_op    [desc_way][q_head[desc_way] + QBITS'(q_count[desc_way])] <= desc_op;
        q_planes[desc_way][q_head[desc_way] + QBITS'(q_count[desc_way])] <= desc_planes;
        q_xfer  [desc_way][q_head[desc_way] + QBITS'(q_count[desc_way])] <= desc_xfer;
        q_tag   [desc_way][q_head[desc_way] + QBITS'(q_count[desc_way])] <= desc_tag;
        q_start [desc_way][q_head[desc_way] + QBITS'(q_count[desc_way])] <= desc_start;
      end

      // Ways: eligible ways not granted wait for the bus; arrays; completions.
      for (int w = 0; w < WAYS; w++) begin
        logic pop;
        pop = 1'b0;
        if (elig[w] && st[w] != S_WAIT_BUS) begin
          st[w]    <= S_WAIT_BUS;
          since[w] <= elig_since[w];
          phase[w] <= elig_phase[w];
        end
        if (st[w] == S_ARRAY && !die_ready[w]) saw_busy[w] <= 1'b1;
        if (st[w] == S_DONE && done_push && push_way == WAY_BITS'(w)) st[w] <= S_IDLE;
        if (done_push && push_way == WAY_BITS'(w)) begin
          c_tag[c_tail] <= q_tag[w][q_head[w]];
          c_way[c_tail] <= WAY_BITS'(w);
          c_tail        <= c_tail + 1'b1;
          pop = 1'b1;
        end
        if (pop) q_head[w] <= q_head[w] + 1'b1;
        q_count[w] <= q_count[w] + {{QBITS{1'b0}}, desc_valid && desc_ready && desc_way == WAY_BITS'(w)} -
                      {{QBITS{1'b0}}, pop};
      end
      c_count <= c_count + {{CBITS{1'b0}}, done_push} - {{CBITS{1'b0}}, cpl_valid && cpl_ready};
      if (done_push) n_completed <= n_completed + 1'b1;

      // Bus: grant, then the end of the phase in its last cycle (both in one cycle when the
      // phase is one cycle long).
      if (grant_valid) begin
        busy          <= 1'b1;
        owner         <= grant_way;
        phase_start   <= now;
        phase_end     <= now + grant_len;
        st[grant_way] <= S_BUS;
        phase[grant_way] <= elig_phase[grant_way];
        n_bus_cycles  <= n_bus_cycles + 32'(grant_len);
      end
      if (cur_last) begin
        busy <= 1'b0;
        if (cur_phase == P_CMD) begin
          st[cur_owner]       <= S_ARRAY;
          saw_busy[cur_owner] <= 1'b0;
        end else st[cur_owner] <= push_from_bus ? S_IDLE : S_DONE;
      end
    end
  end
endmodule

// NAND channel controller: one channel's bus shared by WAYS dies.
//
// Models: a descriptor queue per way (ready/valid in, per-way back-pressure), per-way state
// machines that run each operation's phases in order (command/address, data in, array busy,
// data out, status read), a bus arbiter that grants the bus to the way whose phase became
// ready first (ties: lower way) — the policy of the TLM channel model — an ONFI-like bus
// sequencer (CLE/ALE/WE#/RE#/CE# per phase cycle) with programmable cycle counts, ready/busy
// per die, and a completion queue out (ready/valid).  Data moves beside the pins: a phase's
// data cycles are counted, the bytes travel through the DRAM model in the SystemC wrapper.
// Leaves out: DQ data and ECC, cache and multi-LUN commands, read retry, suspend.
//
// Timing registers (cycles of the bus clock), written through the cfg port:
//   0 CMD_ADDR    command + address cycles of one plane's command phase
//   1 DATA_SETUP  cycles around each data transfer (tADL / tWHR / tRR)
//   2 STATUS      cycles of the status read that ends a program or erase
module nand_channel_ctrl #(
    parameter int WAYS = 4,
    parameter int WAY_BITS = 2,
    parameter int TAG_BITS = 16,
    parameter int QDEPTH = 4,
    parameter int CPL_DEPTH = 8
) (
    input  logic                clk,
    input  logic                rst_n,
    input  logic [31:0]         now,            // the bus cycle number (kept by the environment,
                                                // which may skip cycles in which nothing changes)
    // configuration
    input  logic                cfg_we,
    input  logic [1:0]          cfg_addr,
    input  logic [15:0]         cfg_wdata,
    // descriptors in
    input  logic                desc_valid,
    output logic                desc_ready,
    input  logic [1:0]          desc_op,        // 1 read, 2 program, 3 erase
    input  logic [WAY_BITS-1:0] desc_way,
    input  logic [3:0]          desc_planes,    // planes in the operation, 1..8
    input  logic [19:0]         desc_xfer,      // data cycles per plane
    input  logic [TAG_BITS-1:0] desc_tag,
    input  logic [31:0]         desc_arrival,   // cycle the descriptor arrived (<= now)
    // completions out
    output logic                cpl_valid,
    input  logic                cpl_ready,
    output logic [TAG_BITS-1:0] cpl_tag,
    output logic [WAY_BITS-1:0] cpl_way,
    // dies
    input  logic [WAYS-1:0]     die_ready,      // R/B#: 1 = ready
    output logic [WAYS-1:0]     array_go,       // one cycle: the die starts its array operation
    output logic [1:0]          array_op,       // operation of the way in array_go
    // ONFI-like bus (one channel, CE# per way)
    output logic [WAYS-1:0]     onfi_ce_n,
    output logic                onfi_cle,
    output logic                onfi_ale,
    output logic                onfi_we_n,
    output logic                onfi_re_n,
    // observation
    output logic                bus_busy,
    output logic [WAY_BITS-1:0] bus_way,
    output logic [1:0]          bus_phase,      // 0 command (and data in), 1 data out, 2 status
    output logic [23:0]         bus_remaining,  // cycles until the bus is free (0: free)
    output logic                quiet           // nothing changes next cycle unless the bus
                                                // phase ends, a die becomes ready or a
                                                // descriptor arrives: the environment may skip
);
  localparam logic [1:0] OP_READ = 2'd1, OP_PROG = 2'd2;   // 3: erase
  typedef enum logic [2:0] {S_IDLE, S_WAIT_BUS, S_BUS, S_ARRAY_START, S_ARRAY, S_DONE} state_t;
  typedef enum logic [1:0] {P_CMD, P_DATA_OUT, P_STATUS} phase_t;

  logic [15:0] reg_cmd_addr, reg_data_setup, reg_status;

  // ---------------------------------------------------------------- per-way descriptor FIFOs
  localparam int QBITS = $clog2(QDEPTH);
  logic [1:0]          q_op    [WAYS][QDEPTH];
  logic [3:0]          q_planes[WAYS][QDEPTH];
  logic [19:0]         q_xfer  [WAYS][QDEPTH];
  logic [TAG_BITS-1:0] q_tag   [WAYS][QDEPTH];
  logic [31:0]         q_arr   [WAYS][QDEPTH];
  logic [QBITS:0]      q_count [WAYS];
  logic [QBITS-1:0]    q_head  [WAYS];

  // ---------------------------------------------------------------- way state
  state_t              st      [WAYS];
  phase_t              phase   [WAYS];
  logic [31:0]         since   [WAYS];   // cycle its bus phase became ready
  logic                saw_busy[WAYS];
  logic [31:0]         ready_at[WAYS];   // cycle the die last became ready
  logic [WAYS-1:0]     die_ready_q;

  // ---------------------------------------------------------------- bus
  // The bus phase runs from phase_start to phase_end - 1 (cycle numbers from `now`), so the
  // environment may skip the cycles in between.
  logic                busy;
  logic [WAY_BITS-1:0] owner;
  logic [31:0]         phase_start, phase_end;
  logic [31:0]         pos;             // cycles since the phase started

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
  assign bus_busy   = busy;
  assign bus_way    = owner;
  assign bus_phase  = phase[owner];
  assign bus_remaining = busy ? 24'(phase_end - now) : 24'd0;
  assign pos = now - phase_start;

  // Arbitration: the waiting way whose phase became ready first, ties to the lower way.
  logic                grant_valid;
  logic [WAY_BITS-1:0] grant_way;
  always_comb begin
    grant_valid = 1'b0;
    grant_way   = '0;
    for (int w = 0; w < WAYS; w++) begin
      if (st[w] == S_WAIT_BUS && (!grant_valid || since[w] < since[grant_way])) begin
        grant_valid = 1'b1;
        grant_way   = WAY_BITS'(w);
      end
    end
  end

  // Length of one plane segment of a phase.
  function automatic logic [23:0] segment(input logic [1:0] op, input phase_t ph, input logic [19:0] xfer);
    if (ph == P_STATUS) return {8'd0, reg_status};
    if (ph == P_DATA_OUT) return {8'd0, reg_data_setup} + {4'd0, xfer};
    if (op == OP_PROG) return {8'd0, reg_cmd_addr} + {8'd0, reg_data_setup} + {4'd0, xfer};
    return {8'd0, reg_cmd_addr};
  endfunction

  // ONFI-like strobes of the phase (first plane's command latch and address cycles, then data
  // strobes; status as a command cycle then reads).
  always_comb begin
    onfi_ce_n = '1;
    onfi_cle  = 1'b0;
    onfi_ale  = 1'b0;
    onfi_we_n = 1'b1;
    onfi_re_n = 1'b1;
    if (busy) begin
      onfi_ce_n[owner] = 1'b0;
      unique case (phase[owner])
        P_CMD: begin
          if (pos == 0) begin onfi_cle = 1'b1; onfi_we_n = 1'b0; end
          else if (pos < 32'(reg_cmd_addr)) begin onfi_ale = 1'b1; onfi_we_n = pos[0]; end
          else onfi_we_n = pos[0];                         // program data in
        end
        P_DATA_OUT: onfi_re_n = pos < 32'(reg_data_setup) ? 1'b1 : pos[0];
        default: begin                                     // status: 70h, then read
          onfi_cle  = pos == 0;
          onfi_we_n = pos != 0;
          onfi_re_n = pos == 0;
        end
      endcase
    end
  end

  always_comb begin
    quiet = !cpl_valid;
    for (int w = 0; w < WAYS; w++) begin
      if (st[w] == S_ARRAY_START || st[w] == S_DONE) quiet = 1'b0;
      if (st[w] == S_WAIT_BUS && !busy) quiet = 1'b0;
      if (st[w] == S_IDLE && q_count[w] != 0 && die_ready[w]) quiet = 1'b0;
      if (st[w] == S_ARRAY && (die_ready[w] == saw_busy[w])) quiet = 1'b0;   // R/B# change to see
    end
  end

  always_comb begin
    array_go = '0;
    array_op = OP_READ;
    for (int w = 0; w < WAYS; w++)
      if (st[w] == S_ARRAY_START) begin
        array_go[w] = 1'b1;
        array_op    = q_op[w][q_head[w]];
      end
  end

  // An operation finishes when its last bus phase (data out, status) ends.  Its completion goes
  // into the queue in that same cycle and the way goes straight on to its next operation, so it
  // competes for the bus from the cycle the bus frees, as in the TLM channel.  When the queue
  // is full it waits in S_DONE; one completion enters a cycle, waiting ways (lowest first)
  // before the bus owner.
  logic                bus_finish;       // the owner's last phase ends this cycle
  logic                done_push;
  logic [WAY_BITS-1:0] push_way;
  logic                push_from_bus;
  always_comb begin
    bus_finish    = busy && now + 1 >= phase_end && phase[owner] != P_CMD;
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
      push_way      = owner;
      push_from_bus = 1'b1;
    end
    if (c_count - {{CBITS{1'b0}}, cpl_valid && cpl_ready} == (CBITS + 1)'(CPL_DEPTH)) begin
      done_push     = 1'b0;
      push_from_bus = 1'b0;
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      reg_cmd_addr   <= 16'd40;
      reg_data_setup <= 16'd40;
      reg_status     <= 16'd20;
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
      if (cfg_we) begin
        unique case (cfg_addr)
          2'd0: reg_cmd_addr <= cfg_wdata;
          2'd1: reg_data_setup <= cfg_wdata;
          default: reg_status <= cfg_wdata;
        endcase
      end

      // Completions leave.
      if (cpl_valid && cpl_ready) begin
        c_head <= c_head + 1'b1;
      end

      // Descriptors arrive.
      if (desc_valid && desc_ready) begin
        q_op    [desc_way][q_head[desc_way] + QBITS'(q_count[desc_way])] <= desc_op;
        q_planes[desc_way][q_head[desc_way] + QBITS'(q_count[desc_way])] <= desc_planes;
        q_xfer  [desc_way][q_head[desc_way] + QBITS'(q_count[desc_way])] <= desc_xfer;
        q_tag   [desc_way][q_head[desc_way] + QBITS'(q_count[desc_way])] <= desc_tag;
        q_arr   [desc_way][q_head[desc_way] + QBITS'(q_count[desc_way])] <= desc_arrival;
      end

      // Ways.
      for (int w = 0; w < WAYS; w++) begin
        logic pop;
        pop = 1'b0;
        unique case (st[w])
          S_IDLE:
            // Ready for the bus since the later of its arrival and its die's ready time.
            if (q_count[w] != 0 && die_ready[w]) begin
              st[w]    <= S_WAIT_BUS;
              phase[w] <= P_CMD;
              since[w] <= q_arr[w][q_head[w]] > ready_at[w] ? q_arr[w][q_head[w]] : ready_at[w];
            end
          S_ARRAY_START: begin
            st[w]       <= S_ARRAY;
            saw_busy[w] <= 1'b0;
          end
          S_ARRAY:
            if (!die_ready[w]) saw_busy[w] <= 1'b1;
            else if (saw_busy[w]) begin
              st[w]    <= S_WAIT_BUS;
              phase[w] <= q_op[w][q_head[w]] == OP_READ ? P_DATA_OUT : P_STATUS;
              since[w] <= now;
            end
          S_DONE:
            if (done_push && push_way == WAY_BITS'(w)) st[w] <= S_IDLE;
          default: ;
        endcase
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

      // Bus: end the phase at its last cycle, or grant it.
      if (busy) begin
        if (now + 1 >= phase_end) begin
          busy <= 1'b0;
          if (phase[owner] == P_CMD) st[owner] <= S_ARRAY_START;
          else if (!push_from_bus) st[owner] <= S_DONE;
          else if (q_count[owner] > 1 && die_ready[owner]) begin
            // Straight to the next operation's command phase.
            st[owner]    <= S_WAIT_BUS;
            phase[owner] <= P_CMD;
            since[owner] <= q_arr[owner][q_head[owner] + 1'b1] > ready_at[owner] ? q_arr[owner][q_head[owner] + 1'b1]
                                                                                  : ready_at[owner];
          end else st[owner] <= S_IDLE;
        end
      end else if (grant_valid) begin
        busy          <= 1'b1;
        owner         <= grant_way;
        st[grant_way] <= S_BUS;
        phase_start   <= now + 1;
        phase_end     <= now + 1 + 32'(segment(q_op[grant_way][q_head[grant_way]], phase[grant_way],
                                               q_xfer[grant_way][q_head[grant_way]])) *
                                   (phase[grant_way] == P_STATUS ? 32'd1 : 32'(q_planes[grant_way][q_head[grant_way]]));
      end
    end
  end
endmodule

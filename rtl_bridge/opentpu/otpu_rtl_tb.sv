// otpu_rtl_tb.sv - the openTPU adapter: the Verilator top of an otpu-rtl build of openTPU's own
// RTL (`--dut opentpu=PATH`, revision acf0c1c6), with the same ports as the reference RTL's top
// (rtl_bridge/otpu_rtl_tb.sv), so one driver runs either. openTPU's files are not edited: this
// top instantiates its otpu_top, reads its signals through hierarchical references and turns
// them into the lockstep records of rtl/EVENTS.md (dpi/otpu_lockstep_dpi.sv); at `dump` it
// hands the final state to the driver (rtl/otpu_dpi.sv). Which signal means what, and why each
// rule below holds: docs/opentpu.md.
//
// Loading is openTPU's own: its sequencer and DRAM read +dir=DIR/prog_<s>.hex and dram_<s>.bin
// at time 0 (the driver stages them, rtl_bridge/dut_stage_opentpu.cpp). Reset follows its
// testbench: sys_rst with rst, rst released one edge later. Built with OTPU_OPENTPU_AXI defined
// (--dut opentpu-axi), it is openTPU's board memory path as its own testbench builds it for
// D = 128 (otpu_top's AXI = 1): the AXI adapter in front of the AXI memory model (+axi_seed,
// +axi_stall), with that flow's minimum latency of 20 cycles. (A define, not a parameter: a
// hierarchical reference into the memory model is resolved even in a generate branch that is
// not built, and the model is only compiled on that path.)
module otpu_rtl_tb
  import otpu_protocol_pkg::*;
  import otpu_lockstep_dpi::*;
#(
  parameter int S = 1,
  parameter int D = 32,
  parameter int MCOLS = 8,
  parameter int ACT_BLOCKS = 64,
  parameter int TMEM_WORDS = 65536,
  parameter longint DRAM_BYTES = 262144,
  parameter int IMEM_WORDS = 65536,
  parameter int LANES = 8,
  parameter int PAIR = 0,          // (none of these four exists in openTPU acf0c1c6: 0)
  parameter int DSTEP = 0,
  parameter int STREAM = 0,
  parameter int ACT_ROWS = 0
) (
  input  logic         clk,
  input  logic         rst,
  input  logic         dump,
  input  logic         ev_en,
  output logic         stopped,     // every slice halted, its window drained
  output logic         any_error,
  output logic [11:0][63:0] cfg
);
  localparam int DRAM_WORDS = int'(DRAM_BYTES / 4);
  localparam int NWP = 4;          // openTPU's TMEM write ports: DMA, MXU, COLL, VPU
  localparam int QD = 64;          // started-instruction queue per unit (>= its window)
`ifdef OTPU_OPENTPU_AXI
  localparam int AXI = 1;          // openTPU's memory path: 0 its DRAM, 1 AXI (random timing)
`else
  localparam int AXI = 0;
`endif

  logic rst_d, dut_rst, all_halted, top_error, ld_busy;
  logic [31:0] icount_top [S];
  always_ff @(posedge clk) rst_d <= rst;
  assign dut_rst = rst | rst_d;

  otpu_top #(.S(S), .D(D), .MCOLS(MCOLS), .ACT_BLOCKS(ACT_BLOCKS), .TMEM_WORDS(TMEM_WORDS),
             .IMEM_WORDS(IMEM_WORDS), .DRAM_WORDS(DRAM_WORDS), .LANES(LANES),
             .DRAM_LAT(AXI ? 20 : 8), .AXI(AXI)) dut (
    .clk, .sys_rst(rst), .rst(dut_rst), .ld_start(1'b0), .ld_addr('0), .ld_n('0), .ld_busy,
    .all_halted, .any_error(top_error), .icount(icount_top), .dump(1'b0));

  assign cfg = {64'(ACT_ROWS), 64'(STREAM), 64'(DSTEP), 64'(PAIR), 64'(LANES), 64'(IMEM_WORDS),
                64'(DRAM_BYTES), 64'(TMEM_WORDS), 64'(ACT_BLOCKS), 64'(MCOLS), 64'(D), 64'(S)};

  // ---- openTPU's signals, per slice (hierarchical references; nothing is added to its files)
  logic [S-1:0][31:0]        pc, icount;
  logic [S-1:0][7:0][31:0]   iw;
  logic [S-1:0][15:0][31:0]  R;
  logic [S-1:0]              have_free, stopping, halted, error, drained;
  logic [S-1:0][7:0]         free_slot;
  logic [S-1:0]              has_unit;       // dunit >= 0
  logic [S-1:0][NUNITS-1:0]  can_start, udone;
  logic [S-1:0][NUNITS-1:0][7:0] start_slot;
  logic [S-1:0][NWP-1:0][LANES-1:0]       w_en;
  logic [S-1:0][NWP-1:0][LANES-1:0][31:0] w_addr, w_data;
  logic [S-1:0]              a_wr, b_wr, asc_we;
  logic [S-1:0][31:0]        a_addr, a_wdata, b_addr, act_idx, asc_data;
  logic [S-1:0][3:0]         a_be;
  logic [S-1:0][D/4-1:0]     b_wmask;
  logic [S-1:0][D*8-1:0]     b_wdata;
  logic [S-1:0][LANES-1:0]   act_we;
  logic [S-1:0][7:0]         act_row, asc_row;
  logic [S-1:0][15:0]        asc_blk;
  logic [S-1:0][LANES-1:0][7:0] act_data;

  for (genvar s = 0; s < S; s++) begin : g_tap
    assign pc[s] = dut.g_slice[s].u_slice.u_seq.pc;
    assign icount[s] = dut.g_slice[s].u_slice.u_seq.icount;
    for (genvar k = 0; k < 8; k++) assign iw[s][k] = dut.g_slice[s].u_slice.u_seq.iw[k];
    for (genvar r = 0; r < 16; r++) assign R[s][r] = dut.g_slice[s].u_slice.u_seq.R[r];
    assign have_free[s] = dut.g_slice[s].u_slice.u_seq.have_free;
    assign free_slot[s] = 8'(dut.g_slice[s].u_slice.u_seq.free_slot);
    assign has_unit[s] = dut.g_slice[s].u_slice.u_seq.dunit >= 0;
    assign stopping[s] = dut.g_slice[s].u_slice.u_seq.stopping;
    assign halted[s] = dut.g_slice[s].u_slice.u_seq.halted;
    assign error[s] = dut.g_slice[s].u_slice.u_seq.error;
    assign drained[s] = dut.g_slice[s].u_slice.u_seq.sv == '0;
    assign can_start[s] = dut.g_slice[s].u_slice.u_seq.can_start;
    assign udone[s] = dut.g_slice[s].u_slice.u_seq.udone;
    for (genvar u = 0; u < NUNITS; u++)
      assign start_slot[s][u] = 8'(dut.g_slice[s].u_slice.u_seq.start_slot[u]);
    assign w_en[s] = dut.g_slice[s].u_slice.w_en;
    assign w_addr[s] = dut.g_slice[s].u_slice.w_addr;
    assign w_data[s] = dut.g_slice[s].u_slice.w_data;
    // a request is taken when its port is ready (always, on the behavioural DRAM)
    assign a_wr[s] = dut.g_slice[s].u_slice.a_req && dut.g_slice[s].u_slice.a_we &&
                     dut.g_slice[s].u_slice.a_rdy;
    assign a_addr[s] = dut.g_slice[s].u_slice.a_addr;
    assign a_wdata[s] = dut.g_slice[s].u_slice.a_wdata;
    assign a_be[s] = dut.g_slice[s].u_slice.a_be;
    assign b_wr[s] = dut.g_slice[s].u_slice.b_req && dut.g_slice[s].u_slice.b_we &&
                     dut.g_slice[s].u_slice.b_rdy;
    assign b_addr[s] = dut.g_slice[s].u_slice.b_addr;
    assign b_wmask[s] = dut.g_slice[s].u_slice.b_wmask;
    assign b_wdata[s] = dut.g_slice[s].u_slice.b_wdata;
    assign act_we[s] = dut.g_slice[s].u_slice.act_we;
    assign act_row[s] = dut.g_slice[s].u_slice.act_row;
    assign act_idx[s] = dut.g_slice[s].u_slice.act_idx;
    assign act_data[s] = dut.g_slice[s].u_slice.act_data;
    assign asc_we[s] = dut.g_slice[s].u_slice.asc_we;
    assign asc_row[s] = dut.g_slice[s].u_slice.asc_row;
    assign asc_blk[s] = dut.g_slice[s].u_slice.asc_blk;
    assign asc_data[s] = dut.g_slice[s].u_slice.asc_data;

    // the final state: openTPU's dump port writes files, so it is read here instead (its
    // DRAM, or the AXI memory model's image, which keeps the logical byte order)
    always @(posedge clk) if (dump)
      for (int i = 0; i < DRAM_WORDS; i++)
        otpu_dpi::otpu_dump_word(s, otpu_dpi::DS_DRAM, longint'(i),
`ifdef OTPU_OPENTPU_AXI
                                 dut.g_slice[s].g_axi.u_mem.mem[i]);
`else
                                 dut.g_slice[s].g_dram.u_dram.mem[i]);
`endif
    always @(posedge clk) if (dump) begin
      for (int i = 0; i < TMEM_WORDS; i++)
        otpu_dpi::otpu_dump_word(s, otpu_dpi::DS_TMEM, longint'(i),
                                 dut.g_slice[s].u_slice.u_tmem.shadow[i]);
      for (int j = 0; j < MCOLS; j++) begin
        for (int i = 0; i < ACT_BLOCKS * D; i++)
          otpu_dpi::otpu_dump_word(s, otpu_dpi::DS_ACT, longint'(j * ACT_BLOCKS * D + i),
                                   32'(dut.g_slice[s].u_slice.u_act.act[j][i]));
        for (int b = 0; b < ACT_BLOCKS; b++)
          otpu_dpi::otpu_dump_word(s, otpu_dpi::DS_ASCALE, longint'(j * ACT_BLOCKS + b),
                                   dut.g_slice[s].u_slice.u_act.asc[j][b]);
      end
      for (int r = 0; r < 16; r++) otpu_dpi::otpu_dump_word(s, otpu_dpi::DS_REG, longint'(r), R[s][r]);
      otpu_dpi::otpu_dump_word(s, otpu_dpi::DS_STATE, 0, 32'(halted[s]));
      otpu_dpi::otpu_dump_word(s, otpu_dpi::DS_STATE, 1, 32'(error[s]));
      otpu_dpi::otpu_dump_word(s, otpu_dpi::DS_STATE, 2, pc[s]);
      otpu_dpi::otpu_dump_word(s, otpu_dpi::DS_STATE, 3, icount[s] + 32'(error[s]));
      otpu_dpi::otpu_dump_word(s, otpu_dpi::DS_STATE, 4, 32'(cycles));
    end
  end

  // openTPU raises error (with halted) when it fetches an opcode it has no unit for, while
  // older instructions are still in flight: the slice has stopped once its window drained
  assign stopped = &(halted & drained);
  assign any_error = |error;

  // ---- the records (rtl/EVENTS.md), sampled at the edge where they take effect
  logic [31:0] slot_pc [S][256];      // the window stores no pc: kept from the dispatches
  logic [7:0]  slot_op [S][256];
  logic [7:0]  uq [S][NUNITS][QD];    // each unit's started slots: openTPU's units complete
  int          uq_h [S][NUNITS];      // in start order, a completion retires the head
  int          uq_t [S][NUNITS];
  logic [S-1:0] stop_said;
  longint      cycles;

  // one memory write of slice s at port p
  function automatic void wr(int s, int p, logic [2:0] sp, logic [31:0] addr, logic [31:0] data,
                             logic [3:0] mask);
    otpu_ev_wr(s, p, int'(sp), addr, data, int'(mask));
  endfunction

  // an opcode openTPU's sequencer executes itself (NOP, HALT, LI, ADDI, LOOP)
  function automatic bit seq_op(logic [7:0] op);
    return op <= 8'h04;
  endfunction

  always_ff @(posedge clk) begin
    cycles <= rst ? 0 : cycles + 1;
    if (dut_rst) begin
      stop_said <= '0;
      for (int s = 0; s < S; s++)
        for (int u = 0; u < NUNITS; u++) begin
          uq_h[s][u] <= 0;
          uq_t[s][u] <= 0;
        end
    end else for (int s = 0; s < S; s++) begin
      logic [7:0] op;
      logic [3:0] ra, rd;
      logic [7:0] done_slot [NUNITS];
      op = iw[s][0][7:0];
      ra = iw[s][0][11:8];
      rd = iw[s][0][23:20];
      for (int u = 0; u < NUNITS; u++) done_slot[u] = uq[s][u][uq_h[s][u] % QD];
      if (ev_en && !stopping[s] && !halted[s]) begin
        if (seq_op(op)) begin
          otpu_ev_ins(s, EV_EXEC, -1, 0, pc[s], int'(op));
          if ((op == 8'h02 || op == 8'h03) && rd != 0)   // LI, ADDI
            wr(s, P_SEQ_R, SP_REG, 32'(rd),
               op == 8'h02 ? iw[s][1] : (ra == 0 ? 32'd0 : R[s][ra]) + iw[s][1], 4'hf);
        end else if (has_unit[s] && have_free[s]) begin
          otpu_ev_ins(s, EV_DISPATCH, -1, int'(free_slot[s]), pc[s], int'(op));
        end
      end
      if (!stopping[s] && !halted[s] && !seq_op(op) && has_unit[s] && have_free[s]) begin
        slot_pc[s][free_slot[s]] <= pc[s];
        slot_op[s][free_slot[s]] <= op;
      end
      for (int u = 0; u < NUNITS; u++)
        if (can_start[s][u]) begin
          if (ev_en)
            otpu_ev_ins(s, EV_START, u, int'(start_slot[s][u]), slot_pc[s][start_slot[s][u]],
                        int'(slot_op[s][start_slot[s][u]]));
          uq[s][u][uq_t[s][u] % QD] <= start_slot[s][u];
          uq_t[s][u] <= uq_t[s][u] + 1;
        end
      if (ev_en) begin
        for (int l = 0; l < LANES; l++)     // openTPU port 0: the DMA's LD
          if (w_en[s][0][l]) wr(s, P_DMA_T, SP_TMEM, w_addr[s][0][l], w_data[s][0][l], 4'hf);
        if (b_wr[s])                         // DRAM port B: the DMA's ST, D bytes a request
          for (int w = 0; w < D / 4; w++)
            if (b_wmask[s][w])
              wr(s, P_DMA_M, SP_DRAM, 4 * (b_addr[s] + 32'(w)), b_wdata[s][32 * w +: 32], 4'hf);
        for (int l = 0; l < LANES; l++)     // openTPU port 1: the MXU
          if (w_en[s][1][l]) wr(s, P_MXU_T, SP_TMEM, w_addr[s][1][l], w_data[s][1][l], 4'hf);
        for (int l = 0; l < LANES; l++)     // the quantizer's ACT bytes (the RAM wraps row, index)
          if (act_we[s][l])
            wr(s, P_QNT_A, SP_ACT, 32'(act_row[s] % MCOLS) * 32'(ACT_BLOCKS * D) +
                                   (act_idx[s] + 32'(l)) % 32'(ACT_BLOCKS * D),
               32'(act_data[s][l]), 4'hf);
        if (asc_we[s])
          wr(s, P_QNT_S, SP_ASCALE, 32'(asc_row[s] % MCOLS) * 32'(ACT_BLOCKS) + 32'(asc_blk[s]),
             asc_data[s], 4'hf);
        if (a_wr[s])                         // DRAM port A: QST bytes and scales
          wr(s, P_QNT_M, SP_DRAM, 4 * a_addr[s], a_wdata[s], a_be[s]);
        for (int l = 0; l < LANES; l++)     // openTPU port 3: the VPU
          if (w_en[s][3][l]) wr(s, P_VPU_T, SP_TMEM, w_addr[s][3][l], w_data[s][3][l], 4'hf);
        for (int l = 0; l < LANES; l++)     // openTPU port 2: GATHER words into this slice
          if (w_en[s][2][l]) wr(s, P_COL_T, SP_TMEM, w_addr[s][2][l], w_data[s][2][l], 4'hf);
      end
      for (int u = 0; u < NUNITS; u++)
        if (udone[s][u]) begin
          if (ev_en)
            otpu_ev_ins(s, EV_COMPLETE, u, int'(done_slot[u]), slot_pc[s][done_slot[u]],
                        int'(slot_op[s][done_slot[u]]));
          uq_h[s][u] <= uq_h[s][u] + 1;
        end
      // the stop, once the window has drained: an error counts the failing instruction
      if (halted[s] && drained[s] && !stop_said[s]) begin
        stop_said[s] <= 1'b1;
        if (ev_en)
          otpu_ev_state(s, error[s] ? SS_ERROR : SS_HALTED, pc[s], icount[s] + 32'(error[s]));
      end
    end
  end
endmodule

// otpu_seq.sv - the sequencer of one slice.
//
// Fetches one instruction per cycle from IMEM. NOP, LI, ADDI, LOOP, HALT and RLD execute here;
// every other instruction has its register-relative fields resolved (cmd_resolve), is checked
// against the ISA's rules (check: address ranges, bounds, flags; the VOP read-after-write rule
// by a dry run over the element order) and, if the ISA accepts it, is dispatched in program
// order into a window of WIN slots together with its footprint (the TMEM, DRAM and ACT RAM
// ranges it reads and writes). At dispatch an instruction records the in-flight instructions it
// conflicts with (a range of one meets a range of the other, at least one written); it may start
// once all of them have completed. Each cycle every idle unit starts its oldest ready
// instruction (COLL: its oldest, when ready: GATHERs pair up across slices in program order).
// Units run one instruction at a time, so each completes in start order; across units the order
// is free.
//
// An instruction the ISA rejects is not dispatched: the sequencer waits for the older
// instructions to complete and stops with error (pc = that instruction). Errors the ISA raises
// after part of an instruction's writes (cmd_t.terr) dispatch the instruction with its first
// phase only. STREAM and WAITW, whose errors depend on data, run alone (serial): they wait for
// an empty window and nothing is dispatched until they complete.
`include "otpu_config.svh"

module otpu_seq
  import otpu_pkg::*;
#(
  parameter int SID = 0,
  `OTPU_CONFIG_PARAMS,
  parameter int AR = 8,            // ACT RAM rows (Config.act_rows)
  parameter int WIN = 8            // window slots
) (
  input  logic                    clk,
  input  logic                    rst,
  input  logic                    dump,
  // units
  output logic [NUNITS-1:0]       u_start,
  output cmd_t [NUNITS-1:0]       u_cmd,
  input  logic [NUNITS-1:0]       u_idle,
  input  logic [NUNITS-1:0]       u_done,
  input  logic [NUNITS-1:0]       u_err,
  // TMEM read port (RLD), DRAM read port (HALT CHAIN's program load)
  `OTPU_WORD_READ_PORTS,
  // events (rtl/EVENTS.md)
  output ev_ins_t                 ev_disp,
  output ev_ins_t                 ev_exec,
  output ev_ins_t [NUNITS-1:0]    ev_start,
  output ev_ins_t [NUNITS-1:0]    ev_done,
  output wr_t                     ev_reg,
  output logic                    ev_chain,
  output logic [31:0]             ev_chain_addr,
  output logic [31:0]             ev_chain_n,
  // status
  output logic                    halted,
  output logic                    error,
  output logic [31:0]             pc_o,
  output logic [31:0]             icount_o,
  output logic                    win_busy
);
  localparam int SW = (WIN <= 2) ? 1 : $clog2(WIN);
  localparam int NPROG = IMEM_WORDS / 8;

  typedef enum logic [3:0] {
    ST_RUN, ST_RLD, ST_HZ, ST_HALT, ST_CHAIN, ST_SER, ST_ERRW, ST_HALTED, ST_ERROR, ST_HLOAD,
    ST_HSTART
  } st_t;

  typedef struct packed {
    logic err;      // the ISA rejects the instruction
    logic terr;     // ... after the first phase of its writes
    logic hz;       // a VOP whose writes may meet its reads: run the dry run first
    logic serial;   // runs alone
    fp_t  fp;
  } chk_t;

  // ---- state ------------------------------------------------------------------------------
  bit [31:0] imem [IMEM_WORDS];  // (2-state: zero at time 0, the program loaded over it)
  logic [31:0] R [16];
  logic [31:0] args [8];
  logic [31:0] pc, icount, prog_len, cycles;
  st_t         st;
  logic [2:0]  sp;
  logic [31:0] ls_start [4];
  logic [31:0] ls_end [4];
  logic [31:0] ls_cnt [4];
  logic        hz_ok;              // the dry run passed for the instruction at pc
  logic [31:0] err_pc;
  logic [31:0] ch_addr, ch_n, ch_i; // HALT CHAIN load

  // window
  logic [WIN-1:0]  s_v, s_started;
  logic [WIN-1:0]  s_dep [WIN];
  logic [2:0]      s_unit [WIN];
  logic [31:0]     s_age [WIN];
  logic [31:0]     s_pc [WIN];
  logic [7:0]      s_op [WIN];
  cmd_t            s_cmd [WIN];
  fp_t             s_fp [WIN];
  logic [31:0]     age_ctr;
  logic [SW-1:0]   run_slot [NUNITS];

  // VOP dry run
  bit [31:0] hz_mark [TMEM_WORDS];  // (2-state: zero at time 0)
  logic [31:0] hz_ep;
  cmd_t        hz_c;
  logic [31:0] hz_r, hz_cc;

  initial begin
    prog_len = otpu_dpi::otpu_bundle_info(SID, otpu_dpi::BI_PROG_LEN);
    for (int i = 0; i < 8 * (int'(prog_len) + 1) && i < IMEM_WORDS; i++)  // (zeros past it)
      imem[i] = otpu_dpi::otpu_bundle_word(SID, otpu_dpi::BS_IMEM, longint'(i));
    for (int k = 0; k < 8; k++) args[k] = otpu_dpi::otpu_bundle_info(SID, otpu_dpi::BI_ARG0 + k);
  end

  // ---- fault injection: an early start (rtl/README.md) ---------------------------------------
  int f_slice, f_unit, f_n;
  logic f_used;                    // the early start has happened
  int   n_starts [NUNITS];
  initial begin
    f_slice = 0; f_unit = -1; f_n = 0;
    void'($value$plusargs("otpu_fault_slice=%d", f_slice));
    if (f_slice == SID) begin
      void'($value$plusargs("otpu_early_unit=%d", f_unit));
      void'($value$plusargs("otpu_early_n=%d", f_n));
    end
  end

  // ---- decode ---------------------------------------------------------------------------------
  logic [7:0][31:0] iw;
  always_comb begin
    for (int k = 0; k < 8; k++)
      iw[k] = (pc < 32'(NPROG)) ? imem[{pc[28:0], 3'(k)}] : 32'd0;
  end
  wire [7:0] op    = iw[0][7:0];
  wire [3:0] ra    = iw[0][11:8];
  wire [3:0] rb    = iw[0][15:12];
  wire [3:0] rc    = iw[0][19:16];
  wire [3:0] rd    = iw[0][23:20];
  wire [7:0] flags = iw[0][31:24];

  function automatic logic [31:0] rv(input logic [3:0] r);
    return (r == 4'd0) ? 32'd0 : R[r];
  endfunction

  // the instruction with the register of each register-relative field added
  function automatic cmd_t cmd_resolve(input logic [7:0][31:0] w);
    cmd_t c;
    logic [31:0] xa, xb, xc, xd;
    xa = rv(w[0][11:8]); xb = rv(w[0][15:12]); xc = rv(w[0][19:16]); xd = rv(w[0][23:20]);
    c.op = w[0][7:0]; c.flags = w[0][31:24];
    c.w1 = w[1]; c.w2 = w[2]; c.w3 = w[3]; c.w4 = w[4]; c.w5 = w[5]; c.w6 = w[6]; c.w7 = w[7];
    c.xw = w[2]; c.terr = 1'b0;
    case (c.op)
      OP_LD, OP_ST, OP_GATHER: begin c.w1 = w[1] + xa; c.w2 = w[2] + xb; end
      OP_WAITW, OP_DSTEP, OP_MM, OP_QST: begin
        c.w1 = w[1] + xa; c.w2 = w[2] + xb; c.w3 = w[3] + xc;
      end
      OP_QACT: c.w1 = w[1] + xa;
      OP_VOP: begin
        c.w1 = w[1] + xa; c.w2 = w[2] + xb; c.w3 = w[3] + xc; c.w7 = w[7] + xd;
      end
      OP_STREAM: begin
        c.w2 = w[2] + xa; c.w3 = w[3] + xa; c.w4 = w[4] + xb; c.w5 = w[5] + xc; c.w6 = w[6] + xd;
      end
      default: ;
    endcase
    return c;
  endfunction

  // the ISA's checks and the footprint of a dispatched instruction
  function automatic chk_t check(input cmd_t c);
    chk_t k;
    longint unsigned T, DB, n, a0, a1, a2, e, rows, cols, kb, m, nn, rr, bpb, nch;
    longint unsigned drs, ars, brs, srs;
    logic [7:0] func;
    logic [1:0] bmode;
    logic [1:0] wf;
    logic unit, accf, pair, ascale, rmax, row, half;
    rng_t wr, ra_, rb_;
    k = '0;
    T = longint'(TMEM_WORDS);
    DB = DRAM_BYTES;
    case (c.op)
      OP_LD, OP_ST: begin
        n = longint'(c.w3); a0 = longint'(c.w1); a1 = longint'(c.w2);
        if (n != 0 && (a0[1:0] != 2'd0 || a0 + 4 * n > DB || a1 + n > T)) k.err = 1'b1;
        if (c.op == OP_LD) begin
          k.fp.dr[0] = rng_1(a0, 4 * n); k.fp.tw[0] = rng_1(a1, n);
        end else begin
          k.fp.dw[0] = rng_1(a0, 4 * n); k.fp.tr[0] = rng_1(a1, n);
        end
      end
      OP_WAITW: begin
        a0 = longint'(c.w1); a1 = longint'(c.w2);
        if (a0[1:0] != 2'd0 || a0 + 4 > DB || a1 >= T || c.flags[1:0] == 2'd3) k.err = 1'b1;
        k.fp.dw[0] = rng_1(0, DB); k.fp.tw[0] = rng_1(a1, 1);
        k.serial = 1'b1;
      end
      OP_MM: begin
        unit = c.flags[F_UNIT]; accf = c.flags[F_ACC]; rmax = c.flags[F_RMAX];
        ascale = c.flags[F_ASCALE]; pair = c.flags[F_PAIR]; wf = c.flags[5:4];
        nn = longint'(c.w4[15:0]); kb = longint'(c.w4[31:16]);
        m = longint'(c.w6[23:16]);
        rr = pair ? 2 * m : m;
        a0 = longint'(c.w1); a1 = longint'(c.w2); a2 = longint'(c.w3);   // sa, ssa, out
        if (rr == 0 || rr > longint'(AR) || longint'(c.w6[31:24]) + kb > longint'(ACT_BLOCKS))
          k.err = 1'b1;
        if (m > longint'(MCOLS) && (rmax || ascale)) k.err = 1'b1;
        if (rmax && nn == 0) k.err = 1'b1;                   // a row maximum of no outputs
        if (pair && rr > longint'(MCOLS)) k.err = 1'b1;
        if (wf == 2'd3) k.err = 1'b1;
        if (pair && wf == 2'd0) k.err = 1'b1;
        if (pair && !unit && (a1[2:0] != 3'd0 || c.w7[2:0] != 3'd0)) k.err = 1'b1;
        bpb = (wf == 2'd0) ? longint'(D) : longint'(D / 2);
        nch = (kb * bpb + longint'(D) - 1) / longint'(D);
        // the streamed rows: sa + (N-1)*rs + chunks*D <= DRAM_BYTES (N = 0: sa + chunks*D - rs)
        if (a0 % longint'(D) != 0 || longint'(c.w5) % longint'(D) != 0) k.err = 1'b1;
        else if (nn != 0 && a0 + (nn - 1) * longint'(c.w5) + nch * longint'(D) > DB) k.err = 1'b1;
        else if (nn == 0 && a0 + nch * longint'(D) > DB + longint'(c.w5)) k.err = 1'b1;
        if (!unit && nn != 0 && kb != 0) begin
          if (a1[1:0] != 2'd0 || (nn > 1 && c.w7[1:0] != 2'd0)) k.err = 1'b1;
          if (a1 + (nn - 1) * longint'(c.w7) + 4 * kb > DB) k.err = 1'b1;
        end
        if (ascale && !(unit && accf)) k.err = 1'b1;
        if (ascale && a1 + m > T) k.err = 1'b1;
        e = end_2d(a2, m, longint'(c.w6[15:0]), nn);
        if (e > T) k.err = 1'b1;
        if (rmax && !k.err && a2 + m * longint'(c.w6[15:0]) + m > T) k.terr = 1'b1;
        k.fp.dr[0] = rng_2d(a0, nn, longint'(c.w5), nch * longint'(D));
        if (!unit) k.fp.dr[1] = rng_2d(a1, nn, longint'(c.w7), 4 * kb);
        k.fp.tw[0] = rng_2d(a2, m, longint'(c.w6[15:0]), nn);
        if (accf || ascale) k.fp.tr[0] = k.fp.tw[0];
        // alpha and the activations are read for outputs: none without (N = 0, isa.def's sizes)
        if (ascale) k.fp.tr[1] = rng_1(a1, (nn != 0) ? m : 0);
        if (rmax && !k.terr) k.fp.tw[1] = rng_1(a2 + m * longint'(c.w6[15:0]), m);
        k.fp.ar = rng_1(longint'(c.w6[31:24]), (nn != 0) ? kb : 0);
      end
      OP_QACT: begin
        rows = longint'(c.w2[7:0]); kb = longint'(c.w2[31:16]);
        a0 = longint'(c.w1);
        // DUP's copies (row r + rows) must fit the ACT RAM, but for one row in a one-row ACT
        // RAM, whose copy is dropped (the reference's rule; the quantizer drops it)
        if ((c.flags[F_DUP] ? 2 * rows > longint'(MCOLS) || (rows > 1 && 2 * rows > longint'(AR))
                            : rows > longint'(AR)) ||
            longint'(c.w2[15:8]) + kb > longint'(ACT_BLOCKS)) k.err = 1'b1;
        e = end_2d(a0, rows, longint'(c.w3), kb * longint'(D));
        if (e > T) k.err = 1'b1;
        if (c.flags[F_RSCALE] && rows != 0 && longint'(c.w5) + rows > T) k.err = 1'b1;
        if (c.flags[F_CSCALE] && kb != 0 && longint'(c.w4) + kb * longint'(D) > T) k.err = 1'b1;
        k.fp.tr[0] = rng_2d(a0, rows, longint'(c.w3), kb * longint'(D));
        // a scale is read with the elements it scales: none when there are none
        if (c.flags[F_CSCALE] && rows != 0) k.fp.tr[1] = rng_1(longint'(c.w4), kb * longint'(D));
        if (c.flags[F_RSCALE] && kb != 0) k.fp.tr[2] = rng_1(longint'(c.w5), rows);
        k.fp.aw = rng_1(longint'(c.w2[15:8]), kb);
      end
      OP_QST: begin
        rows = longint'(c.w4[15:0]); kb = longint'(c.w4[31:16]);
        row = c.flags[F_ROW]; half = c.flags[F_HALF];
        a0 = longint'(c.w1); a1 = longint'(c.w2); a2 = longint'(c.w3);
        n = half ? kb * longint'(D) / 2 : kb * longint'(D);             // elements written
        if (half && !row) k.err = 1'b1;
        if (row && rows != 0 && kb == 0) k.err = 1'b1;       // a row's scale of no elements
        if (end_2d(a0, rows, longint'(c.w5), kb * longint'(D)) > T) k.err = 1'b1;
        if (rows != 0 && n != 0 &&
            a1 + (rows - 1) * longint'(c.w6) + (n - 1) * longint'(c.w7) >= DB) k.err = 1'b1;
        e = row ? rows : rows * kb;                                       // scale words
        if (!k.err && e != 0 && (a2[1:0] != 2'd0 || a2 + 4 * e > DB)) k.terr = 1'b1;
        k.fp.tr[0] = rng_2d(a0, rows, longint'(c.w5), kb * longint'(D));
        if (rows != 0 && n != 0)
          k.fp.dw[0] = rng_1(a1, (rows - 1) * longint'(c.w6) + (n - 1) * longint'(c.w7) + 1);
        if (!k.terr) k.fp.dw[1] = rng_1(a2, 4 * e);
      end
      OP_VOP: begin
        rows = longint'(c.w4[15:0]); cols = longint'(c.w4[31:16]);
        drs = longint'(c.w5[15:0]); ars = longint'(c.w5[31:16]); brs = longint'(c.w6[15:0]);
        func = c.w6[23:16]; bmode = c.w6[25:24];
        a0 = longint'(c.w1); a1 = longint'(c.w2); a2 = longint'(c.w3);   // dst, a, b
        wr = RNG_NONE; ra_ = RNG_NONE; rb_ = RNG_NONE;
        if (func == V_OUTER) begin
          if (bmode != 2'd1 || cols > 256) k.err = 1'b1;
          wr = rng_2d(a0, rows, drs, cols);
          if (rows != 0) rb_ = rng_2d(a2, rows, brs, (cols != 0) ? 1 : 0);
          k.fp.tr[1] = rng_1(longint'(c.w7), cols);                       // Cv
          if (!c.flags[F_DONE])
            k.fp.tr[2] = rng_1(a1, c.flags[F_DSCALAR] ? ((cols != 0) ? 1 : 0) : cols);  // Dv
          if (k.fp.tr[1].hi > T || k.fp.tr[2].hi > T) k.err = 1'b1;
          // checked even without rows, but read for elements only (isa.def's sizes)
          if (rows == 0) begin k.fp.tr[1] = RNG_NONE; k.fp.tr[2] = RNG_NONE; end
          k.fp.tr[0] = wr;
          k.fp.tr[3] = rb_;
          k.fp.tw[0] = wr;
          // an element reads its own word (no hazard) unless rows overlap
          k.hz = (rows > 1 && drs < cols) || rng_ov(wr, rb_);
        end else begin
          if (func != V_FILL) ra_ = rng_2d(a1, rows, ars, cols);
          if (func <= V_MIN || func == V_FILL || func == V_EXP2SUB || func == V_RDOT) begin
            case (bmode)
              2'd0: rb_ = rng_2d(a2, rows, brs, cols);
              2'd1: rb_ = rng_2d(a2, rows, brs, (cols != 0) ? 1 : 0);
              2'd2: rb_ = rng_2d(a2, (rows != 0) ? 1 : 0, 0, cols);
              default: rb_ = RNG_NONE;
            endcase
          end
          if ((func == V_RMAX || func == V_ARGMAX) && cols == 0) k.err = 1'b1;  // max of nothing
          if (func == V_ARGMAX) begin
            if (rows > 1 && drs < 2) k.err = 1'b1;
            wr = rng_2d(a0, rows, drs, 2);
            k.hz = rng_ov(wr, ra_);
          end else if (func >= V_RSUM && func <= V_RDOT) begin
            wr = rng_2d(a0, rows, drs, 1);
            k.hz = rng_ov(wr, ra_) || rng_ov(wr, rb_);
          end else begin
            if (func == V_OUTER + 1 || func > V_ARGMAX) k.err = 1'b1;
            wr = rng_2d(a0, rows, drs, cols);
            // A in place with the same strides reads each word before its own write
            k.hz = (rng_ov(wr, ra_) && !(a1 == a0 && ars == drs && (rows <= 1 || drs >= cols)))
                   || rng_ov(wr, rb_);
          end
          k.fp.tr[0] = ra_;
          k.fp.tr[1] = rb_;
          k.fp.tw[0] = wr;
        end
        if (wr.hi > T || ra_.hi > T || rb_.hi > T) k.err = 1'b1;
        if (k.err) k.hz = 1'b0;
      end
      OP_GATHER: begin
        rows = longint'(c.w3[15:0]); cols = longint'(c.w3[31:16]);
        k.fp.tr[0] = rng_2d(longint'(c.w1), rows, longint'(c.w4), cols);
        if (rows != 0 && cols != 0)
          k.fp.tw[0] = rng_1(longint'(c.w2), longint'(S - 1) * longint'(c.w6) +
                                           (rows - 1) * longint'(c.w5) + cols);
        if (k.fp.tr[0].hi > T || k.fp.tw[0].hi > T) k.err = 1'b1;
      end
      OP_BAR: k.fp.all = 1'b1;
      OP_DSTEP: begin
        rows = longint'(c.w4[15:0]); cols = longint'(c.w4[31:16]);
        a0 = longint'(c.w1); a1 = longint'(c.w2); a2 = longint'(c.w3);
        if (rows == 0 || rows > 256 || cols[5:0] != 6'd0 || cols == 0 || cols > 256) k.err = 1'b1;
        if (a0 % longint'(D) != 0) k.err = 1'b1;
        k.fp.tr[0] = rng_1(a1, 2 * cols);
        k.fp.tr[1] = rng_1(a2, rows);
        k.fp.tr[2] = rng_1(longint'(c.w5), 1);
        k.fp.tr[3] = rng_1(longint'(c.w5) + longint'(c.w7), 1);
        for (int i = 0; i < 4; i++) if (k.fp.tr[i].hi > T) k.err = 1'b1;
        if (a0 + 4 * rows * cols > DB) k.err = 1'b1;
        if (!k.err && longint'(c.w6) + rows > T) k.terr = 1'b1;
        k.fp.dr[0] = rng_1(a0, 4 * rows * cols);
        k.fp.dw[0] = k.fp.dr[0];
        if (!k.terr) k.fp.tw[0] = rng_1(longint'(c.w6), rows);
      end
      OP_STREAM: begin
        k.fp.all = 1'b1;
        k.serial = 1'b1;
      end
      default: k.err = 1'b1;
    endcase
    return k;
  endfunction

  cmd_t dcmd;
  chk_t dchk;
  always_comb dcmd = cmd_resolve(iw);
  always_comb dchk = check(dcmd);

  // ---- window bookkeeping (combinational) ---------------------------------------------------
  logic [WIN-1:0] fin;             // completes this cycle
  logic           have_free;
  logic [SW-1:0]  free_slot;
  logic [WIN-1:0] ndep;            // the dependencies of the instruction at pc
  logic           rld_wait;        // an in-flight instruction writes RLD's word
  logic [31:0]    rld_addr;
  logic [NUNITS-1:0] cand_v, cand_early;
  logic [SW-1:0]  cand [NUNITS];

  assign rld_addr = rv(ra) + iw[1];

  always_comb begin
    fin = '0;
    for (int u = 0; u < NUNITS; u++)
      if (u_done[u]) fin[run_slot[u]] = 1'b1;
    have_free = 1'b0; free_slot = '0;
    for (int i = WIN - 1; i >= 0; i--)
      if (!s_v[i]) begin have_free = 1'b1; free_slot = SW'(i); end
    rld_wait = 1'b0;
    for (int i = 0; i < WIN; i++) begin
      ndep[i] = s_v[i] && !fin[i] && fp_conflict(dchk.fp, s_fp[i]);
      if (s_v[i] && fp_writes_t(s_fp[i], rld_addr)) rld_wait = 1'b1;
    end
    for (int u = 0; u < NUNITS; u++) begin
      logic early;
      cand_v[u] = 1'b0; cand[u] = '0; cand_early[u] = 1'b0;
      early = !f_used && u == f_unit && n_starts[u] >= f_n - 1;
      for (int i = 0; i < WIN; i++) begin
        if (s_v[i] && !s_started[i] && s_unit[i] == 3'(u) &&
            (s_dep[i] == '0 || (early && !fin[i])) &&
            (!cand_v[u] || s_age[i] < s_age[cand[u]])) begin
          cand_v[u] = 1'b1; cand[u] = SW'(i);
        end
      end
      // the slices' GATHERs pair up in program order: COLL starts only its oldest
      if (u == U_COLL && cand_v[u])
        for (int i = 0; i < WIN; i++)
          if (s_v[i] && !s_started[i] && s_unit[i] == 3'(u) && s_age[i] < s_age[cand[u]])
            cand_v[u] = 1'b0;
      if (cand_v[u] && s_dep[cand[u]] != '0) cand_early[u] = 1'b1;
      // an early start only for an instruction that still waits: otherwise start as usual
      if (early && cand_v[u] && !cand_early[u]) begin
        cand_v[u] = 1'b0;
        for (int i = 0; i < WIN; i++)
          if (s_v[i] && !s_started[i] && s_unit[i] == 3'(u) && s_dep[i] == '0 &&
              (!cand_v[u] || s_age[i] < s_age[cand[u]])) begin
            cand_v[u] = 1'b1; cand[u] = SW'(i);
          end
      end
    end
  end

  always_comb begin
    for (int u = 0; u < NUNITS; u++) begin
      u_start[u] = u_idle[u] && cand_v[u] && st != ST_ERROR && st != ST_HALTED;
      u_cmd[u] = s_cmd[cand[u]];
      ev_start[u].v = u_start[u];
      ev_start[u].slot = 8'(cand[u]);
      ev_start[u].pc = s_pc[cand[u]];
      ev_start[u].op = s_op[cand[u]];
      ev_done[u].v = u_done[u];
      ev_done[u].slot = 8'(run_slot[u]);
      ev_done[u].pc = s_pc[run_slot[u]];
      ev_done[u].op = s_op[run_slot[u]];
    end
  end

  // ---- the VOP dry run: in element order, each read is checked against the earlier writes ----
  logic [31:0] hz_rda, hz_rdb, hz_wa;
  logic        hz_rda_v, hz_rdb_v, hz_wa_v, hz_wb_v, hz_last, hz_hit;
  always_comb begin
    logic [7:0] f;
    logic [1:0] bm;
    f = hz_c.w6[23:16]; bm = hz_c.w6[25:24];
    hz_last = (hz_cc + 1 == 32'(hz_c.w4[31:16]));
    hz_rda_v = 1'b0; hz_rdb_v = 1'b0; hz_wa_v = 1'b0; hz_wb_v = 1'b0;
    hz_rda = '0; hz_rdb = '0; hz_wa = '0;
    if (f == V_OUTER) begin
      hz_rda_v = 1'b1; hz_rda = hz_c.w1 + hz_r * 32'(hz_c.w5[15:0]) + hz_cc;
      hz_rdb_v = 1'b1; hz_rdb = hz_c.w3 + hz_r * 32'(hz_c.w6[15:0]);
      hz_wa_v = 1'b1; hz_wa = hz_rda;
    end else begin
      hz_rda_v = (f != V_FILL);
      hz_rda = hz_c.w2 + hz_r * 32'(hz_c.w5[31:16]) + hz_cc;
      hz_rdb_v = (f <= V_MIN || f == V_FILL || f == V_EXP2SUB || f == V_RDOT) && bm != 2'd3;
      case (bm)
        2'd0: hz_rdb = hz_c.w3 + hz_r * 32'(hz_c.w6[15:0]) + hz_cc;
        2'd1: hz_rdb = hz_c.w3 + hz_r * 32'(hz_c.w6[15:0]);
        default: hz_rdb = hz_c.w3 + hz_cc;
      endcase
      if (f >= V_RSUM) begin
        hz_wa = hz_c.w1 + hz_r * 32'(hz_c.w5[15:0]);
        hz_wa_v = hz_last;
        hz_wb_v = hz_last && f == V_ARGMAX;
      end else begin
        hz_wa = hz_c.w1 + hz_r * 32'(hz_c.w5[15:0]) + hz_cc;
        hz_wa_v = 1'b1;
      end
    end
    hz_hit = (hz_rda_v && hz_rda < 32'(TMEM_WORDS) && hz_mark[hz_rda] == hz_ep) ||
             (hz_rdb_v && hz_rdb < 32'(TMEM_WORDS) && hz_mark[hz_rdb] == hz_ep);
  end

  // ---- the main state machine ------------------------------------------------------------
  wire win_empty = (s_v == '0);
  wire dyn_err = |(u_done & u_err);
  logic [31:0] dyn_err_pc;
  always_comb begin
    dyn_err_pc = '0;
    for (int u = NUNITS - 1; u >= 0; u--)
      if (u_done[u] && u_err[u]) dyn_err_pc = s_pc[run_slot[u]];
  end

  // RLD's value
  logic [31:0] rld_val;
  always_comb begin
    rld_val = flags[F_RAW] ? t_rdata : f2i(t_rdata);
    if (flags[F_MUL]) rld_val = rld_val * (rv(rb) + iw[2]);
  end
  assign t_raddr = rld_addr;
  assign m_raddr = ch_addr + (ch_i << 2);

  // dispatch this cycle
  logic do_disp;
  always_comb begin
    do_disp = st == ST_RUN && !dyn_err && pc < prog_len && unit_of(op) >= 0 && !dchk.err &&
              (!dchk.hz || hz_ok) && (!dchk.serial || win_empty) && have_free;
  end

  always_comb begin
    ev_disp.v = do_disp;
    ev_disp.slot = 8'(free_slot);
    ev_disp.pc = pc;
    ev_disp.op = op;
  end

  task automatic advance();
    if (sp != 3'd0 && ls_end[sp - 1] == pc) begin
      if (ls_cnt[sp - 1] > 32'd1) begin
        ls_cnt[sp - 1] <= ls_cnt[sp - 1] - 32'd1;
        pc <= ls_start[sp - 1];
      end else begin
        sp <= sp - 3'd1;
        pc <= pc + 32'd1;
      end
    end else begin
      pc <= pc + 32'd1;
    end
  endtask

  task automatic fail(input logic [31:0] at);
    err_pc <= at;
    st <= ST_ERRW;
  endtask

  always_ff @(posedge clk) begin
    ev_exec.v <= 1'b0;
    ev_reg.v <= 1'b0;
    ev_chain <= 1'b0;
    if (rst) begin
      st <= ST_RUN; pc <= '0; icount <= '0; sp <= '0; hz_ok <= 1'b0; cycles <= '0;
      s_v <= '0; s_started <= '0; age_ctr <= '0; hz_ep <= '0;
      for (int r = 0; r < 16; r++) R[r] <= (r >= 8) ? args[r - 8] : 32'd0;
      f_used <= 1'b0;
      for (int u = 0; u < NUNITS; u++) n_starts[u] <= 0;
    end else begin
      if (st != ST_HALTED && st != ST_ERROR) cycles <= cycles + 32'd1;
      // completions and starts
      for (int i = 0; i < WIN; i++) s_dep[i] <= s_dep[i] & ~fin;
      for (int u = 0; u < NUNITS; u++) begin
        if (u_done[u]) s_v[run_slot[u]] <= 1'b0;
        if (u_start[u]) begin
          s_started[cand[u]] <= 1'b1;
          run_slot[u] <= cand[u];
          n_starts[u] <= n_starts[u] + 1;
          if (cand_early[u]) f_used <= 1'b1;
        end
      end
      if (do_disp) begin
        s_v[free_slot] <= 1'b1;
        s_started[free_slot] <= 1'b0;
        s_dep[free_slot] <= ndep;
        s_unit[free_slot] <= 3'(unit_of(op));
        s_age[free_slot] <= age_ctr;
        s_pc[free_slot] <= pc;
        s_op[free_slot] <= op;
        s_cmd[free_slot] <= '{op: dcmd.op, flags: dcmd.flags, w1: dcmd.w1, w2: dcmd.w2,
                              w3: dcmd.w3, w4: dcmd.w4, w5: dcmd.w5, w6: dcmd.w6, w7: dcmd.w7,
                              xw: dcmd.xw, terr: dchk.terr};
        s_fp[free_slot] <= dchk.fp;
        age_ctr <= age_ctr + 32'd1;
        icount <= icount + 32'd1;
        hz_ok <= 1'b0;
        if (dchk.terr) fail(pc);
        else begin
          advance();
          if (dchk.serial) st <= ST_SER;
        end
      end else if (dyn_err && st != ST_ERROR && st != ST_HALTED) begin
        fail(dyn_err_pc);
      end else begin
        case (st)
          ST_RUN: begin
            if (pc >= prog_len) begin
              fail(pc);                                       // past the end: not counted
            end else begin
              case (unit_of(op))
                -1: begin
                  case (op)
                    OP_NOP, OP_LI, OP_ADDI: begin
                      icount <= icount + 32'd1;
                      ev_exec <= '{v: 1'b1, slot: 8'd0, pc: pc, op: op};
                      if (op != OP_NOP && rd != 4'd0) begin
                        R[rd] <= (op == OP_LI) ? iw[1] : rv(ra) + iw[1];
                        ev_reg <= '{v: 1'b1, space: SP_REG, addr: 32'(rd),
                                    data: (op == OP_LI) ? iw[1] : rv(ra) + iw[1], mask: 4'hF};
                      end
                      advance();
                    end
                    OP_LOOP: begin
                      logic [31:0] cnt, lend;
                      logic same;
                      icount <= icount + 32'd1;
                      ev_exec <= '{v: 1'b1, slot: 8'd0, pc: pc, op: op};
                      cnt = rv(ra) + iw[2];
                      lend = pc + iw[1];
                      same = 1'b0;
                      for (int i = 0; i < 4; i++)
                        if (3'(i) < sp && ls_end[i] == lend) same = 1'b1;
                      if (iw[1] == 32'd0) fail(pc);
                      else if (cnt == 32'd0) pc <= pc + 32'd1 + iw[1];
                      else if (sp >= 3'd4) fail(pc);
                      else if (same) fail(pc);
                      else begin
                        ls_start[sp[1:0]] <= pc + 32'd1;
                        ls_end[sp[1:0]] <= lend;
                        ls_cnt[sp[1:0]] <= cnt;
                        sp <= sp + 3'd1;
                        pc <= pc + 32'd1;
                      end
                    end
                    OP_HALT: begin
                      icount <= icount + 32'd1;
                      ev_exec <= '{v: 1'b1, slot: 8'd0, pc: pc, op: op};
                      st <= ST_HALT;
                    end
                    default: begin                            // OP_RLD
                      icount <= icount + 32'd1;
                      if (rld_addr >= 32'(TMEM_WORDS)) fail(pc);
                      else st <= ST_RLD;
                    end
                  endcase
                end
                -2: begin                                     // not an opcode
                  icount <= icount + 32'd1;
                  fail(pc);
                end
                default: begin
                  if (dchk.err) begin
                    icount <= icount + 32'd1;
                    fail(pc);
                  end else if (dchk.hz && !hz_ok) begin
                    st <= ST_HZ;
                    hz_c <= dcmd;
                    hz_r <= '0; hz_cc <= '0;
                    hz_ep <= hz_ep + 32'd1;
                  end
                  // otherwise: waits for a free slot (or, serial, an empty window)
                end
              endcase
            end
          end
          ST_RLD: begin
            if (!rld_wait) begin
              ev_exec <= '{v: 1'b1, slot: 8'd0, pc: pc, op: op};
              if (rd != 4'd0) begin
                R[rd] <= rld_val;
                ev_reg <= '{v: 1'b1, space: SP_REG, addr: 32'(rd), data: rld_val, mask: 4'hF};
              end
              advance();
              st <= ST_RUN;
            end
          end
          ST_HZ: begin
            if (hz_c.w4[15:0] == 16'd0 || hz_c.w4[31:16] == 16'd0) begin
              hz_ok <= 1'b1; st <= ST_RUN;
            end else if (hz_hit) begin
              icount <= icount + 32'd1;
              fail(pc);
            end else begin
              if (hz_wa_v && hz_wa < 32'(TMEM_WORDS)) hz_mark[hz_wa] <= hz_ep;
              if (hz_wb_v && hz_wa + 1 < 32'(TMEM_WORDS)) hz_mark[hz_wa + 1] <= hz_ep;
              if (hz_last) begin
                hz_cc <= '0;
                hz_r <= hz_r + 32'd1;
                if (hz_r + 1 == 32'(hz_c.w4[15:0])) begin hz_ok <= 1'b1; st <= ST_RUN; end
              end else begin
                hz_cc <= hz_cc + 32'd1;
              end
            end
          end
          ST_HALT: begin
            if (win_empty) begin
              if (flags[F_CHAIN]) begin
                if (chain_bad) begin
                  err_pc <= pc; st <= ST_ERROR;               // halted and error (as the ISA)
                end else begin
                  ch_addr <= rv(ra); ch_n <= rv(rb); ch_i <= '0;
                  st <= ST_CHAIN;
                end
              end else begin
                st <= ST_HALTED;
              end
            end
          end
          ST_CHAIN: begin
            imem[ch_i] <= m_rdata;
            ch_i <= ch_i + 32'd1;
            if (ch_i + 1 == (ch_n << 3)) begin
              ev_chain <= 1'b1;
              pc <= '0; sp <= '0; prog_len <= ch_n;
              for (int r = 0; r < 16; r++) R[r] <= (r >= 8) ? args[r - 8] : 32'd0;
              st <= ST_RUN;
            end
          end
          ST_HALTED: begin
            // the host of a run bundle restarts the slice (host.txt's run) with its arguments,
            // after loading a new program one word a cycle; memories, ICOUNT and CYCLES go on
            automatic int hn = otpu_dpi::otpu_host_run(SID);
            if (hn >= 0) begin
              for (int k = 0; k < 8; k++) args[k] <= otpu_dpi::otpu_host_arg(SID, k);
              ch_n <= 32'(hn); ch_i <= '0;
              st <= (hn > 0) ? ST_HLOAD : ST_HSTART;
            end
          end
          ST_HLOAD: begin
            imem[ch_i] <= otpu_dpi::otpu_host_prog_word(SID, int'(ch_i));
            ch_i <= ch_i + 32'd1;
            if (ch_i + 1 == (ch_n << 3)) begin
              prog_len <= ch_n;
              st <= ST_HSTART;
            end
          end
          ST_HSTART: begin
            pc <= '0; sp <= '0;
            for (int r = 0; r < 16; r++) R[r] <= (r >= 8) ? args[r - 8] : 32'd0;
            st <= ST_RUN;
          end
          ST_SER: if (win_empty) st <= ST_RUN;
          ST_ERRW: if (win_empty) begin pc <= err_pc; st <= ST_ERROR; end
          default: ;
        endcase
      end
    end
  end

  // HALT CHAIN to a bad program (address, count): the slice is halted and stops with error
  logic chain_bad, err_halted;
  always_comb begin
    longint unsigned ad, nw;
    ad = longint'(rv(ra)); nw = longint'(rv(rb));
    chain_bad = ad % longint'(D) != 0 || nw == 0 || nw > longint'(NPROG) ||
                ad + 32 * nw > DRAM_BYTES;
  end
  always_ff @(posedge clk) begin
    if (rst) err_halted <= 1'b0;
    else if (st == ST_HALT && win_empty && flags[F_CHAIN] && chain_bad) err_halted <= 1'b1;
  end
  assign halted = (st == ST_HALTED) || (st == ST_ERROR && err_halted);
  assign error = (st == ST_ERROR);

  assign pc_o = pc;
  assign icount_o = icount;
  assign win_busy = !win_empty;
  assign ev_chain_addr = ch_addr;
  assign ev_chain_n = ch_n;

  // ---- final-state dump -----------------------------------------------------------------------
  always_ff @(posedge clk) begin
    if (dump) begin
      for (int r = 0; r < 16; r++)
        otpu_dpi::otpu_dump_word(SID, otpu_dpi::DS_REG, longint'(r), rv(4'(r)));
      otpu_dpi::otpu_dump_word(SID, otpu_dpi::DS_STATE, 0, 32'(halted));
      otpu_dpi::otpu_dump_word(SID, otpu_dpi::DS_STATE, 1, 32'(error));
      otpu_dpi::otpu_dump_word(SID, otpu_dpi::DS_STATE, 2, pc);
      otpu_dpi::otpu_dump_word(SID, otpu_dpi::DS_STATE, 3, icount);
      otpu_dpi::otpu_dump_word(SID, otpu_dpi::DS_STATE, 4, cycles);
      for (int i = 0; i < WIN; i++) begin
        otpu_dpi::otpu_dump_word(SID, otpu_dpi::DS_SLOT, longint'(16 * i + 0), 32'(s_v[i]));
        otpu_dpi::otpu_dump_word(SID, otpu_dpi::DS_SLOT, longint'(16 * i + 1), 32'(s_started[i]));
        otpu_dpi::otpu_dump_word(SID, otpu_dpi::DS_SLOT, longint'(16 * i + 2), 32'(s_unit[i]));
        otpu_dpi::otpu_dump_word(SID, otpu_dpi::DS_SLOT, longint'(16 * i + 3), s_pc[i]);
        otpu_dpi::otpu_dump_word(SID, otpu_dpi::DS_SLOT, longint'(16 * i + 4), 32'(s_op[i]));
        otpu_dpi::otpu_dump_word(SID, otpu_dpi::DS_SLOT, longint'(16 * i + 5), 32'(s_dep[i]));
      end
    end
  end
endmodule

// otpu_pkg.sv - shared definitions of the reference RTL (rtl/README.md): opcodes, units, the
// command a unit receives, the memory footprint the scoreboard keeps, and the event records of
// the lockstep interface (rtl/EVENTS.md).
package otpu_pkg;
  // units, write ports, memory spaces and record kinds: the lockstep protocol's description
  import otpu_protocol_pkg::*;
  export otpu_protocol_pkg::*;

  // ---- opcodes (openTPU docs/isa.md "Encoding") ------------------------------------------
  localparam logic [7:0] OP_NOP    = 8'h00;
  localparam logic [7:0] OP_HALT   = 8'h01;
  localparam logic [7:0] OP_LI     = 8'h02;
  localparam logic [7:0] OP_ADDI   = 8'h03;
  localparam logic [7:0] OP_LOOP   = 8'h04;
  localparam logic [7:0] OP_BAR    = 8'h05;
  localparam logic [7:0] OP_RLD    = 8'h06;
  localparam logic [7:0] OP_WAITW  = 8'h07;
  localparam logic [7:0] OP_LD     = 8'h10;
  localparam logic [7:0] OP_ST     = 8'h11;
  localparam logic [7:0] OP_DSTEP  = 8'h12;
  localparam logic [7:0] OP_STREAM = 8'h13;
  localparam logic [7:0] OP_MM     = 8'h20;
  localparam logic [7:0] OP_QACT   = 8'h21;
  localparam logic [7:0] OP_QST    = 8'h22;
  localparam logic [7:0] OP_VOP    = 8'h30;
  localparam logic [7:0] OP_GATHER = 8'h40;

  // ---- flags ---------------------------------------------------------------------------------
  localparam int F_CHAIN = 0;                       // HALT
  localparam int F_RAW = 0, F_MUL = 1;              // RLD
  localparam int F_UNIT = 0, F_ACC = 1, F_RMAX = 2, F_ASCALE = 3, F_PAIR = 6;   // MM; WF = [5:4]
  localparam int F_ROW = 0, F_CSCALE = 1, F_RSCALE = 2, F_DUP = 3;              // QACT
  localparam int F_HALF = 1;                                                    // QST (+ F_ROW)
  localparam int F_DSCALAR = 0, F_DONE = 1;                                     // VOP OUTER
  localparam int F_DZERO = 0;                                                   // DSTEP
  localparam int F_SZERO = 0, F_SRC_T = 1, F_DST_T = 2, F_NODST = 3;            // STREAM

  // ---- VOP functions -------------------------------------------------------------------------
  localparam logic [7:0] V_ADD = 0, V_SUB = 1, V_RSUB = 2, V_MUL = 3, V_MAX = 4, V_MIN = 5,
                         V_OUTER = 6, V_COPY = 8, V_EXP2 = 9, V_RECIP = 10, V_RSQRT = 11,
                         V_ABS = 12, V_FILL = 13, V_EXP2SUB = 14, V_LOG2 = 15, V_RSUM = 16,
                         V_RMAX = 17, V_RSSQ = 18, V_RDOT = 19, V_ARGMAX = 20;

  // ---- a write as it lands ------------------------------------------------------------------
  // TMEM: addr = word index.  DRAM: addr = byte address of the aligned word, mask = bytes
  // written.  ACT: addr = row * ACT_BLOCKS * D + column, data[7:0] = the int8.  ASCALE:
  // addr = row * ACT_BLOCKS + block.  REG: addr = register number.  mask = 4'hF except DRAM.
  typedef struct packed {
    logic        v;
    logic [2:0]  space;
    logic [31:0] addr;
    logic [31:0] data;
    logic [3:0]  mask;
  } wr_t;

  // ---- the command a unit receives ------------------------------------------------------------
  // w1..w7 as encoded, with the register of the ISA already added where it has one (cmd_resolve).
  typedef struct packed {
    logic [7:0]  op;
    logic [7:0]  flags;
    logic [31:0] w1, w2, w3, w4, w5, w6, w7;
    logic [31:0] xw;      // GATHER: w2 as encoded (the slices compare it)
    logic        terr;    // the ISA raises an error after this instruction's first phase of
                          // writes (MM RMAX rows, QST scales, DSTEP o out of range): the unit
                          // skips the rest and the slice stops once it completes
  } cmd_t;

  // ---- instruction events: dispatch, sequencer-executed, unit start and completion --------------
  typedef struct packed {
    logic        v;
    logic [7:0]  slot;    // window slot (dispatch, start, complete)
    logic [31:0] pc;
    logic [7:0]  op;
  } ev_ins_t;

  // ---- footprints -----------------------------------------------------------------------------
  // A half-open range [lo, hi) of TMEM words, DRAM bytes or ACT RAM blocks (all rows); lo >= hi
  // is empty. 34 bits hold every range of an instruction that passed its checks.
  typedef struct packed {
    logic [33:0] lo, hi;
  } rng_t;

  typedef struct packed {
    logic            all;   // conflicts with every instruction (BAR, STREAM)
    rng_t [3:0]      tr;    // TMEM read
    rng_t [1:0]      tw;    // TMEM written
    rng_t [1:0]      dr;    // DRAM read
    rng_t [1:0]      dw;    // DRAM written
    rng_t            ar;    // ACT read
    rng_t            aw;    // ACT written
  } fp_t;

  localparam rng_t RNG_NONE = '0;

  function automatic logic rng_ov(input rng_t a, input rng_t b);
    return a.lo < a.hi && b.lo < b.hi && a.lo < b.hi && b.lo < a.hi;
  endfunction

  // [base, base + (no - 1) * stride + ni): no rows of ni elements stride apart; empty if either
  // count is 0. 64-bit arithmetic, then clamped into the 34-bit range form.
  function automatic rng_t rng_2d(input longint unsigned base, input longint unsigned no,
                                  input longint unsigned stride, input longint unsigned ni);
    rng_t r;
    longint unsigned hi;
    r = RNG_NONE;
    if (no != 0 && ni != 0) begin
      hi = base + (no - 1) * stride + ni;
      if (hi > 64'h3_FFFF_FFFF) hi = 64'h3_FFFF_FFFF;
      r.lo = base[33:0];
      r.hi = hi[33:0];
    end
    return r;
  endfunction

  function automatic rng_t rng_1(input longint unsigned base, input longint unsigned n);
    return rng_2d(base, 1, 0, n);
  endfunction

  // the end (one past the last element) of rng_2d, unclamped, for the range checks; 0 if empty
  function automatic longint unsigned end_2d(input longint unsigned base, input longint unsigned no,
                                            input longint unsigned stride, input longint unsigned ni);
    if (no == 0 || ni == 0) return 0;
    return base + (no - 1) * stride + ni;
  endfunction

  // two footprints conflict: a range of one meets a range of the other in the same space and at
  // least one of the two is a write
  function automatic logic fp_conflict(input fp_t n, input fp_t e);
    logic c;
    c = n.all || e.all;
    for (int i = 0; i < 2; i++) begin
      for (int j = 0; j < 4; j++) begin
        c = c || rng_ov(n.tw[i], e.tr[j]) || rng_ov(e.tw[i], n.tr[j]);
      end
      for (int j = 0; j < 2; j++) begin
        c = c || rng_ov(n.tw[i], e.tw[j]);
        c = c || rng_ov(n.dw[i], e.dw[j]) || rng_ov(n.dw[i], e.dr[j]) || rng_ov(e.dw[i], n.dr[j]);
      end
    end
    c = c || rng_ov(n.aw, e.aw) || rng_ov(n.aw, e.ar) || rng_ov(e.aw, n.ar);
    return c;
  endfunction

  // RLD's word: does the footprint write TMEM word a?
  function automatic logic fp_writes_t(input fp_t e, input logic [31:0] a);
    rng_t r;
    r.lo = {2'b0, a};
    r.hi = {2'b0, a} + 34'd1;
    return e.all || rng_ov(e.tw[0], r) || rng_ov(e.tw[1], r);
  endfunction

  // RLD's conversion (openTPU docs/isa.md "RLD"): truncation toward zero; |x| < 1 gives 0,
  // |x| >= 2^31, infinities and NaN give 0x80000000
  function automatic logic [31:0] f2i(input logic [31:0] b);
    logic [7:0]  e;
    logic [31:0] m, v;
    e = b[30:23];
    if (e < 8'd127) return 32'd0;
    if (e >= 8'd158) return 32'h8000_0000;
    m = {8'd0, 1'b1, b[22:0]};
    if (e >= 8'd150) v = m << (e - 8'd150);
    else v = m >> (8'd150 - e);
    return b[31] ? (~v + 32'd1) : v;
  endfunction

  // which unit runs an opcode (-1: the sequencer itself, -2: not an instruction)
  function automatic int unit_of(input logic [7:0] op);
    case (op)
      OP_NOP, OP_HALT, OP_LI, OP_ADDI, OP_LOOP, OP_RLD: return -1;
      OP_LD, OP_ST, OP_WAITW, OP_DSTEP, OP_STREAM: return U_DMA;
      OP_MM: return U_MXU;
      OP_QACT, OP_QST: return U_QUANT;
      OP_VOP: return U_VPU;
      OP_BAR, OP_GATHER: return U_COLL;
      default: return -2;
    endcase
  endfunction

endpackage

// otpu_quant.sv - the quantizer: QACT (TMEM rows -> ACT RAM) and QST (TMEM rows -> DRAM bytes).
//
// A group is a block of D elements, or a whole row (ROW). Two passes over each group, one
// element per cycle: the first finds amax (the largest |x| by its bits), then s = amax * (1/127)
// and inv = 127 * recip(amax) (both 0 if amax is 0); the second reads the elements again and
// writes q8(x * inv), then the scale. QACT's x is T[src + r*srs + c], times T[w5 + r] (RSCALE),
// times T[w4 + c] (CSCALE); DUP writes every byte and scale to row r + rows as well (if the ACT
// RAM has that row), in the same cycle. QST writes byte c of row r to dst + r*drs + c*es
// (HALF: c < KB*D/2 only), every byte of every row first, then (a third pass over the groups,
// amax again) the scales: the ISA's order, which decides the result where scales and bytes
// share DRAM.
`include "otpu_config.svh"

module otpu_quant
  import otpu_pkg::*;
  import otpu_fp::*;
#(
  parameter int SID = 0,
  parameter int D = 32,
  parameter int ACT_BLOCKS = 64,
  parameter int AR = 8                // ACT RAM rows
) (
  `OTPU_UNIT_PORTS,
  output logic             idle,
  // TMEM read ports: [0] x, [1] the row factor, [2] the column factor
  output logic [2:0][31:0] t_raddr,
  input  logic [2:0][31:0] t_rdata,
  // writes: ACT byte, its DUP copy, ACT scale, its DUP copy, DRAM
  output wr_t              wa,
  output wr_t              wa2,
  output wr_t              ws,
  output wr_t              ws2,
  output wr_t              wm
);
  localparam logic [31:0] INV127 = 32'h3C01_0204;   // f32(1/127)
  localparam logic [31:0] F127 = 32'h42FE_0000;     // 127.0

  typedef enum logic [2:0] { S_IDLE, S_AMAX, S_Q, S_SCALE } st_t;
  st_t st;
  cmd_t c;
  logic        qst;                 // QST (else QACT)
  logic        spass;               // QST's scale pass: amax again, then the scale only
  logic [31:0] r, g, e, e_end, kk;  // row, group (block), element, the group's end, scale index
  logic [31:0] amax, s_r, inv_r;

  wire         row = c.flags[F_ROW];
  wire [31:0]  rows = qst ? 32'(c.w4[15:0]) : 32'(c.w2[7:0]);
  wire [31:0]  kb = qst ? 32'(c.w4[31:16]) : 32'(c.w2[31:16]);
  wire [31:0]  srs = qst ? c.w5 : c.w3;
  wire [31:0]  ab = 32'(c.w2[15:8]);
  wire [31:0]  ne = (qst && c.flags[F_HALF]) ? (kb * 32'(D)) >> 1 : kb * 32'(D);

  assign idle = (st == S_IDLE);
  assign err = 1'b0;
  always_comb begin
    t_raddr[0] = c.w1 + r * srs + e;
    t_raddr[1] = c.w5 + r;
    t_raddr[2] = c.w4 + e;
  end

  // the element's value (QACT's factors applied), flushed
  logic [31:0] x;
  always_comb begin
    x = t_rdata[0];
    if (!qst && c.flags[F_RSCALE]) x = fp_mul(x, t_rdata[1]);
    if (!qst && c.flags[F_CSCALE]) x = fp_mul(x, t_rdata[2]);
    x = ftz(x);
  end

  // the first element and the end of group g of row r
  function automatic logic [31:0] g_lo(input logic [31:0] gi);
    return row ? 32'd0 : gi * 32'(D);
  endfunction

  task automatic next_group();
    // ROW: one group per row; else KB groups per row
    if (row || g + 1 == kb) begin
      if (r + 1 == rows && qst && !spass && !c.terr) begin
        spass <= 1'b1; r <= '0; g <= '0; e <= '0; e_end <= row ? kb * 32'(D) : 32'(D);
        amax <= '0; st <= S_AMAX;
      end else if (r + 1 == rows) begin
        done <= 1'b1; st <= S_IDLE;
      end else begin
        r <= r + 32'd1; g <= '0; e <= '0; e_end <= row ? kb * 32'(D) : 32'(D);
        amax <= '0; st <= S_AMAX;
      end
    end else begin
      g <= g + 32'd1; e <= g_lo(g + 1); e_end <= g_lo(g + 1) + 32'(D);
      amax <= '0; st <= S_AMAX;
    end
  endtask

  always_ff @(posedge clk) begin
    // one-cycle pulses
    done <= 1'b0; wa.v <= 1'b0; wa2.v <= 1'b0; ws.v <= 1'b0; ws2.v <= 1'b0; wm.v <= 1'b0;
    if (rst) st <= S_IDLE;
    else case (st)
      S_IDLE: begin
        if (start) begin
          c <= cmd;
          qst <= (cmd.op == OP_QST);
          spass <= 1'b0;
          r <= '0; g <= '0; e <= '0; amax <= '0;
          e_end <= cmd.flags[F_ROW] ?
                   ((cmd.op == OP_QST) ? 32'(cmd.w4[31:16]) : 32'(cmd.w2[31:16])) * 32'(D) :
                   32'(D);
          if (((cmd.op == OP_QST) ? (cmd.w4[15:0] == 16'd0 || cmd.w4[31:16] == 16'd0)
                                  : (cmd.w2[7:0] == 8'd0 || cmd.w2[31:16] == 16'd0)))
            done <= 1'b1;
          else st <= S_AMAX;
        end
      end
      S_AMAX: begin
        logic [31:0] am;
        am = ({1'b0, x[30:0]} > amax) ? {1'b0, x[30:0]} : amax;
        amax <= am;
        if (e + 1 == e_end) begin
          s_r <= (am == 32'd0) ? 32'd0 : fp_mul(am, INV127);
          inv_r <= (am == 32'd0) ? 32'd0 : fp_mul(F127, fp_recip(am));
          e <= g_lo(g);
          st <= spass ? S_SCALE : S_Q;
        end else begin
          e <= e + 32'd1;
        end
      end
      S_Q: begin
        logic [7:0] q;
        q = q8(fp_mul(x, inv_r));
        if (qst) begin
          if (e < ne) begin
            logic [31:0] ba;
            ba = c.w2 + r * c.w6 + e * c.w7;
            wm <= '{v: 1'b1, space: SP_DRAM, addr: {ba[31:2], 2'b00}, data: {4{q}},
                    mask: 4'b0001 << ba[1:0]};
          end
        end else begin
          wa <= '{v: 1'b1, space: SP_ACT, addr: r * 32'(ACT_BLOCKS * D) + ab * 32'(D) + e,
                  data: 32'(q), mask: 4'hF};
          if (c.flags[F_DUP] && r + rows < 32'(AR))
            wa2 <= '{v: 1'b1, space: SP_ACT,
                     addr: (r + rows) * 32'(ACT_BLOCKS * D) + ab * 32'(D) + e,
                     data: 32'(q), mask: 4'hF};
        end
        if (e + 1 == e_end) begin
          kk <= '0;
          st <= S_SCALE;
        end else begin
          e <= e + 32'd1;
        end
      end
      S_SCALE: begin
        // QACT: KB scales for a row group, one for a block; QST: one word
        logic [31:0] blk;
        blk = row ? kk : g;
        if (qst) begin
          if (spass)
            wm <= '{v: 1'b1, space: SP_DRAM,
                    addr: row ? c.w3 + (r << 2) : c.w3 + ((r * kb + g) << 2),
                    data: s_r, mask: 4'hF};
          next_group();
        end else begin
          ws <= '{v: 1'b1, space: SP_ASCALE, addr: r * 32'(ACT_BLOCKS) + ab + blk, data: s_r,
                  mask: 4'hF};
          if (c.flags[F_DUP] && r + rows < 32'(AR))
            ws2 <= '{v: 1'b1, space: SP_ASCALE, addr: (r + rows) * 32'(ACT_BLOCKS) + ab + blk,
                     data: s_r, mask: 4'hF};
          if (!row || kk + 1 == kb) next_group();
          else kk <= kk + 32'd1;
        end
      end
      default: st <= S_IDLE;
    endcase
  end
endmodule

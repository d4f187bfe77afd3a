// otpu_dma.sv - the DMA unit: LD, ST, WAITW, DSTEP and STREAM (the last two in otpu_stream).
// One instruction at a time; LD and ST move one word per cycle.
//
// WAITW reads its word, compares (v & w4) with R[rc] + w3 (flags[1:0]: EQ, NE, GE as a signed
// difference) and, once it holds, writes the word to TMEM. Between two reads it waits w5 cycles.
// With no host in a simulation the DRAM only changes through the slice itself, so a compare that
// fails may never hold: after w6 cycles (w6 = 0: +otpu_waitw_limit=N, default 4096) the WAITW
// completes with an error and writes nothing. Each read that does not hold, and the end of the
// wait, are reported to the host of a run bundle's host.txt (otpu_dpi::otpu_host_poll), which
// writes the word through otpu_dram. Fault injection: +otpu_waitw_early=N completes the slice's
// N-th WAITW at its first read, holding or not (slice: +otpu_fault_slice, default 0).
`include "otpu_config.svh"

module otpu_dma
  import otpu_pkg::*;
#(
  parameter int SID = 0,
  parameter int D = 32
) (
  `OTPU_UNIT_PORTS,
  output logic        idle,
  // TMEM read port, DRAM word read port
  `OTPU_WORD_READ_PORTS,
  // the stream engine (DSTEP, STREAM): it drives the ports while it runs
  output logic        se_start,
  input  logic        se_done,
  input  logic        se_err,
  input  logic [31:0] se_t_raddr,
  input  logic [31:0] se_m_raddr,
  input  wr_t         se_wt,
  input  wr_t         se_wm,
  // write ports
  output wr_t         wt,
  output wr_t         wm
);
  typedef enum logic [2:0] { S_IDLE, S_LD, S_ST, S_WREAD, S_WWAIT, S_SE } st_t;
  st_t st;
  cmd_t c;
  logic [31:0] i, wcnt, elapsed;
  wr_t  wt_r, wm_r;

  int waitw_limit, f_slice, early_n, n_waitw;
  initial begin
    waitw_limit = 4096;
    f_slice = 0;
    early_n = 0;
    void'($value$plusargs("otpu_waitw_limit=%d", waitw_limit));
    void'($value$plusargs("otpu_fault_slice=%d", f_slice));
    if (f_slice == SID) void'($value$plusargs("otpu_waitw_early=%d", early_n));
  end

  assign idle = (st == S_IDLE);
  assign se_start = start && (cmd.op == OP_DSTEP || cmd.op == OP_STREAM);

  always_comb begin
    t_raddr = c.w2 + i;
    m_raddr = c.w1 + (i << 2);
    if (st == S_SE) begin
      t_raddr = se_t_raddr;
      m_raddr = se_m_raddr;
    end
    wt = (st == S_SE) ? se_wt : wt_r;
    wm = (st == S_SE) ? se_wm : wm_r;
  end

  // WAITW's compare
  logic [31:0] wv, wdiff;
  logic        whold;
  always_comb begin
    wv = m_rdata & c.w4;
    wdiff = wv - c.w3;
    case (c.flags[1:0])
      2'd0: whold = (wv == c.w3);
      2'd1: whold = (wv != c.w3);
      2'd2: whold = !wdiff[31];
      default: whold = 1'b0;
    endcase
  end

  always_ff @(posedge clk) begin
    // one-cycle pulses
    done <= 1'b0; err <= 1'b0; wt_r.v <= 1'b0; wm_r.v <= 1'b0;
    if (rst) begin st <= S_IDLE; n_waitw <= 0; end
    else case (st)
      S_IDLE: begin
        if (start) begin
          c <= cmd;
          case (cmd.op)
            OP_LD: st <= S_LD;
            OP_ST: st <= S_ST;
            OP_WAITW: begin st <= S_WREAD; n_waitw <= n_waitw + 1; end
            default: st <= S_SE;
          endcase
          i <= '0;            // LD/ST's word
          elapsed <= '0;      // WAITW's cycles
        end
      end
      S_LD, S_ST: begin  // word i: DRAM to TMEM (LD) or TMEM to DRAM (ST)
        if (i == c.w3) begin
          done <= 1'b1; st <= S_IDLE;
        end else begin
          if (st == S_LD)
            wt_r <= '{v: 1'b1, space: SP_TMEM, addr: c.w2 + i, data: m_rdata, mask: 4'hF};
          else
            wm_r <= '{v: 1'b1, space: SP_DRAM,
                      addr: c.w1 + (i << 2), data: t_rdata, mask: 4'hF};
          i <= i + 32'd1;
        end
      end
      S_WREAD: begin
        elapsed <= elapsed + 32'd1;
        if (whold || n_waitw == early_n) begin
          wt_r <= '{v: 1'b1, space: SP_TMEM, addr: c.w2, data: m_rdata, mask: 4'hF};
          done <= 1'b1; st <= S_IDLE;
          if (elapsed != 0) otpu_dpi::otpu_host_poll(SID, 0);
        end else if (elapsed >= ((c.w6 != 0) ? c.w6 : 32'(waitw_limit))) begin
          done <= 1'b1; err <= 1'b1; st <= S_IDLE;
          otpu_dpi::otpu_host_poll(SID, 0);
        end else begin
          otpu_dpi::otpu_host_poll(SID, 1);
          wcnt <= c.w5;
          st <= (c.w5 == 0) ? S_WREAD : S_WWAIT;
        end
      end
      S_WWAIT: begin
        elapsed <= elapsed + 32'd1;
        wcnt <= wcnt - 32'd1;
        if (wcnt <= 32'd1) st <= S_WREAD;
      end
      S_SE: if (se_done) begin done <= 1'b1; err <= se_err; st <= S_IDLE; end
      default: st <= S_IDLE;
    endcase
  end
endmodule

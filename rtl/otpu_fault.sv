// otpu_fault.sv - fault injection on a slice's write ports, off by default. Plusargs (counts
// from 1; units: 0 DMA, 1 MXU, 2 QUANT, 3 VPU, 4 COLL; +otpu_fault_slice=S picks the slice,
// default 0):
//   +otpu_flip_unit=U +otpu_flip_n=N +otpu_flip_bit=B   flip bit B of the unit's N-th write
//                       (a byte write: bit B mod 8 of the byte written)
//   +otpu_drop_unit=U +otpu_drop_n=N                    the unit's N-th write does not happen
// A unit's writes are counted over all its ports, in port order within a cycle. The faulty write
// is what lands and what the event ports report. The early start and the fp fault live in
// otpu_seq and otpu_vpu.
module otpu_fault
  import otpu_pkg::*;
#(
  parameter int SID = 0
) (
  input  logic              clk,
  input  logic              rst,
  input  wr_t [NPORTS-1:0]  w_in,
  output wr_t [NPORTS-1:0]  w_out
);
  int f_slice, flip_u, flip_n, flip_bit, drop_u, drop_n;
  initial begin
    f_slice = 0; flip_u = -1; flip_n = 0; flip_bit = 0; drop_u = -1; drop_n = 0;
    void'($value$plusargs("otpu_fault_slice=%d", f_slice));
    if (f_slice == SID) begin
      void'($value$plusargs("otpu_flip_unit=%d", flip_u));
      void'($value$plusargs("otpu_flip_n=%d", flip_n));
      void'($value$plusargs("otpu_flip_bit=%d", flip_bit));
      void'($value$plusargs("otpu_drop_unit=%d", drop_u));
      void'($value$plusargs("otpu_drop_n=%d", drop_n));
    end
  end

  int cnt [NUNITS];        // writes so far, per unit
  int nxt [NUNITS];        // ... including this cycle's
  always_comb begin
    for (int u = 0; u < NUNITS; u++) nxt[u] = cnt[u];
    for (int p = 0; p < NPORTS; p++) begin
      int u, b;
      w_out[p] = w_in[p];
      u = port_unit(p);
      if (u >= 0 && w_in[p].v) begin
        nxt[u] = nxt[u] + 1;
        if (u == flip_u && nxt[u] == flip_n) begin
          b = flip_bit & 31;
          if (w_in[p].space == SP_ACT) b = flip_bit & 7;
          else if (w_in[p].space == SP_DRAM && w_in[p].mask != 4'hF)
            for (int l = 3; l >= 0; l--) if (w_in[p].mask[l]) b = 8 * l + (flip_bit & 7);
          w_out[p].data = w_in[p].data ^ (32'd1 << b);
        end
        if (u == drop_u && nxt[u] == drop_n) w_out[p].v = 1'b0;
      end
    end
  end
  always_ff @(posedge clk) begin
    for (int u = 0; u < NUNITS; u++) cnt[u] <= rst ? 0 : nxt[u];
  end
endmodule

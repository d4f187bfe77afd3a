// otpu_protocol_pkg.sv - the lockstep protocol's vocabulary (rtl/EVENTS.md): units,
// memory spaces, write ports, records. Written by sim/gen_protocol.py from
// sim/protocol.def, which also writes sim/protocol.h: edit the description, not
// this file.
package otpu_protocol_pkg;

  // units
  localparam int U_DMA = 0;  // LD ST WAITW DSTEP STREAM
  localparam int U_MXU = 1;  // MM
  localparam int U_QUANT = 2;  // QACT QST
  localparam int U_VPU = 3;  // VOP
  localparam int U_COLL = 4;  // BAR GATHER
  localparam int NUNITS = 5;

  // memory spaces of a write
  localparam logic [2:0] SP_REG = 3'd0;
  localparam logic [2:0] SP_TMEM = 3'd1;
  localparam logic [2:0] SP_DRAM = 3'd2;
  localparam logic [2:0] SP_ACT = 3'd3;
  localparam logic [2:0] SP_ASCALE = 3'd4;

  // write ports
  localparam int P_SEQ_R = 0;  // LI, ADDI, RLD (R0 is never written)
  localparam int P_DMA_T = 1;
  localparam int P_DMA_M = 2;
  localparam int P_MXU_T = 3;
  localparam int P_QNT_A = 4;
  localparam int P_QNT_A2 = 5;  // the DUP copy (row + rows)
  localparam int P_QNT_S = 6;
  localparam int P_QNT_S2 = 7;  // the DUP copy
  localparam int P_QNT_M = 8;  // QST: the byte replicated, mask = the one byte written
  localparam int P_VPU_T = 9;
  localparam int P_COL_T = 10;  // a GATHER word written into this slice
  localparam int NPORTS = 11;

  // instruction records
  localparam int EV_DISPATCH = 0;
  localparam int EV_EXEC = 1;
  localparam int EV_START = 2;
  localparam int EV_COMPLETE = 3;

  // slice status records
  localparam int SS_HALTED = 0;
  localparam int SS_ERROR = 1;
  localparam int SS_CHAIN = 2;

  // the unit whose instruction a port's writes belong to (-1: the sequencer)
  function automatic int port_unit(input int p);
    case (p)
      P_SEQ_R: return -1;
      P_DMA_T: return U_DMA;
      P_DMA_M: return U_DMA;
      P_MXU_T: return U_MXU;
      P_QNT_A: return U_QUANT;
      P_QNT_A2: return U_QUANT;
      P_QNT_S: return U_QUANT;
      P_QNT_S2: return U_QUANT;
      P_QNT_M: return U_QUANT;
      P_VPU_T: return U_VPU;
      P_COL_T: return U_COLL;
      default: return -1;
    endcase
  endfunction
endpackage

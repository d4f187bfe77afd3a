// otpu_lockstep_dpi.sv - DPI-C functions the RTL calls (implemented in dpi/).
// Written by dpi/gen_dpi.py from dpi/dpi.def, which also writes dpi/dpi_entry.h:
// edit the description, not this file.
package otpu_lockstep_dpi;
  // an instruction record: kind EV_DISPATCH, EV_EXEC, EV_START or EV_COMPLETE; unit U_* for start
  // and complete (-1 otherwise); the window slot (dispatch, start, complete)
  import "DPI-C" function void otpu_ev_ins(input int sid, input int kind, input int unit,
    input int slot, input int unsigned pc, input int op);
  // a write landing at write port P_*, in memory space SP_* (mask: the DRAM bytes written)
  import "DPI-C" function void otpu_ev_wr(input int sid, input int port, input int space,
    input int unsigned addr, input int unsigned data, input int mask);
  // a slice status record: kind SS_HALTED or SS_ERROR (a = pc), SS_CHAIN (a = DRAM address, b =
  // instructions)
  import "DPI-C" function void otpu_ev_state(input int sid, input int kind, input int unsigned a,
    input int unsigned b);
endpackage

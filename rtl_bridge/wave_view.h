// wave_view.h - the GTKWave save file of a divergence report: REPORT/wave.gtkw opens
// REPORT/wave.fst with the clock and, grouped under the diverging unit, the slice's dispatch
// record, the unit's start and completion records (window slot, pc, opcode) and its write
// ports (address, data, mask), with the primary marker at the divergence's clock edge
// (checker/REPORT.md, "waveform"). Only signals the FST holds are named: its signal list is
// read with gtkwave's fst2vcd.
#ifndef OTPU_WAVE_VIEW_H
#define OTPU_WAVE_VIEW_H

#include <string>

// Writes report/wave.gtkw from report/divergence.json and its waveform. false with the reason.
bool write_wave_view(const std::string &report, std::string *why);

#endif

// synthetic_rtl.cpp - see synthetic_rtl.h.
#include "synthetic_rtl.h"

#include <algorithm>
#include <cstring>
#include <deque>

namespace otpu_test {

namespace {

struct Rec {
    Recording *r;
    otpu_machine *m;
};

bool is_windowed(unsigned op)
{
    otpu_unit u = otpu_op_unit(op);
    return u != OTPU_UNIT_SEQ && u != OTPU_UNIT_COUNT;
}

void on_issue(void *u, uint32_t s, uint64_t n, uint32_t pc, const otpu_instr *in)
{
    Rec *x = static_cast<Rec *>(u);
    Step st;
    st.n = n;
    st.pc = pc;
    if (in) {
        st.ins = *in;
        st.windowed = is_windowed(in->op);
        st.unit = otpu_op_unit(in->op);
        st.halts = in->op == OTPU_OP_HALT && !(in->flags & OTPU_F_CHAIN);
        otpu_slice_view v = otpu_machine_view(x->m, s);
        otpu_range r[OTPU_FOOTPRINT_MAX];
        size_t k = otpu_footprint(otpu_machine_config(x->m), in, v.R, v.tmem, r);
        st.fp.assign(r, r + k);
    }
    x->r->slices[s].steps.push_back(st);
}

void on_retire(void *u, const otpu_retired *rt)
{
    Rec *x = static_cast<Rec *>(u);
    if (rt->chain)
        return;
    std::vector<Step> &steps = x->r->slices[rt->slice].steps;
    for (auto it = steps.rbegin(); it != steps.rend(); ++it) /* the newest, nearly always */
        if (it->n == rt->n) {
            it->writes.assign(rt->writes, rt->writes + rt->nwrites);
            it->faulted = rt->faulted;
            break;
        }
}

void on_error(void *u, uint32_t s, const otpu_error *e)
{
    Rec *x = static_cast<Rec *>(u);
    x->r->slices[s].error = true;
    x->r->slices[s].error_pc = e->pc;
    if (!x->r->slices[s].steps.empty())
        x->r->slices[s].steps.back().faulted = true;
}

bool conflict(const Step &a, const Step &b)
{
    for (const otpu_range &x : a.fp)
        for (const otpu_range &y : b.fp)
            if ((x.write || y.write) && x.space == y.space && x.lo < y.hi && y.lo < x.hi)
                return true;
    return false;
}

// does older a read or write a location that younger b writes (a WAW/WAR pair)?
bool write_hits(const Step &older, const Step &younger)
{
    for (const otpu_range &x : older.fp)
        for (const otpu_write &w : younger.writes)
            if (otpu_range_hits(&x, static_cast<otpu_space>(w.space), w.addr))
                return true;
    return false;
}

} // namespace

Recording record(const otpu_bundle &b)
{
    Recording r;
    r.slices.resize(b.cfg.S);
    otpu_error e;
    otpu_machine *m = otpu_bundle_machine(&b, &e);
    Rec x{&r, m};
    otpu_listener l{&x, on_issue, on_retire, on_error};
    otpu_machine_set_listener(m, &l);
    otpu_machine_run(m, 10000000);
    const otpu_config *c = otpu_machine_config(m);
    uint64_t rows = otpu_config_act_rows(c);
    for (uint32_t s = 0; s < c->S; s++) {
        otpu_slice_view v = otpu_machine_view(m, s);
        SliceRun &sr = r.slices[s];
        sr.tmem.assign(v.tmem, v.tmem + c->TMEM_WORDS);
        uint64_t len = c->DRAM_BYTES;
        while (len && !v.dram[len - 1])
            len--;
        sr.dram.assign(v.dram, v.dram + len);
        sr.act.assign(v.act, v.act + rows * c->ACT_BLOCKS * c->D);
        sr.ascale.assign(v.ascale, v.ascale + rows * c->ACT_BLOCKS);
        sr.R.assign(v.R, v.R + 16);
        sr.R[0] = 0;
        sr.pc = v.pc;
        sr.halted = v.halted;
    }
    otpu_machine_free(m);
    return r;
}

namespace {

struct Flight {
    const Step *st;
    uint32_t slot;
    bool started = false, done = false;
    size_t next_write = 0;
    bool held = false; // Order fault: J waits for I
};

struct SliceDrive {
    size_t ip = 0;                 // next step in program order
    std::deque<Flight> flight;     // dispatched, program order
    std::vector<bool> slot_used;
    uint64_t nwin = 0, nwrite = 0, nreg = 0;
    bool stopped = false;          // halted or errored (reported)
    uint64_t order_wait = 0;       // cycles an Order fault has held its older instruction
};

} // namespace

DriveResult drive(const Recording &rec, otpu_checker *c, const DriveOptions &o, Injection *inj)
{
    DriveResult res;
    uint32_t S = static_cast<uint32_t>(rec.slices.size());
    std::vector<SliceDrive> sd(S);
    for (auto &d : sd)
        d.slot_used.assign(o.window, false);
    auto call = [&](int rc) {
        if (rc == OTPU_CHECK_BAD_CALL) {
            res.bad_calls++;
            res.bad_call = otpu_check_message(c);
        }
    };
    Injection none;
    Injection &f = inj ? *inj : none;
    for (uint64_t cycle = 1; cycle < o.max_cycles; cycle++) {
        call(otpu_check_cycle(c, cycle));
        const otpu_divergence *first = otpu_check_first(c);
        if (first && (o.stop_at_first || first->kind == OTPU_DIV_HANG))
            break; // as the RTL drivers do: a hang ends the run, and so may any divergence
        bool all_done = true;
        for (uint32_t s = 0; s < S; s++) {
            SliceDrive &d = sd[s];
            const SliceRun &sr = rec.slices[s];
            if (d.stopped)
                continue;
            all_done = false;
            // the sequencer: its own instructions, then at most one dispatch a cycle
            while (d.ip < sr.steps.size() && !sr.steps[d.ip].windowed) {
                const Step &st = sr.steps[d.ip];
                if (st.faulted || st.halts)
                    break;
                for (const otpu_write &w : st.writes)
                    if (w.space == OTPU_SP_REG && o.regs) {
                        uint32_t v = w.val;
                        if (f.kind == Fault::Reg && f.slice == s && d.nreg == f.nth) {
                            v ^= 1u << f.bit;
                            f.applied = true;
                            f.n = st.n;
                            f.space = OTPU_SP_REG;
                            f.addr = w.addr;
                        }
                        d.nreg++;
                        call(otpu_check_reg(c, s, static_cast<uint32_t>(w.addr), v));
                    }
                d.ip++;
            }
            if (d.ip < sr.steps.size() && sr.steps[d.ip].windowed && !sr.steps[d.ip].faulted) {
                const Step &st = sr.steps[d.ip];
                auto free_slot = std::find(d.slot_used.begin(), d.slot_used.end(), false);
                if (free_slot != d.slot_used.end()) {
                    uint32_t slot = static_cast<uint32_t>(free_slot - d.slot_used.begin());
                    uint32_t pc = st.pc;
                    const Step *before = d.ip ? &sr.steps[d.ip - 1] : nullptr;
                    if (f.kind == Fault::LoopSkip && f.slice == s && d.nwin >= f.nth &&
                        !f.applied && before && before->ins.op == OTPU_OP_LOOP &&
                        before->pc + 1 == st.pc) { // as if the LOOP's count were 0
                        pc = before->pc + 1 + before->ins.w[1];
                        f.applied = true;
                        f.n = st.n;
                        f.addr = before->pc;
                    }
                    if (f.kind == Fault::Control && f.slice == s && d.nwin == f.nth) {
                        pc += 1;
                        f.applied = true;
                        f.n = st.n;
                    }
                    if (f.kind == Fault::ErrorFlag && f.slice == s && d.nwin == f.nth) {
                        f.applied = true;
                        f.n = st.n;
                        call(otpu_check_error(c, s, st.pc));
                        d.stopped = true;
                        continue;
                    }
                    d.nwin++;
                    *free_slot = true;
                    call(otpu_check_dispatch(c, s, slot, pc, st.ins.op));
                    d.flight.push_back({&st, slot});
                    d.ip++;
                    if (f.kind == Fault::Order && f.slice == s && d.nwin - 1 == f.nth) {
                        // hold the nearest older in-flight instruction on another unit whose
                        // footprint this one writes into, until this one has written
                        for (auto it = d.flight.rbegin() + 1; it != d.flight.rend(); ++it)
                            if (!it->started && it->st->unit != st.unit && write_hits(*it->st, st)) {
                                it->held = true;
                                f.applied = true;
                                f.n = st.n;
                                f.other_n = it->st->n;
                                break;
                            }
                    }
                }
            }
            // units: each starts its oldest waiting instruction when nothing older conflicts
            for (unsigned u = 0; u < OTPU_UNIT_COUNT; u++) {
                bool busy = false;
                for (Flight &x : d.flight)
                    busy |= x.st->unit == u && x.started && !x.done;
                if (busy)
                    continue;
                for (size_t i = 0; i < d.flight.size(); i++) {
                    Flight &x = d.flight[i];
                    if (x.st->unit != u || x.started)
                        continue;
                    bool blocked = x.held;
                    bool ordered = f.kind == Fault::Order && f.applied && x.st->n == f.n;
                    for (size_t j = 0; j < i && !blocked; j++)
                        blocked = !d.flight[j].done && !ordered && conflict(*d.flight[j].st, *x.st);
                    if (!blocked) {
                        x.started = true;
                        call(otpu_check_start(c, s, u, x.slot));
                    }
                    break; // in order within a unit
                }
            }
            // writes, then completion
            for (Flight &x : d.flight) {
                if (!x.started || x.done)
                    continue;
                if (f.kind == Fault::Hang && f.slice == s && x.st->n == f.n && f.applied)
                    continue;
                for (unsigned k = 0; k < o.writes_per_cycle && x.next_write < x.st->writes.size(); k++) {
                    if (s == 0 && x.next_write == 0)
                        res.first_writes.push_back(d.nwrite);
                    otpu_write w = x.st->writes[x.next_write++];
                    bool skip = false, twice = false, stray = false;
                    bool past = false;
                    if (f.kind == Fault::PastEnd && f.slice == s && d.nwrite >= f.nth &&
                        !f.applied && w.space == OTPU_SP_TMEM) {
                        past = f.applied = true;
                        f.n = x.st->n;
                    }
                    if (f.slice == s && d.nwrite == f.nth && !f.applied) {
                        f.n = x.st->n;
                        f.space = static_cast<otpu_space>(w.space);
                        f.addr = w.addr;
                        if (f.kind == Fault::Flip) {
                            unsigned byte = 0;
                            while (!(w.mask >> byte & 1))
                                byte++;
                            w.val ^= 1u << (w.space == OTPU_SP_ACT ? f.bit % 8 : 8 * byte + f.bit % 8);
                            f.applied = true;
                        } else if (f.kind == Fault::Drop) {
                            skip = f.applied = true;
                        } else if (f.kind == Fault::Duplicate) {
                            twice = f.applied = true;
                        } else if (f.kind == Fault::Stray) {
                            stray = f.applied = true;
                        } else if (f.kind == Fault::Mask && w.space == OTPU_SP_DRAM &&
                                   w.mask != 0xF) { // the byte lands one lane up (or down)
                            w.mask = w.mask & 8 ? w.mask >> 1 : w.mask << 1;
                            f.applied = true;
                        }
                    }
                    d.nwrite++;
                    if (!skip)
                        call(otpu_check_write(c, s, x.st->unit, static_cast<otpu_space>(w.space),
                                              w.addr, w.val, w.mask));
                    if (twice)
                        call(otpu_check_write(c, s, x.st->unit, static_cast<otpu_space>(w.space),
                                              w.addr, w.val, w.mask));
                    if (stray) {
                        // a TMEM word this instruction does not write
                        uint64_t a = 0;
                        for (bool hit = true; hit; a++) {
                            hit = false;
                            for (const otpu_write &y : x.st->writes)
                                hit |= y.space == OTPU_SP_TMEM && y.addr == a;
                            if (!hit)
                                break;
                        }
                        f.space = OTPU_SP_TMEM;
                        f.addr = a;
                        call(otpu_check_write(c, s, x.st->unit, OTPU_SP_TMEM, a, 0x12345678, 0xF));
                    }
                    if (past) { // bit + 1 words past the end of its TMEM range (the hull)
                        uint64_t hi = 0;
                        for (const otpu_range &r : x.st->fp)
                            if (r.write && r.space == OTPU_SP_TMEM && r.hi > hi)
                                hi = r.hi;
                        f.space = OTPU_SP_TMEM;
                        f.addr = hi + static_cast<uint64_t>(f.bit);
                        call(otpu_check_write(c, s, x.st->unit, OTPU_SP_TMEM, f.addr, 0x12345678,
                                              0xF));
                    }
                }
                if (x.next_write == x.st->writes.size()) {
                    x.done = true;
                    if (f.kind == Fault::Order && x.st->n == f.n) {
                        for (Flight &y : d.flight)
                            y.held = false;
                        f.kind = Fault::None; /* done: the violation has been emitted */
                    }
                }
            }
            if (f.kind == Fault::Hang && f.slice == s && !f.applied && d.nwin > f.nth)
                for (Flight &x : d.flight)
                    if (!f.applied && x.started) {
                        f.applied = true;
                        f.n = x.st->n;
                    }
            // completions: each unit in start order (done instructions leave the window)
            for (auto it = d.flight.begin(); it != d.flight.end();) {
                if (!it->done) {
                    ++it;
                    continue;
                }
                bool older_unit_pending = false;
                for (auto jt = d.flight.begin(); jt != it; ++jt)
                    older_unit_pending |= jt->st->unit == it->st->unit;
                if (older_unit_pending) {
                    ++it;
                    continue;
                }
                if (it != d.flight.begin())
                    res.out_of_order = true;
                call(otpu_check_complete(c, s, it->st->unit));
                d.slot_used[it->slot] = false;
                it = d.flight.erase(it);
            }
            // the end of the slice's program
            if (d.ip < sr.steps.size() && d.flight.empty()) {
                const Step &st = sr.steps[d.ip];
                if (st.faulted) {
                    // the model rejects it: the RTL flags it when it reaches it
                    call(otpu_check_error(c, s, st.pc));
                    d.stopped = true;
                } else if (st.halts) {
                    SliceRun fin = sr;
                    if (f.kind == Fault::EndState && f.slice == s) {
                        fin.tmem[f.nth % fin.tmem.size()] ^= 1u << f.bit;
                        f.applied = true;
                        f.space = OTPU_SP_TMEM;
                        f.addr = f.nth % fin.tmem.size();
                    }
                    if (f.kind == Fault::EndStateDram && f.slice == s) {
                        if (fin.dram.size() <= f.nth) fin.dram.resize(f.nth + 1, 0);
                        fin.dram[f.nth] ^= uint8_t(1u << (f.bit & 7));
                        f.applied = true;
                        f.space = OTPU_SP_DRAM;
                        f.addr = f.nth & ~uint64_t(3); // reported by word
                    }
                    otpu_rtl_state rs{fin.tmem.data(), fin.dram.data(), fin.dram.size(),
                                      fin.act.data(), fin.ascale.data(), fin.R.data(), fin.pc};
                    call(otpu_check_halt(c, s, &rs));
                    d.stopped = true;
                }
            } else if (d.ip >= sr.steps.size() && d.flight.empty()) {
                d.stopped = true; // another slice's error stopped the model here
            }
            // an Order fault that cannot complete (the held instruction blocks what it waits
            // for) is withdrawn: that is the test's generator, not the design, deadlocking
            if (f.kind == Fault::Order && f.applied && ++d.order_wait > 1000) {
                for (Flight &y : d.flight)
                    y.held = false;
                f.applied = false;
                f.kind = Fault::None;
            }
        }
        if (all_done) {
            res.cycles = cycle;
            break;
        }
    }
    call(otpu_check_end(c));
    return res;
}

} // namespace otpu_test

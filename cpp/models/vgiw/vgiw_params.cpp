#include "models/vgiw/vgiw_params.hpp"

namespace tbdse::vgiw {

namespace {

// The fabric fields sgmf and vgiw share (docs/models/vgiw.md, "Fabric").
template <class P>
void add_fabric(ParamTable<P>& t) {
  const auto units = [&t](std::int64_t P::*member, const char* name, const char* what) {
    t.add(member, {.name = name, .unit = "units",
                   .doc = std::string(what) + " on the fabric (before fabric_scale)",
                   .paper_ref = "VGIW Table 1", .min_value = 0, .max_value = 1e6});
  };
  units(&P::fabric_alu, "fabric_alu", "combined FPU-ALU compute units");
  units(&P::fabric_special, "fabric_special", "special compute units (div, sqrt: non-pipelined ops)");
  units(&P::fabric_ldst, "fabric_ldst", "load/store units (one uncoalesced access per cycle each)");
  units(&P::fabric_lvu, "fabric_lvu", "live value load/store units (LVC accesses)");
  units(&P::fabric_split_join, "fabric_split_join", "split/join units (fan-out, memory ordering)");
  units(&P::fabric_cvu, "fabric_cvu", "control vector units (one injects a replica's thread ids)");
  t.add(&P::fabric_scale, {.name = "fabric_scale", .unit = "x",
                           .doc = "multiplies every unit count (rounded down, at least 1 where "
                                  "the count is not 0): the fabric-size axis",
                           .paper_ref = "tbdse", .min_value = 0.01, .max_value = 1000});
  t.add(&P::hop_cycles, {.name = "hop_cycles", .unit = "cycles",
                         .doc = "pipeline fill per dataflow level (a unit and a switch hop); a "
                                "block's depth is ceil(ops / 2) levels (tbdse's)",
                         .paper_ref = "VGIW §3.5 (tbdse assumption)", .min_value = 0, .max_value = 1e6});
  t.add(&P::dram_bytes_per_cycle,
        {.name = "dram_bytes_per_cycle", .unit = "B/cycle",
         .doc = "the core's DRAM share: GTX480 177.4 GB/s over 15 SMs at 1.4 GHz is 8.4",
         .paper_ref = "VGIW §4 (tbdse's per-core share)", .min_value = 0.001, .max_value = 1e6});
  t.add(&P::l1_banks, {.name = "l1_banks", .unit = "banks",
                       .doc = "L1 banks of one 4-byte word each; a wave of the replicas' "
                              "uncoalesced accesses takes its busiest bank's count of cycles",
                       .paper_ref = "VGIW Table 1 (32 banks)", .min_value = 1, .max_value = 1024});
  t.add(&P::token_buffer_entries,
        {.name = "token_buffer_entries", .unit = "threads",
         .doc = "token-buffer entries per unit: threads a replica keeps in flight, so a block "
                "streams at most replicas x entries / (fill + load latency) threads per cycle "
                "(tagged-token dataflow hides latency up to this depth)",
         .paper_ref = "VGIW §3.5 (§3.4: 0.3 x 256 KB over 108 units = 728 B per unit, entries of three 4-byte operands + a 4-byte tag: 45)",
         .min_value = 1, .max_value = 1e6});
  t.add(&P::mem_sample_threads,
        {.name = "mem_sample_threads", .unit = "threads",
         .doc = "threads (whole warps) whose accesses go through the memory hierarchy; per-block "
                "averages are charged to all threads",
         .paper_ref = "tbdse (a sampling choice)", .min_value = 32, .max_value = 1 << 26});
}

}  // namespace

const ParamTable<SimtParams>& SimtParams::params() {
  static const ParamTable<SimtParams> table = [] {
    ParamTable<SimtParams> t;
    t.add(&SimtParams::warp_size, {.name = "warp_size", .unit = "threads",
                                   .doc = "threads per warp; lane utilisation counts this many lanes",
                                   .paper_ref = "VGIW §2, Fig. 1b", .min_value = 1, .max_value = 64});
    t.add(&SimtParams::issue_efficiency,
          {.name = "issue_efficiency", .unit = "fraction",
           .doc = "share of peak issue the schedulers sustain with ready warps (a residual per GPU "
                  "for what the model does not draw; dispatch, occupancy, dependence and memory "
                  "stalls are modelled); 1: no residual",
           .paper_ref = "tbdse (residual; 1 = none)", .min_value = 0.01, .max_value = 1});
    t.add(&SimtParams::dispatch_cycles,
          {.name = "dispatch_cycles", .unit = "cycles",
           .doc = "cycles a scheduler takes to dispatch one warp instruction (Fermi: 32 threads "
                  "on a 16-wide group over 2 shader cycles); the SM issues issue_width / "
                  "dispatch_cycles warp instructions per cycle",
           .paper_ref = "NVIDIA GF100 whitepaper; VGIW §5 (Fermi operates 32 units at once)",
           .min_value = 1, .max_value = 64});
    t.add(&SimtParams::control_instructions,
          {.name = "control_instructions", .unit = "-",
           .doc = "1: a block with a successor issues a branch warp instruction (BRA), one with "
                  "two also a reconvergence push (SSY); 0: the blocks' operations only",
           .paper_ref = "Fermi ISA (BRA, SSY); VGIW Fig. 1b counts without them",
           .min_value = 0, .max_value = 1});
    t.add(&SimtParams::ldst_units, {.name = "ldst_units", .unit = "units",
                                    .doc = "load/store units: a warp memory instruction takes "
                                           "warp_size / ldst_units cycles of that pipe",
                                    .paper_ref = "Fermi SM (16)", .min_value = 1, .max_value = 1024});
    t.add(&SimtParams::sfu_units, {.name = "sfu_units", .unit = "units",
                                   .doc = "special function units: a warp special instruction "
                                          "takes warp_size / sfu_units cycles of that pipe",
                                   .paper_ref = "Fermi SM (4)", .min_value = 1, .max_value = 1024});
    t.add(&SimtParams::rf_accesses_per_instruction,
          {.name = "rf_accesses_per_instruction", .unit = "accesses",
           .doc = "register-file accesses per warp instruction, one per warp (Fig. 3's count)",
           .paper_ref = "VGIW Fig. 3 (tbdse: 2 reads + 1 write)", .min_value = 0, .max_value = 16});
    t.add(&SimtParams::alu_latency,
          {.name = "alu_latency", .unit = "cycles",
           .doc = "cycles before an instruction dependent on an ALU/FPU result may issue",
           .paper_ref = "CUDA C Programming Guide 4.0 §5.2.3 (about 22 on cc 2.x)",
           .min_value = 0, .max_value = 1e6});
    t.add(&SimtParams::sfu_latency,
          {.name = "sfu_latency", .unit = "cycles",
           .doc = "cycles before an instruction dependent on a special-function result may issue",
           .paper_ref = "tbdse assumption (tens of cycles on Fermi)", .min_value = 0, .max_value = 1e6});
    t.add(&SimtParams::block_threads,
          {.name = "block_threads", .unit = "threads",
           .doc = "threads per thread block: warps are resident in blocks of this many, within "
                  "the GPU's tb_slots, threads_per_sm and regs_per_sm",
           .paper_ref = "tbdse assumption (Rodinia launches mostly 256)", .min_value = 1,
           .max_value = 1 << 20});
    t.add(&SimtParams::mem_sample_threads,
          {.name = "mem_sample_threads", .unit = "threads",
           .doc = "threads (whole warps) whose accesses go through the memory hierarchy; per-block "
                  "averages are charged to all warps",
           .paper_ref = "tbdse (a sampling choice)", .min_value = 32, .max_value = 1 << 26});
    t.add(&SimtParams::dram_bytes_per_cycle,
          {.name = "dram_bytes_per_cycle", .unit = "B/cycle",
           .doc = "the SM's DRAM share: GTX480 177.4 GB/s over 15 SMs at 1.4 GHz is 8.4",
           .paper_ref = "VGIW §4 (tbdse's per-SM share)", .min_value = 0.001, .max_value = 1e6});
    return t;
  }();
  return table;
}

const ParamTable<SgmfParams>& SgmfParams::params() {
  static const ParamTable<SgmfParams> table = [] {
    ParamTable<SgmfParams> t;
    add_fabric(t);
    return t;
  }();
  return table;
}

const ParamTable<VgiwParams>& VgiwParams::params() {
  static const ParamTable<VgiwParams> table = [] {
    ParamTable<VgiwParams> t;
    add_fabric(t);
    t.add(&VgiwParams::reconfig_model,
          {.name = "reconfig_model",
           .doc = "fixed: reconfig_cycles per configuration (§2: 34); sqrt: 11 x sqrt(units) "
                  "cycles, twice (§3.2: 2 x ceil(11 x sqrt(108)) = 230 for 108 units); "
                  "sqrt_overlap: the first pass fills the prefetch FIFO while the previous block "
                  "runs (charged only beyond that block's time), the second is charged",
           .paper_ref = "VGIW §2, §3.2", .choices = {"fixed", "sqrt", "sqrt_overlap"}});
    t.add(&VgiwParams::reconfig_cycles,
          {.name = "reconfig_cycles", .unit = "cycles",
           .doc = "cycles of one reconfiguration under reconfig_model 'fixed'",
           .paper_ref = "VGIW §2 (34)", .min_value = 0, .max_value = 1e9,
           .read_when = {{"reconfig_model", {"fixed"}}}});
    t.add(&VgiwParams::cvt_bits,
          {.name = "cvt_bits", .unit = "bits",
           .doc = "control vector table size: tiles of cvt_bits / blocks threads (a multiple of "
                  "64) run one after another",
           .paper_ref = "VGIW §3.2 (size tbdse's)", .min_value = 64, .max_value = 1e12});
    t.add(&VgiwParams::tile_policy,
          {.name = "tile_policy",
           .doc = "lvc: a tile also holds no more threads than keep their live values in the LVC "
                  "(§3.4: spilling is generally prevented by thread tiling); cvt: cvt_bits / "
                  "blocks threads only",
           .paper_ref = "VGIW §3.2, §3.4", .choices = {"lvc", "cvt"}});
    t.add(&VgiwParams::lvc_line_threads,
          {.name = "lvc_line_threads", .unit = "threads",
           .doc = "consecutive thread ids whose value of one live value share an LVC line; a "
                  "block execution makes one LVC access per live value per line it touches",
           .paper_ref = "VGIW §3.4 (tbdse's reading)", .min_value = 1, .max_value = 1024});
    t.add(&VgiwParams::split_cut_values,
          {.name = "split_cut_values", .unit = "values",
           .doc = "live values stored and reloaded through the LVC at each cut of a block "
                  "split because it is bigger than the fabric",
           .paper_ref = "VGIW §1 (tbdse assumption)", .min_value = 0, .max_value = 1000});
    t.add(&VgiwParams::lvc_bytes,
          {.name = "lvc_bytes", .unit = "B",
           .doc = "live value cache capacity; a tile's live values beyond it miss to L2",
           .paper_ref = "VGIW §3.4 (64 KB)", .min_value = 128, .max_value = 1e12});
    t.add(&VgiwParams::lvc_banks,
          {.name = "lvc_banks", .unit = "words/cycle",
           .doc = "LVC banks of one word per cycle (a thread's values skewed over the banks)",
           .paper_ref = "VGIW §3.4 (banked like an L1; count tbdse's)", .min_value = 1,
           .max_value = 1024});
    t.add(&VgiwParams::lvc_hit_cycles,
          {.name = "lvc_hit_cycles", .unit = "cycles",
           .doc = "LVC hit latency, part of a thread's time in a block (hidden by token buffers)",
           .paper_ref = "tbdse assumption", .min_value = 0, .max_value = 1e6});
    t.add(&VgiwParams::cvt_banks,
          {.name = "cvt_banks", .unit = "banks",
           .doc = "CVT banks of one 64-bit word per cycle: a block execution reads each non-empty "
                  "word once and ORs two packets back per word (one per successor)",
           .paper_ref = "VGIW §3.3 (8 banks)", .min_value = 1, .max_value = 1024});
    t.add(&VgiwParams::bbs_packets_per_cycle,
          {.name = "bbs_packets_per_cycle", .unit = "packets/cycle",
           .doc = "thread-batch packets (a 16-bit base id and a 64-bit bitmap) the basic block "
                  "scheduler sends the core per cycle: sparse vectors need more packets per thread",
           .paper_ref = "VGIW §3.2 (packet format); rate tbdse's", .min_value = 0.001,
           .max_value = 1024});
    return t;
  }();
  return table;
}

}  // namespace tbdse::vgiw

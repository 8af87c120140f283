#pragma once
// Llama 3 405B pre-training as Meta ran it (Dubey et al. 2024, section 3.3.2 and table 4), shared
// by the tests that use it: 16,384 H100 GPUs (2,048 nodes), TP 8 x PP 16 x DP 128, ZeRO-1,
// 16M-token batches of 8K sequences = 2,048 sequences, 16 micro-batches of one per DP rank. The
// schedule (virtual stages, stage sizes) and the recompute are each test's own.

#include "models/workload/training_step.hpp"
#include "models/workload/training_model.hpp"

namespace dcsim::models::workload::testing {

inline TrainingJobConfig llama405b_table4() {
  TrainingJobConfig j;
  j.name = "llama3-405b";
  j.model = llama3_405b();
  j.nodes = 2048;
  j.parallelism.tp = 8;
  j.parallelism.pp = 16;
  j.parallelism.zero_stage = 1;
  j.micro_batch_size = 1;
  j.global_batch_sequences = 2048;
  return j;
}

}  // namespace dcsim::models::workload::testing

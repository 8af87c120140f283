#pragma once
// A training job's steps and checkpoint writes as timeline slices (timeline_json.hpp), from its
// training_steps pieces: each step a slice "step N" (1-based, as Megatron counts iterations) with
// children compute, communication and bubble laid end to end (an attribution, not their order
// in the step) whose durations add up to the step's exactly; a step cut by a clock change is
// joined back into one, one cut by an interruption ends with "interrupted". More steps than
// `max_steps`: slices of k consecutive steps ("steps N-M"), their parts summed, with the
// checkpoint writes between them as a fourth part ("steps N-M + 2 checkpoints").

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tools/output/timeline_event_writer.hpp"
#include "tools/output/timeline_recorder.hpp"

namespace dcsim::tools::output::timeline {

// Steps per slice for these pieces under `max_steps` slices (1: every step its own slice).
std::int64_t steps_per_slice(const std::vector<const TimelineRecords::StepPiece*>& pieces, std::size_t max_steps);

void write_training_steps(EventWriter& writer, int pid, int tid,
                          const std::vector<const TimelineRecords::StepPiece*>& pieces, std::int64_t per_slice);

}  // namespace dcsim::tools::output::timeline

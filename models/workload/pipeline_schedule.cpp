#include "models/workload/pipeline_schedule.hpp"

#include <algorithm>
#include <string>

#include "models/workload/training_model.hpp"
#include "models/workload/training_step.hpp"
#include "sim/error.hpp"

namespace dcsim::models::workload {

namespace {

std::string str(int v) { return std::to_string(v); }

// `total` layers over `count` stages as evenly as they go, the extra ones to the stages listed
// first in `order`.
void spread(std::vector<int>& layers, const std::vector<int>& order, int total) {
  const int count = static_cast<int>(order.size());
  for (int k = 0; k < count; ++k) {
    layers[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] =
        total / count + (k < total % count ? 1 : 0);
  }
}

}  // namespace

std::vector<int> stage_layers(const TransformerModel& model, const ParallelismPlan& plan) {
  const int p = plan.pp, L = model.layers;
  const int first = plan.first_stage_layers, last = plan.last_stage_layers;
  if (first < 0) throw sim::ConfigError("parallelism.first_stage_layers", "must not be negative");
  if (last < 0) throw sim::ConfigError("parallelism.last_stage_layers", "must not be negative");
  if (p == 1) {
    if (first > 0 && first != L) {
      throw sim::ConfigError("parallelism.first_stage_layers",
                             "with one pipeline stage it holds all " + str(L) + " layers, got " + str(first));
    }
    return {L};
  }
  std::vector<int> layers(static_cast<std::size_t>(p), 0);
  // Megatron's --account-for-*-in-pipeline-split: the embedding / the loss count as one layer.
  const int extra_first = plan.account_for_embedding ? 1 : 0;
  const int extra_last = plan.account_for_loss ? 1 : 0;
  if (first > 0 || last > 0) {
    const int middle_stages = p - (first > 0 ? 1 : 0) - (last > 0 ? 1 : 0);
    const int rest = L - first - last;
    const char* key = last > 0 ? "parallelism.last_stage_layers" : "parallelism.first_stage_layers";
    if (rest < 0 || (middle_stages == 0 && rest != 0) || (middle_stages > 0 && rest < middle_stages)) {
      throw sim::ConfigError(key, "first_stage_layers " + str(first) + " and last_stage_layers " + str(last) +
                                      " leave " + str(rest) + " of " + str(L) + " layers for " +
                                      str(middle_stages) + " other stage(s): expected at least one layer each" +
                                      (middle_stages == 0 ? " and none left over" : ""));
    }
    std::vector<int> order;
    for (int s = 0; s < p; ++s) {
      if ((s == 0 && first > 0) || (s == p - 1 && last > 0)) continue;
      order.push_back(s);
    }
    if (first > 0) layers.front() = first;
    if (last > 0) layers.back() = last;
    if (!order.empty()) spread(layers, order, rest);
  } else {
    // L (+ the embedding / loss as layers) split evenly; the stages holding the embedding and
    // the loss take the remainder last (the Llama 3 trim, see the header).
    const int units = L + extra_first + extra_last;
    std::vector<int> order;
    for (int s = 1; s + 1 < p; ++s) order.push_back(s);
    order.push_back(0);
    order.push_back(p - 1);
    spread(layers, order, units);
    layers.front() -= extra_first;
    layers.back() -= extra_last;
    for (int s = 0; s < p; ++s) {
      if (layers[static_cast<std::size_t>(s)] < 1) {
        throw sim::ConfigError("parallelism.pp", str(p) + " pipeline stages leave stage " + str(s) +
                                                     " without a layer of the " + str(L));
      }
    }
  }
  return layers;
}

std::vector<int> stage_moe_layers(const TransformerModel& model, const std::vector<int>& layers, int v) {
  const int p = static_cast<int>(layers.size());
  std::vector<int> moe(layers.size(), 0);
  if (!model.moe.enabled()) return moe;
  int next = 0;
  for (int round = 0; round < v; ++round) {
    for (int s = 0; s < p; ++s) {
      const int n = layers[static_cast<std::size_t>(s)];
      const int chunk = n / v + (round == v - 1 ? n % v : 0);
      for (int i = 0; i < chunk; ++i) moe[static_cast<std::size_t>(s)] += model.is_moe_layer(next++) ? 1 : 0;
    }
  }
  return moe;
}

void validate_interleaving(int p, int v, int m, const std::vector<int>& layers) {
  if (v < 1) throw sim::ConfigError("parallelism.virtual_stages", "must be a positive integer, got " + str(v));
  if (v == 1) return;
  if (p < 2) {
    throw sim::ConfigError("parallelism.virtual_stages",
                           "an interleaved schedule (virtual_stages " + str(v) + ") needs pp > 1, got pp " + str(p));
  }
  if (m % p != 0) {
    throw sim::ConfigError("parallelism.virtual_stages",
                           "the interleaved schedule (virtual_stages " + str(v) + ") needs the micro-batches per "
                           "step (global_batch / (micro_batch_size x dp) = " + str(m) +
                               ") to be a multiple of pp " + str(p) + ", as Megatron-LM requires");
  }
  for (std::size_t s = 0; s < layers.size(); ++s) {
    if (layers[s] < v) {
      throw sim::ConfigError("parallelism.virtual_stages",
                             "stage " + std::to_string(s) + " has " + str(layers[s]) + " layers, fewer than the " +
                                 str(v) + " model chunks it would hold");
    }
  }
}

std::vector<ScheduleItem> stage_order(int p, int v, int m, int s) {
  std::vector<ScheduleItem> out;
  const int total = v * m;
  const int warm = std::min(total, v == 1 ? p - s - 1 : 2 * (p - s - 1) + (v - 1) * p);
  const int group = p * v;
  auto item = [&](int k, bool forward) {
    const int chunk = (k % group) / p;
    return ScheduleItem{forward, forward ? chunk : v - 1 - chunk, (k / group) * p + k % p};
  };
  for (int k = 0; k < warm; ++k) out.push_back(item(k, true));
  for (int k = 0; k < total - warm; ++k) {
    out.push_back(item(warm + k, true));
    out.push_back(item(k, false));
  }
  for (int k = total - warm; k < total; ++k) out.push_back(item(k, false));
  return out;
}

int in_flight_chunks(int p, int v, int m, int s) {
  if (v == 1) return std::min(p - s, m);
  return std::min(2 * (p - s - 1) + (v - 1) * p + 1, v * m);
}

double pipeline_bubble_s(int p, int v, double sum_slots_s, double max_slot_s, double send_s) {
  return (sum_slots_s - max_slot_s) / v + 2.0 * (p - 1) * send_s;
}

double exposed_sends_per_micro_batch_s(int v, double send_s, double forward_s) {
  if (v == 1) return 2.0 * send_s;
  return 2.0 * v * std::max(0.0, send_s - forward_s / v);
}

}  // namespace dcsim::models::workload

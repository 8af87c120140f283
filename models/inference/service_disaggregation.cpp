// Disaggregated prefill and decode (inference_service.hpp): what happens between a request's
// first token on a prefill replica and its admission on a decode replica.

#include "models/inference/inference_service.hpp"

namespace dcsim::models::inference {

void InferenceService::on_prefilled(std::size_t replica, const ReplicaOutcome& o) {
  Prefilled& p = prefilled_[o.request.id];
  if (p.first_token == sim::Time::max()) {
    p.first_token = o.first_token;
    p.admitted = o.admitted;
  }
  ReplicaRequest next = o.request;
  next.output_tokens = p.output_tokens;
  next.kv_ready = true;
  const auto to = route(serving_);
  if (!to) {
    // No decode replica serves yet: the request waits with its KV on the prefill replica and
    // moves when one does (the transfer is then charged from there).
    awaiting_decode_.push_back({replica, next});
    return;
  }
  start_transfer(replica, *to, next);
}

void InferenceService::start_transfer(std::size_t from, std::size_t to, const ReplicaRequest& request) {
  const double bytes = request.input_tokens * cost_.replica_kv_bytes_per_token();
  const sim::Time start = sim_.now();
  ++stats_.kv_transfers;
  stats_.kv_transfer_bytes += bytes;
  transport_->transfer(replicas_[from].handle, replicas_[to].handle, bytes, [this, to, request, start] {
    stats_.kv_transfer.add((sim_.now() - start).seconds());
    ReplicaRequest r = request;
    r.arrived = sim_.now();
    if (replicas_[to].state == ReplicaState::kServing) {
      replicas_[to].submit(r);
    } else {
      // Its decode replica left meanwhile: another one takes it (the KV is taken to come along;
      // a second transfer is not charged).
      deliver(r);
    }
  });
}

}  // namespace dcsim::models::inference

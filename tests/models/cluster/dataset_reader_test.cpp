// A training run fed by a DatasetReader (dataset_reader.hpp): the job runs at its steps' pace when
// its input arrives faster than it consumes it, and at the reads' pace when not, with the times
// worked out by hand for a read that takes a fixed time per chunk.
#include <catch2/catch.hpp>

#include <memory>

#include "models/cluster/dataset_reader.hpp"
#include "models/cluster/training_job_run.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/workload/training_job.hpp"
#include "models/model_registries.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

namespace mw = dcsim::models::workload;
using dcsim::models::cluster::DatasetReader;
using dcsim::models::cluster::TrainingJobRun;

namespace {

constexpr int kSteps = 64;
constexpr int kChunk = 8;

struct Fed {
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  ModelRegistries reg = dcsim::tests::builtin();
  mw::TrainingJobPlan plan;
  std::unique_ptr<TrainingJobRun> run;
  double finished_s = -1;
  int reads = 0;
  double bytes = 0;

  // BERT-Large on 3 HGX H100 nodes, no checkpoints; every chunk read takes `read_s`.
  explicit Fed(double read_s_per_chunk) {
    mw::TrainingJobSpec t;
    t.job.name = "bert";
    t.job.model = reg.training_models.get("bert-large").factory();
    t.job.nodes = 3;
    t.job.micro_batch_size = 8;
    t.steps = kSteps;
    plan = mw::plan_training_job(t, dcsim::models::hardware::hgx_h100(), reg.collective_algorithms);
    DatasetReader::Config c;
    c.last_step = kSteps;
    c.chunk_steps = kChunk;
    c.depth = 2;
    c.bytes_per_step = 1e9;
    c.retry_after = Time::from_seconds(1);
    auto read = [this, read_s_per_chunk](double b, std::function<void(bool)> done) {
      ++reads;
      bytes += b;
      sim.after(Time::from_seconds(read_s_per_chunk), [done = std::move(done)] { done(true); });
    };
    auto feed = std::make_unique<DatasetReader>(c, std::move(read), sim);
    const auto table = TrainingJobRun::declare_steps_table(sink);
    run = std::make_unique<TrainingJobRun>(plan, TrainingJobRun::declare_series(sink, "bert", table), 1.0, sim, sink,
                                           [this] { finished_s = sim.now().seconds(); }, nullptr, 0, nullptr, -1,
                                           std::move(feed));
    sim.run();
  }
};

}  // namespace

TEST_CASE("input that arrives faster than the steps consume it costs only the first read",
          "[models][datacenter][dataset]") {
  Fed probe(0.0);
  const double T = probe.plan.step.step_time_s;
  const double R = 0.5 * kChunk * T;  // half a chunk's steps
  Fed f(R);
  // The next chunk is read beside the steps of the current one and is there before they end.
  CHECK(f.finished_s == Approx(R + kSteps * T).margin(1e-7));  // activity ends round up to whole ns
  CHECK(f.run->data_stall_s() == Approx(R).margin(1e-7));  // activity ends round up to whole ns
  CHECK(f.reads == kSteps / kChunk);
  CHECK(f.bytes == Approx(kSteps * 1e9));
}

TEST_CASE("input that arrives slower than the steps consume it sets the job's pace",
          "[models][datacenter][dataset]") {
  Fed probe(0.0);
  const double T = probe.plan.step.step_time_s;
  const double R = 3.0 * kChunk * T;  // three chunks' worth of steps per read
  Fed f(R);
  // Chunk k is read in [kR, (k+1)R] (one read at a time, never more than one chunk ahead) and
  // stepped through right after: the last ends at (chunks) R + its own steps.
  const int chunks = kSteps / kChunk;
  CHECK(f.finished_s == Approx(chunks * R + kChunk * T).margin(1e-7));  // activity ends round up to whole ns
  CHECK(f.run->data_stall_s() == Approx(f.finished_s - kSteps * T).margin(1e-7));  // activity ends round up to whole ns
  CHECK(f.reads == chunks);
}

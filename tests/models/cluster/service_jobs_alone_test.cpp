// Service jobs alone (models/cluster/service_jobs.hpp): a host written by hand that keeps a list
// of jobs and their states; no cluster, no scheduler, no store. Replicas under a real cluster
// are in tests/models/inference/.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "models/cluster/checkpoint_io.hpp"
#include "models/cluster/service_jobs.hpp"
#include "sim/error.hpp"
#include "sim/simulator.hpp"

using dcsim::models::cluster::CheckpointIo;
using dcsim::models::cluster::ServiceJobs;
using dcsim::models::workload::JobSpec;
using dcsim::sim::Time;

namespace {

struct ListHost final : ServiceJobs::Host, dcsim::models::cluster::JobTable {
  struct Job {
    JobSpec spec;
    bool arrived = false, running = false, stepping = false, ended = false;
    double utilization = -1;
  };
  std::vector<Job> jobs;
  std::vector<int> nodes_{4, 5};
  std::size_t add_job(JobSpec spec) override {
    jobs.push_back({std::move(spec)});
    return jobs.size() - 1;
  }
  void on_arrival(std::size_t job) override { jobs[job].arrived = true; }
  void end_job(std::size_t job) override { jobs[job].ended = true; }
  bool running(std::size_t job) const override { return jobs[job].running; }
  bool stepping(std::size_t job) const override { return jobs[job].stepping; }
  const std::vector<int>& nodes(std::size_t) const override { return nodes_; }
  double step_time_s(std::size_t) const override { return 0.0; }
  int clean_checkpoint(std::size_t, int) const override { return 0; }
  void set_job_utilization(std::size_t job, double u) override { jobs[job].utilization = u; }
};

struct Fixture {
  dcsim::sim::Simulator sim;
  CheckpointIo io;
  ListHost host;
  // 8-GPU nodes, a run of one hour.
  ServiceJobs jobs{8, Time::from_s(3600), 50e9, io, host, host, sim};
};

}  // namespace

TEST_CASE("a replica is a job of its GPUs until the end of the run, at its priority",
          "[models][cluster][service_jobs]") {
  Fixture f;
  f.jobs.submit_service_job("llama/0", 4, 2, {});   // half a node
  f.jobs.submit_service_job("llama/1", 16, 0, {});  // two whole nodes
  REQUIRE(f.host.jobs.size() == 2);
  const JobSpec& half = f.host.jobs[0].spec;
  CHECK(half.nodes == 1);
  CHECK(half.gpus_per_node == 4);
  CHECK(half.priority == 2);
  CHECK(half.work == Time::from_s(3600));
  CHECK(half.gpu_utilization == 0.0);
  CHECK(f.host.jobs[0].arrived);
  CHECK(f.host.jobs[1].spec.nodes == 2);
  CHECK(f.host.jobs[1].spec.gpus_per_node == 0);
}

TEST_CASE("a replica's run tells the service of its start, clock and interruptions until it ends",
          "[models][cluster][service_jobs]") {
  Fixture f;
  int started = 0, interrupted = 0;
  std::vector<double> clocks;
  const std::size_t h =
      f.jobs.submit_service_job("r", 8, 0,
                                {[&] { ++started; }, [&] { ++interrupted; }, [&](double c) { clocks.push_back(c); }});
  // Waiting: no nodes, no activity.
  CHECK(f.jobs.service_job_nodes(h).empty());
  f.jobs.set_service_job_activity(h, 0.7);
  CHECK(f.host.jobs[h].utilization == -1);
  // Its run begins: started, then its clock.
  f.host.jobs[h].running = f.host.jobs[h].stepping = true;
  auto run = f.jobs.run(h);
  f.jobs.started(h, [] { return 0.8; });
  CHECK(started == 1);
  CHECK(clocks == std::vector<double>{0.8});
  CHECK(f.jobs.service_job_nodes(h) == std::vector<int>{4, 5});
  f.jobs.set_service_job_activity(h, 0.7);
  CHECK(f.host.jobs[h].utilization == 0.7);
  run->set_clock_factor(0.5);
  CHECK(clocks == std::vector<double>{0.8, 0.5});
  CHECK(run->done_s() == 0.0);  // nothing to keep on a restart
  run->interrupt();
  CHECK(interrupted == 1);
  // Ended by the service: the cluster ends the job once; no callback follows.
  f.jobs.end_service_job(h);
  f.jobs.end_service_job(h);
  CHECK(f.host.jobs[h].ended);
  run->interrupt();
  CHECK(interrupted == 1);
  f.jobs.set_service_job_activity(h, 0.1);
  CHECK(f.host.jobs[h].utilization == 0.7);
}

TEST_CASE("a replica's read from a store the datacenter lacks is a bug", "[models][cluster][service_jobs]") {
  Fixture f;
  const std::size_t h = f.jobs.submit_service_job("r", 8, 0, {});
  CHECK_THROWS_AS(f.jobs.read_from_store(h, "weights", 1e9, [] {}), dcsim::sim::InternalError);
}

// The job-trace importers (tools/scenario/job_trace_import.hpp): each format on a small case whose
// expected jobs are worked out by hand in the comments, the rows each skips and why, the errors
// (all naming file:line), and limit / start / time_scale.

#include <filesystem>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "scenario_test_support.hpp"
#include "sim/error.hpp"
#include "tools/scenario/job_trace_import.hpp"

namespace sc = dcsim::tools::scenario;
using dcsim::sim::Time;
using sc::JobTraceFormat;

namespace {

sc::JobTraceOptions options(JobTraceFormat format, const std::string& name) {
  sc::JobTraceOptions o;
  o.format = format;
  o.name = name;
  return o;
}

sc::JobTrace from_text(const std::string& text, const sc::JobTraceOptions& o, const std::string& display = "t") {
  std::istringstream in(text);
  return sc::import_job_trace(in, display, o);
}

Time seconds(double s) { return Time::from_seconds(s); }

const std::string kAlibabaHeader =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n";

}  // namespace

TEST_CASE("SWF: jobs from submit, run and requested time, nodes from processors; partial lines skipped",
          "[tools][scenario][traces]") {
  auto o = options(JobTraceFormat::kSwf, "hpc");
  o.processors_per_node = 32;
  const auto path = dcsim::tools::scenario::testing::source_dir() / "tests/data/traces/synthetic.swf";
  const auto t = sc::import_job_trace(path.string(), "synthetic.swf", o);
  // 9 job lines (the ';' header is not counted). Kept, by arrival:
  //   job 1: submit 0, run 3600 s, 65 allocated processors / 32 per node -> ceil(2.03) = 3 nodes,
  //          requested time 7200 s -> estimate
  //   job 7: submit 5 (listed last: the importer orders by arrival), 1 processor -> 1 node
  //   job 2: allocated -1 -> the 32 requested processors -> 1 node; requested time -1 -> estimate 0
  //   job 6: the summary line (status 1), 128 processors -> 4 nodes
  // Skipped: jobs 3 and 4 (run time 0 and -1), job 5 (no processor count), and job 6's two
  // partial executions (status 2 and 3), which its summary line already covers.
  REQUIRE(t.jobs.size() == 4);
  CHECK(t.rows == 9);
  CHECK(t.jobs[0].name == "hpc-1");
  CHECK(t.jobs[0].arrival == Time::zero());
  CHECK(t.jobs[0].work == seconds(3600));
  CHECK(t.jobs[0].nodes == 3);
  CHECK(t.jobs[0].gpus_per_node == 0);
  CHECK(t.jobs[0].estimate == seconds(7200));
  CHECK(t.jobs[0].gpu_utilization == 1.0);
  CHECK(t.jobs[1].name == "hpc-7");
  CHECK(t.jobs[1].arrival == seconds(5));
  CHECK(t.jobs[1].nodes == 1);
  CHECK(t.jobs[2].name == "hpc-2");
  CHECK(t.jobs[2].nodes == 1);
  CHECK(t.jobs[2].estimate == Time::zero());
  CHECK(t.jobs[3].name == "hpc-6");
  CHECK(t.jobs[3].nodes == 4);
  CHECK(t.jobs[3].work == seconds(1800));
  CHECK(t.lines == std::vector<std::size_t>{7, 15, 8, 12});
  REQUIRE(t.skipped.size() == 3);
  CHECK(t.skipped[0] == std::pair<std::string, std::size_t>{"run time <= 0 (0 or unknown)", 2});
  CHECK(t.skipped[1].second == 1);  // job 5: processors
  CHECK(t.skipped[2].second == 2);  // job 6's partial executions
  CHECK(t.skipped_rows() == 5);
  CHECK(t.describe() ==
        "4 jobs of 9 rows; 5 skipped (2 run time <= 0 (0 or unknown); 1 processors <= 0 (neither allocated nor "
        "requested known); 2 partial executions (status 2-4; the job's summary line has the whole job))");
}

TEST_CASE("SWF: one processor per node by default, so 65 processors take 65 nodes", "[tools][scenario][traces]") {
  const auto path = dcsim::tools::scenario::testing::source_dir() / "tests/data/traces/synthetic.swf";
  auto o = options(JobTraceFormat::kSwf, "hpc");
  o.gpu_utilization = 0.5;
  const auto t = sc::import_job_trace(path.string(), "synthetic.swf", o);
  REQUIRE(t.jobs.size() == 4);
  CHECK(t.jobs[0].nodes == 65);
  CHECK(t.jobs[3].nodes == 128);
  CHECK(t.jobs[0].gpu_utilization == 0.5);  // SWF has no GPU figure: the trace's default
}

TEST_CASE("SWF errors name file:line, the field, the value and what was expected", "[tools][scenario][traces]") {
  const auto o = options(JobTraceFormat::kSwf, "hpc");
  const std::string good = "1 0 0 10 4 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1\n";
  CHECK_THROWS_WITH(from_text("; header\n" + good + "2 0 0 10 4 -1 -1 4 -1 -1 1 1 1 1 1 1 -1\n", o, "j.swf"),
                    "j.swf:3: expected 18 whitespace-separated fields (SWF), got 17");
  CHECK_THROWS_WITH(from_text(good + "2 0 0 ten 4 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1\n", o, "j.swf"),
                    "j.swf:2: field 4 (run time): expected a number, got \"ten\"");
  CHECK_THROWS_WITH(from_text("2 -5 0 10 4 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1\n", o, "j.swf"),
                    "j.swf:1: field 2 (submit time): expected a time >= 0 s, got \"-5\"");
}

TEST_CASE("Alibaba openb: arrival at creation, work from scheduling to deletion, GPU share as utilisation",
          "[tools][scenario][traces]") {
  const std::string text = kAlibabaHeader +
                           "p0,12000,16384,1,460,,LS,Running,100,5000,200\n"      // 2
                           "p1,88000,327680,8,1000,,Burstable,Succeeded,50,1050,60\n"  // 3
                           "p2,4000,8192,0,0,,BE,Running,10,20,10\n"             // 4: CPU-only
                           "p3,4000,8192,1,1000,,BE,Pending,10,20,\n"            // 5: never scheduled
                           "p4,4000,8192,1,1000,,BE,Pending,10,20,12\n"          // 6: Pending
                           "p5,4000,8192,1,1000,,BE,Failed,10,20,20\n";          // 7: ran 0 s
  const auto t = from_text(text, options(JobTraceFormat::kAlibabaOpenb, "ali"), "pods.csv");
  // p1 arrives first (50 s): 8 GPUs on one node for 1050 - 60 = 990 s, whole GPUs -> utilisation 1.
  // p0 (100 s): one GPU, 460 thousandths of it -> utilisation 0.46, for 5000 - 200 = 4800 s.
  REQUIRE(t.jobs.size() == 2);
  CHECK(t.jobs[0].name == "ali-p1");
  CHECK(t.jobs[0].arrival == seconds(50));
  CHECK(t.jobs[0].work == seconds(990));
  CHECK(t.jobs[0].nodes == 1);
  CHECK(t.jobs[0].gpus_per_node == 8);
  CHECK(t.jobs[0].gpu_utilization == 1.0);
  CHECK(t.jobs[1].name == "ali-p0");
  CHECK(t.jobs[1].work == seconds(4800));
  CHECK(t.jobs[1].gpus_per_node == 1);
  CHECK(t.jobs[1].gpu_utilization == Approx(0.46).epsilon(1e-15));
  CHECK(t.jobs[1].estimate == Time::zero());  // the trace has no user estimate
  // QoS classes as priorities (eviction order): Burstable 1, LS 2.
  CHECK(t.jobs[0].priority == 1);
  CHECK(t.jobs[1].priority == 2);
  CHECK(t.rows == 6);
  CHECK(t.skipped == std::vector<std::pair<std::string, std::size_t>>{
                         {"CPU-only pods (num_gpu 0)", 1},
                         {"never scheduled (pod_phase Pending or no scheduled_time)", 2},
                         {"run time <= 0 (deletion_time <= scheduled_time)", 1}});
}

TEST_CASE("Alibaba openb errors name file:line and the column", "[tools][scenario][traces]") {
  const auto o = options(JobTraceFormat::kAlibabaOpenb, "ali");
  CHECK_THROWS_WITH(from_text(kAlibabaHeader + "p0,1,1,1,1000,,LS,Running,0,10\n", o, "pods.csv"),
                    "pods.csv:2: missing field scheduled_time: expected 11 comma-separated cells as in the header, "
                    "got 10");
  CHECK_THROWS_WITH(from_text(kAlibabaHeader + "p0,1,1,1,1000,,LS,Running,soon,10,0\n", o, "pods.csv"),
                    "pods.csv:2: column creation_time: expected a time in seconds, got \"soon\"");
  CHECK_THROWS_WITH(from_text(kAlibabaHeader + "p0,1,1,1.5,1000,,LS,Running,0,10,0\n", o, "pods.csv"),
                    "pods.csv:2: column num_gpu: expected a whole number from 0 to 1000000, got \"1.5\"");
  CHECK_THROWS_WITH(from_text(kAlibabaHeader + "p0,1,1,1,0,,LS,Running,0,10,0\n", o, "pods.csv"),
                    Catch::StartsWith("pods.csv:2: column gpu_milli: expected a share of the pod's one GPU"));
  CHECK_THROWS_WITH(from_text("name,num_gpu,gpu_milli,pod_phase,creation_time,deletion_time\n", o, "pods.csv"),
                    Catch::StartsWith("pods.csv:1: header: missing column scheduled_time"));
  CHECK_THROWS_WITH(from_text("", o, "pods.csv"), Catch::StartsWith("pods.csv: empty pod list; expected a header"));
  CHECK_THROWS_WITH(from_text(kAlibabaHeader + "p0,1,1,1,1000,,Platinum,Running,0,10,0\n", o, "pods.csv"),
                    "pods.csv:2: column qos: expected LS, Guaranteed, Burstable, BE or nothing, got \"Platinum\"");
}

TEST_CASE("dcsim CSV: optional columns take their defaults, any order", "[tools][scenario][traces]") {
  auto o = options(JobTraceFormat::kCsv, "mine");
  o.gpu_utilization = 0.7;
  const auto t = from_text(
      "# two jobs\n"
      "work_s,arrival_s,name,nodes,gpus_per_node,estimate_s,gpu_utilization,priority\n"
      "3600,0,big,4,,7200,0.9,5\n"
      "60,30,,,2,,,\n",
      o, "jobs.csv");
  REQUIRE(t.jobs.size() == 2);
  CHECK(t.jobs[0].name == "mine-big");
  CHECK(t.jobs[0].nodes == 4);
  CHECK(t.jobs[0].gpus_per_node == 0);  // empty cell: the whole node
  CHECK(t.jobs[0].estimate == seconds(7200));
  CHECK(t.jobs[0].gpu_utilization == 0.9);
  CHECK(t.jobs[0].priority == 5);
  // Row 2 has no name: named after its line (4); nodes 1, utilisation the trace's 0.7.
  CHECK(t.jobs[1].name == "mine-4");
  CHECK(t.jobs[1].arrival == seconds(30));
  CHECK(t.jobs[1].nodes == 1);
  CHECK(t.jobs[1].gpus_per_node == 2);
  CHECK(t.jobs[1].gpu_utilization == 0.7);
  CHECK(t.jobs[1].estimate == Time::zero());
  CHECK(t.skipped.empty());

  // Only the two required columns.
  const auto minimal = from_text("arrival_s,work_s\n5,10\n", o, "jobs.csv");
  REQUIRE(minimal.jobs.size() == 1);
  CHECK(minimal.jobs[0].name == "mine-2");
  CHECK(minimal.jobs[0].work == seconds(10));
}

TEST_CASE("dcsim CSV errors: unknown or missing columns, bad cells, each with file:line",
          "[tools][scenario][traces]") {
  const auto o = options(JobTraceFormat::kCsv, "mine");
  CHECK_THROWS_WITH(from_text("arrival_s,work_s,queue\n0,1,a\n", o, "jobs.csv"),
                    "jobs.csv:1: header: unknown column \"queue\"; expected columns among name,arrival_s,nodes,"
                    "gpus_per_node,work_s,estimate_s,gpu_utilization,priority");
  CHECK_THROWS_WITH(from_text("arrival_s,nodes\n0,1\n", o, "jobs.csv"),
                    Catch::StartsWith("jobs.csv:1: header: missing column work_s (required"));
  CHECK_THROWS_WITH(from_text("arrival_s,work_s\n0,1\n0\n", o, "jobs.csv"),
                    "jobs.csv:3: missing field work_s: expected 2 comma-separated cells as in the header, got 1");
  CHECK_THROWS_WITH(from_text("arrival_s,work_s\n0,1\n\n0,x\n", o, "jobs.csv"),
                    "jobs.csv:4: column work_s: expected a run time in seconds > 0, got \"x\"");
  CHECK_THROWS_WITH(from_text("arrival_s,work_s\n0,0\n", o, "jobs.csv"),
                    "jobs.csv:2: column work_s: expected a run time in seconds > 0, got \"0\"");
  CHECK_THROWS_WITH(from_text("arrival_s,work_s,nodes\n0,1,0\n", o, "jobs.csv"),
                    "jobs.csv:2: column nodes: expected a whole number from 1 to 1000000000, got \"0\"");
  CHECK_THROWS_WITH(from_text("arrival_s,work_s,gpu_utilization\n0,1,1.5\n", o, "jobs.csv"),
                    "jobs.csv:2: column gpu_utilization: expected a fraction from 0 to 1, got \"1.5\"");
}

TEST_CASE("a trace file that is missing or a directory is refused naming it", "[tools][scenario][traces]") {
  const auto o = options(JobTraceFormat::kSwf, "hpc");
  CHECK_THROWS_WITH(sc::import_job_trace("/nonexistent/jobs.swf", "jobs.swf", o), "jobs.swf: cannot open file");
  CHECK_THROWS_WITH(sc::import_job_trace(std::filesystem::temp_directory_path().string(), "tmp", o),
                    "tmp: expected a regular file, got a directory");
}

TEST_CASE("limit keeps the earliest jobs; start and time_scale move and stretch them", "[tools][scenario][traces]") {
  auto o = options(JobTraceFormat::kCsv, "t");
  o.limit = 2;
  o.start = seconds(100);
  o.time_scale = 0.5;
  const auto t = from_text("name,arrival_s,work_s,estimate_s\na,30,10,\nb,10,20,40\nc,20,30,\nd,10,40,\n", o);
  // The two earliest arrivals are b and d (both 10 s; file order among equals). Arrival
  // 100 + 0.5 x 10 = 105 s; work 0.5 x 20 = 10 s and 0.5 x 40 = 20 s; b's estimate 0.5 x 40 = 20 s.
  REQUIRE(t.jobs.size() == 2);
  CHECK(t.jobs[0].name == "t-b");
  CHECK(t.jobs[1].name == "t-d");
  CHECK(t.jobs[0].arrival == seconds(105));
  CHECK(t.jobs[1].arrival == seconds(105));
  CHECK(t.jobs[0].work == seconds(10));
  CHECK(t.jobs[1].work == seconds(20));
  CHECK(t.jobs[0].estimate == seconds(20));
  CHECK(t.beyond_limit == 2);
  CHECK(t.rows == 4);
  CHECK(t.describe() == "2 jobs of 4 rows; 0 skipped; 2 beyond the limit");
}

TEST_CASE("limit on a long trace keeps the same jobs while holding only a few at a time",
          "[tools][scenario][traces]") {
  // 5,000 rows arriving latest first (5000 s .. 1 s): the importer trims to the limit every
  // 2 x limit + 1024 rows, and must still end with the three earliest, rows 5000, 4999, 4998
  // (lines 5001, 5000, 4999 after the header).
  std::string text = "arrival_s,work_s\n";
  for (int i = 5000; i >= 1; --i) text += std::to_string(i) + ",1\n";
  auto o = options(JobTraceFormat::kCsv, "t");
  o.limit = 3;
  const auto t = from_text(text, o);
  REQUIRE(t.jobs.size() == 3);
  CHECK(t.jobs[0].arrival == seconds(1));
  CHECK(t.jobs[2].arrival == seconds(3));
  CHECK(t.lines == std::vector<std::size_t>{5001, 5000, 4999});
  CHECK(t.beyond_limit == 4997);
}

TEST_CASE("a time beyond simulated time's range is refused, not wrapped", "[tools][scenario][traces]") {
  auto o = options(JobTraceFormat::kCsv, "t");
  o.time_scale = 1e6;
  CHECK_THROWS_WITH(from_text("arrival_s,work_s\n1,1\n1e4,1e4\n", o, "j.csv"),
                    Catch::StartsWith("j.csv:3: arrival 1e+10 s, run time 1e+10 s after start and time_scale: "
                                      "expected each below 4.6e+09 s"));
}

TEST_CASE("the full Alibaba openb pod list imports: every row a job or a counted skip", "[tools][scenario][traces]") {
  const auto path = dcsim::tools::scenario::testing::source_dir() / "../shared/traces/alibaba-openb-pod-list-default.csv";
  if (!std::filesystem::exists(path)) {
    WARN("skipped: " << path.string() << " is absent (the project does not ship the full trace)");
    return;
  }
  const auto t = sc::import_job_trace(path.string(), "openb_pod_list_default.csv",
                                      options(JobTraceFormat::kAlibabaOpenb, "ali"));
  // Counted with awk over the file: 1,088 pods ask no GPU; of the others 861 have no
  // scheduled_time or are Pending; none ends before it was scheduled; 6,203 remain.
  CHECK(t.rows == 8152);
  CHECK(t.jobs.size() + t.skipped_rows() == 8152);
  CHECK(t.jobs.size() == 6203);
  CHECK(t.skipped == std::vector<std::pair<std::string, std::size_t>>{
                         {"CPU-only pods (num_gpu 0)", 1088},
                         {"never scheduled (pod_phase Pending or no scheduled_time)", 861}});
  CHECK(t.jobs.front().name == "ali-openb-pod-0000");
}

TEST_CASE("the shipped Alibaba excerpt: 300 GPU pods, 21 never scheduled", "[tools][scenario][traces]") {
  const auto path = dcsim::tools::scenario::testing::source_dir() / "scenarios/data/alibaba-openb-excerpt.csv";
  const auto t = sc::import_job_trace(path.string(), "excerpt", options(JobTraceFormat::kAlibabaOpenb, "ali"));
  // scenarios/data/README.md: the first 300 rows with num_gpu > 0; 21 of them are Pending.
  CHECK(t.rows == 300);
  CHECK(t.jobs.size() == 279);
  CHECK(t.skipped_rows() == 21);
}

TEST_CASE("the format names are the scenario's", "[tools][scenario][traces]") {
  CHECK(sc::job_trace_format_names() == std::vector<std::string>{"swf", "alibaba_openb", "csv"});
  CHECK(sc::job_trace_format("alibaba_openb") == JobTraceFormat::kAlibabaOpenb);
  CHECK_THROWS_AS(sc::job_trace_format("gwf"), dcsim::sim::InputError);
}

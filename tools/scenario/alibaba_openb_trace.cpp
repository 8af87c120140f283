// The pod lists of Alibaba's cluster-trace-gpu-v2023 (csv/openb_pod_list_*.csv of
// github.com/alibaba/clusterdata; Weng et al., "Beware of Fragmentation: Scheduling GPU-Sharing
// Workloads with Fragmentation Gradient Descent", USENIX ATC 2023). A header names the columns
// name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,
// deletion_time,scheduled_time (times in seconds from the trace's start). Used:
//   name -> the id; creation_time -> arrival; deletion_time - scheduled_time -> work;
//   num_gpu -> gpus_per_node on one node; gpu_milli / 1000 -> gpu_utilization;
//   qos -> priority: LS (latency-sensitive) and Guaranteed 2, Burstable 1, BE (best effort) and
//   empty 0 -- the order in which Kubernetes QoS classes are evicted, BE first (Weng et al. treat
//   BE pods as the preemptible ones), so `priority_preemptive` lets LS pods preempt BE pods.
// Not mapped: cpu_milli and memory_mib (dcsim places GPUs; host CPU and memory are not a
// placement constraint here) and gpu_spec (a pod's GPU model constraint; a dcsim cluster has one
// node type).
// gpu_milli is the share of one GPU a 1-GPU pod asked for (GPU sharing); dcsim places whole GPUs,
// so a 460-milli pod holds a whole GPU for placement and draws 46% of its dynamic power. The
// trace has no user estimate of the run time: estimate stays zero (not given).

#include "tools/scenario/job_trace_rows.hpp"

#include <map>

#include "sim/error.hpp"

namespace dcsim::tools::scenario::trace_rows {

namespace {

// The columns read; the others (cpu_milli, memory_mib, gpu_spec, qos) may be there or not.

// Priority of a Kubernetes QoS class: eviction order, best effort first.
int qos_priority(LineReader& r, const std::string& qos) {
  if (qos == "LS" || qos == "Guaranteed") return 2;
  if (qos == "Burstable") return 1;
  if (qos == "BE" || qos.empty()) return 0;
  r.fail("column qos: expected LS, Guaranteed, Burstable, BE or nothing, got \"" + qos + "\"");
  return 0;
}
constexpr const char* kRequired[] = {"name",          "num_gpu",       "gpu_milli",     "pod_phase",
                                     "creation_time", "deletion_time", "scheduled_time"};

}  // namespace

void read_alibaba_openb(LineReader& r, const JobTraceOptions& /*options*/, RowSink& sink) {
  std::string line;
  if (!r.next(line)) {
    throw sim::InputError(r.display() + ": empty pod list; expected a header such as name,cpu_milli,memory_mib,"
                                        "num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,"
                                        "scheduled_time");
  }
  const auto header = split_commas(line);
  std::map<std::string, std::size_t> column;
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (!column.emplace(header[i], i).second) r.fail("header: column " + header[i] + " appears twice");
  }
  for (const char* name : kRequired) {
    if (column.count(name) == 0) {
      r.fail(std::string("header: missing column ") + name + " (an Alibaba openb pod list has name,cpu_milli,"
             "memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time)");
    }
  }
  const std::size_t c_name = column["name"], c_gpus = column["num_gpu"], c_milli = column["gpu_milli"],
                    c_phase = column["pod_phase"], c_created = column["creation_time"],
                    c_deleted = column["deletion_time"], c_scheduled = column["scheduled_time"];
  const auto qos_column = column.find("qos");

  while (r.next(line)) {
    const auto cells = header_row(r, line, header);
    const auto gpus = integer_cell(r, "column num_gpu", cells[c_gpus], 0, 1'000'000);
    const double milli = number_cell(r, "column gpu_milli", cells[c_milli], "a number of thousandths of a GPU");
    const double created = number_cell(r, "column creation_time", cells[c_created], "a time in seconds");
    const double deleted = number_cell(r, "column deletion_time", cells[c_deleted], "a time in seconds");
    const bool scheduled = !cells[c_scheduled].empty();
    const double scheduled_s =
        scheduled ? number_cell(r, "column scheduled_time", cells[c_scheduled], "a time in seconds or nothing")
                  : 0.0;
    if (created < 0) r.fail("column creation_time: expected a time >= 0 s, got \"" + cells[c_created] + "\"");
    // Whole GPUs for multi-GPU pods (1000 in the trace); a share of one GPU for 1-GPU pods.
    if (gpus == 1 && !(milli > 0 && milli <= 1000)) {
      r.fail("column gpu_milli: expected a share of the pod's one GPU, above 0 and at most 1000 "
             "thousandths, got \"" + cells[c_milli] + "\"");
    }

    if (gpus == 0) {
      sink.skip("CPU-only pods (num_gpu 0)");
      continue;
    }
    if (!scheduled || cells[c_phase] == "Pending") {
      sink.skip("never scheduled (pod_phase Pending or no scheduled_time)");
      continue;
    }
    if (deleted - scheduled_s <= 0) {
      sink.skip("run time <= 0 (deletion_time <= scheduled_time)");
      continue;
    }
    Row row;
    row.id = cells[c_name];
    row.line = r.line();
    row.arrival_s = created;
    row.work_s = deleted - scheduled_s;
    row.nodes = 1;
    row.gpus_per_node = static_cast<int>(gpus);
    row.gpu_utilization = gpus == 1 ? milli / 1000.0 : 1.0;
    row.priority = qos_column != column.end() ? qos_priority(r, cells[qos_column->second]) : 0;
    sink.add(std::move(row));
  }
}

}  // namespace dcsim::tools::scenario::trace_rows

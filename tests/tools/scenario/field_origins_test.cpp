#include <catch2/catch.hpp>

#include "tools/scenario/field_origins.hpp"

using dcsim::tools::scenario::FieldOrigins;
using dcsim::tools::scenario::OriginReader;
using nlohmann::json;

TEST_CASE("a field's origin is its own record, else its nearest recorded parent", "[tools][scenario]") {
  FieldOrigins o;
  o.record("node", "/cluster/node");
  o.record("node.gpu.max_power_w", "/cluster/node/gpu_max_power");
  o.record("jobs[2]", "/workload/jobs/2");
  o.record("jobs[2].work_s", "/workload/jobs/2/work");
  CHECK(o.pointer_of("node.gpu.max_power_w") == "/cluster/node/gpu_max_power");
  // Not recorded itself: the node object that holds it.
  CHECK(o.pointer_of("node.compute_nics") == "/cluster/node");
  CHECK(o.pointer_of("node.gpu.idle_power_w") == "/cluster/node");
  CHECK(o.pointer_of("jobs[2].work_s") == "/workload/jobs/2/work");
  CHECK(o.pointer_of("jobs[2].estimate") == "/workload/jobs/2");
  // A prefix is cut where a segment starts, never inside a name: "jobs[2" is not "jobs[20]".
  CHECK(o.pointer_of("jobs[20].nodes").empty());
  CHECK(o.pointer_of("nodes").empty());
  CHECK(o.pointer_of("").empty());
}

TEST_CASE("an origin reader records each key it reads under the model's name", "[tools][scenario]") {
  const json doc = json::parse(R"({"gen": {"work": 3, "a/b": 1, "params": {"x": 1, "y": 2}}})");
  FieldOrigins o;
  const OriginReader top(doc, "", "", o);
  const OriginReader gen = top.object("gen", "generators[0].");
  CHECK(gen.at("work", "work_s").get<int>() == 3);
  CHECK(gen.at("a/b", "ab").get<int>() == 1);
  gen.object("params", "params.").record_each_key();
  CHECK(o.pointer_of("generators[0].work_s") == "/gen/work");
  CHECK(o.pointer_of("generators[0]") == "/gen");         // the object, from its prefix
  CHECK(o.pointer_of("generators[0].ab") == "/gen/a~1b");  // escaped as RFC 6901 asks
  CHECK(o.pointer_of("generators[0].params.y") == "/gen/params/y");
  CHECK(o.pointer_of("generators[0].params.z") == "/gen/params");
  // Reading is what records: a key never read has no origin of its own.
  CHECK(o.pointer_of("generators[0].work") == "/gen");
}

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sim/error.hpp"

using dcsim::sim::clip_message;
using dcsim::sim::InputError;
using dcsim::sim::InputErrors;
using dcsim::sim::kMaxInputErrors;
using dcsim::sim::kMaxMessageBytes;

TEST_CASE("a 100 KB value in a message keeps its start and end and says how much was left out",
          "[sim][error]") {
  // Before: `--set policies.scheduler=<100 KB>` printed the whole value back.
  const std::string value(100'000, 'x');
  const std::string head = "scenario.json:/policies/scheduler: unknown scheduler '";
  const std::string tail = "'; valid: fifo, easy_backfill";
  const InputError e(head + value + tail);
  const std::string what = e.what();
  CHECK(what.size() <= kMaxMessageBytes);
  CHECK(what.rfind("scenario.json:/policies/scheduler: unknown scheduler 'xxx", 0) == 0);
  CHECK(what.find("'; valid: fifo, easy_backfill") != std::string::npos);
  // Every byte is either shown or counted.
  const auto marker = what.find(" [... ");
  REQUIRE(marker != std::string::npos);
  const auto count_end = what.find(" bytes left out ...] ");
  const std::size_t left_out = std::stoull(what.substr(marker + 6, count_end - marker - 6));
  const std::size_t original = head.size() + value.size() + tail.size();
  CHECK(what.size() - (count_end + 21 - marker) + left_out == original);
}

TEST_CASE("clipping a clipped message again adds to the count at the same place", "[sim][error]") {
  const std::string once = clip_message("start " + std::string(50'000, 'y') + " end");
  const std::string twice = clip_message("file.json:/pointer: " + once);
  CHECK(twice.size() <= kMaxMessageBytes);
  CHECK(twice.rfind("file.json:/pointer: start yyy", 0) == 0);
  CHECK(twice.find(" end") == twice.size() - 4);
  CHECK(twice.find(" [... ") == twice.rfind(" [... "));  // one marker, not two
  const auto marker = twice.find(" [... ");
  const auto count_end = twice.find(" bytes left out ...] ");
  const std::size_t left_out = std::stoull(twice.substr(marker + 6, count_end - marker - 6));
  CHECK(twice.size() - (count_end + 21 - marker) + left_out == 20 + 6 + 50'000 + 4);
}

TEST_CASE("clipping never cuts a UTF-8 character in half", "[sim][error]") {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "\xC2\xB5";  // µ, two bytes each
  const std::string clipped = clip_message(text, 301);
  const auto marker = clipped.find(" [... ");
  REQUIRE(marker != std::string::npos);
  CHECK(marker % 2 == 0);  // whole characters before it
  const auto after = clipped.find(" bytes left out ...] ") + 21;
  CHECK((clipped.size() - after) % 2 == 0);
  CHECK(static_cast<unsigned char>(clipped[after]) == 0xC2);
}

TEST_CASE("a short message is left alone", "[sim][error]") {
  CHECK(std::string(InputError("file.json:/cluster/nodes: expected a positive integer, got 0").what()) ==
        "file.json:/cluster/nodes: expected a positive integer, got 0");
}

TEST_CASE("100,001 errors keep the first 100 and count the rest", "[sim][error]") {
  // Before: 100,001 duplicate job names printed 19 MB of errors.
  std::vector<std::string> messages;
  for (int i = 0; i < 100'001; ++i) messages.push_back("f.json:/workload/jobs/" + std::to_string(i) + "/name: dup");
  const InputErrors e(std::move(messages));
  REQUIRE(e.messages().size() == kMaxInputErrors + 1);
  CHECK(e.messages().front() == "f.json:/workload/jobs/0/name: dup");
  CHECK(e.messages()[kMaxInputErrors - 1] == "f.json:/workload/jobs/99/name: dup");
  // Said as about the file they all are about.
  CHECK(e.messages().back() == "f.json: ... and 99901 more errors not shown (the first 100 are above)");
  CHECK(std::string(e.what()).size() < 5000);
}

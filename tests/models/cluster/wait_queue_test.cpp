// The cluster's wait queue alone (models/cluster/wait_queue.hpp): the order schedulers see, and
// the head index that makes fifo starts free.

#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include "models/cluster/wait_queue.hpp"

using dcsim::models::cluster::WaitQueue;
using dcsim::models::policy::WaitingJob;
using dcsim::sim::Time;

namespace {

WaitingJob waiting(std::size_t job, double arrival_s, int priority = 0) {
  return WaitingJob{job, 1, 1, Time::from_seconds(arrival_s), Time::from_seconds(60), priority};
}

std::vector<std::size_t> order(const WaitQueue& q) {
  std::vector<std::size_t> jobs;
  for (const auto& w : q.jobs()) jobs.push_back(w.job_index);
  return jobs;
}

}  // namespace

TEST_CASE("waiting jobs are ordered by priority, then arrival, then job index", "[models][cluster][queue]") {
  WaitQueue q;
  q.insert(waiting(0, 10));
  q.insert(waiting(2, 20));
  q.insert(waiting(1, 20));     // same arrival as 2, lower index: before it
  q.insert(waiting(3, 30, 5));  // outranks everyone
  q.insert(waiting(4, 5));      // earlier than all of priority 0
  CHECK(order(q) == std::vector<std::size_t>{3, 4, 0, 1, 2});
  q.push_front(waiting(9, 40));  // a resume from its checkpoint goes first, whatever its rank
  CHECK(order(q) == std::vector<std::size_t>{9, 3, 4, 0, 1, 2});
  CHECK(q.size() == 6);
}

TEST_CASE("started jobs leave the queue; a started prefix only moves the head, and makes room in front",
          "[models][cluster][queue]") {
  WaitQueue q;
  for (std::size_t j = 0; j < 5; ++j) q.insert(waiting(j, static_cast<double>(j)));
  q.remove_started({1, 0});  // a prefix, in any order
  CHECK(order(q) == std::vector<std::size_t>{2, 3, 4});
  q.remove_started({1});  // from the middle: job 3
  CHECK(order(q) == std::vector<std::size_t>{2, 4});
  CHECK(q[1].job_index == 4);
  q.push_front(waiting(7, 9));  // into the freed head slot
  CHECK(order(q) == std::vector<std::size_t>{7, 2, 4});
  q.erase_job(2);
  q.erase_job(42);  // not waiting: nothing
  CHECK(order(q) == std::vector<std::size_t>{7, 4});
  q.remove_started({0, 1});
  CHECK(q.empty());
  q.insert(waiting(8, 1));  // an empty queue (with a dead prefix) appends
  CHECK(order(q) == std::vector<std::size_t>{8});
}

TEST_CASE("a long fifo queue compacts its dead prefix once it dominates", "[models][cluster][queue]") {
  WaitQueue q;
  for (std::size_t j = 0; j < 3000; ++j) q.insert(waiting(j, static_cast<double>(j)));
  for (std::size_t j = 0; j < 2000; ++j) q.remove_started({0});
  // Still in order after the compactions (at a head past 1,024 and more than half of the vector).
  CHECK(q.size() == 1000);
  CHECK(q[0].job_index == 2000);
  CHECK(q.jobs().back().job_index == 2999);
}

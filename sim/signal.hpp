#pragma once
// Signal: a typed, synchronous one-to-many notification (OMNeT++'s emit/subscribe, without the
// string lookup). A model emits what happened; listeners connected before the run react, and
// the emitter never learns who they are. Emitting with no listener costs one branch, so a model
// can emit per event without a cost for runs that do not listen.
//
// Listeners run in connection order, inside the emitter's call: a listener must not destroy
// the signal it is called from. Connections last as long as the signal (no disconnect: the
// parts of one run live and die together).

#include <functional>
#include <utility>
#include <vector>

namespace dcsim::sim {

template <class... Args>
class Signal {
 public:
  using Listener = std::function<void(Args...)>;

  void connect(Listener listener) { listeners_.push_back(std::move(listener)); }
  bool connected() const { return !listeners_.empty(); }

  void emit(Args... args) const {
    for (const Listener& l : listeners_) l(args...);
  }

 private:
  std::vector<Listener> listeners_;
};

}  // namespace dcsim::sim

#pragma once
// A bound on the work one request may ask of the thread that answers it.
//
//   {                                   // a server's handler, around one request
//     WorkBudget budget(1'000'000);     // steps this thread may take from here on
//     answer(request);                  // deep inside: WorkBudget::spend() a step
//   }                                   // past the budget: WorkLimit thrown from spend()
//
// Work that can grow without bound from a short input (making a typed game value canonical,
// printing it) calls spend() once a step. With no budget alive on the thread (a solve, a
// command) a step is a thread-local load and a branch, nothing more. Budgets nest: the
// innermost one alive counts, and the one outside it resumes when it ends.
//
// A step is thrown out of only where nothing has been changed yet, so what the work was
// building (a table's caches, its forms) stays whole: a WorkLimit leaves it usable.

#include <cstdint>
#include <exception>
#include <string>

namespace toadbase::core {

/// Thrown by WorkBudget::spend() past the budget. Not a std::runtime_error: no handler of
/// damaged data or bad input takes it for one of those by mistake.
class WorkLimit : public std::exception {
 public:
  explicit WorkLimit(uint64_t steps)
      : steps_(steps), what_("more work than the " + std::to_string(steps) + " steps allowed") {}
  const char* what() const noexcept override { return what_.c_str(); }
  uint64_t steps() const { return steps_; }

 private:
  uint64_t steps_;
  std::string what_;
};

class WorkBudget {
 public:
  explicit WorkBudget(uint64_t steps) : limit_(steps), left_(steps), outer_(current()) { current() = this; }
  /// As above, asking stop(context) every kPollSteps steps taken: true ends the work as a
  /// spent budget does (WorkLimit). A caller's way to be interrupted by what only it can see
  /// (Python's Ctrl-C, whose flag is read under the interpreter's lock).
  using Stop = bool (*)(void* context);
  static constexpr uint64_t kPollSteps = uint64_t{1} << 16;
  WorkBudget(uint64_t steps, Stop stop, void* context) : WorkBudget(steps) {
    stop_ = stop;
    context_ = context;
  }
  ~WorkBudget() { current() = outer_; }
  WorkBudget(const WorkBudget&) = delete;
  WorkBudget& operator=(const WorkBudget&) = delete;

  /// `steps` steps of work on this thread: free of charge with no budget alive, else
  /// counted against the innermost one; WorkLimit once it is used up.
  static void spend(uint64_t steps = 1) {
    if (WorkBudget* b = current()) [[unlikely]] b->take(steps);
  }
  /// `steps` steps of work already paid for (a charge made up front, before the work, so
  /// that work too large is refused before it begins): taken from no budget, but counted
  /// towards the next ask of a stop, so that the work it paid for stays open to one.
  static void paid(uint64_t steps) {
    if (WorkBudget* b = current()) [[unlikely]] b->count_towards_stop(steps);
  }
  uint64_t spent() const { return limit_ - left_; }
  uint64_t limit() const { return limit_; }

 private:
  void take(uint64_t steps) {
    if (steps > left_) {
      left_ = 0;
      throw WorkLimit(limit_);
    }
    left_ -= steps;
    count_towards_stop(steps);
  }
  void count_towards_stop(uint64_t steps) {
    if (stop_ && (polled_ += steps) >= kPollSteps) {
      polled_ = 0;
      if (stop_(context_)) {
        left_ = 0;
        throw WorkLimit(limit_);
      }
    }
  }
  static WorkBudget*& current() {
    static constinit thread_local WorkBudget* b = nullptr;
    return b;
  }
  uint64_t limit_, left_;
  WorkBudget* outer_;
  Stop stop_ = nullptr;
  void* context_ = nullptr;
  uint64_t polled_ = 0;  // steps since stop_ was last asked
};

}  // namespace toadbase::core

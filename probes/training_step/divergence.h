#pragma once
// What training.step compares and where the first difference is. Every rank runs the same sequence of
// checks in the same order, so (step, check number, rank) orders divergences across the job: the first
// one is where the step went wrong, and everything after it may only be its consequence.
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace gpucheck::training {

struct Divergence {
  int step = 0;         // 1-based
  int check = 0;        // order of the check within the step (the same on every rank)
  int rank = 0;
  std::string layer;    // "linear1", "head", "loss", "loss scale"
  std::string what;     // "forward output", "local weight gradient", "reduce-scattered gradient", ...
  std::size_t element = 0;
  std::string index;    // "[3,17]" (row, column) or "[42]"
  double got = 0, want = 0, allowed = 0;
  std::string sentence() const;  // "step 2, linear1, rank 0: local weight gradient [5,7] = ..."
};
void to_json(nlohmann::json& j, const Divergence& d);
void from_json(const nlohmann::json& j, Divergence& d);
bool earlier(const Divergence& a, const Divergence& b);

/// Largest errors seen by one kind of comparison.
struct ErrorStats {
  std::size_t checked = 0;
  double max_abs = 0, max_rel = 0;  // over finite pairs; rel where the reference is nonzero
  double worst_ratio = 0;           // max |got - want| / allowed
};
void to_json(nlohmann::json& j, const ErrorStats& s);
void from_json(const nlohmann::json& j, ErrorStats& s);

/// One rank's record of every comparison it made.
class CheckLog {
 public:
  explicit CheckLog(int rank) : rank_(rank) {}
  void begin_step(int step) { step_ = step, check_ = 0; }
  /// Compares n elements under the tolerance rules of kernels/common/tolerance.h (NaN where the reference
  /// has NaN, the same inf where it has inf, finite elsewhere and within `allowed`). `kind` groups the
  /// statistics ("gemm", "reduce-scatter", ...); `cols` > 0 names elements as [row,col].
  void compare(const std::string& kind, const std::string& layer, const std::string& what, std::size_t n,
               std::size_t cols, const std::function<double(std::size_t)>& got,
               const std::function<double(std::size_t)>& want, const std::function<double(std::size_t)>& allowed);
  /// The outcome of a check made elsewhere (a kernel family's CheckReport): its statistics, and when it
  /// failed its worst element.
  void record(const std::string& kind, const std::string& layer, const std::string& what, std::size_t cols,
              const ErrorStats& s, bool ok, std::size_t element, double got, double want, double allowed);
  /// A value that must be exactly the reference's (a flag, the loss scale, a skip decision).
  void expect_equal(const std::string& layer, const std::string& what, double got, double want);

  const std::optional<Divergence>& first() const { return first_; }
  const std::map<std::string, ErrorStats>& stats() const { return stats_; }

 private:
  int rank_, step_ = 0, check_ = 0;
  std::optional<Divergence> first_;
  std::map<std::string, ErrorStats> stats_;
};

}  // namespace gpucheck::training

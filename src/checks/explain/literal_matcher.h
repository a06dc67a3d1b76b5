#pragma once
// Finds which of many literal strings occur in a line in one pass (Aho-Corasick automaton, ASCII
// case-insensitive). It is the prefilter that keeps `explain` fast: a signature's regex only runs on a line
// that contains one of its literals, and most log lines contain none.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gpucheck::explain {

class LiteralMatcher {
 public:
  /// What one scan remembers (which literals it already reported): the caller's, so one built matcher
  /// can serve many scanners, in several threads.
  struct Scratch {
    std::vector<std::uint32_t> seen;
    std::uint32_t generation = 0;
  };
  /// The matcher of exactly these literals, built once per process and shared: building the automaton
  /// costs more than scanning a short log (the fuzz target and `run` explain many logs with one set).
  /// Views, so that finding the built one copies no string (a scanner is made per log).
  static std::shared_ptr<const LiteralMatcher> shared(const std::vector<std::string_view>& literals);

  /// Adds a literal and returns its index (0, 1, ...). Empty literals are an error (std::invalid_argument).
  std::size_t add(const std::string& literal);
  /// Builds the automaton; call once after the last add().
  void build();
  /// Calls `found(index)` once per distinct literal occurring in `text` (order unspecified).
  template <typename F>
  void scan(std::string_view text, Scratch& scratch, F&& found) const {
    if (scratch.seen.size() != literals_.size() || ++scratch.generation == 0) {
      scratch.seen.assign(literals_.size(), 0);
      scratch.generation = 1;
    }
    auto& seen = scratch.seen;
    const std::uint32_t generation = scratch.generation;
    const std::uint32_t* next = packed_.data();
    std::uint32_t entry = 0;  // (row offset of the current state) << 1 | (it or a suffix ends a literal)
    for (char c : text) {
      // One dependent load per byte: the hot loop of explain on noise.
      entry = next[(entry >> 1) + class_[static_cast<unsigned char>(c)]];
      if (entry & 1u) {
        auto state = static_cast<std::int32_t>((entry >> 1) / classes_);
        for (std::int32_t s = state; s > 0; s = output_link_[static_cast<std::size_t>(s)]) {
          for (std::uint32_t lit : outputs_[static_cast<std::size_t>(s)]) {
            if (seen[lit] != generation) {
              seen[lit] = generation;
              found(static_cast<std::size_t>(lit));
            }
          }
        }
      }
    }
  }
  std::size_t size() const { return literals_.size(); }

 private:
  std::vector<std::string> literals_;
  // states x classes_, complete transition table. Bytes are mapped to classes first (each folded byte
  // that occurs in a literal is a class, every other byte is class 0): the table is ~5x smaller than
  // states x 256 and stays in cache, which is most of explain's speed on noise.
  std::vector<std::int32_t> delta_;
  std::vector<std::uint32_t> packed_;     // delta_ as (next state's row offset) << 1 | has_output_[next]
  std::vector<std::vector<std::uint32_t>> outputs_;  // literals ending exactly in this state
  std::vector<std::int32_t> output_link_; // next state on the suffix chain that has outputs (0 = none)
  std::vector<char> has_output_;          // this state or a suffix of it ends a literal
  unsigned char fold_[256] = {};
  std::uint16_t class_[256] = {};  // up to 257 classes: 0 + every byte value
  std::size_t classes_ = 1;
};

}  // namespace gpucheck::explain

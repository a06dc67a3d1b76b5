#include "checks/explain/literal_matcher.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <mutex>
#include <queue>
#include <stdexcept>
#include <utility>

namespace gpucheck::explain {

std::size_t LiteralMatcher::add(const std::string& literal) {
  if (literal.empty()) throw std::invalid_argument("empty literal");
  literals_.push_back(literal);
  return literals_.size() - 1;
}

void LiteralMatcher::build() {
  for (int c = 0; c < 256; ++c) fold_[c] = static_cast<unsigned char>(c < 128 ? std::tolower(c) : c);
  // Byte classes: one per distinct folded byte used by a literal, 0 for the rest.
  std::uint16_t folded_class[256] = {};
  classes_ = 1;
  for (const auto& lit : literals_)
    for (char ch : lit) {
      unsigned char f = fold_[static_cast<unsigned char>(ch)];
      if (folded_class[f] == 0) folded_class[f] = static_cast<std::uint16_t>(classes_++);
    }
  for (int c = 0; c < 256; ++c) class_[c] = folded_class[fold_[c]];
  // Trie with sparse children first, then the complete DFA by BFS over failure links.
  std::vector<std::vector<std::pair<std::uint16_t, std::int32_t>>> children(1);
  outputs_.assign(1, {});
  for (std::size_t li = 0; li < literals_.size(); ++li) {
    std::int32_t s = 0;
    for (char ch : literals_[li]) {
      std::uint16_t c = class_[static_cast<unsigned char>(ch)];
      std::int32_t next = -1;
      for (auto& [k, t] : children[static_cast<std::size_t>(s)])
        if (k == c) next = t;
      if (next < 0) {
        next = static_cast<std::int32_t>(children.size());
        children[static_cast<std::size_t>(s)].push_back({c, next});
        children.emplace_back();
        outputs_.emplace_back();
      }
      s = next;
    }
    outputs_[static_cast<std::size_t>(s)].push_back(static_cast<std::uint32_t>(li));
  }
  std::size_t n = children.size();
  const std::size_t k = classes_;
  delta_.assign(n * k, 0);
  std::vector<std::int32_t> fail(n, 0);
  output_link_.assign(n, 0);
  has_output_.assign(n, 0);
  std::queue<std::int32_t> q;
  for (auto& [c, t] : children[0]) {
    delta_[c] = t;
    q.push(t);
  }
  while (!q.empty()) {
    auto s = static_cast<std::size_t>(q.front());
    q.pop();
    std::int32_t f = fail[s];
    output_link_[s] = outputs_[static_cast<std::size_t>(f)].empty() ? output_link_[static_cast<std::size_t>(f)] : f;
    has_output_[s] = !outputs_[s].empty() || has_output_[static_cast<std::size_t>(f)];
    for (std::size_t c = 0; c < k; ++c) delta_[s * k + c] = delta_[static_cast<std::size_t>(f) * k + c];
    for (auto& [c, t] : children[s]) {
      fail[static_cast<std::size_t>(t)] = s == 0 ? 0 : delta_[static_cast<std::size_t>(f) * k + c];
      delta_[s * k + c] = t;
      q.push(t);
    }
  }
  if (n * k >= (1u << 31)) throw std::length_error("literal automaton too large");
  packed_.resize(delta_.size());
  for (std::size_t i = 0; i < delta_.size(); ++i) {
    auto t = static_cast<std::size_t>(delta_[i]);
    packed_[i] = static_cast<std::uint32_t>(t * k) << 1 | (has_output_[t] ? 1u : 0u);
  }
  std::vector<std::int32_t>().swap(delta_);  // only the packed table is scanned
  // The chain walk in scan() starts at the state itself, so a state's own outputs are visited first.
}

std::shared_ptr<const LiteralMatcher> LiteralMatcher::shared(const std::vector<std::string_view>& literals) {
  // A process uses one signature set, at most a few (tests): the last four are kept, each by its own
  // literals (the matcher's copies).
  static std::mutex mutex;
  static std::deque<std::shared_ptr<const LiteralMatcher>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  for (const auto& matcher : cache)
    if (std::equal(literals.begin(), literals.end(), matcher->literals_.begin(), matcher->literals_.end()))
      return matcher;
  auto built = std::make_shared<LiteralMatcher>();
  for (const auto& lit : literals) built->add(std::string(lit));
  built->build();
  cache.push_back(built);
  if (cache.size() > 4) cache.pop_front();
  return built;
}

}  // namespace gpucheck::explain

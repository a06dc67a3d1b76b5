#pragma once
// Pairwise bisection (--pairs): instead of one job over every node, run the collectives on node pairs to
// find the bad node or link, as operators do by hand (nccl-tests#278 advice; gcm check-nccl --pairwise).
// "all" runs every pair; "neighbour" runs each node with the next one in a ring, so every node is in two
// pairs and a bad node shows up in both. Pairs are scheduled in rounds of node-disjoint pairs that run at
// the same time.
#include <string>
#include <vector>

#include "collectives/options.h"
#include "collectives/transport.h"
#include "core/finding.h"

namespace gpucheck::collectives {

struct NodePair {
  int a = 0, b = 0;  // node indices, a < b
  bool operator==(const NodePair& o) const { return a == o.a && b == o.b; }
};

/// Node index of every rank, nodes numbered in order of first appearance; `names` gets the node names.
std::vector<int> assign_nodes(const std::vector<std::string>& key_per_rank, std::vector<std::string>* names);

/// Throws InputError for fewer than 2 nodes or mode kOff.
std::vector<NodePair> plan_pairs(int nodes, PairsMode mode);

/// Greedy rounds of node-disjoint pairs, every pair exactly once.
std::vector<std::vector<NodePair>> schedule_rounds(const std::vector<NodePair>& pairs);

struct PairOutcome {
  NodePair pair;
  bool bad = false;       // wrong data, error, timeout, or slow (set by classify_pairs)
  std::string reason;     // why bad
  std::size_t wrong = 0;
  std::string error;
  double busbw = -1;      // plateau busbw of the pair's sweep, < 0 unknown
};

/// Marks pairs bad for wrong data / errors, and slow when busbw < 0.8 x the median over pairs.
void classify_pairs(std::vector<PairOutcome>& outcomes);

/// Nodes all of whose pairs are bad; when none, the nodes in the most bad pairs. Empty when no pair is bad.
std::vector<int> suspect_nodes(const std::vector<PairOutcome>& outcomes, int nodes);

/// Runs the pairs over `t` (one process per GPU) and fills r on the root process.
void run_pairs(Transport& t, const Options& o, Finding& r);

}  // namespace gpucheck::collectives

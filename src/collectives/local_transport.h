#pragma once
// W ranks simulated in one process on host memory. Each output element is reduced in a different order
// (starting at rank i mod W), so a verification that depended on the reduction order would show it. Used by
// the unit tests (harness, corruption, merge) and as the single-process baseline of the benchmark.
#include "collectives/transport.h"

namespace gpucheck::collectives {

class LocalTransport : public Transport {
 public:
  explicit LocalTransport(int world);
  std::string name() const override { return "local"; }
  int world() const override { return world_; }
  int local_count() const override { return world_; }
  RankInfo info(int local) const override;
  bool is_root_process() const override { return true; }
  void* alloc(int local, std::size_t bytes) override;
  void release(int local, void* p) override;
  void upload(int local, void* dst, const void* host_src, std::size_t bytes) override;
  void download(int local, void* host_dst, const void* src, std::size_t bytes) override;
  double run(const std::vector<Collective>& group, int iterations, double timeout_s) override;
  double sum_over_processes(double v) override { return v; }
  std::vector<std::string> gather_to_root(const std::string& s) override { return {s}; }
  std::vector<std::string> all_gather_strings(const std::string& s) override { return {s}; }
  std::unique_ptr<Transport> split(int color, int key) override;
  void abort() override {}

 private:
  void run_one(const Collective& c);
  int world_;
};

}  // namespace gpucheck::collectives

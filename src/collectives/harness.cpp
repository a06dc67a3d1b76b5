#include "collectives/harness.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "collectives/pattern.h"
#include "collectives/verify.h"

namespace gpucheck::collectives {

void parallel_for(std::size_t n, const std::function<void(std::size_t, std::size_t)>& fn) {
  std::size_t threads = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  if (n < (std::size_t{1} << 20) || threads == 1) {
    fn(0, n);
    return;
  }
  std::vector<std::thread> pool;
  std::size_t chunk = (n + threads - 1) / threads;
  for (std::size_t b = 0; b < n; b += chunk) pool.emplace_back(fn, b, std::min(n, b + chunk));
  for (auto& th : pool) th.join();
}

namespace {

using Bytes = std::vector<unsigned char>;

// Elements the corrupt rank alters: every 1021st, starting at 5 (or the last element of short buffers).
bool corrupt_here(std::size_t i, std::size_t n) { return i % 1021 == std::min<std::size_t>(5, n - 1); }

void fill(Bytes& buf, DType t, std::size_t n, const std::function<std::uint32_t(std::size_t)>& bits) {
  buf.assign(n * dtype_size(t), 0);
  parallel_for(n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) store_bits(t, buf.data(), i, bits(i));
  });
}

Mismatch check(DType t, const Bytes& buf, std::size_t n, const std::function<std::uint32_t(std::size_t)>& expected) {
  Mismatch total;
  std::mutex mu;
  std::vector<std::pair<std::size_t, Mismatch>> parts;
  parallel_for(n, [&](std::size_t b, std::size_t e) {
    Mismatch m = compare_bits(t, buf.data() + b * dtype_size(t), e - b,
                              [&](std::size_t i) { return expected(b + i); });
    std::lock_guard<std::mutex> lock(mu);
    parts.emplace_back(b, m);
  });
  std::sort(parts.begin(), parts.end(), [](auto& a, auto& b) { return a.first < b.first; });
  for (auto& [off, m] : parts) total.merge(m, off);
  return total;
}

std::uint64_t case_seed(const Options& o, std::size_t case_index, int iteration) {
  return mix64(o.seed * 0x100000001b3ull + case_index * 7919 + static_cast<std::uint64_t>(iteration) * 104729);
}

// Buffers of one local rank for one collective.
struct RankBuffers {
  void* send = nullptr;
  void* recv = nullptr;
  void* base = nullptr;  // what to release (in place: one allocation)
  void* base2 = nullptr;
};

// The buffers of every local rank for one collective or a group of them, released whichever way a case
// ends (a failed allocation or a failed collective included).
struct OwnedBuffers {
  OwnedBuffers(Transport& transport, std::size_t count, int locals)
      : t(transport), groups(count, std::vector<RankBuffers>(static_cast<std::size_t>(locals))) {}
  OwnedBuffers(const OwnedBuffers&) = delete;
  OwnedBuffers& operator=(const OwnedBuffers&) = delete;
  ~OwnedBuffers() {
    for (auto& g : groups)
      for (std::size_t l = 0; l < g.size(); ++l) {
        if (g[l].base) t.release(static_cast<int>(l), g[l].base);
        if (g[l].base2) t.release(static_cast<int>(l), g[l].base2);
      }
  }
  Transport& t;
  std::vector<std::vector<RankBuffers>> groups;
};

class CaseRunner {
 public:
  CaseRunner(Transport& t, const Options& o) : t_(t), o_(o), world_(t.world()) {}

  bool is_corrupt(int rank) const { return o_.corrupt_rank && *o_.corrupt_rank == rank; }

  // --- one collective (sweep and check cases) ------------------------------------------------------------
  void simple(const CaseSpec& c, std::size_t index, std::vector<CaseOutcome>& out) {
    const std::size_t W = static_cast<std::size_t>(world_);
    const std::size_t es = dtype_size(c.dtype);
    std::size_t send_n = c.count, recv_n = c.count;
    if (c.op == CollOp::kAllGather) recv_n = c.count * W;
    if (c.op == CollOp::kReduceScatter) send_n = c.count * W;
    const int L = t_.local_count();
    OwnedBuffers owned(t_, 1, L);
    std::vector<RankBuffers>& bufs = owned.groups[0];
    Collective col;
    col.op = c.op;
    col.redop = c.redop;
    col.dtype = c.dtype;
    col.count = c.count;
    col.root = c.root;
    for (int l = 0; l < L; ++l) {
      auto& b = bufs[static_cast<std::size_t>(l)];
      std::size_t r = static_cast<std::size_t>(t_.info(l).rank);
      if (c.in_place) {
        b.base = t_.alloc(l, std::max(send_n, recv_n) * es);
        auto* p = static_cast<unsigned char*>(b.base);
        if (c.op == CollOp::kAllGather) { b.recv = p; b.send = p + r * c.count * es; }
        else if (c.op == CollOp::kReduceScatter) { b.send = p; b.recv = p + r * c.count * es; }
        else b.send = b.recv = p;
      } else {
        b.base = b.send = t_.alloc(l, send_n * es);
        b.base2 = b.recv = t_.alloc(l, recv_n * es);
      }
      col.local.push_back({b.send, b.recv});
    }

    Pattern p;
    p.dtype = c.dtype;
    p.redop = c.redop;
    p.contributors = world_;
    p.world = world_;
    p.flag = c.flag;
    p.flag_none = c.flag_none;
    Pattern garbage = p;
    garbage.redop = RedOp::kNone;
    garbage.flag = false;

    auto upload_inputs = [&](std::uint64_t seed) {
      p.seed = seed;
      garbage.seed = mix64(seed ^ 0xdeadbeefull);
      Bytes host;
      for (int l = 0; l < L; ++l) {
        const int r = t_.info(l).rank;
        auto& b = bufs[static_cast<std::size_t>(l)];
        const bool bad = is_corrupt(r);
        // The output first gets garbage, so an output the collective never writes is caught.
        if (!c.in_place || c.op == CollOp::kAllGather || (c.op == CollOp::kBroadcast && r != c.root)) {
          fill(host, c.dtype, recv_n, [&](std::size_t i) { return garbage.bits(1000 + r, i); });
          t_.upload(l, b.recv, host.data(), host.size());
        }
        if (c.op == CollOp::kBroadcast && r != c.root) continue;  // a non-root's send buffer is not read
        std::size_t base = c.op == CollOp::kAllGather ? static_cast<std::size_t>(r) * c.count : 0;
        int contributor = c.op == CollOp::kAllGather || c.op == CollOp::kBroadcast ? 0 : r;
        fill(host, c.dtype, send_n, [&](std::size_t i) {
          std::uint32_t v = p.bits(contributor, base + i);
          return bad && corrupt_here(i, send_n) ? p.corrupted(v) : v;
        });
        t_.upload(l, const_cast<void*>(b.send), host.data(), host.size());
      }
    };

    std::vector<CaseOutcome> res(static_cast<std::size_t>(L));
    if (c.kind == CaseKind::kSweep) {
      upload_inputs(case_seed(o_, index, -1));
      if (o_.warmup > 0) t_.run({col}, o_.warmup, o_.timeout_s);
      double s = t_.run({col}, o_.iters, o_.timeout_s);
      for (auto& r : res) r.time_s = s / o_.iters;
    }
    Bytes host;
    for (int it = 0; it < o_.check_iters; ++it) {
      upload_inputs(case_seed(o_, index, it));
      t_.run({col}, 1, o_.timeout_s);
      for (int l = 0; l < L; ++l) {
        const std::size_t r = static_cast<std::size_t>(t_.info(l).rank);
        host.resize(recv_n * es);
        t_.download(l, host.data(), bufs[static_cast<std::size_t>(l)].recv, host.size());
        std::function<std::uint32_t(std::size_t)> expected;
        switch (c.op) {
          case CollOp::kAllGather: expected = [&](std::size_t j) { return p.bits(0, j); }; break;
          case CollOp::kBroadcast: expected = [&](std::size_t j) { return p.bits(0, j); }; break;
          case CollOp::kReduceScatter:
            expected = [&](std::size_t i) { return p.reduced_bits(0, world_, r * c.count + i); };
            break;
          case CollOp::kAllReduce: expected = [&](std::size_t i) { return p.reduced_bits(0, world_, i); }; break;
        }
        res[static_cast<std::size_t>(l)].checked += recv_n;
        accumulate(res[static_cast<std::size_t>(l)], check(c.dtype, host, recv_n, expected));
      }
    }
    for (auto& r : res) {
      r.key = c.key;
      out.push_back(r);
    }
  }

  // What both BMTrain block cases set up alike: per dtype group of the case, one collective `op` over the
  // group's partition and the pattern its data follows (the buffers differ: each case allocates its own).
  static void block_collectives(const CaseSpec& c, CollOp op, RedOp redop, std::vector<Collective>& group,
                                std::vector<Pattern>& pats) {
    group.assign(c.layouts.size(), Collective{});
    pats.assign(c.layouts.size(), Pattern{});
    for (std::size_t g = 0; g < c.layouts.size(); ++g) {
      group[g].op = op;
      group[g].redop = redop;
      group[g].dtype = pats[g].dtype = c.layouts[g].dtype;
      group[g].count = c.layouts[g].partition;
      pats[g].redop = redop;
    }
  }

  // --- BMTrain block: grouped all-gather of every dtype group ---------------------------------------------
  void layout_gather(const CaseSpec& c, std::size_t index, std::vector<CaseOutcome>& out) {
    const int L = t_.local_count();
    const std::size_t G = c.layouts.size();
    OwnedBuffers owned(t_, G, L);
    std::vector<std::vector<RankBuffers>>& bufs = owned.groups;
    std::vector<Collective> group;
    std::vector<Pattern> pats;
    block_collectives(c, CollOp::kAllGather, RedOp::kNone, group, pats);
    for (std::size_t g = 0; g < G; ++g) {
      const ZeroLayout& lay = c.layouts[g];
      const std::size_t es = dtype_size(lay.dtype);
      for (int l = 0; l < L; ++l) {
        auto& b = bufs[g][static_cast<std::size_t>(l)];
        std::size_t r = static_cast<std::size_t>(t_.info(l).rank);
        b.base = b.recv = t_.alloc(l, lay.padded_total() * es);
        if (c.in_place) b.send = static_cast<unsigned char*>(b.recv) + r * lay.partition * es;
        else b.base2 = b.send = t_.alloc(l, lay.partition * es);
        group[g].local.push_back({b.send, b.recv});
      }
    }

    auto upload_inputs = [&](std::uint64_t seed) {
      Bytes host;
      for (std::size_t g = 0; g < G; ++g) {
        const ZeroLayout& lay = c.layouts[g];
        pats[g].seed = mix64(seed + g);
        Pattern garbage = pats[g];
        garbage.seed = mix64(seed ^ 0xfeedull);
        for (int l = 0; l < L; ++l) {
          const int r = t_.info(l).rank;
          auto& b = bufs[g][static_cast<std::size_t>(l)];
          fill(host, lay.dtype, lay.padded_total(), [&](std::size_t i) { return garbage.bits(1000 + r, i); });
          t_.upload(l, b.recv, host.data(), host.size());
          // The whole partition, alignment gaps and tail padding included, as BMTrain's storage holds it.
          const std::size_t base = static_cast<std::size_t>(r) * lay.partition;
          const bool bad = is_corrupt(r);
          fill(host, lay.dtype, lay.partition, [&](std::size_t i) {
            std::uint32_t v = pats[g].bits(0, base + i);
            return bad && corrupt_here(i, lay.partition) ? pats[g].corrupted(v) : v;
          });
          t_.upload(l, const_cast<void*>(b.send), host.data(), host.size());
        }
      }
    };

    std::vector<CaseOutcome> res(static_cast<std::size_t>(L));
    upload_inputs(case_seed(o_, index, -1));
    if (o_.warmup > 0) t_.run(group, o_.warmup, o_.timeout_s);
    double s = t_.run(group, o_.iters, o_.timeout_s);
    for (auto& r : res) r.time_s = s / o_.iters;
    Bytes host;
    for (int it = 0; it < o_.check_iters; ++it) {
      upload_inputs(case_seed(o_, index, it));
      t_.run(group, 1, o_.timeout_s);
      for (int l = 0; l < L; ++l) {
        Mismatch acc;
        std::size_t offset = 0;
        for (std::size_t g = 0; g < G; ++g) {
          const ZeroLayout& lay = c.layouts[g];
          host.resize(lay.padded_total() * dtype_size(lay.dtype));
          t_.download(l, host.data(), bufs[g][static_cast<std::size_t>(l)].recv, host.size());
          acc.merge(check(lay.dtype, host, lay.padded_total(), [&](std::size_t j) { return pats[g].bits(0, j); }),
                    offset);
          offset += lay.padded_total();
          res[static_cast<std::size_t>(l)].checked += lay.padded_total();
        }
        accumulate(res[static_cast<std::size_t>(l)], acc);
      }
    }
    for (auto& r : res) {
      r.key = c.key;
      out.push_back(r);
    }
  }

  // --- BMTrain block backward: grouped reduce-scatter sums, second micro-step accumulates ----------------
  void layout_reduce(const CaseSpec& c, std::size_t index, std::vector<CaseOutcome>& out) {
    const int L = t_.local_count();
    const std::size_t G = c.layouts.size();
    OwnedBuffers owned(t_, G, L);
    std::vector<std::vector<RankBuffers>>& bufs = owned.groups;
    std::vector<Collective> group;
    std::vector<Pattern> pats;
    block_collectives(c, CollOp::kReduceScatter, RedOp::kSum, group, pats);
    for (std::size_t g = 0; g < G; ++g) {
      const ZeroLayout& lay = c.layouts[g];
      const std::size_t es = dtype_size(lay.dtype);
      pats[g].contributors = 2 * world_;  // two micro-steps of W ranks each
      pats[g].world = world_;
      for (int l = 0; l < L; ++l) {
        auto& b = bufs[g][static_cast<std::size_t>(l)];
        b.base = b.send = t_.alloc(l, lay.padded_total() * es);  // the W*ps gradient buffer
        b.base2 = b.recv = t_.alloc(l, lay.partition * es);       // the local gradient storage
        group[g].local.push_back({b.send, b.recv});
      }
    }

    // Parameters cover [off_k, off_k + numel_k); the gradient buffer is zero in the alignment gaps and tail.
    auto covered = [](const ZeroLayout& lay, std::size_t j) {
      auto it = std::upper_bound(lay.offsets.begin(), lay.offsets.end(), j);
      if (it == lay.offsets.begin()) return false;
      std::size_t k = static_cast<std::size_t>(it - lay.offsets.begin()) - 1;
      return j < lay.offsets[k] + lay.numels[k];
    };

    std::vector<CaseOutcome> res(static_cast<std::size_t>(L));
    Bytes host, prev;
    for (int it = 0; it < o_.check_iters; ++it) {
      // local gradients after step 1, per group and local rank (host copies)
      std::vector<std::vector<Bytes>> local_grad(G, std::vector<Bytes>(static_cast<std::size_t>(L)));
      for (int step = 0; step < 2; ++step) {
        for (std::size_t g = 0; g < G; ++g) {
          const ZeroLayout& lay = c.layouts[g];
          if (step == 0) pats[g].seed = mix64(case_seed(o_, index, it) + g);
          for (int l = 0; l < L; ++l) {
            const int r = t_.info(l).rank;
            const bool bad = is_corrupt(r) && step == 1;
            const int contributor = step * world_ + r;
            const std::size_t slice = static_cast<std::size_t>(r) * lay.partition;
            const Bytes& acc = local_grad[g][static_cast<std::size_t>(l)];
            fill(host, lay.dtype, lay.padded_total(), [&](std::size_t j) -> std::uint32_t {
              if (!covered(lay, j)) return encode(lay.dtype, 0.0);
              std::uint32_t v = pats[g].bits(contributor, j);
              if (bad && corrupt_here(j, lay.padded_total())) v = pats[g].corrupted(v);
              if (step == 1 && j >= slice && j < slice + lay.partition) {
                // BMTrain: the existing local gradient is added into this rank's slice before the sum.
                double sum = decode(lay.dtype, v) + decode(lay.dtype, load_bits(lay.dtype, acc.data(), j - slice));
                v = encode(lay.dtype, sum);
              }
              return v;
            });
            t_.upload(l, const_cast<void*>(bufs[g][static_cast<std::size_t>(l)].send), host.data(), host.size());
          }
        }
        t_.run(group, 1, o_.timeout_s);
        for (int l = 0; l < L; ++l) {
          const std::size_t r = static_cast<std::size_t>(t_.info(l).rank);
          Mismatch acc;
          std::size_t offset = 0;
          for (std::size_t g = 0; g < G; ++g) {
            const ZeroLayout& lay = c.layouts[g];
            host.resize(lay.partition * dtype_size(lay.dtype));
            t_.download(l, host.data(), bufs[g][static_cast<std::size_t>(l)].recv, host.size());
            const int contributors = (step + 1) * world_;
            acc.merge(check(lay.dtype, host, lay.partition, [&](std::size_t i) -> std::uint32_t {
                        std::size_t j = r * lay.partition + i;
                        if (!covered(lay, j)) return encode(lay.dtype, 0.0);
                        return pats[g].reduced_bits(0, contributors, j);
                      }),
                      offset);
            offset += lay.partition;
            res[static_cast<std::size_t>(l)].checked += lay.partition;
            if (step == 0) local_grad[g][static_cast<std::size_t>(l)] = host;
          }
          accumulate(res[static_cast<std::size_t>(l)], acc);
        }
      }
    }
    for (auto& r : res) {
      r.key = c.key;
      out.push_back(r);
    }
  }

 private:
  static void accumulate(CaseOutcome& o, const Mismatch& m) {
    if (m.wrong && o.first_index < 0) {
      o.first_index = m.first_index;
      o.expected_bits = m.expected_bits;
      o.got_bits = m.got_bits;
    }
    o.wrong += m.wrong;
  }

  Transport& t_;
  const Options& o_;
  int world_;
};

// One rank moves nothing across a bus (busbw factor 0), so its collectives are judged by algbw against a
// device-to-device copy of the largest timed sweep size, measured here in the same run, same stream and
// same loop (warm-up, then o.iters back to back).
void measure_copy_baseline(Transport& t, const std::vector<CaseSpec>& plan, const Options& o,
                           std::vector<RankReport>& reports) {
  std::size_t bytes = 0;
  for (auto& c : plan)
    if (c.kind == CaseKind::kSweep) bytes = std::max(bytes, c.bytes(1));
  if (bytes == 0) return;
  for (int l = 0; l < t.local_count(); ++l) {
    CopyBaseline b;
    b.bytes = bytes;
    try {
      if (o.warmup > 0) t.copy_seconds(l, bytes, o.warmup, o.timeout_s);
      if (auto s = t.copy_seconds(l, bytes, o.iters, o.timeout_s)) b.time_s = *s / o.iters;
      else b.error = fmt::format("the {} transport has no device-to-device copy", t.name());
    } catch (const std::exception& e) {  // a timeout or CUDA error of the copy: no baseline, said why
      b.error = fmt::format("device-to-device copy of {} bytes failed: {}", bytes, e.what());
    }
    reports[static_cast<std::size_t>(l)].copy = b;
  }
}

}  // namespace

std::vector<RankReport> run_plan(Transport& t, const std::vector<CaseSpec>& plan, const Options& o) {
  const int L = t.local_count();
  std::vector<RankReport> reports(static_cast<std::size_t>(L));
  for (int l = 0; l < L; ++l) reports[static_cast<std::size_t>(l)].info = t.info(l);
  if (o.hang_rank) {
    for (int l = 0; l < L; ++l)
      if (t.info(l).rank == *o.hang_rank) {
        // Testing the watchdog: this rank stops taking part, so every other rank's first collective hangs.
        std::this_thread::sleep_for(std::chrono::duration<double>(o.timeout_s * 4 + 5));
        for (auto& r : reports) r.error = fmt::format("rank {} deliberately stopped (--hang-rank)", *o.hang_rank);
        return reports;
      }
  }
  CaseRunner runner(t, o);
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const CaseSpec& c = plan[i];
    std::vector<CaseOutcome> out;
    if (o.on_phase) o.on_phase(fmt::format("{}, case {} of {}", c.label, i + 1, plan.size()));
    try {
      switch (c.kind) {
        case CaseKind::kSweep:
        case CaseKind::kCheck: runner.simple(c, i, out); break;
        case CaseKind::kLayoutGather: runner.layout_gather(c, i, out); break;
        case CaseKind::kLayoutReduce: runner.layout_reduce(c, i, out); break;
      }
    } catch (const CollectiveTimeout& e) {
      for (auto& r : reports) {
        r.timed_out = true;
        r.error = fmt::format("timeout: {} did not complete within {} s ({})", c.label, o.timeout_s, e.what());
      }
      return reports;
    } catch (const TransportError& e) {
      for (auto& r : reports) r.error = fmt::format("{} failed: {}", c.label, e.what());
      return reports;
    }
    for (int l = 0; l < L; ++l) reports[static_cast<std::size_t>(l)].cases.push_back(out[static_cast<std::size_t>(l)]);
  }
  if (t.world() == 1) measure_copy_baseline(t, plan, o, reports);
  return reports;
}

}  // namespace gpucheck::collectives

// Runs a grid: blocks one after another, each block's threads as fibers scheduled round by round (lockstep:
// ascending thread order, reversed: descending, random: a seeded shuffle each round, plus switches at
// shared-memory accesses). A thread runs until it reaches a sync point (warp collective, block barrier) or
// exits. Warp collectives complete when every lane of their mask has arrived with the same operation and
// mask; a block barrier instance completes when every live thread of the block has arrived at a barrier;
// threads waiting at a warp collective are not at the barrier, so they never release it.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>

#include "sim_state.h"

namespace gpucheck::hostsim {

namespace detail {
thread_local ThreadView* t_current = nullptr;
}

namespace internal {

LaunchRun* g_launch = nullptr;
std::string g_failure;
bool g_sticky = false;
void (*g_launch_body)(void*) = nullptr;  // what every thread of the running launch calls
void* g_launch_ctx = nullptr;

namespace {

std::vector<std::string>& findings_store() {
  static std::vector<std::string> f;
  return f;
}
std::size_t g_launch_findings = 0;  // findings of the launch in progress
constexpr std::size_t kMaxPrinted = 40;

// One pool of fibers, reused by every block: a fiber runs one thread, returns to the pool when it exits.
constexpr std::size_t kStackBytes = 256 * 1024;
std::vector<std::unique_ptr<Fiber>> g_fibers;
std::vector<Fiber*> g_free_fibers;

void fiber_entry(Fiber* f);

Fiber* take_fiber() {
  if (g_free_fibers.empty()) {
    g_fibers.push_back(std::make_unique<Fiber>(kStackBytes, &fiber_entry, nullptr));
    return g_fibers.back().get();
  }
  Fiber* f = g_free_fibers.back();
  g_free_fibers.pop_back();
  return f;
}

std::string thread_name(const SimThread& t) {
  std::ostringstream o;
  o << "thread (" << t.view.thread_idx.x << "," << t.view.thread_idx.y << "," << t.view.thread_idx.z << ") of block ("
    << t.view.block_idx.x << "," << t.view.block_idx.y << "," << t.view.block_idx.z << ")";
  return o.str();
}

const char* op_name(detail::WarpOp op) {
  switch (op) {
    case detail::WarpOp::kShfl: return "__shfl_sync";
    case detail::WarpOp::kShflUp: return "__shfl_up_sync";
    case detail::WarpOp::kShflDown: return "__shfl_down_sync";
    case detail::WarpOp::kShflXor: return "__shfl_xor_sync";
    case detail::WarpOp::kBallot: return "__ballot_sync";
    case detail::WarpOp::kAny: return "__any_sync";
    case detail::WarpOp::kAll: return "__all_sync";
    case detail::WarpOp::kSyncwarp: return "__syncwarp";
  }
  return "?";
}

const char* barrier_name(detail::BarrierOp op) {
  switch (op) {
    case detail::BarrierOp::kSync: return "__syncthreads";
    case detail::BarrierOp::kOr: return "__syncthreads_or";
    case detail::BarrierOp::kAnd: return "__syncthreads_and";
    case detail::BarrierOp::kCount: return "__syncthreads_count";
  }
  return "?";
}

std::string hex(unsigned v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

/// A sync error the block cannot continue from: report, abort the block, never resume this thread.
[[noreturn]] void abort_block(const std::string& what) {
  report(what);
  abort_current_block();
}

void release_barrier_if_complete(BlockRun& b) {
  if (b.at_barrier == 0 || b.at_barrier < b.live) return;
  int result = 0;
  switch (b.barrier_op) {
    case detail::BarrierOp::kSync: result = 0; break;
    case detail::BarrierOp::kOr: result = b.barrier_acc != 0; break;
    case detail::BarrierOp::kAnd: result = b.barrier_acc != 0; break;
    case detail::BarrierOp::kCount: result = b.barrier_acc; break;
  }
  for (SimThread& t : b.threads)
    if (t.state == ThreadState::kAtBarrier) t.state = ThreadState::kRunnable, t.barrier_result = result;
  b.at_barrier = 0;
  ++b.epoch;
}

void thread_exited(SimThread& t) {
  BlockRun& b = *g_launch->block_run;
  t.state = ThreadState::kDone;
  --b.live;
  b.warps[t.warp].exited |= 1u << t.lane;
  if (b.at_barrier > 0)
    report("divergent barrier in kernel " + std::string(g_launch->kernel) + ": " + thread_name(t) + " exited while " +
           std::to_string(b.at_barrier) + " threads wait at " + barrier_name(b.barrier_op) +
           " (CUDA requires every thread of the block to reach it)");
  for (const PendingWarpOp& p : b.warps[t.warp].pending)
    if (p.mask & (1u << t.lane))
      report("in kernel " + std::string(g_launch->kernel) + ": " + thread_name(t) + " exited while lanes " +
             hex(p.arrived) + " wait for it at " + op_name(p.op) + " with mask " + hex(p.mask));
  release_barrier_if_complete(b);
}

void fiber_entry(Fiber* f) {
  for (;;) {
    SimThread& t = me();
    (void)f;
    g_launch_body(g_launch_ctx);
    thread_exited(t);
    t.fiber = nullptr;
    g_free_fibers.push_back(f);
    detail::t_current = nullptr;
    f->yield_to_caller();
  }
}

}  // namespace

void report(const std::string& what) {
  auto& f = findings_store();
  if (g_launch_findings < kMaxPrinted) {
    std::fprintf(stderr, "hostsim: %s\n", what.c_str());
    f.push_back(what);
  } else if (g_launch_findings == kMaxPrinted) {
    std::fprintf(stderr, "hostsim: (further findings of this launch not printed)\n");
  }
  if (g_launch_findings == 0 && g_failure.empty()) g_failure = "hostsim: " + what;
  ++g_launch_findings;
  g_sticky = true;
}

void abort_current_block() {
  g_launch->block_run->aborted = true;
  for (;;) suspend();
}

void suspend() {
  SimThread& t = me();
  Fiber* f = t.fiber;
  detail::t_current = nullptr;
  f->yield_to_caller();
  detail::t_current = &t.view;
}

void maybe_preempt() {
  if (g_launch->schedule != Schedule::kRandom) return;
  if ((g_launch->rng() & 7u) != 0) return;
  me().state = ThreadState::kRunnable;
  suspend();
}

namespace {

void resume(SimThread& t) {
  if (!t.fiber) {
    t.fiber = take_fiber();
    t.fiber->reset();
  }
  t.state = ThreadState::kRunnable;
  detail::t_current = &t.view;
  t.fiber->resume();
  detail::t_current = nullptr;
}

std::string deadlock_text(const BlockRun& b) {
  std::ostringstream o;
  o << "deadlock in kernel " << g_launch->kernel << ", block (" << b.idx.x << "," << b.idx.y << "," << b.idx.z
    << "): " << b.at_barrier << " threads wait at " << barrier_name(b.barrier_op);
  for (std::size_t w = 0; w < b.warps.size(); ++w)
    for (const PendingWarpOp& p : b.warps[w].pending)
      o << "; warp " << w << " lanes " << hex(p.arrived) << " wait at " << op_name(p.op) << " for mask " << hex(p.mask);
  return o.str();
}

void run_block(BlockRun& b) {
  std::vector<SimThread*> order;
  order.reserve(b.threads.size());
  for (;;) {
    order.clear();
    bool all_done = true;
    for (SimThread& t : b.threads) {
      if (t.state == ThreadState::kNotStarted || t.state == ThreadState::kRunnable) order.push_back(&t);
      if (t.state != ThreadState::kDone) all_done = false;
    }
    if (all_done) return;
    if (order.empty()) {
      report(deadlock_text(b));
      b.aborted = true;
    }
    if (b.aborted) break;
    if (g_launch->schedule == Schedule::kReversed) std::reverse(order.begin(), order.end());
    if (g_launch->schedule == Schedule::kRandom) std::shuffle(order.begin(), order.end(), g_launch->rng);
    for (SimThread* t : order) {
      if (b.aborted) break;
      if (t->state == ThreadState::kNotStarted || t->state == ThreadState::kRunnable) resume(*t);
    }
  }
  // Aborted: the suspended threads' fibers are reset and returned to the pool.
  for (SimThread& t : b.threads)
    if (t.fiber) {
      g_free_fibers.push_back(t.fiber);
      t.fiber = nullptr;
    }
}

std::vector<std::uint8_t> snapshot() {
  const DeviceHeap& h = heap();
  return std::vector<std::uint8_t>(reinterpret_cast<const std::uint8_t*>(h.base),
                                   reinterpret_cast<const std::uint8_t*>(h.base) + h.top);
}

void restore(const std::vector<std::uint8_t>& s) {
  if (!s.empty()) std::memcpy(reinterpret_cast<void*>(heap().base), s.data(), s.size());
}

void compare(const std::vector<std::uint8_t>& want, Schedule ws, Schedule gs, const char* kernel) {
  const auto* got = reinterpret_cast<const std::uint8_t*>(heap().base);
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (got[i] == want[i]) continue;
    std::size_t diffs = 0;
    for (std::size_t j = i; j < want.size(); ++j) diffs += got[j] != want[j];
    char b[160];
    std::snprintf(b, sizeof b, "byte 0x%02x under %s, 0x%02x under %s; %zu bytes differ", want[i], to_string(ws), got[i],
                  to_string(gs), diffs);
    report("results of kernel " + std::string(kernel) + " differ between schedules at " +
           describe_address(heap().base + i) + ": " + b);
    return;
  }
}

void run_schedule(LaunchRun& run, void* ctx, void (*body)(void*)) {
  (void)ctx;
  (void)body;
  const dim3 g = run.grid, bd = run.block;
  const std::size_t blocks = std::size_t{g.x} * g.y * g.z;
  std::vector<std::size_t> order(blocks);
  for (std::size_t i = 0; i < blocks; ++i) order[i] = i;
  if (run.schedule == Schedule::kReversed) std::reverse(order.begin(), order.end());
  if (run.schedule == Schedule::kRandom) std::shuffle(order.begin(), order.end(), run.rng);
  const std::uint8_t poison = run.schedule == Schedule::kLockstep ? 0xa5 : run.schedule == Schedule::kReversed ? 0x5a : 0xc3;
  checker_begin_launch();
  BlockRun b;
  b.threads.resize(run.threads_per_block);
  b.warps.resize((run.threads_per_block + 31) / 32);
  for (std::size_t w = 0; w < b.warps.size(); ++w)
    b.warps[w].size = std::min<unsigned>(32, run.threads_per_block - static_cast<unsigned>(w) * 32);
  run.block_run = &b;
  for (std::size_t bl : order) {
    b.linear = static_cast<unsigned>(bl);
    b.idx = uint3{static_cast<unsigned>(bl % g.x), static_cast<unsigned>(bl / g.x % g.y),
                  static_cast<unsigned>(bl / (std::size_t{g.x} * g.y))};
    b.at_barrier = 0;
    b.epoch = 0;
    b.aborted = false;
    b.live = run.threads_per_block;
    for (SimWarp& w : b.warps) w.pending.clear(), w.epoch = 0, w.exited = 0;
    for (unsigned i = 0; i < run.threads_per_block; ++i) {
      SimThread& t = b.threads[i];
      t = SimThread{};
      t.view.thread_idx = uint3{i % bd.x, i / bd.x % bd.y, i / (bd.x * bd.y)};
      t.view.block_idx = b.idx;
      t.view.block_dim = bd;
      t.view.grid_dim = g;
      t.linear = i;
      t.warp = i / 32;
      t.lane = i % 32;
      t.global_id = static_cast<std::uint32_t>(bl * run.threads_per_block + i);
    }
    checker_begin_block(poison);
    run_block(b);
    if (b.aborted || g_launch_findings > 0) break;  // the launch has failed; other blocks would add only noise
  }
  run.block_run = nullptr;
}

}  // namespace

}  // namespace internal

using namespace internal;

const char* to_string(Schedule s) {
  switch (s) {
    case Schedule::kLockstep: return "lockstep";
    case Schedule::kReversed: return "reversed";
    case Schedule::kRandom: return "random";
  }
  return "?";
}

Options& options() {
  static Options o = [] {
    Options x;
    if (const char* s = std::getenv("HOSTSIM_SCHEDULES")) {
      x.schedules.clear();
      std::string all = s;
      std::size_t pos = 0;
      while (pos <= all.size()) {
        std::size_t end = all.find(',', pos);
        if (end == std::string::npos) end = all.size();
        std::string one = all.substr(pos, end - pos);
        if (one == "lockstep") x.schedules.push_back(Schedule::kLockstep);
        else if (one == "reversed") x.schedules.push_back(Schedule::kReversed);
        else if (one == "random") x.schedules.push_back(Schedule::kRandom);
        else if (!one.empty()) {
          std::fprintf(stderr, "hostsim: HOSTSIM_SCHEDULES: unknown schedule '%s' (lockstep, reversed, random)\n", one.c_str());
          std::exit(2);
        }
        pos = end + 1;
      }
      if (x.schedules.empty()) x.schedules.push_back(Schedule::kLockstep);
    }
    if (const char* s = std::getenv("HOSTSIM_SEED")) x.seed = std::strtoull(s, nullptr, 10);
    return x;
  }();
  return o;
}

const std::vector<std::string>& findings() { return findings_store(); }

void reset() {
  findings_store().clear();
  g_failure.clear();
  g_sticky = false;
}

void run_kernel(const char* name, dim3 grid, dim3 block, std::size_t dynamic_shared, void (*body)(void*), void* ctx) {
  const unsigned threads = block.x * block.y * block.z;
  if (g_sticky) return;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0 || threads > 1024 ||
      block.z > 64 || grid.y > 65535 || grid.z > 65535 || dynamic_shared > 48 * 1024) {
    set_last_error(cudaErrorInvalidConfiguration);
    return;
  }
  if (g_launch) detail::trap("kernel launched from inside a kernel (dynamic parallelism is not simulated)");
  LaunchRun run;
  run.kernel = name;
  run.grid = grid;
  run.block = block;
  run.threads_per_block = threads;
  run.dynamic_shared = dynamic_shared;
  g_launch = &run;
  g_launch_body = body;
  g_launch_ctx = ctx;
  g_launch_findings = 0;
  const auto& schedules = options().schedules;
  std::vector<std::uint8_t> before, first;
  if (schedules.size() > 1) before = snapshot();
  for (std::size_t s = 0; s < schedules.size() && g_launch_findings == 0; ++s) {
    run.schedule = schedules[s];
    run.rng.seed(options().seed + s);
    if (s > 0) {
      if (s == 1) first = snapshot();
      restore(before);
    }
    run_schedule(run, ctx, body);
    if (s > 0 && g_launch_findings == 0) compare(first, schedules[0], schedules[s], name);
  }
  g_launch = nullptr;
}

namespace detail {

void outside_kernel(const char* what) {
  std::fprintf(stderr, "hostsim: %s used outside a kernel\n", what);
  std::abort();
}

void trap(const char* why) {
  std::fprintf(stderr, "hostsim: %s\n", why);
  std::abort();
}

void* dynamic_shared() {
  if (!g_launch) outside_kernel("dynamic shared memory");
  return dynamic_shared_base();
}

int block_barrier(BarrierOp op, int predicate) {
  SimThread& t = me();
  BlockRun& b = *g_launch->block_run;
  if (b.at_barrier == 0) {
    b.barrier_op = op;
    b.barrier_acc = op == BarrierOp::kAnd ? 1 : 0;
  } else if (b.barrier_op != op) {
    abort_block("in kernel " + std::string(g_launch->kernel) + ": " + thread_name(t) + " reached " + barrier_name(op) +
                " while other threads wait at " + barrier_name(b.barrier_op) + " (one barrier instance, two kinds)");
  }
  const int p = predicate != 0;
  switch (op) {
    case BarrierOp::kSync: break;
    case BarrierOp::kOr: b.barrier_acc |= p; break;
    case BarrierOp::kAnd: b.barrier_acc &= p; break;
    case BarrierOp::kCount: b.barrier_acc += p; break;
  }
  t.state = ThreadState::kAtBarrier;
  ++b.at_barrier;
  release_barrier_if_complete(b);
  suspend();
  return t.barrier_result;
}

std::uint64_t warp_collective(WarpOp op, unsigned mask, std::uint64_t value, unsigned arg, int width) {
  SimThread& t = me();
  BlockRun& b = *g_launch->block_run;
  SimWarp& w = b.warps[t.warp];
  const unsigned bit = 1u << t.lane;
  const auto where = [&] {  // built only for a finding
    return "in kernel " + std::string(g_launch->kernel) + ": " + thread_name(t) + " (warp " + std::to_string(t.warp) +
           " lane " + std::to_string(t.lane) + ") ";
  };
  if (!(mask & bit)) abort_block(where() + "calls " + op_name(op) + " with mask " + hex(mask) + ", which excludes itself");
  const bool shuffle = op == WarpOp::kShfl || op == WarpOp::kShflUp || op == WarpOp::kShflDown || op == WarpOp::kShflXor;
  if (shuffle && (width < 1 || width > 32 || (width & (width - 1)) != 0))
    abort_block(where() + "calls " + op_name(op) + " with width " + std::to_string(width) + " (a power of 2 up to 32)");
  const unsigned exist = w.size == 32 ? 0xffffffffu : ((1u << w.size) - 1);
  if (mask & ~exist)
    abort_block(where() + "calls " + op_name(op) + " with mask " + hex(mask) + ", naming lanes that do not exist (warp " +
                std::to_string(t.warp) + " has " + std::to_string(w.size) + " threads)");
  if (mask & w.exited)
    for (unsigned l = 0; l < 32; ++l)
      if (mask & w.exited & (1u << l))
        abort_block(where() + "calls " + op_name(op) + " with mask " + hex(mask) + ", but lane " + std::to_string(l) +
                  " has exited");
  PendingWarpOp* pending = nullptr;
  for (PendingWarpOp& p : w.pending) {
    if (p.mask == mask) {
      if (p.op != op || p.width != width)
        abort_block(where() + "calls " + op_name(op) + " while lanes " + hex(p.arrived) + " of the same mask wait at " +
                    op_name(p.op) + (p.op == op ? " with another width" : ""));
      pending = &p;
    } else if (p.mask & mask) {
      abort_block(where() + "calls " + op_name(op) + " with mask " + hex(mask) + " while lanes " + hex(p.arrived) +
                  " wait at " + op_name(p.op) + " with the overlapping mask " + hex(p.mask));
    }
  }
  if (!pending) {
    w.pending.push_back(PendingWarpOp{op, mask, 0, width});
    pending = &w.pending.back();
  }
  t.warp_value = value;
  t.warp_arg = arg;
  pending->arrived |= bit;
  t.state = ThreadState::kAtWarpOp;
  if (pending->arrived == mask) {
    SimThread* lanes = &b.threads[t.warp * 32];
    std::uint64_t ballot = 0;
    for (unsigned l = 0; l < 32; ++l)
      if ((mask >> l & 1u) && lanes[l].warp_value) ballot |= 1u << l;
    const std::uint8_t epoch = ++w.epoch;
    for (unsigned l = 0; l < 32; ++l) {
      if (!(mask >> l & 1u)) continue;
      SimThread& x = lanes[l];
      const unsigned a = x.warp_arg, wd = static_cast<unsigned>(width), seg = l & ~(wd - 1);
      unsigned src = l;
      switch (op) {
        case WarpOp::kShfl: src = seg + (a & (wd - 1)); break;
        case WarpOp::kShflUp: src = (l - seg) >= a ? l - a : l; break;
        case WarpOp::kShflDown: src = (l - seg) + static_cast<std::uint64_t>(a) < wd ? l + a : l; break;
        case WarpOp::kShflXor: src = (l ^ a) < seg + wd ? (l ^ a) : l; break;
        default: break;
      }
      switch (op) {
        case WarpOp::kBallot: x.warp_result = ballot; break;
        case WarpOp::kAny: x.warp_result = ballot != 0; break;
        case WarpOp::kAll: x.warp_result = ballot == mask; break;
        case WarpOp::kSyncwarp: x.warp_result = 0, x.warp_epoch = epoch; break;
        default:
          if (src != l && !(mask >> src & 1u)) {
            report(where() + op_name(op) + " with mask " + hex(mask) + ": lane " + std::to_string(l) + " reads lane " +
                   std::to_string(src) + ", which is not in the mask (undefined value on a GPU)");
            x.warp_result = 0;
          } else {
            x.warp_result = lanes[src].warp_value;
          }
      }
      x.state = ThreadState::kRunnable;
    }
    w.pending.erase(w.pending.begin() + (pending - w.pending.data()));
  }
  suspend();
  return t.warp_result;
}

}  // namespace detail

}  // namespace gpucheck::hostsim

// The race and bounds checker. GCC's -fsanitize=thread (compile time only) turns every load and store of a
// kernel TU into a call to a __tsan_* hook; this file implements those hooks (libtsan is never linked).
// Outside a kernel, and for addresses that are neither device memory nor shared memory (the fiber's own
// stack: registers and local arrays), a hook returns at once.
//
// Per 4-byte word of global memory (per launch) and shared memory (per block): the last writer and the
// readers since, each with the thread, the block's barrier epoch and the warp's __syncwarp epoch at the
// access and which bytes of the word. Two accesses of different threads to a common byte, at least one a
// write and not both atomic, race unless a barrier both took part in lies between them: a later
// __syncthreads of the same block, or a later __syncwarp of the same warp. Threads of different blocks share
// no barrier within a launch. (compute-sanitizer's racecheck reports the same hazards for shared memory.)
// Keeping one writer and one reader (plus "more readers") per word can miss a race, never invent one.
#include <sys/mman.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "sim_state.h"

extern "C" {
// The executable's writable static data (.data and .bss): where static __shared__ variables live.
extern char __data_start[];
extern char _end[];
}

namespace gpucheck::hostsim::internal {

namespace {

struct Shadow {
  std::uint32_t gen;
  std::uint32_t w_tid, r_tid;
  std::uint32_t w_epoch, r_epoch;
  std::uint8_t w_wepoch, r_wepoch;
  std::uint8_t w_mask, r_mask;  // bytes of the word (bits 0-3)
  std::uint8_t w_atomic, r_atomic, r_multi;
  std::uint8_t written;  // bytes written since the region's generation began (uninitialized reads)
};

struct Region {
  std::uintptr_t base = 0;
  std::size_t bytes = 0;
  Shadow* shadow = nullptr;
  std::uint32_t gen = 0;
  const char* name = "";
  bool shared = false;  // per block: a read of a byte no thread of the block wrote is reported
};

Region g_global;   // the device heap
Region g_static;   // static __shared__ variables
Region g_dynamic;  // the launch's dynamic shared memory
constexpr std::size_t kDynamicMax = 48 * 1024, kDynamicRedzone = 1024;
alignas(64) std::uint8_t g_dynamic_storage[kDynamicMax + kDynamicRedzone];

Shadow* map_shadow(std::size_t words) {
  void* m = mmap(nullptr, words * sizeof(Shadow), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
  if (m == MAP_FAILED) detail::trap("cannot map the checker's shadow memory");
  return static_cast<Shadow*>(m);
}

void init_regions() {
  static bool done = false;
  if (done) return;
  done = true;
  DeviceHeap& h = heap();
  g_global = Region{h.base, h.reserved, map_shadow(h.reserved / 4), 0, "global"};
  const auto lo = reinterpret_cast<std::uintptr_t>(__data_start) & ~std::uintptr_t{3};
  const std::size_t n = reinterpret_cast<std::uintptr_t>(_end) - lo;
  g_static = Region{lo, n, map_shadow(n / 4 + 2), 0, "shared", true};
  g_dynamic = Region{reinterpret_cast<std::uintptr_t>(g_dynamic_storage), sizeof g_dynamic_storage,
                     map_shadow(sizeof g_dynamic_storage / 4), 0, "dynamic shared", true};
}

std::string thread_at(std::uint32_t tid) {
  const LaunchRun& L = *g_launch;
  const unsigned tpb = L.threads_per_block, b = tid / tpb, t = tid % tpb;
  const dim3 g = L.grid, bd = L.block;
  char s[128];
  std::snprintf(s, sizeof s, "thread (%u,%u,%u) of block (%u,%u,%u)", t % bd.x, t / bd.x % bd.y, t / (bd.x * bd.y),
                b % g.x, b / g.x % g.y, b / (g.x * g.y));
  return s;
}

// Findings of one launch, de-duplicated per (kind, allocation or region).
std::vector<std::string> g_seen;

void race(const char* kind, const Region& r, std::uintptr_t a, std::uint32_t first, const char* first_did,
          std::uint32_t second, const char* second_did) {
  std::string where = r.name == std::string("global") ? describe_address(a) : std::string(r.name) + " memory";
  std::string key = std::string(kind) + "|" + where.substr(0, where.find(" + "));
  for (const std::string& s : g_seen)
    if (s == key) return;
  g_seen.push_back(key);
  char off[48];
  std::snprintf(off, sizeof off, " (offset %zu)", static_cast<std::size_t>(a - r.base));
  report(std::string("race: ") + kind + " on " + where + (r.name == std::string("global") ? "" : off) + " in kernel " +
         g_launch->kernel + ": " + thread_at(first) + " " + first_did + ", then " + thread_at(second) + " " +
         second_did + " with no barrier between them");
}

void uninitialized(const Region& r, std::uintptr_t a, std::uint32_t tid) {
  std::string key = std::string("uninit|") + r.name;
  for (const std::string& s : g_seen)
    if (s == key) return;
  g_seen.push_back(key);
  char off[48];
  std::snprintf(off, sizeof off, " (offset %zu)", static_cast<std::size_t>(a - r.base));
  report(std::string("read of uninitialized ") + r.name + " memory" + off + " in kernel " + g_launch->kernel + " by " +
         thread_at(tid) + ": no thread of the block wrote it (shared memory holds garbage when a block starts)");
}

inline bool ordered(std::uint32_t ptid, std::uint32_t pepoch, std::uint8_t pwepoch, const SimThread& t,
                    std::uint32_t epoch, bool same_thread_counts) {
  if (same_thread_counts && ptid == t.global_id) return true;
  const unsigned tpb = g_launch->threads_per_block;
  if (ptid / tpb != t.global_id / tpb) return false;  // different blocks: no common barrier in a launch
  if (epoch > pepoch) return true;
  const std::uint8_t dw = static_cast<std::uint8_t>(t.warp_epoch - pwepoch);
  return (ptid % tpb) / 32 == t.warp && dw != 0 && dw < 128;
}

void access_word(Region& r, Shadow& e, std::uintptr_t word_addr, std::uint8_t mask, bool write, bool atomic,
                 const SimThread& t, std::uint32_t epoch) {
  if (e.gen != r.gen) {
    std::memset(&e, 0, sizeof e);
    e.gen = r.gen;
  }
  const std::uint32_t tid = t.global_id;
  const std::uint8_t aw = atomic ? 1 : 0;
  if (!write) {
    if (r.shared && (e.written & mask) != mask) uninitialized(r, word_addr, tid);
    if ((e.w_mask & mask) && !(atomic && e.w_atomic) && !ordered(e.w_tid, e.w_epoch, e.w_wepoch, t, epoch, true))
      race("read-after-write", r, word_addr, e.w_tid, "wrote", tid, "read");
    if (!e.r_mask || ordered(e.r_tid, e.r_epoch, e.r_wepoch, t, epoch, false)) {  // earlier reads happened before
      e.r_tid = tid, e.r_epoch = epoch, e.r_wepoch = t.warp_epoch, e.r_mask = mask, e.r_atomic = aw, e.r_multi = 0;
    } else if (e.r_tid == tid && !e.r_multi) {
      e.r_mask |= mask, e.r_epoch = epoch, e.r_wepoch = t.warp_epoch, e.r_atomic &= aw;
    } else {
      e.r_multi = 1, e.r_mask |= mask, e.r_atomic &= aw;
    }
    return;
  }
  if ((e.r_mask & mask) && !(atomic && e.r_atomic)) {
    const bool other = e.r_multi || e.r_tid != tid;
    if (other && !ordered(e.r_tid, e.r_epoch, e.r_wepoch, t, epoch, false))
      race("write-after-read", r, word_addr, e.r_tid, "read", tid, "wrote");
  }
  if ((e.w_mask & mask) && !(atomic && e.w_atomic) && !ordered(e.w_tid, e.w_epoch, e.w_wepoch, t, epoch, true))
    race("write-after-write", r, word_addr, e.w_tid, "wrote", tid, "wrote");
  e.w_tid = tid, e.w_epoch = epoch, e.w_wepoch = t.warp_epoch, e.w_mask = mask, e.w_atomic = aw;
  e.written |= mask;
  e.r_mask &= static_cast<std::uint8_t>(~mask);
  if (!e.r_mask) e.r_multi = 0;
}

void access_range(Region& r, std::uintptr_t a, std::size_t n, bool write, bool atomic) {
  const SimThread& t = me();
  const std::uint32_t epoch = g_launch->block_run->epoch;
  const std::uintptr_t off = a - r.base;
  if ((off & 3) == 0 && (n & 3) == 0) {  // whole words: the common case
    for (std::uintptr_t w = off / 4; w < (off + n) / 4; ++w)
      access_word(r, r.shadow[w], r.base + w * 4, 0xf, write, atomic, t, epoch);
    return;
  }
  for (std::uintptr_t w = off / 4; w <= (off + n - 1) / 4; ++w) {
    const std::uintptr_t lo = w * 4 > off ? w * 4 : off, hi = w * 4 + 4 < off + n ? w * 4 + 4 : off + n;
    std::uint8_t mask = 0;
    for (std::uintptr_t b = lo; b < hi; ++b) mask |= static_cast<std::uint8_t>(1u << (b - w * 4));
    access_word(r, r.shadow[w], r.base + w * 4, mask, write, atomic, t, epoch);
  }
}

void out_of_bounds(const char* space, std::uintptr_t a, std::size_t n, bool write, const std::string& where) {
  std::string key = std::string("oob|") + (write ? "w|" : "r|") + where.substr(0, where.find(" + "));
  for (const std::string& s : g_seen)
    if (s == key) return;
  g_seen.push_back(key);
  char b[64];
  std::snprintf(b, sizeof b, "%s of %zu bytes at ", write ? "write" : "read", n);
  (void)a;
  report(std::string("out-of-bounds ") + space + " " + b + where + " in kernel " + g_launch->kernel + " by " +
         thread_at(me().global_id));
}

bool g_check_enabled = false;  // options().check, read once per launch

inline void check(const void* p, std::size_t n, bool write, bool atomic = false) {
  if (!detail::t_current || !g_check_enabled || n == 0) return;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if (a - g_global.base < g_global.bytes) {
    if (!allocation_of(a, n)) {
      out_of_bounds("global", a, n, write, describe_address(a));
      return;
    }
    access_range(g_global, a, n, write, atomic);
  } else if (a - g_dynamic.base < g_dynamic.bytes) {
    if (a + n > g_dynamic.base + g_launch->dynamic_shared) {
      char s[96];
      std::snprintf(s, sizeof s, "dynamic shared offset %zu (the launch has %zu bytes)",
                    static_cast<std::size_t>(a - g_dynamic.base), g_launch->dynamic_shared);
      out_of_bounds("shared", a, n, write, s);
      return;
    }
    maybe_preempt();
    access_range(g_dynamic, a, n, write, atomic);
  } else if (a - g_static.base < g_static.bytes) {
    maybe_preempt();
    access_range(g_static, a, n, write, atomic);
  }
}

}  // namespace

void check_aligned16(const void* p, bool write) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if (detail::t_current && g_check_enabled && (a & 15) != 0 &&
      (a - g_global.base < g_global.bytes || a - g_dynamic.base < g_dynamic.bytes || a - g_static.base < g_static.bytes)) {
    std::string key = std::string("align16|") + (write ? "w" : "r");
    bool seen = false;
    for (const std::string& s : g_seen) seen |= s == key;
    if (!seen) {
      g_seen.push_back(key);
      report(std::string("misaligned 16-byte ") + (write ? "store" : "load") + " at " +
             (a - g_global.base < g_global.bytes ? describe_address(a) : std::string("shared memory")) + " in kernel " +
             g_launch->kernel + " by " + thread_at(me().global_id) + " (a GPU faults: misaligned address)");
    }
    abort_current_block();  // the access itself would fault here too (x86 aligned vector moves)
  }
  check(p, 16, write);
}

void checker_begin_launch() {
  init_regions();
  g_check_enabled = options().check;
  ++g_global.gen;
  g_seen.clear();
}

void checker_begin_block(std::uint8_t poison) {
  init_regions();
  ++g_static.gen;
  ++g_dynamic.gen;
  // Shared memory holds garbage when a block starts; a schedule-dependent pattern makes a read of it differ
  // between schedules.
  std::memset(g_dynamic_storage, poison, sizeof g_dynamic_storage);
}

void* dynamic_shared_base() { return g_dynamic_storage; }

std::uint32_t allocation_of(std::uintptr_t a, std::size_t n) {
  static const DeviceHeap& h = heap();
  if (a < h.base || a - h.base >= h.reserved) return 0;
  const std::size_t g = (a - h.base) / kGranule;
  if (g >= h.granule_owner.size()) return 0;
  const std::uint32_t id = h.granule_owner[g];
  if (!id) return 0;
  const Allocation& al = h.allocations[id - 1];
  if (!al.live || a < al.base || a + n > al.base + al.bytes) return 0;
  return id;
}

std::string describe_address(std::uintptr_t a) {
  const DeviceHeap& h = heap();
  char s[160];
  const Allocation* near = nullptr;
  std::size_t near_id = 0;
  for (std::size_t i = 0; i < h.allocations.size(); ++i) {
    const Allocation& al = h.allocations[i];
    if (!al.live) continue;
    if (a >= al.base && a < al.base + al.bytes) {
      std::snprintf(s, sizeof s, "device allocation #%zu (%zu bytes) + %zu", i + 1, al.bytes,
                    static_cast<std::size_t>(a - al.base));
      return s;
    }
    const std::size_t d = a >= al.base + al.bytes ? a - (al.base + al.bytes) : al.base - a;
    const std::size_t nd = !near ? SIZE_MAX : a >= near->base + near->bytes ? a - (near->base + near->bytes) : near->base - a;
    if (d < nd) near = &al, near_id = i + 1;
  }
  if (near && a >= near->base + near->bytes)
    std::snprintf(s, sizeof s, "%zu bytes past the end of device allocation #%zu (%zu bytes)",
                  static_cast<std::size_t>(a - (near->base + near->bytes)), near_id, near->bytes);
  else if (near)
    std::snprintf(s, sizeof s, "%zu bytes before device allocation #%zu (%zu bytes)",
                  static_cast<std::size_t>(near->base - a), near_id, near->bytes);
  else
    std::snprintf(s, sizeof s, "device address 0x%zx outside every allocation", static_cast<std::size_t>(a));
  return s;
}

}  // namespace gpucheck::hostsim::internal

namespace gpucheck::hostsim::detail {
void note_atomic(const void* address, std::size_t bytes) {
  internal::check(address, bytes, false, true);
  internal::check(address, bytes, true, true);
}
}  // namespace gpucheck::hostsim::detail

// ---- the hooks GCC's ThreadSanitizer instrumentation calls ----------------------------------------------
using gpucheck::hostsim::internal::check;
extern "C" {
void __tsan_init() {}
void __tsan_func_entry(void*) {}
void __tsan_func_exit() {}
void __tsan_vptr_update(void**, void*) {}
void __tsan_vptr_read(void**) {}
#define GK_TSAN_HOOKS(n)                                                 \
  void __tsan_read##n(void* p) { check(p, n, false); }                   \
  void __tsan_write##n(void* p) { check(p, n, true); }                   \
  void __tsan_unaligned_read##n(void* p) { check(p, n, false); }         \
  void __tsan_unaligned_write##n(void* p) { check(p, n, true); }         \
  void __tsan_volatile_read##n(void* p) { check(p, n, false); }          \
  void __tsan_volatile_write##n(void* p) { check(p, n, true); }          \
  void __tsan_unaligned_volatile_read##n(void* p) { check(p, n, false); } \
  void __tsan_unaligned_volatile_write##n(void* p) { check(p, n, true); }
GK_TSAN_HOOKS(1)
GK_TSAN_HOOKS(2)
GK_TSAN_HOOKS(4)
GK_TSAN_HOOKS(8)
#undef GK_TSAN_HOOKS
// A typed 16-byte access (a uint4 or a 16-byte aligned pack): the GPU faults when it is not 16-byte aligned.
void __tsan_read16(void* p) { gpucheck::hostsim::internal::check_aligned16(p, false); }
void __tsan_write16(void* p) { gpucheck::hostsim::internal::check_aligned16(p, true); }
void __tsan_unaligned_read16(void* p) { check(p, 16, false); }
void __tsan_unaligned_write16(void* p) { check(p, 16, true); }
void __tsan_volatile_read16(void* p) { check(p, 16, false); }
void __tsan_volatile_write16(void* p) { check(p, 16, true); }
void __tsan_unaligned_volatile_read16(void* p) { check(p, 16, false); }
void __tsan_unaligned_volatile_write16(void* p) { check(p, 16, true); }
void __tsan_read_range(void* p, unsigned long n) { check(p, n, false); }
void __tsan_write_range(void* p, unsigned long n) { check(p, n, true); }
}

#include "collectives/options.h"

#include <cctype>
#include <set>

#include "core/errors.h"
#include "core/text.h"

namespace gpucheck::collectives {

namespace {

long long parse_int(const std::string& name, const std::string& v, long long lo, long long hi) {
  std::size_t pos = 0;
  long long x = 0;
  try {
    x = std::stoll(v, &pos);
  } catch (...) {
    pos = 0;
  }
  if (pos == 0 || pos != v.size()) throw InputError(name + ": expected an integer, got '" + v + "'");
  if (x < lo || x > hi)
    throw InputError(name + ": " + v + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return x;
}

double parse_double(const std::string& name, const std::string& v) {
  std::size_t pos = 0;
  double x = 0;
  try {
    x = std::stod(v, &pos);
  } catch (...) {
    pos = 0;
  }
  if (pos == 0 || pos != v.size() || !(x > 0)) throw InputError(name + ": expected a positive number, got '" + v + "'");
  return x;
}

}  // namespace

std::size_t parse_bytes(const std::string& s) {
  if (s.empty()) throw InputError("empty byte count");
  std::size_t mult = 1;
  std::string num = s;
  char last = static_cast<char>(std::toupper(static_cast<unsigned char>(s.back())));
  if (last == 'K' || last == 'M' || last == 'G') {
    mult = last == 'K' ? 1024 : last == 'M' ? (1u << 20) : (std::size_t{1} << 30);
    num = s.substr(0, s.size() - 1);
  }
  long long v = parse_int("byte count '" + s + "'", num, 1, 1ll << 40);
  return static_cast<std::size_t>(v) * mult;
}

std::vector<std::size_t> parse_size_list(const std::string& s) {
  std::vector<std::size_t> out;
  for (auto& part : split(s, ',')) {
    std::string p = trim(part);
    if (p.empty()) continue;
    out.push_back(static_cast<std::size_t>(parse_int("size list '" + s + "'", p, 1, 1ll << 34)));
  }
  if (out.empty()) throw InputError("empty size list '" + s + "'");
  return out;
}

Options parse_options(const std::vector<std::string>& args, const std::string& level) {
  Options o;
  if (level != "quick" && level != "standard" && level != "long")
    throw InputError("unknown level '" + level + "' (expected quick, standard or long)");
  o.level = level;
  if (level == "quick") {
    o.max_bytes = std::size_t{64} << 20;
    o.factor = 4;
    o.warmup = 2;
    o.iters = 5;
    o.layout_sizes = {7, 1237, 65539};
  } else if (level == "standard") {
    o.max_bytes = std::size_t{256} << 20;  // busbw has plateaued on NVLink by 256 MiB; long goes to 1 GiB
  } else {
    o.iters = 50;
    o.check_iters = 3;
  }
  bool max_given = false;
  static const std::set<std::string> kFlags{"--no-layout", "--table"};
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    std::string v;
    auto eq = a.find('=');
    if (a.rfind("--", 0) == 0 && eq != std::string::npos) {
      v = a.substr(eq + 1);
      a = a.substr(0, eq);
    } else if (!kFlags.count(a)) {
      if (i + 1 >= args.size()) throw InputError(a + ": missing value");
      v = args[++i];
    }
    if (a == "--transport") {
      if (v != "nccl" && v != "mpi") throw InputError("--transport: expected nccl or mpi, got '" + v + "'");
      o.transport = v;
    } else if (a == "--min-bytes") o.min_bytes = parse_bytes(v);
    else if (a == "--max-bytes") { o.max_bytes = parse_bytes(v); max_given = true; }
    else if (a == "--factor") o.factor = static_cast<std::size_t>(parse_int(a, v, 2, 1024));
    else if (a == "--ops") {
      o.ops.clear();
      for (auto& p : split(v, ',')) o.ops.push_back(parse_collop(trim(p)));
    } else if (a == "--dtypes") {
      o.dtypes.clear();
      for (auto& p : split(v, ',')) {
        DType t = parse_dtype(trim(p));
        if (t == DType::kU8) throw InputError("--dtypes: uint8 is only checked as the max overflow flag");
        o.dtypes.push_back(t);
      }
    } else if (a == "--layout-sizes") o.layout_sizes = parse_size_list(v);
    else if (a == "--no-layout") o.layout = false;
    else if (a == "--warmup") o.warmup = static_cast<int>(parse_int(a, v, 0, 1000));
    else if (a == "--iters") o.iters = static_cast<int>(parse_int(a, v, 1, 100000));
    else if (a == "--check") o.check_iters = static_cast<int>(parse_int(a, v, 1, 1000));
    else if (a == "--timeout") o.timeout_s = parse_double(a, v);
    else if (a == "--seed") o.seed = static_cast<std::uint64_t>(parse_int(a, v, 0, 1ll << 62));
    else if (a == "--corrupt-rank") o.corrupt_rank = static_cast<int>(parse_int(a, v, 0, 1 << 20));
    else if (a == "--hang-rank") o.hang_rank = static_cast<int>(parse_int(a, v, 0, 1 << 20));
    else if (a == "--min-busbw") o.min_busbw = parse_double(a, v);
    else if (a == "--pairs") {
      if (v == "all") o.pairs = PairsMode::kAll;
      else if (v == "neighbour" || v == "neighbor" || v == "quick") o.pairs = PairsMode::kNeighbour;
      else throw InputError("--pairs: expected all or neighbour, got '" + v + "'");
    } else if (a == "--node-key") {
      if (v != "host" && v != "rank") throw InputError("--node-key: expected host or rank, got '" + v + "'");
      o.node_key = v;
    } else if (a == "--table") o.print_table = true;
    else throw InputError("unknown option '" + args[i] + "' for collectives.nccl (see docs/collectives.md)");
  }
  if (o.transport == "mpi" && !max_given && o.max_bytes > (std::size_t{16} << 20))
    o.max_bytes = std::size_t{16} << 20;  // host memory: every rank holds send, receive and a copy
  if (o.min_bytes > o.max_bytes)
    throw InputError("--min-bytes " + std::to_string(o.min_bytes) + " is larger than --max-bytes " +
                     std::to_string(o.max_bytes));
  if (o.ops.empty()) throw InputError("--ops: no collective selected");
  if (o.dtypes.empty()) throw InputError("--dtypes: no data type selected");
  return o;
}

std::vector<std::size_t> sweep_sizes(const Options& o) {
  std::vector<std::size_t> out;
  for (std::size_t s = o.min_bytes; s <= o.max_bytes; s *= o.factor) {
    out.push_back(s);
    if (s > o.max_bytes / o.factor) break;
  }
  return out;
}

}  // namespace gpucheck::collectives

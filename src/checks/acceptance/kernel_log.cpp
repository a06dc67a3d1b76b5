#include "checks/acceptance/kernel_log.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fmt/format.h>

#include "core/rule_switch.h"
#include "core/text.h"

namespace gpucheck::acceptance {
namespace {

constexpr std::size_t kRawLimit = 1000;
constexpr std::size_t kEvidencePerProbe = 20;  // the rest are counted: a storm of Xid 45 stays readable
constexpr std::size_t kDetailsPerProbe = 200;
constexpr const char* kCatalog = "https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html";

bool digit(char c) { return c >= '0' && c <= '9'; }

// Reads an unsigned decimal at s[i]; false when there is none (or it is absurdly long).
bool number(std::string_view s, std::size_t& i, unsigned long long& v, std::size_t max_digits = 18) {
  std::size_t start = i;
  v = 0;
  while (i < s.size() && digit(s[i]) && i - start < max_digits) v = v * 10 + static_cast<unsigned>(s[i++] - '0');
  return i > start && (i >= s.size() || !digit(s[i]));
}

int month_of(std::string_view m) {
  static const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (int k = 0; k < 12; ++k)
    if (m == kMonths[k]) return k;
  return -1;
}

// Local wall time to epoch seconds, as dmesg --ctime and syslog print local time.
std::optional<double> local_epoch(int year, int mon, int day, int h, int m, int s) {
  if (year < 1970 || year > 9999 || mon < 0 || mon > 11 || day < 1 || day > 31 || h > 23 || m > 59 || s > 60)
    return std::nullopt;
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = mon;
  tm.tm_mday = day;
  tm.tm_hour = h;
  tm.tm_min = m;
  tm.tm_sec = s;
  tm.tm_isdst = -1;
  std::time_t t = std::mktime(&tm);
  if (t == static_cast<std::time_t>(-1)) return std::nullopt;
  return static_cast<double>(t);
}

// "HH:MM:SS" at s[i].
bool clock_time(std::string_view s, std::size_t& i, int& h, int& m, int& sec) {
  unsigned long long a, b, c;
  if (!number(s, i, a, 2) || i >= s.size() || s[i++] != ':') return false;
  if (!number(s, i, b, 2) || i >= s.size() || s[i++] != ':') return false;
  if (!number(s, i, c, 2)) return false;
  h = static_cast<int>(a), m = static_cast<int>(b), sec = static_cast<int>(c);
  return true;
}

// "[ 5107.644336]" at s[i] (dmesg, journalctl -o short-monotonic): seconds since boot.
bool bracket_monotonic(std::string_view s, std::size_t& i, double& out) {
  std::size_t j = i;
  if (j >= s.size() || s[j] != '[') return false;
  ++j;
  while (j < s.size() && s[j] == ' ') ++j;
  unsigned long long whole, frac;
  if (!number(s, j, whole, 12) || j >= s.size() || s[j] != '.') return false;
  std::size_t f0 = ++j;
  if (!number(s, j, frac, 9) || j >= s.size() || s[j] != ']') return false;
  out = static_cast<double>(whole) + static_cast<double>(frac) / std::pow(10.0, static_cast<double>(j - f0));
  i = j + 1;
  return true;
}

// Skips "host kernel: " (syslog, journalctl) so the message starts where the kernel's does.
std::string_view after_kernel_tag(std::string_view rest) {
  auto k = rest.find("kernel: ");
  if (k != std::string_view::npos && k < 80) return rest.substr(k + 8);
  return rest;
}

std::string_view ltrim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

KernelLogLine parse_line(std::string_view s, int year_hint) {
  KernelLogLine l;
  l.raw = std::string(s.substr(0, kRawLimit));
  std::size_t i = 0;
  double mono = 0;
  unsigned long long a, b, c;
  // /dev/kmsg: "prio,seq,usec,flags;message"
  if (number(s, i, a, 4) && i < s.size() && s[i] == ',') {
    std::size_t j = i + 1;
    if (number(s, j, b, 20) && j < s.size() && s[j] == ',' && number(s, ++j, c, 20) && j < s.size() && s[j] == ',') {
      auto semi = s.find(';', j);
      if (semi != std::string_view::npos && semi - j < 16) {
        l.monotonic_s = static_cast<double>(c) / 1e6;
        l.message = std::string(s.substr(semi + 1));
        return l;
      }
    }
  }
  i = 0;
  if (bracket_monotonic(s, i, mono)) {  // dmesg, journalctl -o short-monotonic
    l.monotonic_s = mono;
    l.message = std::string(ltrim(after_kernel_tag(ltrim(s.substr(i)))));
    return l;
  }
  // dmesg --ctime: "[Fri Aug 30 11:43:09 2024] message"
  if (s.size() > 26 && s[0] == '[' && s[4] == ' ' && s[8] == ' ') {
    int mon = month_of(s.substr(5, 3));
    std::size_t j = 9;
    while (j < s.size() && s[j] == ' ') ++j;
    int h, m, sec;
    if (mon >= 0 && number(s, j, a, 2) && j < s.size() && s[j++] == ' ' && clock_time(s, j, h, m, sec) && j < s.size() &&
        s[j++] == ' ' && number(s, j, b, 4) && j < s.size() && s[j] == ']') {
      l.epoch_s = local_epoch(static_cast<int>(b), mon, static_cast<int>(a), h, m, sec);
      l.message = std::string(ltrim(s.substr(j + 1)));
      return l;
    }
  }
  // syslog / journalctl: "May 18 19:02:39 host kernel: [ 269.516977] message" (no year)
  if (s.size() > 16 && s[3] == ' ' && month_of(s.substr(0, 3)) >= 0) {
    std::size_t j = 4;
    while (j < s.size() && s[j] == ' ') ++j;
    int h, m, sec;
    if (number(s, j, a, 2) && j < s.size() && s[j++] == ' ' && clock_time(s, j, h, m, sec)) {
      l.epoch_s = local_epoch(year_hint, month_of(s.substr(0, 3)), static_cast<int>(a), h, m, sec);
      std::string_view rest = ltrim(after_kernel_tag(s.substr(j)));
      std::size_t k = 0;
      if (bracket_monotonic(rest, k, mono)) {
        l.monotonic_s = mono;
        rest = ltrim(rest.substr(k));
      }
      l.message = std::string(rest);
      return l;
    }
  }
  // ISO 8601: "2024-08-30T11:43:09[.123][Z|+0000|+00:00] host kernel: message"
  if (s.size() > 19 && s[4] == '-' && s[7] == '-' && (s[10] == 'T' || s[10] == ' ')) {
    std::size_t j = 0;
    unsigned long long y, mo, d;
    int h, m, sec;
    if (number(s, j, y, 4) && s[j++] == '-' && number(s, j, mo, 2) && s[j++] == '-' && number(s, j, d, 2) && j++ < s.size() &&
        clock_time(s, j, h, m, sec)) {
      double frac = 0;
      if (j < s.size() && s[j] == '.') {
        std::size_t f0 = ++j;
        unsigned long long fr;
        if (number(s, j, fr, 9)) frac = static_cast<double>(fr) / std::pow(10.0, static_cast<double>(j - f0));
      }
      std::optional<long> offset;  // seconds east of UTC
      if (j < s.size() && s[j] == 'Z') offset = 0, ++j;
      else if (j + 4 < s.size() && (s[j] == '+' || s[j] == '-')) {
        int sign = s[j] == '-' ? -1 : 1;
        std::size_t k = j + 1;
        unsigned long long hh, mm;
        if (number(s, k, hh, 2)) {
          if (k < s.size() && s[k] == ':') ++k;
          if (number(s, k, mm, 2)) offset = sign * static_cast<long>(hh * 3600 + mm * 60), j = k;
        }
      }
      if (mo >= 1 && mo <= 12) {
        std::optional<double> t;
        if (offset) {
          std::tm tm{};
          tm.tm_year = static_cast<int>(y) - 1900;
          tm.tm_mon = static_cast<int>(mo) - 1;
          tm.tm_mday = static_cast<int>(d);
          tm.tm_hour = h, tm.tm_min = m, tm.tm_sec = sec;
          t = static_cast<double>(timegm(&tm)) - static_cast<double>(*offset);
        } else {
          t = local_epoch(static_cast<int>(y), static_cast<int>(mo) - 1, static_cast<int>(d), h, m, sec);
        }
        if (t) l.epoch_s = *t + frac;
        l.message = std::string(ltrim(after_kernel_tag(s.substr(j))));
        return l;
      }
    }
  }
  l.message = std::string(ltrim(s));
  return l;
}

bool contains_ci(const std::string& hay, const char* needle) {
  std::string h = hay, n = needle;
  std::transform(h.begin(), h.end(), h.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return h.find(n) != std::string::npos;
}

}  // namespace

std::vector<KernelLogLine> parse_kernel_log(std::string_view text, int year_hint) {
  std::vector<KernelLogLine> out;
  std::size_t pos = 0, line_no = 0;
  std::optional<double> last_mono, last_epoch;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    std::string_view s = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line_no;
    if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
    if (s.empty() || s.front() == '#') continue;
    bool continuation = s.front() == ' ' || s.front() == '\t';
    KernelLogLine l = parse_line(s, year_hint);
    l.line_no = line_no;
    if (!l.monotonic_s && !l.epoch_s && continuation) {  // dmesg's indented continuation of a multi-line message
      l.monotonic_s = last_mono;
      l.epoch_s = last_epoch;
    }
    if (l.monotonic_s || l.epoch_s) last_mono = l.monotonic_s, last_epoch = l.epoch_s;
    out.push_back(std::move(l));
  }
  return out;
}

std::string NvrmEvent::title() const {
  if (xid) return fmt::format("Xid {} ({})", *xid, meaning.empty() ? "not in NVIDIA's catalogue" : meaning);
  return "NVRM: " + meaning;
}

std::vector<NvrmEvent> nvidia_events(const std::vector<KernelLogLine>& lines, const XidTable& table) {
  std::vector<NvrmEvent> out;
  for (const auto& l : lines) {
    auto at = l.message.find("NVRM: ");
    if (at == std::string::npos) continue;
    std::string_view m = std::string_view(l.message).substr(at + 6);
    NvrmEvent e;
    e.line = l;
    if (starts_with(std::string(m.substr(0, 5)), "Xid (")) {
      auto close = m.find("): ");
      if (close == std::string_view::npos || close > 40) continue;
      std::string pci(m.substr(5, close - 5));
      if (starts_with(pci, "PCI:")) pci = pci.substr(4);
      std::size_t i = close + 3;
      unsigned long long id;
      if (!number(m, i, id, 4)) continue;
      e.xid = static_cast<int>(id);
      e.pci = pci;
      if (const XidInfo* x = table.find(*e.xid)) {
        e.known = true;
        e.meaning = x->meaning;
        e.kind = x->kind;
        e.action = x->action;
        e.immediate_action = x->immediate_action;
        e.fails_node = x->fails_node && !rule_disabled("kernel_log.xid_fails_node");
        e.status = e.fails_node ? Status::kFail : x->immediate_action == "IGNORE" ? Status::kInfo : Status::kWarn;
      } else {
        e.kind = "unclassified";
        e.action = "look the Xid up in NVIDIA's catalogue (newer than gpucheck's table)";
        e.status = Status::kWarn;
      }
      out.push_back(std::move(e));
      continue;
    }
    // Not an Xid: the driver saying a GPU is gone (newer drivers print it without Xid 79), or another error.
    if (contains_ci(l.message, "fallen off the bus")) {
      const XidInfo* x79 = table.find(79);
      e.known = true;
      e.meaning = "the GPU has fallen off the bus (without an Xid line)";
      e.kind = "hardware";
      e.action = x79 ? x79->action : "reboot the node";
      e.immediate_action = x79 ? x79->immediate_action : "";
      e.fails_node = !rule_disabled("kernel_log.xid_fails_node");
      e.status = e.fails_node ? Status::kFail : Status::kWarn;
      out.push_back(std::move(e));
    } else if (contains_ci(l.message, "error") || contains_ci(l.message, "fail") || contains_ci(l.message, "timeout") ||
               contains_ci(l.message, "nv_err_")) {
      e.meaning = "driver error";
      e.kind = "driver";
      e.action = "read the driver's lines around it (nvidia-bug-report.sh collects them)";
      e.status = Status::kWarn;
      out.push_back(std::move(e));
    }
  }
  return out;
}

namespace {

std::optional<std::size_t> window_of(const NvrmEvent& e, const std::vector<ProbeWindow>& windows, double slack) {
  auto holds = [&](const ProbeWindow& w, double end_slack) -> bool {
    if (e.line.monotonic_s && w.monotonic_end > 0)
      return *e.line.monotonic_s >= w.monotonic_start && *e.line.monotonic_s <= w.monotonic_end + end_slack;
    if (e.line.epoch_s && w.epoch_end > 0)
      return *e.line.epoch_s >= std::floor(w.epoch_start) && *e.line.epoch_s <= w.epoch_end + end_slack;
    return false;
  };
  for (std::size_t i = 0; i < windows.size(); ++i)
    if (holds(windows[i], 0)) return i;
  for (std::size_t i = windows.size(); i-- > 0;)  // the driver logs a fault shortly after it happened
    if (holds(windows[i], slack)) return i;
  return std::nullopt;
}

nlohmann::json event_json(const NvrmEvent& e, const std::string& source) {
  nlohmann::json j = {{"line", e.line.raw}, {"source", source}, {"kind", e.kind}, {"meaning", e.meaning},
                      {"action", e.action}, {"fails_node", e.fails_node}, {"status", to_string(e.status)}};
  if (e.xid) j["xid"] = *e.xid;
  if (!e.pci.empty()) j["pci"] = e.pci;
  if (!e.immediate_action.empty()) j["nvidia_action"] = e.immediate_action;
  if (e.line.monotonic_s) j["monotonic_s"] = *e.line.monotonic_s;
  if (e.line.epoch_s) j["epoch_s"] = *e.line.epoch_s;
  return j;
}

void attach(Finding& f, const std::vector<const NvrmEvent*>& events, const std::string& source) {
  if (events.empty()) return;
  Status own = f.status;
  std::string own_summary = f.summary;
  Status worst_event = Status::kPass;
  std::vector<std::string> failing;
  for (std::size_t k = 0; k < events.size(); ++k) {
    const NvrmEvent& e = *events[k];
    worst_event = worst(worst_event, e.status);
    if (e.fails_node) {
      std::string t = e.title() + (e.pci.empty() ? "" : " on " + e.pci);
      if (std::find(failing.begin(), failing.end(), t) == failing.end()) failing.push_back(t);
    }
    if (k < kEvidencePerProbe) {
      std::string note = e.kind + " fault; NVIDIA's action: " + e.action;
      if (!e.known) note = "not in gpucheck's Xid table; " + e.action;
      f.evidence.add("kernel log: " + e.title(), e.line.raw, source + "; " + note);
    }
    if (k < kDetailsPerProbe && (f.details.is_null() || f.details.is_object())) f.details["kernel_log"].push_back(event_json(e, source));
  }
  if (events.size() > kEvidencePerProbe)
    f.evidence.add("kernel log: more", std::to_string(events.size() - kEvidencePerProbe) + " more NVRM line(s) while it ran", source);
  if (!failing.empty()) {
    f.status = worst(f.status, Status::kFail);
    f.summary = "the kernel logged " + join(failing, ", ") + " while it ran" +
                (own == Status::kPass || own == Status::kInfo ? " (the probe itself passed: " : " (the probe: ") +
                own_summary + ")";
    for (const auto* e : events)
      if (e->fails_node) {
        f.add_fix(e->title() + ": " + e->action);
        break;
      }
  } else if (severity(worst_event) > severity(f.status) && (f.status == Status::kPass || f.status == Status::kInfo)) {
    f.status = worst_event;
    f.summary += fmt::format(" (the kernel logged {} NVRM line(s) while it ran: {})", events.size(), events.front()->title());
  }
  if (std::find(f.references.begin(), f.references.end(), kCatalog) == f.references.end()) f.references.push_back(kCatalog);
}

}  // namespace

KernelEvidence attach_kernel_log(std::vector<Finding>& findings, const std::vector<ProbeWindow>& windows,
                                 const std::vector<NvrmEvent>& events, const std::string& source, double slack_s) {
  KernelEvidence ev;
  std::vector<std::vector<const NvrmEvent*>> per(findings.size());
  double run_mono0 = 0, run_mono1 = 0, run_epoch0 = 0, run_epoch1 = 0;
  if (!windows.empty()) {
    run_mono0 = windows.front().monotonic_start, run_mono1 = windows.back().monotonic_end + slack_s;
    run_epoch0 = std::floor(windows.front().epoch_start), run_epoch1 = windows.back().epoch_end + slack_s;
  }
  for (const auto& e : events) {
    if (!e.line.monotonic_s && !e.line.epoch_s) {
      ++ev.unstamped;
      continue;
    }
    auto w = window_of(e, windows, slack_s);
    if (w && *w < findings.size()) {
      per[*w].push_back(&e);
      ++ev.attached;
      continue;
    }
    bool in_run = e.line.monotonic_s && run_mono1 > 0 ? (*e.line.monotonic_s >= run_mono0 && *e.line.monotonic_s <= run_mono1)
                  : e.line.epoch_s && run_epoch1 > 0 ? (*e.line.epoch_s >= run_epoch0 && *e.line.epoch_s <= run_epoch1)
                                                     : false;
    if (in_run) ev.between.push_back(e);
    else ++ev.outside;
  }
  for (std::size_t i = 0; i < findings.size(); ++i) attach(findings[i], per[i], source);
  return ev;
}

Finding between_probes_finding(const KernelEvidence& ev, const std::string& source) {
  Finding f;
  f.id = "kernel.log";
  f.title = "NVIDIA driver lines in the kernel log between probes";
  f.status = Status::kPass;
  f.summary = "no NVRM error between the probes";
  f.evidence.add("kernel log", source);
  std::vector<const NvrmEvent*> all;
  for (const auto& e : ev.between) all.push_back(&e);
  if (!all.empty()) {
    f.summary = fmt::format("{} NVRM line(s) between probes", all.size());
    attach(f, all, source);
  }
  f.evidence.add("attached to probes", std::to_string(ev.attached), source);
  if (ev.outside) f.evidence.add("before or after the run", std::to_string(ev.outside) + " NVRM line(s), not judged", source);
  if (ev.unstamped) f.evidence.add("without a time", std::to_string(ev.unstamped) + " NVRM line(s), not placed", source);
  return f;
}

}  // namespace gpucheck::acceptance

#include "inventory/log_prefixes.h"

#include <cctype>
#include <map>
#include <optional>
#include <string>

namespace gpucheck::inventory {
namespace {

bool digits(std::string_view s, std::size_t at, std::size_t n) {
  if (at + n > s.size()) return false;
  for (std::size_t i = at; i < at + n; ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

// "HH:MM:SS" at `at`.
bool clock(std::string_view s, std::size_t at) {
  return digits(s, at, 2) && at + 8 <= s.size() && s[at + 2] == ':' && digits(s, at + 3, 2) && s[at + 5] == ':' &&
         digits(s, at + 6, 2);
}

// "Aug 12 10:38:34 host unit[pid]: " (day space-padded or not): the prefix's length, 0 when none.
// journalctl under a Chinese or Japanese locale names the month "2月" (月 = month): "2月 21 13:31:11 host unit[pid]: ".
std::size_t syslog_prefix(std::string_view l) {
  std::size_t at = 0;
  if (l.size() >= 20 && std::isupper(static_cast<unsigned char>(l[0])) && std::islower(static_cast<unsigned char>(l[1])) &&
      std::islower(static_cast<unsigned char>(l[2])) && l[3] == ' ') {
    at = 4;
  } else {
    static constexpr std::string_view kMonth = "\xE6\x9C\x88 ";  // "月 "
    std::size_t digits_end = 0;
    while (digits_end < 2 && digits_end < l.size() && std::isdigit(static_cast<unsigned char>(l[digits_end]))) ++digits_end;
    if (digits_end == 0 || l.size() < 20 || l.substr(digits_end, kMonth.size()) != kMonth) return 0;
    at = digits_end + kMonth.size();
  }
  if (l[at] == ' ') ++at;
  std::size_t day = at;
  while (at < l.size() && std::isdigit(static_cast<unsigned char>(l[at]))) ++at;
  if (at == day || at - day > 2 || at >= l.size() || l[at] != ' ' || !clock(l, at + 1)) return 0;
  at += 9;
  if (at >= l.size() || l[at] != ' ') return 0;
  std::size_t host = ++at;
  while (at < l.size() && l[at] != ' ') ++at;
  if (at == host || at >= l.size()) return 0;
  std::size_t tag = ++at;
  while (at < l.size() && l[at] != ' ') ++at;
  if (at == tag || l[at - 1] != ':') return 0;
  return at < l.size() ? at + 1 : at;
}

// "2024-05-01T12:00:00[.123][Z|+01:00] ": the prefix's length, 0 when none.
std::size_t iso_prefix(std::string_view l) {
  if (!digits(l, 0, 4) || l.size() < 20 || l[4] != '-' || !digits(l, 5, 2) || l[7] != '-' || !digits(l, 8, 2) ||
      (l[10] != 'T' && l[10] != ' ') || !clock(l, 11))
    return 0;
  std::size_t at = 19;
  if (at < l.size() && (l[at] == '.' || l[at] == ','))
    for (++at; at < l.size() && std::isdigit(static_cast<unsigned char>(l[at]));) ++at;
  if (at < l.size() && l[at] == 'Z') ++at;
  else if (at + 6 <= l.size() && (l[at] == '+' || l[at] == '-') && digits(l, at + 1, 2) && l[at + 3] == ':' && digits(l, at + 4, 2))
    at += 6;
  if (at >= l.size() || l[at] != ' ') return 0;
  return at + 1;
}

// After a timestamp, Python logging's "%(name)s - %(levelname)s - " of the format "%(asctime)s - %(name)s -
// %(levelname)s - %(message)s" (mmdeploy's and OpenMMLab's check_env print their report through it):
// "- mmdeploy - INFO - ". Its length at `at`, 0 when none.
std::size_t python_logging_fields(std::string_view l, std::size_t at) {
  if (l.substr(at, 2) != "- ") return 0;
  std::size_t name = at + 2, end = name;
  while (end < l.size() && end - name < 64 && !std::isspace(static_cast<unsigned char>(l[end]))) ++end;
  if (end == name || l.substr(end, 3) != " - ") return 0;
  for (const char* level : {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}) {
    const std::string tail = std::string(level) + " - ";
    if (l.substr(end + 3, tail.size()) == tail) return end + 3 + tail.size() - at;
  }
  return 0;
}

// The Rich log of vladmandic's installer (SD.Next, kohya_ss's GUI): "17:21:03-277184 INFO     " (the time, a
// dash, microseconds, the level padded with blanks): the prefix's length, 0 when none.
std::size_t rich_installer_prefix(std::string_view l) {
  if (!clock(l, 0) || l.size() < 17 || l[8] != '-' || !digits(l, 9, 6) || l[15] != ' ') return 0;
  for (std::string_view level : {"TRACE", "DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}) {
    if (l.substr(16, level.size()) != level) continue;
    std::size_t at = 16 + level.size();
    if (at < l.size() && l[at] != ' ' && l[at] != '\n' && l[at] != '\r') return 0;
    while (at < l.size() && l[at] == ' ') ++at;
    return at;
  }
  return 0;
}

// The same log printed without its time column (Rich's log_time off, or the time cut when copied): the level
// padded to nine columns, "INFO     ", "WARNING  ", then the message; a Markdown quote mark before it goes
// too (">INFO     Torch 2.0.1+cpu", kohya_ss 1608).
std::size_t rich_level_prefix(std::string_view l) {
  std::size_t start = 0;
  while (start < l.size() && start < 4 && (l[start] == '>' || l[start] == ' ')) ++start;
  const std::string_view rest = l.substr(start);
  for (std::string_view level : {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}) {
    if (rest.substr(0, level.size()) != level || rest.size() <= 9) continue;
    for (std::size_t at = level.size(); at < 9; ++at)
      if (rest[at] != ' ') return 0;
    return rest[9] == ' ' || rest[9] == '\n' || rest[9] == '\r' ? 0 : start + 9;
  }
  return 0;
}

// ComfyUI-Manager's log: each write() of the process gets "2025-03-01T20:08:43.106599 - " (the date and time
// joined by 'T', microseconds, " - "), so one print of several parts carries a stamp before each part, inside
// the line too: "** Platform:2025-03-01T20:08:43.106599 -  2025-03-01T20:08:43.106599 - Windows". The stamp's
// length at `at`, 0 when none.
std::size_t comfyui_manager_stamp(std::string_view l, std::size_t at) {
  const std::string_view s = l.substr(at);
  if (s.size() < 23 || !digits(s, 0, 4) || s[4] != '-' || !digits(s, 5, 2) || s[7] != '-' || !digits(s, 8, 2) ||
      s[10] != 'T' || !clock(s, 11) || s[19] != '.')
    return 0;
  std::size_t end = 20;
  while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
  return end > 20 && s.substr(end, 3) == " - " ? end + 3 : 0;
}

// ComfyUI's own log (app/logger.py since mid-2024): "[2024-06-30 23:35] " or with seconds and milliseconds,
// "[2025-01-05 10:20:30.123] ": the prefix's length, 0 when none.
std::size_t comfyui_log_prefix(std::string_view l) {
  if (l.size() < 19 || l[0] != '[' || !digits(l, 1, 4) || l[5] != '-' || !digits(l, 6, 2) || l[8] != '-' ||
      !digits(l, 9, 2) || l[11] != ' ' || !digits(l, 12, 2) || l[14] != ':' || !digits(l, 15, 2))
    return 0;
  std::size_t at = 17;
  if (at < l.size() && l[at] == ':') {
    if (!digits(l, at + 1, 2)) return 0;
    at += 3;
    if (at < l.size() && l[at] == '.')
      for (++at; at < l.size() && std::isdigit(static_cast<unsigned char>(l[at]));) ++at;
  }
  if (at >= l.size() || l[at] != ']') return 0;
  ++at;
  return at < l.size() && l[at] == ' ' ? at + 1 : at;
}

// A line that starts with a ComfyUI-Manager stamp, with every stamp removed; nullopt for any other line.
std::optional<std::string> without_comfyui_manager_stamps(std::string_view l) {
  if (!comfyui_manager_stamp(l, 0)) return std::nullopt;
  std::string out;
  for (std::size_t at = 0; at < l.size();) {
    if (std::size_t n = comfyui_manager_stamp(l, at)) {
      at += n;
      continue;
    }
    out += l[at++];
  }
  return out;
}

// Ray's worker prefix: "(RayWorkerWrapper pid=7857) ", "(pid=1234) ", "(Actor pid=12, ip=10.0.0.2) ": the
// prefix's length, 0 when none.
std::size_t ray_prefix(std::string_view l) {
  if (l.empty() || l[0] != '(') return 0;
  std::size_t at = 1;
  while (at < l.size() && at < 80 && (std::isalnum(static_cast<unsigned char>(l[at])) || l[at] == '_' || l[at] == ':')) ++at;
  if (at < l.size() && l[at] == '=') at = 1;  // no name: "(pid=1234) "
  if (at > 1) {
    if (at >= l.size() || l[at] != ' ') return 0;
    ++at;
  }
  if (l.substr(at, 4) != "pid=") return 0;
  at += 4;
  const std::size_t pid = at;
  while (at < l.size() && std::isdigit(static_cast<unsigned char>(l[at]))) ++at;
  if (at == pid) return 0;
  if (l.substr(at, 5) == ", ip=") {
    at += 5;
    while (at < l.size() && (std::isdigit(static_cast<unsigned char>(l[at])) || l[at] == '.')) ++at;
  }
  if (at + 1 >= l.size() || l[at] != ')' || l[at + 1] != ' ') return 0;
  return at + 2;
}

// docker compose's service column: "stable-diffusion-webui-forge  | ", "vllm-1  | " (the name padded to the
// widest service's): the prefix's length, and the name in `name`; 0 when none. A Markdown table's row
// ("torch | 2.1.0 |") looks alike: without_log_prefixes takes it only when one name starts three lines or more.
std::size_t compose_prefix(std::string_view l, std::string_view& name) {
  std::size_t at = 0;
  while (at < l.size() && at < 64 && (std::isalnum(static_cast<unsigned char>(l[at])) || l[at] == '_' || l[at] == '-' || l[at] == '.'))
    ++at;
  if (at == 0 || !std::isalnum(static_cast<unsigned char>(l[0]))) return 0;
  name = l.substr(0, at);
  std::size_t bar = at;
  while (bar < l.size() && l[bar] == ' ') ++bar;
  if (bar == at || bar >= l.size() || l[bar] != '|') return 0;
  if (bar + 1 < l.size() && l[bar + 1] == ' ') return bar + 2;
  return bar + 1 == l.size() || l[bar + 1] == '\n' || l[bar + 1] == '\r' ? bar + 1 : 0;  // an empty line of the log
}

}  // namespace

std::string without_log_prefixes(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  // The compose services that start three lines or more.
  std::map<std::string_view, int> services;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t nl = text.find('\n', start);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    std::string_view name;
    if (compose_prefix(text.substr(start, end - start), name)) ++services[name];
    start = end;
  }
  for (std::size_t start = 0; start < text.size();) {
    std::size_t nl = text.find('\n', start);
    std::size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    std::string_view line = text.substr(start, end - start);
    if (auto unstamped = without_comfyui_manager_stamps(line)) {
      out += *unstamped;
      start = end;
      continue;
    }
    std::size_t cut = syslog_prefix(line);
    if (!cut) {
      cut = iso_prefix(line);
      // iso_prefix consumed the blank after the time; the fields start at the "- " before it.
      if (cut) cut += python_logging_fields(line, cut);
    }
    if (!cut) cut = ray_prefix(line);
    if (std::string_view name; !cut) {
      const std::size_t compose = compose_prefix(line, name);
      if (const auto it = services.find(name); compose && it != services.end() && it->second >= 3) cut = compose;
    }
    if (!cut) cut = comfyui_log_prefix(line);
    if (!cut) cut = rich_installer_prefix(line);
    if (!cut) cut = rich_level_prefix(line);
    out.append(line.substr(cut));
    start = end;
  }
  return out;
}

}  // namespace gpucheck::inventory

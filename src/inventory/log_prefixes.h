#pragma once
// Environment reports pasted from a service's log carry each line's log prefix: journald/syslog's
// "Aug 12 10:38:34 host unit[4073658]: ", an ISO timestamp ("2024-05-01T12:00:00.123Z ", docker logs -t,
// CI runners), Ray's worker tag ("(RayWorkerWrapper pid=7857) ", vLLM's workers) or the Rich log of SD.Next's
// and kohya_ss's installer ("17:21:03-277184 INFO     ", or "INFO     " alone), ComfyUI's "[2024-06-30 23:35] ", or
// ComfyUI-Manager's stamp before each part a print wrote ("2025-03-01T20:08:43.106599 - "). The readers see the lines as the program printed them.
#include <string>
#include <string_view>

namespace gpucheck::inventory {

/// `text` with a syslog/journald, ISO-8601 timestamp, Ray worker, docker compose service, installer-log or
/// ComfyUI-Manager prefix removed from each line
/// that has one; other lines unchanged.
std::string without_log_prefixes(std::string_view text);

}  // namespace gpucheck::inventory

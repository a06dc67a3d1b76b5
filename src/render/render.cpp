#include "render/render.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>

namespace gpucheck::render {

std::optional<Format> parse_format(const std::string& name) {
  if (name == "text") return Format::kText;
  if (name == "json") return Format::kJson;
  if (name == "markdown" || name == "md") return Format::kMarkdown;
  if (name == "junit") return Format::kJunit;
  if (name == "prom" || name == "prometheus") return Format::kPrometheus;
  if (name == "html") return Format::kHtml;
  return std::nullopt;
}

void render(const model::Report& r, Format format, std::ostream& out, const RenderOptions& o) {
  switch (format) {
    case Format::kText: return render_text(r, out, o);
    case Format::kJson: return render_json(r, out, o);
    case Format::kMarkdown: return render_markdown(r, out, o);
    case Format::kJunit: return render_junit(r, out, o);
    case Format::kPrometheus: return render_prometheus(r, out, o);
    case Format::kHtml: return render_html(r, out, o);
  }
}

int terminal_width(int fd) {
  int width = 0;
  struct winsize ws {};
  if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0) width = ws.ws_col;
  if (width <= 0)
    if (const char* c = std::getenv("COLUMNS")) {
      char* end = nullptr;
      long v = std::strtol(c, &end, 10);
      if (end != c && *end == '\0' && v > 0 && v <= 1000) width = static_cast<int>(v);  // else not valid
    }
  if (width <= 0) width = 80;
  return width < 40 ? 40 : width;
}

}  // namespace gpucheck::render

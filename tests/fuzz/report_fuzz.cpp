// Fuzz target: a gpucheck report read back and shown (`gpucheck report FILE [--format F]`, `gpucheck fleet
// DIR`; the file may come from another node): any JSON is a Report or an InputError with one line; a Report
// read serialises, its exit code is one of the contract's, and every format renders it (text verbose and
// quiet, Markdown, JUnit, Prometheus, HTML) or says in one line what it cannot show.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/text.h"
#include "fuzz_check.h"
#include "render/render.h"
#include "model/report.h"

namespace {

// As `gpucheck report FILE` does: a renderer meeting a field of a type gpucheck never writes throws nlohmann's
// exception, which the command turns into one line and exit 2 (cmd_report.cpp); anything else escapes.
void render_every_format(const gpucheck::model::Report& r) {
  using gpucheck::render::Format;
  try {
    for (Format f : {Format::kText, Format::kMarkdown, Format::kJunit, Format::kPrometheus, Format::kHtml}) {
      std::ostringstream out;
      gpucheck::render::RenderOptions o;
      o.verbose = f == Format::kText;
      gpucheck::render::render(r, f, out, o);
    }
    std::ostringstream quiet;
    gpucheck::render::RenderOptions q;
    q.quiet = true;
    q.width = 40;
    gpucheck::render::render(r, Format::kText, quiet, q);
  } catch (const nlohmann::json::exception& e) {
    fuzzcheck::one_line(e.what());
  }
}

// The file reader (read_report_file) makes each finding a Finding while it parses: it must read the same
// Report as report_from_json of the whole tree, or refuse what that refuses.
std::string read_from_file(const std::uint8_t* data, std::size_t size) {
  try {
    return gpucheck::model::to_json(gpucheck::model::read_report_file(fuzzcheck::as_file(data, size))).dump();
  } catch (const gpucheck::InputError& e) {
    fuzzcheck::one_line(e.what());
    return "refused";
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto doc = nlohmann::json::parse(data, data + size, nullptr, false);
  if (doc.is_discarded()) return 0;
  std::string whole = "refused";
  try {
    auto r = gpucheck::model::report_from_json(doc);
    whole = gpucheck::model::to_json(r).dump();
    (void)gpucheck::json_text(gpucheck::model::to_json(r));
    int code = gpucheck::model::exit_code(r);
    if (code < 0 || code > 3) std::abort();
    render_every_format(r);
  } catch (const gpucheck::InputError& e) {
    fuzzcheck::one_line(e.what());
  }
  if (read_from_file(data, size) != whole) std::abort();
  return 0;
}

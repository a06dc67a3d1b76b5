#include <sstream>

#include "model/verdict.h"
#include "render/terminal_safe.h"
#include "render/text_blocks.h"
#include "render/wrap.h"

namespace gpucheck::render {
namespace {

void render_part(const report::Report& r, std::ostream& out, const RenderOptions& o) {
  const std::string& c = r.meta.command;
  if (c == "run") return text::run(r, out, o);
  if (c == "doctor") return text::doctor(r, out, o);
  if (c == "explain") return text::explain(r, out, o);
  if (c == "abi") return text::abi(r, out, o);
  if (c == "env") return text::env(r, out, o);
  if (c == "list") return text::list(r, out, o);
  if (c == "version") return text::version(r, out, o);
  if (c == "use-cuda") return text::use_cuda(r, out, o);
  if (c == "modulefiles") return text::modulefiles(r, out, o);
  if (c == "fleet") return text::fleet(r, out, o);
  if (c == "compare") return text::compare(r, out, o);
  if (c == "diff") return text::diff(r, out, o);
  text::findings(r, out, o);
}

}  // namespace

void render_text(const report::Report& unsafe, std::ostream& out, const RenderOptions& o) {
  const report::Report r = terminal_safe_copy(unsafe);  // nothing read from outside moves the cursor
  // use-cuda's text is shell code for eval: a wrapped line would be another command. (A version not
  // installed has no shell code: its ways to install it are text for a reader, wrapped, on stderr.)
  if (r.meta.command == "use-cuda" && r.findings().empty()) return text::use_cuda(r, out, o);
  // completion scripts and the man page are files for a program: exactly as generated.
  if (r.meta.command == "completion" || r.meta.command == "man") {
    if (r.details.is_object()) out << r.details.value(r.meta.command == "man" ? "page" : "script", "");
    return;
  }
  std::ostringstream text;
  // --quiet: nothing when all is well, else only the verdict and the next step.
  const bool quiet_here = o.quiet && model::judges(r);
  if (!quiet_here) render_part(r, text, o);
  // A run whose GPU probes all skipped exits 0 but is no pass: -q still says so (NO GPU TESTED).
  const bool all_well = report::exit_code(r) == 0 && report::summarize(r).verdict != "NO GPU TESTED";
  if (model::judges(r) && !(quiet_here && all_well)) text::closing(r, text, o);
  out << wrap_lines(text.str(), o.width);
}

}  // namespace gpucheck::render

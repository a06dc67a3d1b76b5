#include <sstream>

#include "model/details.h"
#include "model/verdict.h"
#include "render/terminal_safe.h"
#include "render/text_blocks.h"
#include "render/wrap.h"

namespace gpucheck::render {
namespace {

// The part of the text a report's details type calls for; a report with nothing of its own beyond its
// findings (selftest, bench, a newer gpucheck's) gets the findings as blocks.
struct Part {
  const model::Report& r;
  std::ostream& out;
  const RenderOptions& o;

  void operator()(const model::RunDetails&) const { text::run(r, out, o); }
  void operator()(const model::DoctorDetails& d) const { text::doctor(r, d, out, o); }
  void operator()(const model::ExplainDetails& d) const { text::explain(r, d, out, o); }
  void operator()(const model::AbiDetails& d) const { text::abi(r, d, out, o); }
  void operator()(const model::EnvDetails&) const { text::env(r, out, o); }
  void operator()(const model::ListDetails&) const { text::list(r, out, o); }
  void operator()(const model::VersionDetails& d) const { text::version(d, out); }
  void operator()(const model::ModulefilesDetails& d) const { text::modulefiles(r, d, out, o); }
  void operator()(const model::FleetDetails&) const { text::fleet(r, out, o); }
  void operator()(const model::CompareDetails&) const { text::compare(r, out, o); }
  void operator()(const model::DiffDetails& d) const { text::diff(r, d, out, o); }
  template <typename Other>
  void operator()(const Other&) const {
    text::findings(r, out, o);
  }
};

}  // namespace

void render_text(const model::Report& unsafe, std::ostream& out, const RenderOptions& o) {
  const model::Report r = terminal_safe_copy(unsafe);  // nothing read from outside moves the cursor
  const model::Details details = model::details_of(r);
  // use-cuda's text is shell code for eval: a wrapped line would be another command. (A version not
  // installed has no shell code: its ways to install it are findings for a reader, wrapped; cli prints
  // them on stderr.)
  if (const auto* d = std::get_if<model::UseCudaDetails>(&details); d && r.findings().empty()) return void(out << d->shell);
  // completion scripts and the man page are files for a program: exactly as generated.
  if (const auto* d = std::get_if<model::CompletionDetails>(&details)) return void(out << d->script);
  if (const auto* d = std::get_if<model::ManDetails>(&details)) return void(out << d->page);
  std::ostringstream text;
  // --quiet: nothing when all is well, else only the verdict and the next step.
  const bool quiet_here = o.quiet && model::judges(r);
  if (!quiet_here) std::visit(Part{r, text, o}, details);
  // A run whose GPU probes all skipped exits 0 but is no pass: -q still says so (NO GPU TESTED).
  const bool all_well = model::exit_code(r) == 0 && model::summarize(r).verdict != "NO GPU TESTED";
  if (model::judges(r) && !(quiet_here && all_well)) text::closing(r, text, o);
  out << wrap_lines(text.str(), o.width);
}

}  // namespace gpucheck::render

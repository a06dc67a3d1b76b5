#include "cli/command.h"

#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "core/file_writer.h"
#include "core/files.h"
#include "core/text.h"
#include "gpucheck/build_info.h"
#include "model/scrub.h"
#include "platform/environment.h"
#include "platform/invocation.h"

extern char** environ;

namespace gpucheck::cli {

std::vector<Command>& commands() {
  static std::vector<Command> all;
  return all;
}

bool use_color(const GlobalOptions& g, int fd) {
  if (g.color == "always") return true;
  if (g.color == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  return isatty(fd) && !(no_color && *no_color) && !(term && std::string(term) == "dumb");
}

void add_inventory_source(CLI::App& sub, commands::InventorySource& source, bool python) {
  sub.add_option("--from", source.from,
                 "Judge this inventory instead of this machine: `gpucheck env --json` output or a report")
      ->type_name("FILE");
  sub.add_option("--root", source.root, "Judge the stack installed under DIR (a mounted image or chroot; nothing run there)")
      ->type_name("DIR");
  if (python) {
    sub.add_option("--python", source.pythons, "Judge this interpreter's environment (repeatable; the other Pythons are then read from their files only)")
        ->type_name("PATH")
        ->allow_extra_args(false);
    source.cache = true;
    sub.add_flag(
        "--no-cache", [&source](std::int64_t) { source.cache = false; },
        "Look at everything afresh (default: reuse library versions and Python probe answers whose files are "
        "unchanged, from ~/.cache/gpucheck)");
  }
}

model::Report new_report(const std::string& command, const GlobalOptions& g) {
  model::Report r;
  r.meta.command = command;
  r.meta.tool_version = build::kVersion;
  r.meta.hostname = platform::hostname();
  r.meta.started_at = utc_now_iso();
  r.meta.command_line = g.argv;
  r.meta.environment = platform::allowed_environment(environ);
  return r;
}

render::Format selected_format(const GlobalOptions& g) {
  if (g.json) return render::Format::kJson;
  if (g.html) return render::Format::kHtml;
  return render::parse_format(g.format).value_or(render::Format::kText);
}

render::RenderOptions render_options(const GlobalOptions& g, int fd) {
  render::RenderOptions o;
  o.color = use_color(g, fd);
  o.verbose = g.verbose;
  o.quiet = g.quiet;
  o.width = render::terminal_width(fd);
  // The prefix of every gpucheck command printed for the user: runnable from the user's shell (uvx, PATH).
  o.program = platform::command_prefix(platform::this_invocation(g.argv.empty() ? "" : g.argv[0]));
  return o;
}

namespace {

// A fix that runs gpucheck again ("gpucheck run --only device.copy") shown to a reader starts with the words
// that run this gpucheck from their shell (uvx, a PATH without it); a JSON document keeps the plain name.
void commands_run_as_invoked(model::Report& r, const std::string& program) {
  if (program == "gpucheck") return;
  for (auto& s : r.sections)
    for (auto& f : s.findings)
      for (auto& fx : f.fixes)
        for (auto& c : fx.commands)
          if (starts_with(c, "gpucheck ")) c = program + c.substr(8);
}

}  // namespace

int emit_report(model::Report& r, const GlobalOptions& g, const render::RenderOptions* tweak) {
  if (r.meta.finished_at.empty()) r.meta.finished_at = utc_now_iso();
  model::scrub_secrets(r);  // the boundary: no format, file or terminal sees a credential
  const render::Format format = selected_format(g);
  if (format == render::Format::kText || format == render::Format::kMarkdown || format == render::Format::kHtml)
    commands_run_as_invoked(r, tweak ? tweak->program : render_options(g, 1).program);
  if (!g.out.empty()) {
    render::RenderOptions o = tweak ? *tweak : render_options(g, -1);
    o.color = false;  // a file never gets terminal escapes
    o.summary_only = false;
    // Rendered straight into the file: a large report is never held whole in memory as text too.
    write_file_atomic(g.out, [&](std::ostream& file) { render::render(r, format, file, o); });
  } else {
    render::RenderOptions o = tweak ? *tweak : render_options(g, 1);
    render::render(r, format, std::cout, o);
    std::cout.flush();
  }
  return model::exit_code(r);
}

}  // namespace gpucheck::cli

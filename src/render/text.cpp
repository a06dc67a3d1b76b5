#include "render/terminal_safe.h"
#include "render/text_blocks.h"

namespace gpucheck::render {

void render_text(const report::Report& unsafe, std::ostream& out, const RenderOptions& o) {
  const report::Report r = terminal_safe_copy(unsafe);  // nothing read from outside moves the cursor
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
  text::findings(r, out, o);
}

}  // namespace gpucheck::render

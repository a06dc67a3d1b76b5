#include "render/text_blocks.h"

namespace gpucheck::render {

void render_text(const report::Report& r, std::ostream& out, const RenderOptions& o) {
  const std::string& c = r.meta.command;
  if (c == "run") return text::run(r, out, o);
  if (c == "doctor") return text::doctor(r, out, o);
  if (c == "explain") return text::explain(r, out, o);
  if (c == "abi") return text::abi(r, out, o);
  if (c == "env") return text::env(r, out, o);
  text::findings(r, out, o);
}

}  // namespace gpucheck::render

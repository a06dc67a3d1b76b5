#include "render/render.h"

#include "core/text.h"

namespace gpucheck::render {

void render_json(const model::Report& r, std::ostream& out, const RenderOptions& o) {
  out << json_text(model::to_json(r, o.program), 2) << "\n";
}

}  // namespace gpucheck::render

#include "render/render.h"

namespace gpucheck::render {

void render_json(const report::Report& r, std::ostream& out, const RenderOptions&) {
  out << report::to_json(r).dump(2) << "\n";
}

}  // namespace gpucheck::render

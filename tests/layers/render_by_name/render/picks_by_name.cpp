// A renderer of the old kind, for the test layers.render_by_name_is_refused: it picks its part by the
// command's name and reads the command's fields by key.
#include "model/report.h"

void show(const gpucheck::report::Report& r) {
  if (r.meta.command == "doctor") (void)r.details.value("inventory_source", "");
  const std::string& c = r.meta.command;
  if (c != "compare") (void)r.details["key"];
}
